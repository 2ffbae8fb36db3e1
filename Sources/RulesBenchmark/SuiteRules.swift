/// Rules sources the suite compiles.
package enum SuiteRules {
    /// Big validated writes (`items`), regex-heavy validation (`profiles`) and a deep rule that
    /// climbs ten `parent()` calls, as Bolt generates them (`deep`).
    package static let workload = #"""
    {
      "rules": {
        "items": {
          ".write": "auth != null",
          "$id": {
            ".validate": "newData.hasChildren(['name', 'n'])",
            "name": { ".validate": "newData.isString() && newData.val().length < 50" },
            "n": { ".validate": "newData.isNumber() && newData.val() >= 0" },
            "$other": { ".validate": false }
          }
        },
        "profiles": {
          "$uid": {
            ".write": "auth != null && auth.uid === $uid",
            "email": { ".validate": "newData.isString() && newData.val().matches(/^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}$/)" },
            "phone": { ".validate": "newData.isString() && newData.val().matches(/^\\+?[0-9]{7,15}$/)" },
            "website": { ".validate": "newData.isString() && newData.val().matches(/^https?:\\/\\/[a-z0-9.-]+(\\/[^ ]*)?$/i)" },
            "zip": { ".validate": "newData.isString() && newData.val().matches(/^[0-9]{5}(-[0-9]{4})?$/)" },
            "handle": { ".validate": "newData.isString() && newData.val().matches(/^[a-z][a-z0-9_]{2,15}$/)" }
          }
        },
        "deep": { "$a": { "$b": { "$c": { "$d": { "$e": { "$f": { "$g": { "$h": { "$i": {
          "value": {
            ".write": "auth != null && newData.parent().parent().parent().parent().parent().parent().parent().parent().parent().parent().parent().child('config').child('owner').val() === auth.uid",
            ".validate": "newData.isNumber() && newData.parent().parent().parent().parent().parent().parent().parent().parent().parent().parent().parent().child('config').child('open').val() === true && data.parent().parent().parent().parent().parent().parent().parent().parent().parent().parent().parent().child('config').exists()"
          }
        } } } } } } } } } }
      }
    }
    """#

    /// A rules file of at least `bytes` bytes: repeated sections of typical rules (auth checks,
    /// lookups through `root`, `hasChildren`, string checks, regexes). Sections differ only in
    /// their name, so most expressions recur in every section, as in large generated files; with
    /// `distinct`, every expression also names its section (a reserved id per section), so no
    /// expression text recurs and each one is parsed and checked on its own.
    package static func generated(bytes: Int, distinct: Bool = false) -> String {
        var sections: [String] = []
        var size = 0
        var i = 0
        while size < bytes {
            let own = distinct ? "$id !== 'c\(i)-reserved' && " : ""
            let section = """
                "c\(i)": {
                  "$id": {
                    ".read": "auth != null && root.child('members').child('c\(i)').child(auth.uid).exists()",
                    ".write": "\(own)auth != null && (!data.exists() || data.child('owner').val() === auth.uid)",
                    ".validate": "\(own)newData.hasChildren(['owner', 'name', 'age'])",
                    "owner": { ".validate": "\(own)newData.val() === auth.uid" },
                    "name": { ".validate": "\(own)newData.isString() && newData.val().length > 0 && newData.val().length < 100 && newData.val().matches(/^[A-Za-z][A-Za-z ]*$/)" },
                    "age": { ".validate": "\(own)newData.isNumber() && newData.val() >= 0 && newData.val() <= 150" },
                    "tags": { "$tag": { ".validate": "\(own)newData.val() === true && $tag.length < 20" } },
                    "$other": { ".validate": false }
                  }
                }
            """
            sections.append(section)
            size += section.utf8.count + 2
            i += 1
        }
        return "{\n  \"rules\": {\n" + sections.joined(separator: ",\n") + "\n  }\n}\n"
    }
}

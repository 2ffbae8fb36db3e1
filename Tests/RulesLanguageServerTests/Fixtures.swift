import Foundation
import RulesLanguageServer
import RulesSyntax
import RulesTestSupport

/// The rules the feature tests edit: a comment with a 4-byte character, and a line whose
/// expression follows characters of 2, 3 and 4 UTF-8 bytes.
enum Fixtures {
    static let rules = """
        {
          // Users and their scores 😀
          "rules": {
            "users": {
              "$uid": {
                ".read": "auth != null && auth.uid === $uid",
                ".write": "auth.uid === $uid",
                "profile": { ".validate": "newData.child('name').isString()" },
                "name": { ".validate": "newData.val() !== 'é中😀' && newData.isString()" }
              }
            },
            "scores": {
              ".read": "auth != null && query.orderByChild === 'points'",
              "$id": { ".write": "auth != null", ".validate": "newData.isNumber()" }
            }
          }
        }

        """

    /// The line and UTF-16 column of the first `needle` on a 0-based line of `text` (plus `plus`).
    static func position(_ needle: String, line: Int, in text: String = rules, plus: Int = 0) -> (Int, Int) {
        let l = text.components(separatedBy: "\n")[line]
        let prefix = l.components(separatedBy: needle)[0]
        return (line, prefix.utf16.count + plus)
    }

    /// `text` without its `|` cursor mark, and the mark's position.
    static func cursor(_ text: String) -> (String, Int, Int) {
        let lines = text.components(separatedBy: "\n")
        let line = lines.firstIndex { $0.contains("|") }!
        let character = lines[line].components(separatedBy: "|")[0].utf16.count
        return (text.replacingOccurrences(of: "|", with: ""), line, character)
    }

    static func read(_ url: URL) -> String { (try? String(contentsOf: url, encoding: .utf8)) ?? "" }

    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static let queries = TestPaths.examples.appendingPathComponent("queries/database.rules.json")
}

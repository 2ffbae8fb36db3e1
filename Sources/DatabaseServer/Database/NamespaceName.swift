/// The name of a database (an emulator namespace, `?ns=NAME`), checked.
///
/// A name is 1 to 63 characters, each a lowercase ASCII letter (`a`–`z`), a digit (`0`–`9`) or a
/// hyphen (`-`), and it neither starts nor ends with a hyphen. That is the form of a Realtime
/// Database instance name: an instance is served at `https://NAME.firebaseio.com` (or
/// `NAME.REGION.firebasedatabase.app`), so its name is one DNS label (RFC 1123: letters, digits,
/// hyphens, at most 63 characters, no hyphen at either end), lowercase; the default instance is
/// `PROJECT-default-rtdb`, and a Google Cloud project ID is 6 to 30 lowercase letters, digits or
/// hyphens. Every name a client derives from a database URL, and every name the emulator tools
/// use (`PROJECT-default-rtdb`, `demo-…`, this server's `default`), has that form.
///
/// The rule is what keeps a name a name: it can never hold a `/`, a `.`, a `..`, a control
/// character or a space, so it can be used as a file name inside a folder (an export's
/// `NAME.json`) and written to a log line as it is.
package struct NamespaceName: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The name.
    package let text: String

    /// The longest name (one DNS label).
    package static let maxLength = 63

    /// The rule, in words, as errors show it.
    package static let rule =
        "a database name has 1 to \(maxLength) lowercase letters (a-z), digits and hyphens, and does not start or end with a hyphen"

    /// Checks `text`; throws a 400 naming the rule when it is not a database name.
    package init(validating text: String) throws(ServerError) {
        guard Self.isValid(text) else {
            throw ServerError(.badRequest, "Invalid namespace \(Self.shown(text)): \(Self.rule) (such as my-project-default-rtdb).")
        }
        self.text = text
    }

    /// The name `text`, or nil when it is not a database name.
    package init?(_ text: String) {
        guard Self.isValid(text) else { return nil }
        self.text = text
    }

    /// Whether `text` is a database name.
    package static func isValid(_ text: String) -> Bool {
        let bytes = text.utf8
        guard !bytes.isEmpty, bytes.count <= maxLength, bytes.first != hyphen, bytes.last != hyphen else { return false }
        return bytes.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == hyphen
        }
    }

    /// The name.
    package var description: String { text }

    package static func < (a: NamespaceName, b: NamespaceName) -> Bool { a.text < b.text }

    private static let hyphen = UInt8(ascii: "-")

    /// A name that failed the check, quoted for an error message: control characters escaped, and
    /// at most 100 characters, so the message stays one line of reasonable length.
    static func shown(_ text: String) -> String {
        let cut = text.count > 100 ? String(text.prefix(100)) + "…" : text
        return "\"" + RequestRecord.escaped(cut) + "\""
    }
}

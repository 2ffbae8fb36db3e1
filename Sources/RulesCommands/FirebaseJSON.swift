import Foundation
import RulesSyntax

/// The `database.rules` setting of a project's `firebase.json`.
enum FirebaseJSON {
    enum Lookup: Equatable {
        /// The rules file, relative to the current directory.
        case found(String)
        /// There is no firebase.json in the directory.
        case missing
        /// firebase.json names no database rules.
        case absent
        /// firebase.json cannot be used; the message says why.
        case invalid(String)
    }

    /// Finds the rules file named by `directory/firebase.json`: `"database": {"rules": FILE}`, or
    /// the array form `"database": [{"instance" or "target": …, "rules": FILE}, …]`, whose first
    /// entry is used.
    static func rulesFile(in directory: String) -> Lookup {
        let path = (directory as NSString).appendingPathComponent("firebase.json")
        guard let data = FileManager.default.contents(atPath: path) else { return .missing }
        let result = RelaxedJSONReader.read(SourceFile(path: "firebase.json", bytes: [UInt8](data)))
        guard let root = result.root, let members = root.members else {
            return .invalid("firebase.json is not a JSON object")
        }
        guard let database = members.first(where: { $0.key.value == "database" })?.value else { return .absent }
        var entry = database
        if case .array(let entries) = database.kind {
            guard let first = entries.first else { return .absent }
            entry = first
        }
        guard let rules = entry.members?.first(where: { $0.key.value == "rules" })?.value else { return .absent }
        guard let file = rules.string?.value else {
            return .invalid("firebase.json: database.rules must be a file name")
        }
        return .found((directory as NSString).appendingPathComponent(file))
    }
}

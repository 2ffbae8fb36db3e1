import DatabaseRules
import Foundation

/// Paths, write shapes and indexes, for ``Namespace``.
extension Namespace {
    /// The locations a write changes.
    static func shape(of operation: DatabaseOperation) -> WriteShape {
        switch operation {
        case .read(let path, _), .set(let path, _), .delete(let path):
            return .single(split(path))
        case .push(let path, _, let key):
            return .single(split(path) + [key])
        case .update(let path, let values):
            return .update(base: split(path), entries: values.map { ($0.0, split($0.0)) })
        }
    }

    /// Whether the rules have the `.indexOn` a query needs at a location (always true for
    /// queries that need none).
    package func hasIndex(for query: Query, at path: DataPath) -> Bool {
        guard let index = query.requiredIndex else { return true }
        return rules.ruleset.indexOn(at: path.keys).contains(index)
    }

    /// `/a/b` for keys, `/` for none.
    static func path(_ keys: some Collection<String>) -> String {
        keys.isEmpty ? "/" : "/" + keys.joined(separator: "/")
    }

    /// The keys of a slash-separated path (empty segments dropped).
    static func split(_ path: String) -> [String] {
        // By bytes: `/` is ASCII, and a key's bytes are never split inside a character.
        path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).map { String(Substring($0)) }
    }
}

extension Date {
    /// Milliseconds since 1970, rounded down: the server time rules see as `now`.
    var millisecondsSince1970: Double { (timeIntervalSince1970 * 1000).rounded(.down) }
}

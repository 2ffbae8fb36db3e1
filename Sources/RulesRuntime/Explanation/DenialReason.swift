/// Why a decision denied, kept in the form the engine has at hand and written out as text only
/// when somebody reads ``Decision/reason``: a server that answers "Permission denied" never
/// pays for the sentence.
enum DenialReason: Sendable {
    /// A finished sentence.
    case text(String)
    /// No `.read` or `.write` rule (`kind`) on the path or above it granted; `path` is the
    /// operation's path as the caller wrote it (valid, perhaps spelled oddly).
    case noRule(kind: StaticString, path: String)
    /// The `.validate` rule at `rulePath` failed at the first `depth` keys of `path`.
    case validateFailed(rulePath: String, path: String, depth: Int)

    /// The sentence.
    var text: String {
        switch self {
        case .text(let s):
            return s
        case .noRule(let kind, let path):
            return "no .\(kind) rule on \(Self.display(path, depth: nil)) or above it granted the \(kind)"
        case .validateFailed(let rulePath, let path, let depth):
            return "\(rulePath) failed on \(Self.display(path, depth: depth))"
        }
    }

    /// `/a/b` for a path's first `depth` keys (all of them when nil).
    private static func display(_ path: String, depth: Int?) -> String {
        guard let keys = try? DataPath(validating: path).keys else { return path }
        return DataPath(keys: Array(keys.prefix(depth ?? keys.count))).description
    }
}

/// What evaluating one rule gave: true, false, or a runtime error (which counts as not true).
public enum RuleOutcome: Sendable, Hashable, CustomStringConvertible {
    case value(Bool)
    case error(RuntimeError)

    /// True only for a true result.
    @inline(__always)
    public var isTrue: Bool {
        if case .value(true) = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .value(let b): b ? "true" : "false"
        case .error(let e): "error: \(e.message)"
        }
    }
}

/// The variables of one rule evaluation.
public struct EvaluationContext: Sendable {
    /// `auth` (``AuthValue/null`` when signed out).
    public var auth: AuthValue
    /// `now`, in ms since the epoch.
    public var now: Double
    /// `query`.
    public var query: QueryParameters
    /// The keys bound by the wildcards on the path, outermost first.
    public var wildcardKeys: [String]
    /// Snapshot-table entries of `root`, `data` and `newData` (-1 where absent).
    public var root: Int32
    public var data: Int32
    public var newData: Int32

    /// Creates a context.
    public init(auth: AuthValue, now: Double, query: QueryParameters, wildcardKeys: [String], root: Int32, data: Int32, newData: Int32) {
        self.auth = auth
        self.now = now
        self.query = query
        self.wildcardKeys = wildcardKeys
        self.root = root
        self.data = data
        self.newData = newData
    }
}

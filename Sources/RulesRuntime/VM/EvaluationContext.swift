/// The variables of one rule evaluation.
package struct EvaluationContext: Sendable {
    /// `auth` (``AuthValue/null`` when signed out).
    package var auth: AuthValue
    /// `now`, in ms since the epoch.
    package var now: Double
    /// `query`.
    package var query: QueryParameters
    /// The keys bound by the wildcards on the path, outermost first.
    package var wildcardKeys: [String]
    /// Snapshot-table entries of `root`, `data` and `newData` (-1 where absent).
    package var root: Int32
    package var data: Int32
    package var newData: Int32

    /// Creates a context.
    package init(auth: AuthValue, now: Double, query: QueryParameters, wildcardKeys: [String], root: Int32, data: Int32, newData: Int32) {
        self.auth = auth
        self.now = now
        self.query = query
        self.wildcardKeys = wildcardKeys
        self.root = root
        self.data = data
        self.newData = newData
    }
}

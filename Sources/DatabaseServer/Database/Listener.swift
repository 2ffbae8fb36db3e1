import DatabaseRules

/// A client watching a location (and maybe a query on it).
struct Listener: Sendable {
    /// Its registration number in the namespace.
    let id: Int
    /// The location's keys.
    let keys: [String]
    /// The query (plain for a whole location).
    let query: Query
    /// Who listens: reads are re-checked with this identity after every change.
    let identity: Identity
    /// Where its events go.
    let sink: any EventSink
}

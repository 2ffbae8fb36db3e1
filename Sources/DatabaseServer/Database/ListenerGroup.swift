/// What a set of listeners watch, and as whom: listeners with the same location, query and
/// identity see the same events and lose their read together, so they are checked and their
/// events computed once per write.
struct ListenerGroup: Hashable, Sendable {
    /// The location's keys.
    let keys: [String]
    /// The query (plain for a whole location).
    let query: Query
    /// Who listens: reads are re-checked with this identity after every change.
    let identity: Identity
}

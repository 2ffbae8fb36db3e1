/// Where a committed change stands in the durable log: a transport acknowledges the change to
/// its client only after ``wait()`` returns (at once for a server without `--data`).
package struct Durability: Sendable {
    let store: DurableStore?
    let sequence: UInt64

    /// A change that needs no wait (in-memory server, or nothing was written).
    package static let immediate = Durability(store: nil, sequence: 0)

    /// Returns when the change is on disk; throws (503, `unavailable`) when storing it failed.
    package func wait() async throws(ServerError) {
        guard let store else { return }
        try await store.waitUntilDurable(sequence)
    }
}

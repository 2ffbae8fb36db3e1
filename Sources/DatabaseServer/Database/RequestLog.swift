import Foundation
import Synchronization

/// The recent requests of every transport: a ring of the last ``capacity`` records, and the
/// server's request log on standard error (denials and errors with their reasons; every request
/// with `verbose`; one JSON object a line in the JSON format).
package final class RequestLog: Sendable {
    /// How requests are written to standard error.
    package enum Format: String, Sendable, CaseIterable {
        /// Denials and errors, with their explanation.
        case text
        /// Every request, one JSON object a line.
        case json
        /// Nothing.
        case quiet
    }

    /// How many records the ring keeps.
    package let capacity: Int
    /// How records are written.
    package let format: Format
    /// Where records and the server's notices are written.
    package let console: ServerConsole
    private let ring: Mutex<Ring>

    private struct Ring {
        var records: [RequestRecord] = []
        var next = 0
        var total = 0
    }

    /// A log keeping `capacity` records.
    package init(capacity: Int = 1000, format: Format = .text, console: ServerConsole = .standardError) {
        self.capacity = max(capacity, 1)
        self.format = format
        self.console = console
        ring = Mutex(Ring())
    }

    /// Adds a record (numbering it: ids count requests since start, from 1) and writes it out.
    package func record(_ record: RequestRecord) {
        var record = record
        ring.withLock { ring in
            ring.total += 1
            record.id = ring.total
            if ring.records.count < capacity {
                ring.records.append(record)
            } else {
                ring.records[ring.next] = record
            }
            ring.next = (ring.next + 1) % capacity
        }
        switch format {
        case .quiet: break
        case .json: console.write(record.json + "\n")
        case .text: if record.verdict != .allowed { console.write(record.text + "\n") }
        }
    }

    /// The kept records, oldest first.
    package var recent: [RequestRecord] {
        ring.withLock { ring in
            ring.records.count < capacity ? ring.records : Array(ring.records[ring.next...] + ring.records[..<ring.next])
        }
    }

    /// How many requests were recorded since start.
    package var total: Int { ring.withLock { $0.total } }

    // Record n (from 1) is in slot (n - 1) % capacity: appended while the ring fills, then
    // written over the oldest.

    /// The kept records numbered after `id`, oldest first, at most `limit` of them (the oldest
    /// ones when there are more): a reader that remembers the last id it saw gets each record
    /// once, and misses only those the ring dropped in between.
    package func records(after id: Int, limit: Int = .max) -> [RequestRecord] {
        ring.withLock { ring in
            let kept = ring.records.count
            let firstKept = ring.total - kept + 1
            let start = max(id + 1, firstKept)
            guard start <= ring.total, limit > 0 else { return [] }
            let end = min(ring.total, start + min(limit, kept) - 1)
            return (start...end).map { ring.records[($0 - 1) % capacity] }
        }
    }

    /// The kept record numbered `id`, if the ring still holds it.
    package func record(id: Int) -> RequestRecord? {
        ring.withLock { ring in
            guard id >= 1, id <= ring.total, id > ring.total - ring.records.count else { return nil }
            return ring.records[(id - 1) % capacity]
        }
    }

}

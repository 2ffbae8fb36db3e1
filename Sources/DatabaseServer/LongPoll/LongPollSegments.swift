import Foundation

/// Client-to-server data on long polling: each message is JSON, UTF-8, web-safe base64 (`-`,
/// `_`, `.` for padding) cut into numbered segments (`seg`, running from 0 per session), each
/// carrying its message's segment count (`ts`). Segments may come on different requests and in
/// any order; this puts them back together, in order, and yields whole messages.
///
/// Bounded: a segment number must fall within ``window`` of the next one expected, and the
/// data held waiting for earlier segments is capped (a client cannot make the server keep an
/// unbounded amount of half-sent data).
struct LongPollSegments {
    /// The next segment number expected (the first of the next message).
    private(set) var next = 0
    private var waiting: [Int: (total: Int, data: Substring)] = [:]
    private var waitingBytes = 0
    /// How many segments from ``next`` on are here, in a row (so that a message is known to be
    /// whole without looking at its segments again: linear in the segments, whatever order
    /// they come in).
    private var contiguous = 0
    /// The most base64 characters held for messages not yet whole.
    let maxBytes: Int
    /// The server-wide budget the waiting data is reserved from (shared with HTTP bodies and
    /// WebSocket messages being reassembled; nil: none, as in tests of the encoding alone).
    let lease: BodyBudget.Lease?

    /// How far ahead of the next expected segment a segment number may be.
    static let window = 100_000

    init(maxMessageBytes: Int, lease: BodyBudget.Lease? = nil) {
        // Base64 is 4 characters for 3 bytes.
        maxBytes = maxMessageBytes / 3 * 4 + 4
        self.lease = lease
    }

    /// Why data could not be used; the session is ended with this reason.
    struct Unusable: Error {
        let reason: String
    }

    /// Takes one segment; returns the messages it completes, in order, still encoded (see
    /// ``decode(_:)``, which the caller runs outside its lock). A segment seen before is
    /// ignored.
    mutating func add(segment: Int, total: Int, data: Substring) throws(Unusable) -> [String] {
        guard total >= 1, total <= Self.window else { throw Unusable(reason: "segment count ts=\(total) is out of range") }
        guard segment >= 0, segment < next + Self.window else { throw Unusable(reason: "segment number seg=\(segment) is out of range") }
        if segment < next || waiting[segment] != nil { return [] }
        let bytes = data.utf8.count
        guard bytes <= maxBytes - waitingBytes else {
            throw Unusable(reason: "more than \(maxBytes) characters of segments wait for earlier ones (a message over the size limit)")
        }
        if let lease {
            do { try lease.reserve(bytes) } catch {
                throw Unusable(reason: "the server is receiving too much at once, retry later: \(error.explanation ?? error.message)")
            }
        }
        waitingBytes += bytes
        waiting[segment] = (total, data)
        while waiting[next + contiguous] != nil { contiguous += 1 }
        var messages: [String] = []
        while let first = waiting[next], contiguous >= first.total {
            var text = ""
            var length = 0
            for number in next..<(next + first.total) { length += waiting[number]!.data.utf8.count }
            text.reserveCapacity(length)
            for number in next..<(next + first.total) {
                let piece = waiting.removeValue(forKey: number)!
                text += piece.data
            }
            waitingBytes -= length
            lease?.release(length)
            next += first.total
            contiguous -= first.total
            messages.append(text)
        }
        return messages
    }

    /// Gives back what the waiting segments hold of the server's budget (the session ended).
    mutating func discard() {
        waiting = [:]
        lease?.release(waitingBytes)
        waitingBytes = 0
        contiguous = 0
    }

    /// Web-safe base64 with `.` for padding, to UTF-8 text.
    static func decode(_ text: String) throws(Unusable) -> String {
        var standard = ""
        standard.reserveCapacity(text.utf8.count + 3)
        for character in text.unicodeScalars {
            switch character {
            case "-": standard.append("+")
            case "_": standard.append("/")
            case ".": standard.append("=")
            default: standard.unicodeScalars.append(character)
            }
        }
        while standard.utf8.count % 4 != 0 { standard.append("=") }
        guard let bytes = Data(base64Encoded: standard) else { throw Unusable(reason: "a segment is not web-safe base64") }
        guard let message = String(validating: bytes, as: UTF8.self) else { throw Unusable(reason: "a message is not valid UTF-8") }
        return message
    }
}

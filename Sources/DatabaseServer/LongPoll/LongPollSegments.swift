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
    /// The most base64 characters held for messages not yet whole.
    let maxBytes: Int

    /// How far ahead of the next expected segment a segment number may be.
    static let window = 100_000

    init(maxMessageBytes: Int) {
        // Base64 is 4 characters for 3 bytes.
        maxBytes = maxMessageBytes / 3 * 4 + 4
    }

    /// Why data could not be used; the session is ended with this reason.
    struct Unusable: Error {
        let reason: String
    }

    /// Takes one segment; returns the messages it completes, in order. A segment seen before
    /// is ignored.
    mutating func add(segment: Int, total: Int, data: Substring) throws(Unusable) -> [String] {
        guard total >= 1, total <= Self.window else { throw Unusable(reason: "segment count ts=\(total) is out of range") }
        guard segment >= 0, segment < next + Self.window else { throw Unusable(reason: "segment number seg=\(segment) is out of range") }
        if segment < next || waiting[segment] != nil { return [] }
        waitingBytes += data.utf8.count
        guard waitingBytes <= maxBytes else {
            throw Unusable(reason: "more than \(maxBytes) characters of segments wait for earlier ones (a message over the size limit)")
        }
        waiting[segment] = (total, data)
        var messages: [String] = []
        while let first = waiting[next] {
            let pieces = next..<(next + first.total)
            guard pieces.allSatisfy({ waiting[$0] != nil }) else { break }
            var text = ""
            for number in pieces {
                let piece = waiting.removeValue(forKey: number)!
                waitingBytes -= piece.data.utf8.count
                text += piece.data
            }
            next = pieces.upperBound
            messages.append(try Self.decode(text))
        }
        return messages
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

/// The wire protocol's own framing on top of WebSocket text messages: a message longer than
/// ``pieceLength`` UTF-16 units is sent as a frame holding the number of pieces, then the
/// pieces; a frame of at most six characters that is a number announces that many pieces.
struct WireFrames {
    /// The longest piece the clients send and accept (16384 UTF-16 units).
    static let pieceLength = 16384

    private var expected = 0
    private var pieces: [String] = []
    private var size = 0
    /// The largest reassembled message accepted, in UTF-8 bytes.
    let maxMessageBytes: Int
    /// The server-wide budget that pieces waiting for the rest of their message are reserved
    /// from (shared with HTTP bodies; nil: unbounded, as in tests of the framing alone).
    let lease: BodyBudget.Lease?

    init(maxMessageBytes: Int, lease: BodyBudget.Lease? = nil) {
        self.maxMessageBytes = maxMessageBytes
        self.lease = lease
    }

    /// What one received frame amounts to.
    enum Outcome: Equatable {
        /// A whole message.
        case message(String)
        /// More pieces are expected (or a keepalive `0` was ignored).
        case pending
        /// The message is over the size limit.
        case tooLarge(Int)
        /// The server holds as many bytes of messages and bodies being received as it may.
        case overBudget(String)
    }

    /// Takes one received frame.
    mutating func receive(_ frame: String) -> Outcome {
        if expected > 0 {
            let bytes = frame.utf8.count
            if size + bytes > maxMessageBytes { return .tooLarge(size + bytes) }
            if pieces.count + 1 < expected, let lease {
                do { try lease.reserve(bytes) } catch { return .overBudget(error.explanation ?? error.message) }
            }
            pieces.append(frame)
            size += bytes
            if pieces.count == expected {
                let whole = pieces.joined()
                expected = 0
                pieces = []
                size = 0
                lease?.end()
                return .message(whole)
            }
            return .pending
        }
        if frame.utf8.count <= 6, let count = Int(frame) {
            // `0` is the clients' keepalive; a count starts a multi-frame message.
            if count > 0 {
                expected = count
                size = 0
                pieces.reserveCapacity(min(count, 1024))
            }
            return .pending
        }
        if frame.utf8.count > maxMessageBytes { return .tooLarge(frame.utf8.count) }
        return .message(frame)
    }

    /// What the log says when a text frame is not UTF-8 (the WebSocket layer checks every text
    /// frame and refuses such a frame).
    static let invalidUTF8Reason = "a text frame is not valid UTF-8"

    /// The reason, for the log and the close frame, why a frame could not be read (the
    /// WebSocket layer's error type is not public; its description names its close code).
    static func unreadableReason(_ error: any Error) -> String {
        if String(describing: error).contains("dataInconsistentWithMessage") { return invalidUTF8Reason }
        return "unreadable frame: \(error)"
    }

    /// Whether a connection closed for `reason` gets status 1007 (text that is not UTF-8, RFC
    /// 6455 section 7.4.1) rather than 1008 (policy violation).
    static func closesAsInvalidData(_ reason: String) -> Bool {
        reason == invalidUTF8Reason
    }

    /// The frames to send for a message: the message itself, or a count and pieces of at most
    /// ``pieceLength`` UTF-16 units that never split a character.
    static func frames(for message: String) -> [String] {
        if message.utf16.count <= pieceLength { return [message] }
        var pieces: [String] = []
        var current = ""
        var units = 0
        for scalar in message.unicodeScalars {
            let width = scalar.utf16.count
            if units + width > pieceLength {
                pieces.append(current)
                current = ""
                units = 0
            }
            current.unicodeScalars.append(scalar)
            units += width
        }
        if !current.isEmpty { pieces.append(current) }
        return [String(pieces.count)] + pieces
    }
}

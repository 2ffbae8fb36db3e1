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

    init(maxMessageBytes: Int) { self.maxMessageBytes = maxMessageBytes }

    /// What one received frame amounts to.
    enum Outcome: Equatable {
        /// A whole message.
        case message(String)
        /// More pieces are expected (or a keepalive `0` was ignored).
        case pending
        /// The message is over the size limit.
        case tooLarge(Int)
    }

    /// Takes one received frame.
    mutating func receive(_ frame: String) -> Outcome {
        if expected > 0 {
            pieces.append(frame)
            size += frame.utf8.count
            if size > maxMessageBytes { return .tooLarge(size) }
            if pieces.count == expected {
                let whole = pieces.joined()
                expected = 0
                pieces = []
                size = 0
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

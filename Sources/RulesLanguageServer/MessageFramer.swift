import RulesSyntax

/// The base protocol's framing: each JSON-RPC message is a header block (`Content-Length: N`,
/// optionally `Content-Type`, each line ending in `\r\n`, then an empty line) and N bytes of
/// UTF-8 JSON.
///
/// A push parser: bytes are appended as they arrive, and ``next()`` hands back each complete body.
package struct MessageFramer: Sendable {
    /// A header block that cannot be read.
    package struct FramingError: Error, Equatable, CustomStringConvertible {
        package let description: String
        package init(_ description: String) { self.description = description }
    }

    /// The largest body accepted (64 MiB): a larger length is a framing error, not an allocation.
    package static let maxBodyBytes = 64 << 20
    /// The longest header block accepted.
    package static let maxHeaderBytes = 8192

    private var buffer: [UInt8] = []
    private var start = 0

    package init() {}

    /// Adds bytes read from the stream.
    package mutating func append(_ bytes: some Sequence<UInt8>) {
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete message body, nil when more bytes are needed.
    package mutating func next() throws(FramingError) -> [UInt8]? {
        guard let headerEnd = headerEnd() else {
            if buffer.count - start > Self.maxHeaderBytes { throw FramingError("a header block longer than \(Self.maxHeaderBytes) bytes") }
            return nil
        }
        let header = String(decoding: buffer[start..<headerEnd], as: UTF8.self)
        var length: Int?
        for line in header.split(separator: "\r\n", omittingEmptySubsequences: true) {
            guard let colon = line.firstIndex(of: ":") else { throw FramingError("a header line without ':': '\(line)'") }
            let name = line[..<colon].trimmingSpaces.lowercased()
            let value = line[line.index(after: colon)...].trimmingSpaces
            if name == "content-length" {
                guard let n = Int(value), n >= 0 else { throw FramingError("Content-Length is not a number: '\(value)'") }
                guard n <= Self.maxBodyBytes else { throw FramingError("Content-Length \(n) is over the limit of \(Self.maxBodyBytes) bytes") }
                length = n
            }
        }
        guard let length else { throw FramingError("a message without a Content-Length header") }
        let bodyStart = headerEnd + 4
        guard buffer.count - bodyStart >= length else { return nil }
        let body = Array(buffer[bodyStart..<bodyStart + length])
        start = bodyStart + length
        return body
    }

    /// The index of the `\r\n\r\n` that ends the header block.
    private func headerEnd() -> Int? {
        var i = start
        while i + 3 < buffer.count {
            if buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 { return i }
            i += 1
        }
        return nil
    }

    /// A body with its header block, ready to write.
    package static func frame(_ body: String) -> [UInt8] {
        let bytes = Array(body.utf8)
        return Array("Content-Length: \(bytes.count)\r\n\r\n".utf8) + bytes
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

import RulesSyntax

/// An open document: its text as the client has it, kept in step with `didChange`.
package struct TextDocument: Sendable {
    /// The document's URI.
    package let uri: String
    /// The version of the last change.
    package var version: Int
    /// The text, as UTF-8 bytes.
    package private(set) var bytes: [UInt8]

    package init(uri: String, version: Int, text: String) {
        self.uri = uri
        self.version = version
        self.bytes = Array(text.utf8)
    }

    /// The text.
    package var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Applies one change: the whole text (no range), or a range replaced (incremental sync).
    package mutating func apply(range: LSPRange?, text: String) {
        guard let range else {
            bytes = Array(text.utf8)
            return
        }
        let converter = PositionConverter(bytes: bytes)
        let start = converter.offset(of: range.start)
        let end = max(start, converter.offset(of: range.end))
        bytes.replaceSubrange(start..<end, with: Array(text.utf8))
    }

    /// The file path of a `file://` URI (percent-escapes decoded), else the URI itself.
    package static func path(of uri: String) -> String {
        guard uri.hasPrefix("file://") else { return uri }
        var out: [UInt8] = []
        let bytes = Array(uri.utf8.dropFirst(7))
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count, let v = UInt8(String(decoding: bytes[i + 1...i + 2], as: UTF8.self), radix: 16) {
                out.append(v)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

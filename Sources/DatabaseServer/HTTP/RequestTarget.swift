import DatabaseRules

/// A REST request's target, split and percent-decoded: the path's segments (before `.json`) and
/// the query parameters.
///
/// Decoding is plain RFC 3986 percent-decoding, applied once to each path segment and to each
/// parameter's name and value: `+` stays a `+` (clients build query strings by hand and leave it
/// unescaped), and a `%2F` inside a segment is a slash inside a key, which is invalid.
struct RequestTarget: Sendable {
    /// The decoded path segments, empty ones dropped (`/a//b/` is `a`, `b`).
    var segments: [String]
    /// Whether the path ended in `.json` (a REST request).
    var isJSON: Bool
    /// The decoded query parameters, in order.
    var parameters: [(name: String, value: String)]

    /// Parses a request target such as `/users/a%20b.json?ns=x&orderBy=%22%24key%22`.
    ///
    /// The target is split on its bytes (`#`, `?`, `/`, `&` and `=` are ASCII, so every split
    /// falls between characters): no character-by-character walk, and no Foundation search.
    init(_ raw: String) throws(ServerError) {
        let utf8 = raw.utf8
        let end = utf8.firstIndex(of: UInt8(ascii: "#")) ?? utf8.endIndex
        let question = utf8[..<end].firstIndex(of: UInt8(ascii: "?"))
        var pathPart = raw[..<(question ?? end)]
        let queryPart: Substring = question.map { raw[utf8.index(after: $0)..<end] } ?? ""
        isJSON = pathPart.utf8.count >= 5 && pathPart.utf8.suffix(5).elementsEqual(".json".utf8)
        if isJSON { pathPart = raw[..<utf8.index(pathPart.endIndex, offsetBy: -5)] }
        segments = []
        for piece in pathPart.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
            guard let decoded = Self.percentDecoded(Substring(piece)) else { throw .invalidPath }
            segments.append(decoded)
        }
        parameters = []
        for pair in queryPart.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let name: Substring, value: Substring
            if let equals = pair.firstIndex(of: UInt8(ascii: "=")) {
                name = Substring(pair[..<equals])
                value = Substring(pair[pair.index(after: equals)...])
            } else {
                name = Substring(pair)
                value = ""
            }
            guard let n = Self.percentDecoded(name), let v = Self.percentDecoded(value) else {
                throw ServerError(.badRequest, "Invalid query string: a parameter is not valid percent-encoded UTF-8.")
            }
            parameters.append((n, v))
        }
    }

    /// The value of a parameter (the first, when repeated).
    func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name }?.value
    }

    /// RFC 3986 percent-decoding to UTF-8; nil for a malformed escape or invalid UTF-8.
    static func percentDecoded(_ text: Substring) -> String? {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(JSONEscape.hexDigit), let low = iterator.next().flatMap(JSONEscape.hexDigit) else { return nil }
                bytes.append(high << 4 | low)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}

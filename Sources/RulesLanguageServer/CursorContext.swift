import RulesSyntax

/// Where the cursor is in the JSON of a rules file, read from the text before it alone, so that
/// it works on a half-typed document: in a key, in a rule's expression string, or elsewhere.
package struct CursorContext: Sendable, Equatable {
    package enum Place: Sendable, Equatable {
        /// Where an object member's key goes. `inString`: after its opening quote.
        case key(inString: Bool)
        /// Inside the string value of the member `key`.
        case stringValue(key: String)
        /// Anywhere else.
        case other
    }

    package var place: Place
    /// The member keys from the document's root to the object the cursor is in, e.g.
    /// `["rules", "users", "$uid"]`.
    package var path: [String]
    /// The keys the object the cursor is in already has.
    package var siblingKeys: [String]
    /// Where the string under the cursor starts (the byte after its quote), or the cursor.
    package var stringStart: Int

    /// The rule path (the keys below `rules`), when the cursor is inside the `rules` object.
    package var rulePath: [String]? {
        path.first == "rules" ? Array(path.dropFirst()) : nil
    }

    /// Scans `bytes` up to `offset`.
    package static func at(_ offset: Int, in bytes: [UInt8]) -> CursorContext {
        struct Frame {
            var isObject: Bool
            var key: String?
            var expectingKey: Bool
            var pendingKey: String?
            var keys: [String] = []
        }
        var stack: [Frame] = []
        let end = min(offset, bytes.count)
        var i = 0
        while i < end {
            let b = bytes[i]
            switch b {
            case UInt8(ascii: "/") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "/"):
                while i < end && bytes[i] != UInt8(ascii: "\n") { i += 1 }
                if i >= end { return CursorContext(place: .other, path: [], siblingKeys: [], stringStart: offset) }
                continue
            case UInt8(ascii: "/") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "*"):
                i += 2
                while i + 1 < end && !(bytes[i] == UInt8(ascii: "*") && bytes[i + 1] == UInt8(ascii: "/")) { i += 1 }
                if i + 1 >= end { return CursorContext(place: .other, path: [], siblingKeys: [], stringStart: offset) }
                i += 2
                continue
            case UInt8(ascii: "\""):
                let start = i + 1
                var j = start
                var closed = false
                while j < end {
                    if bytes[j] == UInt8(ascii: "\\") { j += 2; continue }
                    if bytes[j] == UInt8(ascii: "\"") { closed = true; break }
                    j += 1
                }
                let path = stack.compactMap(\.key)
                guard closed else {
                    guard let top = stack.last, top.isObject else {
                        // A string in an array: a value of the member that holds the array.
                        if let top = stack.last, let key = top.key {
                            let outer = stack.dropLast().compactMap(\.key)
                            return CursorContext(place: .stringValue(key: key), path: outer, siblingKeys: [], stringStart: start)
                        }
                        return CursorContext(place: .other, path: path, siblingKeys: [], stringStart: start)
                    }
                    if top.expectingKey && top.pendingKey == nil {
                        return CursorContext(place: .key(inString: true), path: path, siblingKeys: top.keys, stringStart: start)
                    }
                    if let key = top.pendingKey, !top.expectingKey {
                        return CursorContext(place: .stringValue(key: key), path: path, siblingKeys: top.keys, stringStart: start)
                    }
                    return CursorContext(place: .other, path: path, siblingKeys: top.keys, stringStart: start)
                }
                let text = String(decoding: bytes[start..<min(j, end)], as: UTF8.self)
                if var top = stack.popLast() {
                    if top.isObject && top.expectingKey && top.pendingKey == nil {
                        top.pendingKey = text
                        top.keys.append(text)
                    } else if top.isObject && !top.expectingKey {
                        top.pendingKey = nil
                    }
                    stack.append(top)
                }
                i = j + 1
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let key = stack.last.flatMap { $0.isObject ? $0.pendingKey : "[]" }
                if var top = stack.popLast() {
                    top.pendingKey = nil
                    stack.append(top)
                }
                stack.append(Frame(isObject: b == UInt8(ascii: "{"), key: key ?? (stack.isEmpty ? nil : "[]"), expectingKey: b == UInt8(ascii: "{")))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = stack.popLast()
            case UInt8(ascii: ":"):
                if var top = stack.popLast() {
                    top.expectingKey = false
                    stack.append(top)
                }
            case UInt8(ascii: ","):
                if var top = stack.popLast() {
                    top.expectingKey = top.isObject
                    top.pendingKey = nil
                    stack.append(top)
                }
            default:
                break
            }
            i += 1
        }
        let path = stack.compactMap(\.key)
        if let top = stack.last, top.isObject, top.expectingKey, top.pendingKey == nil {
            return CursorContext(place: .key(inString: false), path: path, siblingKeys: top.keys, stringStart: offset)
        }
        return CursorContext(place: .other, path: path, siblingKeys: stack.last?.keys ?? [], stringStart: offset)
    }
}

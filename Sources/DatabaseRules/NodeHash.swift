import Foundation

/// The Realtime Database's hash of a node: what the client SDKs send with a listen or a
/// compare-and-set (`h`), and what `rules serve` uses as a REST ETag.
///
/// A leaf hashes `[P] + type + ":" + text` (SHA-1, standard base64 with padding), where `type`
/// is `number` (the 16 lowercase hex digits of the IEEE-754 big-endian double), `string` or
/// `boolean`. An object hashes `[P]` followed by `":" + key + ":" + hash(child)` for each child
/// in priority order (children without priority, then numeric priorities ascending, then string
/// priorities; ties by the SDKs' key comparison, ``nameCompare(_:_:)``). `[P]` is empty without a priority, else
/// `"priority:" + type + ":" + text + ":"`. The empty node hashes to the empty string.
public enum NodeHash {
    /// The hash of a node, or `""` for nil (no data).
    public static func of(_ node: DataNode?) -> String {
        guard let node else { return "" }
        var text = ""
        if let value = node.value {
            appendPriority(node.priority, to: &text)
            appendLeaf(value, to: &text)
        } else {
            var body = ""
            for (key, child) in priorityOrder(node) {
                let childHash = of(child)
                if childHash.isEmpty { continue }
                body += ":" + key + ":" + childHash
            }
            if body.isEmpty { return "" }
            appendPriority(node.priority, to: &text)
            text += body
        }
        return Data(SHA1.digest(text.utf8)).base64EncodedString()
    }

    /// The ETag of a location over REST: its hash, or `null_etag` when nothing is stored there.
    public static func etag(of node: DataNode?) -> String {
        let hash = of(node)
        return hash.isEmpty ? "null_etag" : hash
    }

    /// The children of an object in priority order.
    static func priorityOrder(_ node: DataNode) -> [(String, DataNode)] {
        var pairs: [(String, DataNode)] = []
        pairs.reserveCapacity(node.childCount)
        node.forEachChild { key, child in pairs.append((key, child)) }
        return pairs.sorted { a, b in
            let c = comparePriorities(a.1.priority, b.1.priority)
            return c != 0 ? c < 0 : nameCompare(a.0, b.0) < 0
        }
    }

    /// The client SDKs' order of keys: keys that spell a 32-bit integer (`-?0*` and up to 10
    /// digits, so `"01"` counts) first, numerically, equal values shorter first; then the others
    /// by UTF-16 code units. It differs from `KeyOrder` only for keys with leading zeros or a
    /// `-0`, and for characters above U+FFFF; the hash must follow the SDKs.
    public static func nameCompare(_ a: String, _ b: String) -> Int {
        if a.utf8.elementsEqual(b.utf8) { return 0 }
        switch (sdkInteger(a), sdkInteger(b)) {
        case (let x?, let y?):
            if x != y { return x < y ? -1 : 1 }
            return a.utf16.count < b.utf16.count ? -1 : (a.utf16.count > b.utf16.count ? 1 : 0)
        case (.some, nil): return -1
        case (nil, .some): return 1
        case (nil, nil): return a.utf16.lexicographicallyPrecedes(b.utf16) ? -1 : 1
        }
    }

    /// The integer a key spells for ``nameCompare(_:_:)``, if any.
    private static func sdkInteger(_ key: String) -> Int64? {
        var bytes = Substring(key).utf8[...]
        var negative = false
        if bytes.first == UInt8(ascii: "-") { negative = true; bytes = bytes.dropFirst() }
        while bytes.count > 1, bytes.first == UInt8(ascii: "0") { bytes = bytes.dropFirst() }
        guard !bytes.isEmpty, bytes.count <= 10 else { return nil }
        var n: Int64 = 0
        for b in bytes {
            guard b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") else { return nil }
            n = n * 10 + Int64(b - UInt8(ascii: "0"))
        }
        if negative { n = -n }
        return n >= Int64(Int32.min) && n <= Int64(Int32.max) ? n : nil
    }

    /// Orders priorities: none, then numbers ascending, then strings by UTF-8 bytes.
    static func comparePriorities(_ a: Primitive?, _ b: Primitive?) -> Int {
        func rank(_ p: Primitive?) -> Int {
            switch p {
            case nil: 0
            case .number?: 1
            case .string?: 2
            case .bool?: 3
            }
        }
        let ra = rank(a), rb = rank(b)
        if ra != rb { return ra < rb ? -1 : 1 }
        switch (a, b) {
        case (.number(let x)?, .number(let y)?): return x < y ? -1 : (x > y ? 1 : 0)
        case (.string(let x)?, .string(let y)?): return Array(x.utf8).lexicographicallyPrecedes(Array(y.utf8)) ? -1 : (Array(x.utf8) == Array(y.utf8) ? 0 : 1)
        default: return 0
        }
    }

    private static func appendPriority(_ priority: Primitive?, to text: inout String) {
        guard let priority else { return }
        text += "priority:"
        appendLeaf(priority, to: &text)
        text += ":"
    }

    private static func appendLeaf(_ value: Primitive, to text: inout String) {
        switch value {
        case .number(let d):
            let hex = String(d.bitPattern, radix: 16)
            text += "number:" + String(repeating: "0", count: 16 - hex.count) + hex
        case .string(let s):
            text += "string:" + s
        case .bool(let b):
            text += "boolean:" + (b ? "true" : "false")
        }
    }
}

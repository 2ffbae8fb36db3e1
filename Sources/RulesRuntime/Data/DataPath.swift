import RulesSyntax

/// A location in the database: the keys from the root down, `/a/b` for `["a", "b"]`.
public struct DataPath: Sendable, Hashable, CustomStringConvertible {
    /// The keys from the root down; empty for the root.
    public let keys: [String]

    /// The root, `/`.
    public static let root = DataPath(keys: [])

    /// A path made of keys as given, without validation (for keys already known to be valid).
    public init(keys: [String]) {
        self.keys = keys
    }

    /// Parses and validates a slash-separated path.
    ///
    /// `"/a/b"`, `"a/b"` and `"/a/b/"` are the same path; `"/"` and `""` are the root. Empty keys
    /// (`"a//b"`, `"//"`) are rejected, and so is every key that ``validate(key:at:)`` rejects,
    /// and a path with more than ``DataLimits/maxPathLevels`` keys.
    public init(validating text: String) throws(DataPathError) {
        if text.isEmpty || text == "/" {
            self.keys = []
            return
        }
        var fast: [String] = []
        if Self.splitValidKeys(text, into: &fast) {
            self.keys = fast
            return
        }
        var body = Substring(text)
        if body.utf8.first == UInt8(ascii: "/") { body = body.dropFirst() }
        if body.utf8.last == UInt8(ascii: "/") { body = body.dropLast() }
        // Split on the "/" byte rather than on Characters: a combining mark after "/" would
        // otherwise glue the slash into one grapheme and hide it.
        let parts = body.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        var keys: [String] = []
        keys.reserveCapacity(parts.count)
        for part in parts {
            let key = String(decoding: part, as: UTF8.self)
            if key.isEmpty {
                throw DataPathError(message: "Invalid path \(JSONText.quote(DataText.truncated(text, limit: DataText.shownPathCharacters))): it contains an empty key (paths can't have \"//\").")
            }
            keys.append(key)
            try Self.validate(key: key, at: keys)
        }
        try Self.checkDepth(keys)
        self.keys = keys
    }

    /// Splits a path whose keys are all valid into `keys` (replacing its contents), in one pass
    /// over the bytes; false when any key is empty, too long or has a forbidden byte, or when
    /// there are more than ``DataLimits/maxPathLevels`` keys (the validating initializer then
    /// reports the exact problem). Keeps `keys`' storage, so a caller that reuses the array
    /// splits paths without allocating.
    public static func splitValidKeys(_ text: String, into keys: inout [String]) -> Bool {
        keys.clearKeepingCapacity()
        if keys.capacity < 8 { keys.reserveCapacity(8) }
        var text = text
        return text.withUTF8 { bytes in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * DataLimits.maxPathLevels) { bounds in
                guard let count = keyBounds(bytes, into: bounds) else { return false }
                for k in 0..<count {
                    // Written straight into the new string's storage (inline for a short key),
                    // rather than decoded from the bytes as a sequence.
                    let key = UnsafeBufferPointer(rebasing: bytes[bounds[2 * k]..<bounds[2 * k + 1]])
                    keys.append(String(unsafeUninitializedCapacity: key.count) { $0.initialize(fromContentsOf: key) })
                }
                return true
            }
        }
    }

    /// Finds the keys of a path given as UTF-8 bytes without making strings, in one pass: key
    /// `i` is `bytes[bounds[2 * i] ..< bounds[2 * i + 1]]`. One leading and one trailing "/"
    /// are dropped; "" and "/" have no keys. `bounds` must have room for
    /// `2 * DataLimits.maxPathLevels` offsets. Returns the number of keys, or nil when a key is
    /// empty, too long or has a forbidden byte, or when there are more than
    /// ``DataLimits/maxPathLevels`` keys.
    static func keyBounds(_ bytes: UnsafeBufferPointer<UInt8>, into bounds: UnsafeMutableBufferPointer<Int>) -> Int? {
        guard let p = bytes.baseAddress, let out = bounds.baseAddress, !bytes.isEmpty else { return 0 }
        let slash = UInt8(ascii: "/")
        let limit = Swift.min(DataLimits.maxPathLevels, bounds.count / 2)
        var start = 0
        var end = bytes.count
        if p[start] == slash { start += 1 }
        if start < end && p[end - 1] == slash { end -= 1 }
        // "/" is the root; "//" is an empty key.
        if start >= end { return bytes.count == 1 ? 0 : nil }
        var count = 0
        var keyStart = start
        var i = start
        // One table load and test per byte: "/" is itself a forbidden key byte, so ordinary
        // bytes skip both checks. The end of the path closes the last key as a "/" would.
        let found: Bool = forbiddenKeyBytes.withUnsafeBufferPointer { table in
            let forbidden = table.baseAddress!
            while true {
                if i < end {
                    let b = p[i]
                    if _fastPath(forbidden[Int(b)] == 0) {
                        i &+= 1
                        continue
                    }
                    guard b == slash else { return false }
                }
                let length = i &- keyStart
                if length == 0 || length > DataLimits.maxKeyBytes || count == limit { return false }
                out[2 &* count] = keyStart
                out[2 &* count &+ 1] = i
                count &+= 1
                if i == end { return true }
                i &+= 1
                keyStart = i
            }
        }
        return found ? count : nil
    }

    /// Checks one key against the database's rules: non-empty, at most
    /// ``DataLimits/maxKeyBytes`` UTF-8 bytes, none of `.` `$` `#` `[` `]` `/`, and no ASCII
    /// control characters (0x00–0x1F, 0x7F).
    /// - Parameter path: the full path of the key (ending with it), used in the message.
    public static func validate(key: String, at path: [String]) throws(DataPathError) {
        let byteCount = key.utf8.count
        if byteCount == 0 {
            throw DataPathError(message: "Invalid key \"\" at \(DataText.shownPath(path)): keys can't be empty.")
        }
        if byteCount > DataLimits.maxKeyBytes {
            throw DataPathError(message: "Key \(DataText.shownKey(key)) is too long: \(byteCount) bytes (the limit is \(DataLimits.maxKeyBytes)).")
        }
        for byte in key.utf8 where isForbiddenKeyByte(byte) {
            throw DataPathError(message: "Invalid key \(DataText.shownKey(key)) at \(DataText.shownPath(path)): keys can't contain \".\", \"#\", \"$\", \"[\", \"]\", \"/\" or ASCII control characters.")
        }
    }

    /// Checks that a path is shallow enough to hold data (fewer than ``DataLimits/maxDepth``
    /// levels).
    public static func checkDepth(_ keys: [String]) throws(DataPathError) {
        if keys.count > DataLimits.maxPathLevels {
            throw DataPathError(message: "Path \(DataText.shownPath(keys)) is too deep: \(keys.count) levels (the limit is \(DataLimits.maxPathLevels)).")
        }
    }

    /// ``isForbiddenKeyByte(_:)`` as a table of 256 flags, for the path scanner's inner loop.
    private static let forbiddenKeyBytes: [UInt8] = (0...255).map { isForbiddenKeyByte(UInt8($0)) ? 1 : 0 }

    /// Whether a byte may not appear in a key: `.` `$` `#` `[` `]` `/` and the ASCII control
    /// characters 0x00–0x1F and 0x7F. Two 64-bit masks, one per half of ASCII, so the check
    /// costs a shift and a test per byte.
    @inline(__always)
    static func isForbiddenKeyByte(_ byte: UInt8) -> Bool {
        if byte >= 0x80 { return false }
        let mask = byte < 64 ? forbiddenLow : forbiddenHigh
        return (mask >> UInt64(byte & 63)) & 1 != 0
    }

    /// Bytes 0–63: 0x00–0x1F, `#` (0x23), `$` (0x24), `.` (0x2E), `/` (0x2F).
    private static let forbiddenLow: UInt64 = 0xFFFF_FFFF | (1 << 0x23) | (1 << 0x24) | (1 << 0x2E) | (1 << 0x2F)
    /// Bytes 64–127: `[` (0x5B), `]` (0x5D), 0x7F.
    private static let forbiddenHigh: UInt64 = (1 << (0x5B - 64)) | (1 << (0x5D - 64)) | (1 << (0x7F - 64))

    /// Whether this is the root.
    public var isRoot: Bool { keys.isEmpty }

    /// The number of keys (0 for the root).
    public var count: Int { keys.count }

    /// The last key, or nil for the root.
    public var lastKey: String? { keys.last }

    /// This path with `key` added at the end (not validated).
    public func appending(_ key: String) -> DataPath {
        DataPath(keys: keys + [key])
    }

    /// This path with `other`'s keys added at the end (not validated).
    public func appending(_ other: DataPath) -> DataPath {
        DataPath(keys: keys + other.keys)
    }

    /// The path one level up, or nil for the root.
    public var parent: DataPath? {
        keys.isEmpty ? nil : DataPath(keys: Array(keys.dropLast()))
    }

    /// Whether `other` is this path or lies below it (`/a` is a prefix of `/a` and `/a/b`, not of
    /// `/ab`). Keys compare by UTF-8 bytes.
    public func isPrefix(of other: DataPath) -> Bool {
        guard keys.count <= other.keys.count else { return false }
        // The same key is the same bytes (integer keys have one spelling).
        for (a, b) in zip(keys, other.keys) where !KeyOrder.sameBytes(a, b) {
            return false
        }
        return true
    }

    /// `/a/b`; `/` for the root.
    public var description: String {
        keys.isEmpty ? "/" : keys.reduce(into: "") { $0 += "/" + $1 }
    }

    /// Compares keys by their UTF-8 bytes (not by Unicode canonical equivalence).
    public static func == (lhs: DataPath, rhs: DataPath) -> Bool {
        lhs.keys.count == rhs.keys.count && lhs.isPrefix(of: rhs)
    }

    /// Hashes the keys' UTF-8 bytes.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(keys.count)
        for key in keys { Primitive.string(key).hash(into: &hasher) }
    }
}

/// A value of a relaxed-JSON document, with the byte range it came from.
///
/// Produced by ``RelaxedJSONReader``. Object members keep their source order (duplicates are
/// reported by the reader, and only the first is kept).
package struct JSONNode: Sendable, Hashable {
    /// The kinds of JSON value.
    package enum Kind: Sendable, Hashable {
        case null
        case bool(Bool)
        /// A number; `text` is its spelling in the file.
        case number(Double, text: String)
        case string(JSONString)
        case array([JSONNode])
        case object([JSONMember])
    }

    /// What the value is.
    package var kind: Kind
    /// The bytes of the whole value in the file (for a string, including its quotes).
    package var range: SourceRange

    /// Creates a node.
    package init(_ kind: Kind, range: SourceRange) {
        self.kind = kind
        self.range = range
    }

    /// A short noun for the kind, for messages ("a number", "an object").
    package var kindDescription: String {
        switch kind {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The members when this is an object.
    package var members: [JSONMember]? {
        if case .object(let m) = kind { return m }
        return nil
    }

    /// The string when this is a string.
    package var string: JSONString? {
        if case .string(let s) = kind { return s }
        return nil
    }
}

/// One `"key": value` pair of an object.
package struct JSONMember: Sendable, Hashable {
    /// The key, with its own range and escape map.
    package var key: JSONString
    /// The value.
    package var value: JSONNode

    /// Creates a member.
    package init(key: JSONString, value: JSONNode) {
        self.key = key
        self.value = value
    }
}

/// A decoded JSON string that remembers where each of its bytes came from.
///
/// Escapes make the decoded text shorter or longer than its spelling, so an offset inside the
/// decoded text (say, the column of an error inside a rule expression) is mapped back to the file
/// through ``sourceOffset(ofDecoded:)``.
package struct JSONString: Sendable, Hashable {
    /// The decoded text.
    package var value: String
    /// The bytes in the file, including the quotes.
    package var range: SourceRange
    /// One entry per escape sequence, in order: the decoded offset where the escape's output
    /// begins, and the file offset of the escape's backslash. Between checkpoints the mapping is
    /// the identity shifted by the last checkpoint. Empty when the string has no escapes.
    package var checkpoints: [Checkpoint]

    /// A point where decoded and source offsets are known to correspond.
    package struct Checkpoint: Sendable, Hashable {
        /// Offset in the decoded UTF-8 text.
        package var decoded: Int32
        /// Offset in the file.
        package var source: Int32
        /// Number of decoded bytes the escape produced.
        package var decodedLength: Int32
        /// Number of source bytes the escape spans.
        package var sourceLength: Int32

        package init(decoded: Int32, source: Int32, decodedLength: Int32, sourceLength: Int32) {
            self.decoded = decoded
            self.source = source
            self.decodedLength = decodedLength
            self.sourceLength = sourceLength
        }
    }

    /// Creates a string.
    package init(value: String, range: SourceRange, checkpoints: [Checkpoint] = []) {
        self.value = value
        self.range = range
        self.checkpoints = checkpoints
    }

    /// The file offset of the first content byte (just after the opening quote).
    package var contentStart: Int32 { range.start + 1 }

    /// Maps an offset in the decoded UTF-8 text to an offset in the file.
    ///
    /// An offset inside the output of an escape maps to the escape's backslash.
    package func sourceOffset(ofDecoded offset: Int) -> Int {
        let d = Int32(clamping: offset)
        // The last checkpoint starting at or before d.
        var lo = 0, hi = checkpoints.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if checkpoints[mid].decoded <= d { lo = mid + 1 } else { hi = mid }
        }
        guard lo > 0 else { return Int(contentStart + d) }
        let cp = checkpoints[lo - 1]
        if d < cp.decoded + cp.decodedLength { return Int(cp.source) }
        return Int(cp.source + cp.sourceLength + (d - cp.decoded - cp.decodedLength))
    }

    /// Maps a range of the decoded text to a range of the file.
    package func sourceRange(ofDecoded range: SourceRange) -> SourceRange {
        let s = sourceOffset(ofDecoded: Int(range.start))
        let e = range.end > range.start ? sourceOffset(ofDecoded: Int(range.end) - 1) + 1 : s
        return SourceRange(s, max(s, e))
    }
}

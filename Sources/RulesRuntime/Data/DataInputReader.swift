/// Reads the values clients send (set, update, push payloads) from strict JSON.
///
/// - Strict JSON (RFC 8259): no comments, no trailing commas, no `NaN`; the text must be valid
///   UTF-8. Numbers become doubles and must be finite (`1e400` is an error).
/// - Arrays become objects keyed `"0"`, `"1"`, …
/// - `{".sv": "timestamp"}` and `{".sv": {"increment": n}}` are server values; anything else
///   under `".sv"`, or `".sv"` next to other members, is an error.
/// - `{".value": v, ".priority": p}` is the export format of a leaf (`v` a string, number,
///   boolean, null or server value); `".priority"` next to children sets an object's priority.
///   A priority must be a string, a number, `null` or `{".sv": "timestamp"}`.
/// - Other keys starting with `.`, and every key ``DataPath/validate(key:at:)`` rejects, are
///   errors naming the key's path.
/// - No node may lie deeper than ``DataLimits/maxPathLevels`` levels counting the write
///   location; strings hold at most ``DataLimits/maxStringBytes`` bytes; JSON nesting is capped
///   at ``DataLimits/maxReaderNesting``. The reader is iterative, so no input can overflow the
///   stack.
/// - When a key appears twice in an object the last member wins, as in `JSON.parse`.
///
/// Syntax errors give the 0-based byte offset: `Invalid JSON at byte 12: expected ':' after
/// the key.`
package enum DataInputReader {
    /// Reads a value to be written at `location` (the root by default; the location only
    /// matters for the depth limit and for the paths in error messages).
    package static func read(json: String, at location: DataPath = .root) throws(DataError) -> DataInput {
        var text = json
        let result = text.withUTF8 { buffer in
            var parser = DataJSONParser(bytes: buffer, location: location.keys)
            return Result { () throws(DataError) -> DataInput in try parser.parse() }
        }
        return try result.get()
    }

    /// Reads a value from UTF-8 bytes; see ``read(json:at:)``.
    package static func read(bytes: [UInt8], at location: DataPath = .root) throws(DataError) -> DataInput {
        let result = bytes.withUnsafeBufferPointer { buffer in
            var parser = DataJSONParser(bytes: buffer, location: location.keys)
            return Result { () throws(DataError) -> DataInput in try parser.parse() }
        }
        return try result.get()
    }
}

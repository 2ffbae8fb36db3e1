/// Reads Firebase rules files: JSON with comments, trailing commas and raw line breaks inside
/// strings, keeping the exact byte range of every value and an escape map for every string.
///
/// The reader works on the file's UTF-8 bytes. It is iterative, so deeply nested input cannot
/// overflow the stack; nesting beyond ``JSONReaderOptions/maxDepth`` is reported as an error.
package enum RelaxedJSONReader {
    /// Reads a whole file. `root` is nil when the document could not be read at all.
    package static func read(_ file: SourceFile, options: JSONReaderOptions = .rulesFile) -> JSONReadResult {
        let bytes = file.bytes
        // Invalid UTF-8 is checked over the whole file first, comments included, so that every
        // later step can rely on well-formed text.
        if let bad = firstInvalidUTF8Offset(in: bytes) {
            let hex = String(bytes[bad], radix: 16)
            let message = "Invalid UTF-8 byte 0x\(hex.count < 2 ? "0" + hex : hex)."
            return JSONReadResult(
                root: nil, diagnostics: [.error(.jsonInvalidUTF8, message, at: SourceRange(bad, bad + 1))])
        }
        return bytes.withUnsafeBufferPointer { buffer in
            var parser = RelaxedJSONParser(bytes: buffer, options: options)
            let root = parser.parseDocument()
            return JSONReadResult(root: root, diagnostics: parser.diagnostics)
        }
    }
}

import DatabaseRules
import FuzzSupport

/// The relaxed-JSON reader on arbitrary bytes: it must return a document or diagnostics, never
/// trap, and every range it reports must lie inside the file.
func fuzzJSONReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzBytes.array(data, size)
    let file = SourceFile(path: "fuzz.json", bytes: bytes)
    let result = RelaxedJSONReader.read(file)
    for d in result.diagnostics {
        FuzzCheck.that(Int(d.range.start) >= 0 && d.range.start <= d.range.end && Int(d.range.end) <= bytes.count,
                       "diagnostic range \(d.range) outside a file of \(bytes.count) bytes")
        _ = file.location(of: d.range)
    }
    if let root = result.root {
        FuzzCheck.ranges(of: root, within: bytes.count)
        // Strict settings on the same bytes must not trap either.
        let strict = JSONReaderOptions(maxDepth: 64, allowsComments: false, allowsTrailingCommas: false, allowsRawLineBreaksInStrings: false)
        _ = RelaxedJSONReader.read(file, options: strict)
    }
    return 0
}

FuzzDriver.run(fuzzJSONReader)

import DatabaseRules

/// The body of a PATCH: a JSON object whose keys are paths relative to the location (`"a/b"`
/// allowed), each with the value to write there (`null` deletes).
enum UpdateBody {
    static let notAnObject = ServerError(.badRequest, "Invalid data; couldn't parse JSON object. Are you sending a JSON object with valid key names?")

    /// The entries, in the order sent.
    /// Refuses more than `maxPaths` entries (``ServerLimits/maxUpdatePaths``).
    static func parse(_ bytes: [UInt8], at base: [String], maxPaths: Int) throws(ServerError) -> [(String, DataInput)] {
        guard let first = bytes.first(where: { ![9, 10, 13, 32].contains($0) }) else {
            throw ServerError(.badRequest, "Error: No data supplied.")
        }
        guard first == UInt8(ascii: "{") else { throw notAnObject }
        let options = JSONReaderOptions(maxDepth: 1000, allowsComments: false, allowsTrailingCommas: false, allowsRawLineBreaksInStrings: false)
        let read = RelaxedJSONReader.read(SourceFile(path: "body", bytes: bytes), options: options)
        guard let root = read.root, !read.diagnostics.contains(where: { $0.severity == .error }) else {
            let why = read.diagnostics.first { $0.severity == .error }?.message
            throw ServerError(.badRequest, "Invalid data; couldn't parse JSON object, array, or value.", explanation: why)
        }
        guard let members = root.members else { throw notAnObject }
        if members.count > maxPaths {
            throw ServerError(.badRequest, "Too many paths in one update: \(members.count) (the limit is \(maxPaths)).")
        }
        var entries: [(String, DataInput)] = []
        entries.reserveCapacity(members.count)
        for member in members {
            let key = member.key.value
            let path: DataPath
            do { path = try DataPath(validating: key) } catch {
                throw ServerError(.badRequest, "Invalid data; couldn't parse key '\(key)': \(error.message)")
            }
            let range = member.value.range
            let slice = Array(bytes[Int(range.start)..<Int(range.end)])
            do {
                entries.append((key, try DataInputReader.read(bytes: slice, at: DataPath(keys: base + path.keys))))
            } catch {
                throw ServerError(.badRequest, "Invalid data: \(error.message)")
            }
        }
        return entries
    }
}

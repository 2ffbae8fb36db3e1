import DatabaseRules

/// One message from a client, parsed: `{"t":"c","d":{"t":…}}` (control) or
/// `{"t":"d","d":{"r":n,"a":action,"b":body}}` (a request), with the raw bytes kept so values
/// are read exactly as sent.
struct WireMessage: Sendable {
    /// The message's UTF-8 bytes.
    let bytes: [UInt8]
    /// `c` or `d`.
    let layer: String
    /// The control type (`p` for ping), for control messages.
    let control: String?
    /// The request number.
    let request: Int?
    /// The action.
    let action: String?
    /// The body's members.
    let body: [String: JSONNode]

    /// Why a message cannot be used; the connection is closed with this reason.
    struct Malformed: Error {
        let reason: String
    }

    init(_ text: String) throws(Malformed) {
        bytes = Array(text.utf8)
        let options = JSONReaderOptions(maxDepth: 1000, allowsComments: false, allowsTrailingCommas: false, allowsRawLineBreaksInStrings: false)
        let read = RelaxedJSONReader.read(SourceFile(path: "message", bytes: bytes), options: options)
        guard let root = read.root, !read.diagnostics.contains(where: { $0.severity == .error }) else {
            throw Malformed(reason: "not JSON: " + (read.diagnostics.first?.message ?? "unreadable"))
        }
        guard let top = root.members else { throw Malformed(reason: "a message must be a JSON object") }
        func field(_ members: [JSONMember], _ key: String) -> JSONNode? { members.first { $0.key.value == key }?.value }
        guard let t = field(top, "t")?.string?.value, let d = field(top, "d")?.members else {
            throw Malformed(reason: "a message needs \"t\" and an object \"d\"")
        }
        layer = t
        switch t {
        case "c":
            control = field(d, "t")?.string?.value
            request = nil
            action = nil
            body = [:]
        case "d":
            control = nil
            guard case .number(let r, _)? = field(d, "r")?.kind, r >= 0, r == r.rounded(), r < 1e15 else {
                throw Malformed(reason: "a request needs a whole number \"r\"")
            }
            guard let a = field(d, "a")?.string?.value else { throw Malformed(reason: "a request needs an action \"a\"") }
            request = Int(r)
            action = a
            var b: [String: JSONNode] = [:]
            if let members = field(d, "b")?.members {
                for m in members { b[m.key.value] = m.value }
            }
            body = b
        default:
            throw Malformed(reason: "unknown message layer \"\(t)\"")
        }
    }

    /// The raw bytes of a body member (to read a value exactly as sent).
    func raw(_ key: String) -> [UInt8]? {
        guard let node = body[key] else { return nil }
        return Array(bytes[Int(node.range.start)..<Int(node.range.end)])
    }

    /// The raw text of a body member.
    func rawText(_ key: String) -> String? {
        raw(key).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The message's size in bytes.
    var size: Int { bytes.count }

    /// A string member of the body.
    func string(_ key: String) -> String? { body[key]?.string?.value }
}

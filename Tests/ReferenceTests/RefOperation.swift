/// An operation for the reference engine; paths are key lists.
enum RefOperation: CustomStringConvertible {
    case read([String])
    case set([String], RefInput)
    case update([String], [([String], RefInput)])
    case delete([String])

    static func text(_ path: [String]) -> String { "/" + path.joined(separator: "/") }

    var description: String {
        switch self {
        case .read(let p): "read \(Self.text(p))"
        case .set(let p, let v): "set \(Self.text(p)) \(v.json)"
        case .update(let p, let entries):
            "update \(Self.text(p)) {" + entries.map { RefInput.quote($0.0.joined(separator: "/")) + ": " + $0.1.json }.joined(separator: ", ") + "}"
        case .delete(let p): "delete \(Self.text(p))"
        }
    }

    /// The Swift spelling of the project's `DatabaseOperation`, for a regression test.
    var swiftLiteral: String {
        switch self {
        case .read(let p): ".read(path: \(RefInput.quote(Self.text(p))))"
        case .set(let p, let v): ".set(path: \(RefInput.quote(Self.text(p))), value: \(v.swiftLiteral))"
        case .update(let p, let entries):
            ".update(path: \(RefInput.quote(Self.text(p))), values: [" + entries.map { "(" + RefInput.quote($0.0.joined(separator: "/")) + ", " + $0.1.swiftLiteral + ")" }.joined(separator: ", ") + "])"
        case .delete(let p): ".delete(path: \(RefInput.quote(Self.text(p))))"
        }
    }
}

/// An operation for the reference engine; paths are key lists.
enum RefOperation: CustomStringConvertible {
    /// A read, with a query or nil for a plain read.
    case read([String], RefQuery?)
    /// A push: a set at `path/key`.
    case push([String], RefInput, String)
    case set([String], RefInput)
    case update([String], [([String], RefInput)])
    case delete([String])

    static func text(_ path: [String]) -> String { "/" + path.joined(separator: "/") }

    var description: String {
        switch self {
        case .read(let p, let q): "read \(Self.text(p))" + (q.map { " query \($0.swiftLiteral)" } ?? "")
        case .push(let p, let v, let key): "push \(Self.text(p)) key \(key) \(v.json)"
        case .set(let p, let v): "set \(Self.text(p)) \(v.json)"
        case .update(let p, let entries):
            "update \(Self.text(p)) {" + entries.map { RefInput.quote($0.0.joined(separator: "/")) + ": " + $0.1.json }.joined(separator: ", ") + "}"
        case .delete(let p): "delete \(Self.text(p))"
        }
    }

    /// The Swift spelling of the project's `DatabaseOperation`, for a regression test.
    var swiftLiteral: String {
        switch self {
        case .read(let p, let q): ".read(path: \(RefInput.quote(Self.text(p)))" + (q.map { ", query: \($0.swiftLiteral)" } ?? "") + ")"
        case .push(let p, let v, let key): ".push(path: \(RefInput.quote(Self.text(p))), value: \(v.swiftLiteral), key: \(RefInput.quote(key)))"
        case .set(let p, let v): ".set(path: \(RefInput.quote(Self.text(p))), value: \(v.swiftLiteral))"
        case .update(let p, let entries):
            ".update(path: \(RefInput.quote(Self.text(p))), values: [" + entries.map { "(" + RefInput.quote($0.0.joined(separator: "/")) + ", " + $0.1.swiftLiteral + ")" }.joined(separator: ", ") + "])"
        case .delete(let p): ".delete(path: \(RefInput.quote(Self.text(p))))"
        }
    }
}

import RulesLanguageServer
import RulesSyntax

/// A language server driven in-process, as an editor would drive it: messages in, answers out.
/// A class, so that its calls can stand inside `#expect`.
final class Session {
    var server: LanguageServer
    var nextID = 1
    let uri = "file:///project/database.rules.json"

    init(checker: DocumentChecker = .compilerAndLints, initialize: Bool = true) {
        server = LanguageServer(version: "test", checker: checker)
        if initialize { _ = request("initialize", .object([("capabilities", .object([]))])) }
    }

    /// Sends a message, returns what the server answered, each parsed.
    func send(_ message: JSONText) -> [JSONNode] {
        server.handle(Array(message.rendered(indent: 0).utf8)).map(Self.parse)
    }

    static func parse(_ text: JSONText) -> JSONNode {
        RelaxedJSONReader.read(SourceFile(path: "answer", text: text.rendered(indent: 0))).root!
    }

    /// A request's whole response.
    func response(_ method: String, _ params: JSONText) -> JSONNode? {
        let id = nextID
        nextID += 1
        return send(.object([("jsonrpc", .string("2.0")), ("id", .int(id)), ("method", .string(method)), ("params", params)])).first
    }

    /// A request's result.
    func request(_ method: String, _ params: JSONText) -> JSONNode? {
        response(method, params)?["result"]
    }

    func notify(_ method: String, _ params: JSONText) {
        _ = send(.object([("jsonrpc", .string("2.0")), ("method", .string(method)), ("params", params)]))
    }

    func open(_ text: String, version: Int = 1) {
        notify("textDocument/didOpen", .object([("textDocument", .object([
            ("uri", .string(uri)), ("languageId", .string("json")), ("version", .int(version)), ("text", .string(text)),
        ]))]))
    }

    /// Replaces a range (incremental sync).
    func change(_ range: (Int, Int, Int, Int)?, _ text: String, version: Int = 2) {
        var change: [(String, JSONText)] = [("text", .string(text))]
        if let r = range {
            change.insert(("range", .object([
                ("start", .object([("line", .int(r.0)), ("character", .int(r.1))])),
                ("end", .object([("line", .int(r.2)), ("character", .int(r.3))])),
            ])), at: 0)
        }
        notify("textDocument/didChange", .object([
            ("textDocument", .object([("uri", .string(uri)), ("version", .int(version))])),
            ("contentChanges", .array([.object(change)])),
        ]))
    }

    /// The errors among the diagnostics published since the last call.
    func errors() -> [JSONNode] { diagnostics().filter { $0["severity"]?.int == 1 } }

    /// The diagnostics published since the last call.
    func diagnostics() -> [JSONNode] {
        server.pendingDiagnostics().map(Self.parse).flatMap { $0.at("params.diagnostics")?.arrayValue ?? [] }
    }

    /// A request at a position of the document.
    func at(_ method: String, line: Int, character: Int) -> JSONNode? {
        request(method, .object([
            ("textDocument", .object([("uri", .string(uri))])),
            ("position", .object([("line", .int(line)), ("character", .int(character))])),
        ]))
    }
}

extension JSONNode {
    subscript(_ key: String) -> JSONNode? { members?.first { $0.key.value == key }?.value }

    func at(_ path: String) -> JSONNode? {
        var node: JSONNode? = self
        for part in path.split(separator: ".") {
            if let i = Int(part) { node = node?.arrayValue.flatMap { i < $0.count ? $0[i] : nil } } else { node = node?[String(part)] }
        }
        return node
    }

    var text: String? { string?.value }

    var int: Int? {
        if case .number(let d, _) = kind { return Int(d) }
        return nil
    }

    var arrayValue: [JSONNode]? {
        if case .array(let items) = kind { return items }
        return nil
    }

    /// `line:character-line:character` of an LSP range.
    var rangeText: String {
        "\(at("start.line")?.int ?? -1):\(at("start.character")?.int ?? -1)-\(at("end.line")?.int ?? -1):\(at("end.character")?.int ?? -1)"
    }
}

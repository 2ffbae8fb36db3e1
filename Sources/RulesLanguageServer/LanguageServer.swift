import RulesCompiler
import RulesSyntax

/// The language server's state and its answers: one JSON-RPC message in, the messages to send
/// back out. Transport-free (``ServerConnection`` carries the bytes), so tests drive it directly.
///
/// Diagnostics are not sent with each change: a change marks its document, and
/// ``pendingDiagnostics()`` (called when no message is waiting) checks each marked document once,
/// so a burst of keystrokes is checked once. When the checker has a model, its findings follow:
/// ``nextModelJob()`` hands it to the connection, which runs it off its thread, and
/// ``accept(_:findings:)`` publishes them if the document has not changed meanwhile.
package struct LanguageServer {
    /// The server's version, for `serverInfo`.
    package let version: String
    /// Where diagnostics come from.
    package let checker: DocumentChecker
    /// Requests the client cancelled.
    package let cancellations: CancellationSet

    private(set) var documents: [String: TextDocument] = [:]
    private var analyses: [String: DocumentAnalysis] = [:]
    /// The last rule tree read from each document, for completing in a half-typed one.
    private var lastTrees: [String: RuleNode] = [:]
    private var stale: [String] = []
    /// Documents whose access model is still to compute, oldest first.
    private var modelWanted: [String] = []
    private var initialized = false
    private var shutdownRequested = false
    /// Set by `exit`: 0 after `shutdown`, 1 without it.
    package private(set) var exitCode: Int32?

    package init(version: String, checker: DocumentChecker = .compilerAndLints, cancellations: CancellationSet = CancellationSet()) {
        self.version = version
        self.checker = checker
        self.cancellations = cancellations
    }

    // MARK: - Messages

    /// Handles one message body; returns the messages to send (the response to a request; nothing
    /// for a notification).
    package mutating func handle(_ body: [UInt8]) -> [JSONText] {
        let read = RelaxedJSONReader.read(SourceFile(path: "message", bytes: body), options: .protocolMessage)
        guard let message = read.root, message.members != nil else {
            return [Self.response(id: .null, error: ResponseError(ResponseError.parseError, "The message is not a JSON object."))]
        }
        let method = message["method"]?.stringValue
        let id = message["id"]
        guard let method else {
            return []  // A response to a request of ours: the server sends none.
        }
        let params = message["params"]
        guard let id else {
            notification(method, params)
            return []
        }
        if let key = CancellationSet.key(id), cancellations.take(key) {
            return [Self.response(id: id.echoed, error: ResponseError(ResponseError.requestCancelled, "The request was cancelled."))]
        }
        do {
            return [Self.response(id: id.echoed, result: try request(method, params))]
        } catch {
            return [Self.response(id: id.echoed, error: error)]
        }
    }

    private mutating func request(_ method: String, _ params: JSONNode?) throws(ResponseError) -> JSONText {
        if method == "initialize" {
            initialized = true
            return ServerCapabilities.initializeResult(version: version)
        }
        guard initialized else { throw ResponseError(ResponseError.serverNotInitialized, "The server is not initialized yet.") }
        guard !shutdownRequested else { throw ResponseError(ResponseError.invalidRequest, "The server is shutting down.") }
        if method == "shutdown" {
            shutdownRequested = true
            return .null
        }
        guard let feature = Feature(rawValue: method) else {
            throw ResponseError(ResponseError.methodNotFound, "Unknown method '\(method)'.")
        }
        guard let uri = params?.at("textDocument.uri")?.stringValue else {
            throw ResponseError(ResponseError.invalidParams, "\(method) needs params.textDocument.uri.")
        }
        guard let analysis = analysis(uri, checked: feature == .codeAction) else {
            return feature == .documentSymbol || feature == .codeAction ? .array([]) : .null
        }
        return try answer(feature, uri: uri, params: params, analysis: analysis)
    }

    private mutating func notification(_ method: String, _ params: JSONNode?) {
        switch method {
        case "exit":
            exitCode = shutdownRequested ? 0 : 1
        case "$/cancelRequest":
            if let key = CancellationSet.key(params?["id"]) { cancellations.cancel(key) }
        case "textDocument/didOpen":
            guard let doc = params?["textDocument"], let uri = doc["uri"]?.stringValue, let text = doc["text"]?.stringValue else { return }
            documents[uri] = TextDocument(uri: uri, version: doc["version"]?.intValue ?? 0, text: text)
            changed(uri)
        case "textDocument/didChange":
            guard let uri = params?.at("textDocument.uri")?.stringValue, var doc = documents[uri] else { return }
            for change in params?["contentChanges"]?.arrayValue ?? [] {
                guard let text = change["text"]?.stringValue else { continue }
                doc.apply(range: LSPRange(change["range"]), text: text)
            }
            doc.version = params?.at("textDocument.version")?.intValue ?? doc.version + 1
            documents[uri] = doc
            changed(uri)
        case "textDocument/didClose":
            guard let uri = params?.at("textDocument.uri")?.stringValue else { return }
            documents[uri] = nil
            analyses[uri] = nil
            lastTrees[uri] = nil
            // Its findings are cleared in the editor with an empty list.
            if !stale.contains(uri) { stale.append(uri) }
        default:
            break  // Other notifications (initialized, didSave, $/setTrace...) need nothing.
        }
    }

    private mutating func changed(_ uri: String) {
        analyses[uri] = nil
        if !stale.contains(uri) { stale.append(uri) }
    }

    // MARK: - Documents

    /// The analysis of a document's current text, made on first use after a change; `checked`:
    /// with its findings.
    mutating func analysis(_ uri: String, checked: Bool = false) -> DocumentAnalysis? {
        var a: DocumentAnalysis
        if let known = analyses[uri] {
            a = known
        } else {
            guard let doc = documents[uri] else { return nil }
            a = DocumentAnalysis(path: TextDocument.path(of: uri), bytes: doc.bytes, checker: nil)
            if let tree = a.tree { lastTrees[uri] = tree }
        }
        if checked { a.check(with: checker) }
        analyses[uri] = a
        return a
    }

    /// The text of an open document.
    package func documentText(_ uri: String) -> String? { documents[uri]?.text }

    /// The latest rule tree of a document, current or from before it became half-typed.
    func latestTree(_ uri: String) -> RuleNode? {
        analyses[uri]?.tree ?? lastTrees[uri]
    }

    /// `textDocument/publishDiagnostics` for each document changed since the last call (an
    /// empty list for one closed since).
    package mutating func pendingDiagnostics() -> [JSONText] {
        let uris = stale
        stale = []
        return uris.map { uri in
            guard let a = analysis(uri, checked: true) else {
                modelWanted.removeAll { $0 == uri }
                return Self.notification("textDocument/publishDiagnostics", .object([("uri", .string(uri)), ("diagnostics", .array([]))]))
            }
            if checker.model != nil, a.isRulesDocument, !a.modelled, !modelWanted.contains(uri) { modelWanted.append(uri) }
            return Self.notification("textDocument/publishDiagnostics", DiagnosticConverter.publish(uri: uri, version: documents[uri]?.version, analysis: a))
        }
    }

    /// The next document whose access model is to compute (its current version), if any.
    package mutating func nextModelJob() -> ModelJob? {
        guard let model = checker.model else { return nil }
        while !modelWanted.isEmpty {
            let uri = modelWanted.removeFirst()
            guard let doc = documents[uri], let a = analyses[uri], !a.modelled else { continue }
            return ModelJob(uri: uri, version: doc.version, file: a.file, findings: model)
        }
        return nil
    }

    /// Publishes the findings of a finished ``ModelJob`` if its document is still at that version
    /// (a later version is checked again when the editor pauses).
    package mutating func accept(_ job: ModelJob, findings: [CheckedDiagnostic]) -> [JSONText] {
        guard documents[job.uri]?.version == job.version, var a = analyses[job.uri], a.file.bytes == job.file.bytes else { return [] }
        a.take(modelFindings: findings)
        analyses[job.uri] = a
        return [Self.notification("textDocument/publishDiagnostics", DiagnosticConverter.publish(uri: job.uri, version: job.version, analysis: a))]
    }

    // MARK: - Framing of answers

    static func response(id: JSONText, result: JSONText) -> JSONText {
        .object([("jsonrpc", .string("2.0")), ("id", id), ("result", result)])
    }

    static func response(id: JSONText, error: ResponseError) -> JSONText {
        .object([("jsonrpc", .string("2.0")), ("id", id), ("error", error.json)])
    }

    static func notification(_ method: String, _ params: JSONText) -> JSONText {
        .object([("jsonrpc", .string("2.0")), ("method", .string(method)), ("params", params)])
    }
}

extension JSONReaderOptions {
    /// Strict JSON, for protocol messages.
    static let protocolMessage = JSONReaderOptions(maxDepth: 256, allowsComments: false, allowsTrailingCommas: false, allowsRawLineBreaksInStrings: false)
}

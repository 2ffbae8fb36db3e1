import RulesSyntax

/// What `initialize` answers: the features the server has and how it wants documents synced.
enum ServerCapabilities {
    /// `TextDocumentSyncKind.Incremental`.
    static let incrementalSync = 2

    static func initializeResult(version: String) -> JSONText {
        .object([
            ("capabilities", .object([
                ("positionEncoding", .string("utf-16")),
                ("textDocumentSync", .object([("openClose", .bool(true)), ("change", .int(incrementalSync))])),
                ("hoverProvider", .bool(true)),
                ("completionProvider", .object([("triggerCharacters", .array([".", "$", "'", "\""].map(JSONText.string)))])),
                ("definitionProvider", .bool(true)),
                ("documentSymbolProvider", .bool(true)),
                ("codeActionProvider", .object([("codeActionKinds", .array([.string("quickfix")]))])),
                ("documentFormattingProvider", .bool(true)),
            ])),
            ("serverInfo", .object([("name", .string("rules")), ("version", .string(version))])),
        ])
    }
}

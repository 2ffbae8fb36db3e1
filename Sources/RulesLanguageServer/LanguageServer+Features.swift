import RulesSyntax

extension LanguageServer {
    /// Answers a feature request about an open document.
    mutating func answer(_ feature: Feature, uri: String, params: JSONNode?, analysis: DocumentAnalysis) throws(ResponseError) -> JSONText {
        let positions = analysis.positions
        func offset() throws(ResponseError) -> Int {
            guard let p = LSPPosition(params?["position"]) else {
                throw ResponseError(ResponseError.invalidParams, "\(feature.rawValue) needs params.position {line, character}.")
            }
            return positions.offset(of: p)
        }
        switch feature {
        case .hover:
            guard let (markdown, range) = HoverProvider.hover(analysis, offset: try offset()) else { return .null }
            return .object([
                ("contents", .object([("kind", .string("markdown")), ("value", .string(markdown))])),
                ("range", positions.range(range).json),
            ])
        case .completion:
            let items = CompletionProvider.complete(bytes: analysis.file.bytes, offset: try offset(), tree: latestTree(uri))
            return .object([("isIncomplete", .bool(false)), ("items", .array(items.map { $0.json(positions) }))])
        case .definition:
            guard let range = DefinitionProvider.definition(analysis, offset: try offset()) else { return .null }
            return .object([("uri", .string(uri)), ("range", positions.range(range).json)])
        case .documentSymbol:
            return .array(DocumentSymbolProvider.symbols(analysis))
        case .codeAction:
            guard let range = LSPRange(params?["range"]) else {
                throw ResponseError(ResponseError.invalidParams, "textDocument/codeAction needs params.range.")
            }
            return .array(CodeActionProvider.actions(analysis, range: positions.sourceRange(range)).map { $0.json(uri: uri, positions: positions) })
        case .formatting:
            let size = params?.at("options.tabSize")?.intValue ?? 2
            let spaces = params?.at("options.insertSpaces")?.boolValue ?? true
            let indent = spaces ? String(repeating: " ", count: max(1, min(size, 8))) : "\t"
            guard let formatted = RulesFormatter.format(analysis.file.bytes, indent: indent),
                Array(formatted.utf8) != analysis.file.bytes
            else { return .array([]) }
            let whole = SourceRange(0, analysis.file.bytes.count)
            return .array([TextEdit(range: whole, newText: formatted).json(positions)])
        }
    }
}

import RulesCompiler
import RulesSyntax

/// What the server knows about one version of a document: the checked rule tree, the JSON
/// document (for outlines and edits) and the findings to publish.
package struct DocumentAnalysis: Sendable {
    package let file: SourceFile
    package let positions: PositionConverter
    /// The checked rule tree; nil when the document has no readable `rules` object.
    package let tree: RuleNode?
    /// The JSON document; nil when it cannot be read (a half-typed file).
    package let json: JSONNode?
    /// The findings, from the server's ``DocumentChecker``; nil until checked (hover and
    /// completion do not wait for the check, which includes the lints' witness search).
    package private(set) var diagnostics: [CheckedDiagnostic]?
    /// Whether the document is a rules file (only those are checked).
    package let isRulesDocument: Bool

    /// Reads a document, and checks it when `checker` is given.
    package init(path: String, bytes: [UInt8], checker: DocumentChecker?) {
        let file = SourceFile(path: path, bytes: bytes)
        self.file = file
        self.positions = PositionConverter(file)
        self.tree = RulesCompiler.compile(file).tree
        let json = RelaxedJSONReader.read(file).root
        self.json = json
        self.isRulesDocument = Self.isRules(path: path, json: json, bytes: bytes)
        if let checker { check(with: checker) }
    }

    /// Runs the checker, once.
    package mutating func check(with checker: DocumentChecker) {
        guard diagnostics == nil else { return }
        diagnostics = isRulesDocument ? checker.check(file) : []
    }

    /// Whether the access model's findings replaced the first ones.
    package private(set) var modelled = false

    /// Takes the access model's findings (``ModelJob``) in place of the first ones.
    package mutating func take(modelFindings: [CheckedDiagnostic]) {
        diagnostics = modelFindings
        modelled = true
    }

    /// Whether a document is a rules file: named like one (`*rules.json`, `*rules.jsonc`), or
    /// with a top-level `rules` member (or, when it does not read as JSON, the text `"rules"`).
    /// Other JSON files an editor sends (`package.json`) get no diagnostics.
    package static func isRules(path: String, json: JSONNode?, bytes: [UInt8]) -> Bool {
        if path.hasSuffix("rules.json") || path.hasSuffix("rules.jsonc") { return true }
        if let json { return json.members?.contains { $0.key.value == "rules" } ?? false }
        return bytes.firstRange(of: Array("\"rules\"".utf8)) != nil
    }

    /// The nodes from the root down to the innermost one whose object holds `offset`.
    package func nodes(containing offset: Int) -> [RuleNode] {
        guard let tree else { return [] }
        var chain = [tree]
        var current = tree
        descent: while true {
            var children = current.literalChildren.map(\.node)
            if let w = current.wildcard { children.append(w.node) }
            for c in children where c.keyRange.start <= offset && offset <= c.range.end {
                chain.append(c)
                current = c
                continue descent
            }
            return chain
        }
    }

    /// The rule whose key or value holds `offset`, with the node it belongs to.
    package func rule(at offset: Int) -> (node: RuleNode, rule: Rule)? {
        guard let node = nodes(containing: offset).last else { return nil }
        for kind in RuleKind.allCases {
            if let r = node.rule(kind), r.keyRange.start <= offset && offset <= r.valueRange.end { return (node, r) }
        }
        return nil
    }

    /// The node whose key holds `offset`.
    package func node(withKeyAt offset: Int) -> RuleNode? {
        nodes(containing: offset).last { !$0.path.isEmpty && $0.keyRange.start <= offset && offset <= $0.keyRange.end }
    }
}

import RulesSyntax

/// Turns a relaxed-JSON rules document into a checked ``RuleNode`` tree (spec §1), parsing and
/// checking every expression on the way. All errors are collected, not only the first.
package struct RulesDocumentLoader {
    /// The file being loaded.
    package let file: SourceFile
    /// Limits for each expression.
    package var expressionLimits: ExpressionLimits = .default
    private(set) var diagnostics: [Diagnostic] = []
    /// Expressions parsed and checked so far, for the repeats.
    private var cache = ExpressionCache()

    /// The message the server gives for a key with a forbidden character.
    package static let invalidKeyMessage = ##"String can't contain ".", "#", "$", "/", "[", or "]""##
    /// The message the server gives where an object was needed.
    package static let expectedObjectMessage = "Expected '{'."
    /// The message the server gives for a rule value of the wrong type (two spaces after the period).
    package static let invalidRuleMessage = "Invalid rule expression.  Expected 'true', 'false', or an expression string."
    /// The message the server gives for a bad `.indexOn`.
    package static let invalidIndexOnMessage = "Invalid indexOn expression. Must be either a string or an array of strings"

    /// Creates a loader for a file.
    package init(file: SourceFile) { self.file = file }

    /// Reads, checks and builds the rule tree. The tree is nil when the document has no usable
    /// `rules` object; otherwise it is returned even when some rules have errors.
    package mutating func load() -> (RuleNode?, [Diagnostic]) {
        cache = ExpressionCache()
        let read = RelaxedJSONReader.read(file)
        diagnostics.append(contentsOf: read.diagnostics)
        guard let root = read.root else { return (nil, diagnostics) }
        guard let members = root.members else {
            error(.expectedObject, Self.expectedObjectMessage, root.range)
            return (nil, diagnostics)
        }
        var rulesNode: JSONNode?
        var rulesKey = SourceRange.at(0)
        for m in members {
            if m.key.value == "rules" {
                rulesNode = m.value
                rulesKey = m.key.range
            } else {
                error(.topLevelKey, "Unexpected top-level key '\(m.key.value)': a rules document holds only 'rules'.", m.key.range)
            }
        }
        guard let rulesNode else {
            // The server reports this just inside the opening brace (1:2 for a file starting with '{').
            error(.rulesMissing, "Expected 'rules' property.", SourceRange.at(Int(root.range.start) + 1))
            return (nil, diagnostics)
        }
        guard rulesNode.members != nil else {
            error(.expectedObject, Self.expectedObjectMessage, rulesNode.range)
            return (nil, diagnostics)
        }
        let tree = node(rulesNode, path: [], wildcards: [], keyRange: rulesKey)
        return (tree, diagnostics)
    }

    // MARK: - Nodes

    private mutating func node(_ json: JSONNode, path: [String], wildcards: [String], keyRange: SourceRange) -> RuleNode {
        var read: Rule?, write: Rule?, validate: Rule?
        var indexOn: [String] = []
        var literals: [(key: String, node: RuleNode)] = []
        var wildcard: (name: String, node: RuleNode)?
        var wildcardKeyRange = SourceRange.at(0)

        for m in json.members ?? [] {
            let key = m.key.value
            switch key {
            case ".read", ".write", ".validate":
                let kind = RuleKind(rawValue: key)!
                let r = rule(kind, m, wildcards: wildcards)
                switch kind {
                case .read: read = r
                case .write: write = r
                case .validate: validate = r
                }
            case ".indexOn":
                indexOn = self.indexOn(m.value)
            default:
                if key.hasPrefix(".") {
                    // An unknown dot-key is parsed as a child: with an object value the key is
                    // invalid, with any other value an object was expected.
                    if m.value.members != nil {
                        error(.invalidKey, Self.invalidKeyMessage, m.key.range)
                    } else {
                        error(.expectedObject, Self.expectedObjectMessage, m.value.range)
                    }
                    continue
                }
                guard m.value.members != nil else {
                    error(.expectedObject, Self.expectedObjectMessage, m.value.range)
                    continue
                }
                if key.hasPrefix("$") {
                    let name = String(key.dropFirst())
                    if !Self.isValidKey(name) || name.isEmpty {
                        error(.invalidKey, Self.invalidKeyMessage, m.key.range)
                        continue
                    }
                    if let existing = wildcard {
                        error(.multipleWildcards, "Cannot have multiple default rules ('\(existing.name)' and '\(key)').", m.key.range)
                        continue
                    }
                    if !Self.isIdentifier(name) {
                        warning(.wildcardName, "Wildcard '\(key)' is not an identifier, so rules cannot refer to it as a variable.", m.key.range)
                    }
                    if wildcards.contains(key) {
                        warning(.wildcardShadowed, "Wildcard '\(key)' hides the wildcard of the same name above it; '\(key)' refers to this one below here.", m.key.range)
                    }
                    wildcardKeyRange = m.key.range
                    let child = node(m.value, path: path + [key], wildcards: wildcards + [key], keyRange: m.key.range)
                    wildcard = (key, child)
                } else {
                    if !Self.isValidKey(key) {
                        error(.invalidKey, Self.invalidKeyMessage, m.key.range)
                        continue
                    }
                    let child = node(m.value, path: path + [key], wildcards: wildcards, keyRange: m.key.range)
                    literals.append((key, child))
                }
            }
        }
        _ = wildcardKeyRange
        return RuleNode(
            path: path, read: read, write: write, validate: validate, indexOn: indexOn,
            literalChildren: literals, wildcard: wildcard, range: json.range, keyRange: keyRange)
    }

    private mutating func rule(_ kind: RuleKind, _ m: JSONMember, wildcards: [String]) -> Rule {
        switch m.value.kind {
        case .bool(let b):
            return Rule(kind: kind, body: .constant(b), valueRange: m.value.range, keyRange: m.key.range)
        case .string(let s):
            let source = ExpressionSource(string: s)
            let seen = cache.find(s.value)
            if let seen, let known = cache.checked(at: seen, kind: kind, wildcards: wildcards, source: source) {
                return Rule(kind: kind, body: .expression(known), valueRange: m.value.range, keyRange: m.key.range)
            }
            let (parsed, entry) = cache.parse(s.value, at: seen, limits: expressionLimits)
            for d in parsed.diagnostics {
                var mapped = d
                mapped.range = source.fileRange(d.range)
                diagnostics.append(mapped)
            }
            guard let root = parsed.root, !parsed.diagnostics.containsErrors else {
                return Rule(kind: kind, body: .invalid, valueRange: m.value.range, keyRange: m.key.range)
            }
            let (checked, found) = TypeChecker.check(
                root, nodeCount: parsed.nodeCount, kind: kind, wildcards: wildcards, source: source,
                regexCache: cache.regexes)
            diagnostics.append(contentsOf: found)
            guard let checked else {
                return Rule(kind: kind, body: .invalid, valueRange: m.value.range, keyRange: m.key.range)
            }
            if found.isEmpty { cache.remember(checked, at: entry, kind: kind, wildcards: wildcards) }
            return Rule(kind: kind, body: .expression(checked), valueRange: m.value.range, keyRange: m.key.range)
        default:
            error(.invalidRuleValue, Self.invalidRuleMessage, m.value.range)
            return Rule(kind: kind, body: .invalid, valueRange: m.value.range, keyRange: m.key.range)
        }
    }

    private mutating func indexOn(_ v: JSONNode) -> [String] {
        switch v.kind {
        case .string(let s):
            return [s.value]
        case .array(let items):
            var out: [String] = []
            for item in items {
                guard case .string(let s) = item.kind else {
                    error(.invalidIndexOn, Self.invalidIndexOnMessage, item.range)
                    return out
                }
                out.append(s.value)
            }
            return out
        default:
            error(.invalidIndexOn, Self.invalidIndexOnMessage, v.range)
            return []
        }
    }

    // MARK: - Keys

    /// True when a literal key (or a wildcard name after its `$`) has none of the characters the
    /// server forbids in keys: `.`, `#`, `$`, `/`, `[`, `]`, and ASCII control characters.
    package static func isValidKey(_ key: String) -> Bool {
        if key.isEmpty { return false }
        for b in key.utf8 {
            switch b {
            case UInt8(ascii: "."), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "/"),
                UInt8(ascii: "["), UInt8(ascii: "]"), 0x00...0x1F, 0x7F:
                return false
            default:
                continue
            }
        }
        return true
    }

    /// True for letters, digits and `_`, not starting with a digit.
    package static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return name.utf8.allSatisfy {
            ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z"))
                || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "_")
        }
    }

    private mutating func error(_ code: DiagnosticCode, _ message: String, _ range: SourceRange) {
        diagnostics.append(.error(code, message, at: range))
    }

    private mutating func warning(_ code: DiagnosticCode, _ message: String, _ range: SourceRange) {
        diagnostics.append(.warning(code, message, at: range))
    }
}

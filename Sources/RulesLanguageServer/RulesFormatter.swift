import RulesSyntax

/// `textDocument/formatting`: lays a rules file out one member per line, indented, with
/// `"key": value`, keeping every comment (a trailing one stays at the end of its line) and at
/// most one blank line where there were blank lines. Arrays of plain values (`.indexOn`) stay
/// on one line; strings, rule expressions included, are kept exactly as written. Trailing commas
/// are dropped.
package enum RulesFormatter {
    /// The formatted text; nil when the document cannot be read as JSON (nothing is changed).
    package static func format(_ bytes: [UInt8], indent: String = "  ") -> String? {
        guard RelaxedJSONReader.read(SourceFile(path: "", bytes: bytes)).root != nil,
            let tokens = RulesToken.tokenize(bytes)
        else { return nil }
        var out = ""
        var level = 0
        var pendingBreak = false
        var spaceNext = false
        var lastWasOpen = false
        var k = 0

        func emit(_ text: String, blankBefore: Bool = false) {
            if pendingBreak {
                if !out.isEmpty {
                    out += "\n"
                    if blankBefore && !lastWasOpen { out += "\n" }
                }
                out += String(repeating: indent, count: max(0, level))
                pendingBreak = false
                spaceNext = false
            } else if spaceNext {
                out += " "
                spaceNext = false
            }
            out += text
            lastWasOpen = false
        }

        while k < tokens.count {
            let t = tokens[k]
            let blank = t.newlinesBefore >= 2
            switch t.kind {
            case .open(let c):
                emit(String(c), blankBefore: blank)
                if let close = inlineEnd(tokens, from: k) {
                    let items = tokens[(k + 1)..<close].filter { $0.kind != .comma }.map(\.text)
                    out += items.joined(separator: ", ") + tokens[close].text
                    k = close
                } else {
                    level += 1
                    pendingBreak = true
                    lastWasOpen = true
                }
            case .close:
                level -= 1
                pendingBreak = true
                emit(t.text)
            case .comma:
                // A trailing comma is dropped.
                if let next = tokens[(k + 1)...].first(where: { !$0.isComment }), case .close = next.kind {
                    break
                }
                emit(",")
                pendingBreak = true
            case .colon:
                emit(":")
                spaceNext = true
            case .string, .scalar:
                emit(t.text, blankBefore: blank)
            case .lineComment, .blockComment:
                if t.newlinesBefore == 0 && k > 0 {
                    // On the line of what precedes it: stays there.
                    out += " " + t.text
                    if t.kind == .lineComment { pendingBreak = true } else { spaceNext = !pendingBreak }
                } else {
                    pendingBreak = true
                    let keepOpen = lastWasOpen
                    emit(t.text, blankBefore: blank)
                    lastWasOpen = keepOpen && !blank
                    if t.kind == .lineComment || (k + 1 < tokens.count && tokens[k + 1].newlinesBefore > 0) {
                        pendingBreak = true
                    } else {
                        spaceNext = true
                    }
                }
            }
            k += 1
        }
        out += "\n"
        // Layout only: the same tokens in the same order, less the dropped commas.
        guard let check = RulesToken.tokenize(Array(out.utf8)), significant(check) == significant(tokens) else { return nil }
        return out
    }

    /// The index of the closing bracket when the container at `open` is written on one line:
    /// empty, or an array of plain values, with no comments.
    private static func inlineEnd(_ tokens: [RulesToken], from open: Int) -> Int? {
        var k = open + 1
        let isArray = tokens[open].kind == .open("[")
        while k < tokens.count {
            switch tokens[k].kind {
            case .close: return k
            case .string, .scalar, .comma: if !isArray { return nil }
            default: return nil
            }
            k += 1
        }
        return nil
    }

    /// The tokens that carry meaning, without trailing commas.
    private static func significant(_ tokens: [RulesToken]) -> [String] {
        var out: [String] = []
        for (k, t) in tokens.enumerated() {
            if t.kind == .comma, let next = tokens[(k + 1)...].first(where: { !$0.isComment }), case .close = next.kind { continue }
            out.append(t.text)
        }
        return out
    }
}

import RulesCompiler
import RulesSyntax

/// `textDocument/definition`: from a `$variable` in a rule expression to the `$key` that binds it.
package enum DefinitionProvider {
    /// The range of the binding key, nil when the cursor is not on a bound `$variable`.
    package static func definition(_ analysis: DocumentAnalysis, offset: Int) -> SourceRange? {
        guard let name = word(at: offset, in: analysis.file.bytes), name.hasPrefix("$") else { return nil }
        // The innermost wildcard of that name on the path binds it.
        return analysis.nodes(containing: offset).last { $0.path.last == name }?.keyRange
    }

    /// The name (letters, digits, `_`, `$`) around `offset`.
    static func word(at offset: Int, in bytes: [UInt8]) -> String? {
        let r = wordRange(at: offset, in: bytes)
        return r.length > 0 ? String(decoding: bytes[Int(r.start)..<Int(r.end)], as: UTF8.self) : nil
    }

    /// The range of the name around `offset`; a `$` starts a name (`a$b` holds `$b`).
    static func wordRange(at offset: Int, in bytes: [UInt8]) -> SourceRange {
        func isPart(_ b: UInt8) -> Bool {
            (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) || b == UInt8(ascii: "_") || b == UInt8(ascii: "$")
        }
        var s = min(offset, bytes.count), e = s
        while s > 0 && isPart(bytes[s - 1]) { s -= 1 }
        while e < bytes.count && isPart(bytes[e]) { e += 1 }
        if let dollar = bytes[s..<e].lastIndex(of: UInt8(ascii: "$")), dollar <= offset { s = dollar }
        return SourceRange(s, e)
    }
}

import Foundation
import Testing
@testable import RulesSyntax

/// The comment-embedded examples of the files in `Grammar/`.
enum GrammarExamples {
    /// The repository root, found from this file's path (Tests/RulesSyntaxTests/GrammarTests.swift).
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The text of every line `(* <tag>: TEXT *)` of `Grammar/<file>`, in order.
    static func lines(tagged tag: String, in file: String) -> [String] {
        let url = root.appendingPathComponent("Grammar").appendingPathComponent(file)
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        let prefix = "(* \(tag): "
        let suffix = " *)"
        return text.split(separator: "\n", omittingEmptySubsequences: false).compactMap { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix(prefix), trimmed.hasSuffix(suffix), trimmed.count >= prefix.count + suffix.count
            else { return nil }
            return String(trimmed.dropFirst(prefix.count).dropLast(suffix.count))
        }
    }

    static var valid: [String] { lines(tagged: "example", in: "expression.ebnf") }
    static var invalid: [String] { lines(tagged: "invalid", in: "expression.ebnf") }
    static var documents: [String] { lines(tagged: "document", in: "rules-document.ebnf") }
}

@Suite struct GrammarTests {
    @Test func filesHaveEnoughExamples() {
        #expect(GrammarExamples.valid.count >= 40)
        #expect(GrammarExamples.invalid.count >= 15)
        #expect(GrammarExamples.documents.count >= 5)
    }

    @Test(arguments: GrammarExamples.valid)
    func validExampleParses(text: String) {
        let result = ExpressionParser.parse(text)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.message))")
        #expect(result.root != nil)
    }

    @Test(arguments: GrammarExamples.invalid)
    func invalidExampleIsRejected(text: String) {
        let result = ExpressionParser.parse(text)
        #expect(result.root == nil)
        #expect(result.diagnostics.count == 1)
        #expect(result.diagnostics.first?.severity == .error)
    }

    @Test(arguments: GrammarExamples.documents)
    func documentExampleIsJSONWithParsableRules(json: String) throws {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8))
        let top = try #require(object as? [String: Any])
        #expect(top["rules"] is [String: Any])
        // Every rule string in the document is an expression the parser accepts.
        var pending: [Any] = [top]
        while let next = pending.popLast() {
            guard let node = next as? [String: Any] else { continue }
            for (key, value) in node {
                if [".read", ".write", ".validate"].contains(key), let expression = value as? String {
                    let result = ExpressionParser.parse(expression)
                    #expect(result.diagnostics.isEmpty, "\(key): \(expression)")
                } else {
                    pending.append(value)
                }
            }
        }
    }
}

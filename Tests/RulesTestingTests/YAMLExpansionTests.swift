import RulesTestSupport
import Testing

@testable import RulesTesting

/// YAML aliases and merge keys repeat what they name in full when a spec is read; a document
/// that expands past ``SpecNode/maxExpandedValues`` values (or ``SpecNode/maxExpandedBytes``
/// of text) is an error at the place it ran out, not gigabytes of memory.
@Suite struct YAMLExpansionTests {
    static let header = #"rules: { rules: { ".read": true } }"# + "\n"

    /// Nine levels of ten aliases of the level below: 10^9 strings ("billion laughs").
    static var aliasBomb: String {
        var text = header + "x0: &x0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for level in 1...9 {
            text += "x\(level): &x\(level) [" + Array(repeating: "*x\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
        }
        return text + "tests: []\n"
    }

    /// Nine levels of mappings each merging the level below ten times: the merged members are
    /// few, but each level converts the one below ten times over (10^9 conversions).
    static var mergeKeyBomb: String {
        var text = header + "m0: &m0 { k: v }\n"
        for level in 1...9 {
            text += "m\(level): &m\(level) { <<: [" + Array(repeating: "*m\(level - 1)", count: 10).joined(separator: ", ") + "], k\(level): v }\n"
        }
        return text + "tests: []\n"
    }

    /// A mapping whose ten members each alias a mapping of ten members, and so on.
    static var mappingAliasBomb: String {
        var text = header + "y0: &y0 { a: lol, b: lol, c: lol, d: lol, e: lol, f: lol, g: lol, h: lol, i: lol, j: lol }\n"
        for level in 1...9 {
            let members = "abcdefghij".map { "\($0): *y\(level - 1)" }.joined(separator: ", ")
            text += "y\(level): &y\(level) { \(members) }\n"
        }
        return text + "tests: []\n"
    }

    struct Bomb: Sendable, CustomTestStringConvertible {
        let label: String
        let text: String
        var testDescription: String { label }
    }

    static let bombs = [
        Bomb(label: "alias bomb (billion laughs)", text: aliasBomb),
        Bomb(label: "merge-key bomb", text: mergeKeyBomb),
        Bomb(label: "mapping alias bomb", text: mappingAliasBomb),
    ]

    @Test(arguments: bombs)
    func anExpansionBombIsAnErrorAtTheFile(_ bomb: Bomb) throws {
        let (output, dir) = try SpecFixture.run(["bomb.test.yaml": bomb.text])
        defer { dir.remove() }
        #expect(output.exitCode == 2)
        #expect(output.result == nil)
        #expect(output.stderr.hasPrefix("\(dir.path)/bomb.test.yaml:"), "\(output.stderr)")
        #expect(output.stderr.contains("error: the document expands to more than 1000000 values"), "\(output.stderr)")
        #expect(output.stderr.contains("aliases"), "\(output.stderr)")
    }

    @Test func theBudgetCountsEveryRepetition() throws {
        // 10 × 10 × 10 strings under aliases, well within the budget, read in full.
        var text = "a: &a [s, s, s, s, s, s, s, s, s, s]\nb: &b [" + Array(repeating: "*a", count: 10).joined(separator: ", ") + "]\n"
        text += "c: [" + Array(repeating: "*b", count: 10).joined(separator: ", ") + "]\n"
        let node = try SpecNode.readYAML(text, path: "small.yaml")
        let c = try #require(node.members?.first { $0.key == "c" }?.value)
        guard case .array(let outer) = c.kind else { Issue.record("c is not a list"); return }
        #expect(outer.count == 10)
        #expect(outer.allSatisfy { if case .array(let inner) = $0.kind { inner.count == 10 } else { false } })
    }

    @Test func longTextRepeatedByAliasesIsBoundedInBytes() {
        // 100 aliases of 100 aliases of one 10 KB string: 10^4 values, but 100 MB of text.
        let long = String(repeating: "x", count: 10_000)
        var text = "a: &a \(long)\nb: &b [" + Array(repeating: "*a", count: 100).joined(separator: ", ") + "]\n"
        text += "c: [" + Array(repeating: "*b", count: 100).joined(separator: ", ") + "]\n"
        #expect(throws: TestSpecError.self) { try SpecNode.readYAML(text, path: "long.yaml") }
        do {
            _ = try SpecNode.readYAML(text, path: "long.yaml")
        } catch {
            #expect(error.message.contains("64 MB of text"), "\(error.message)")
        }
    }

    @Test func mergeKeysStillMergeOnceEach() throws {
        let node = try SpecNode.readYAML("base: &b { x: 1, y: 2 }\nm: { <<: [*b, *b], y: 3 }\n", path: "m.yaml")
        let m = try #require(node.members?.first { $0.key == "m" }?.value.members)
        #expect(m.map(\.key) == ["y", "x"])
    }
}

import Foundation
import RulesCompiler
import RulesSyntax
import Testing

/// The disassembly of a small rules file is pinned by a golden file (`RECORD_GOLDEN=1` rewrites it):
/// it shows each rule's location, the short-circuit jumps, constant paths and the regex.
@Suite struct DisassemblerTests {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    @Test func listingMatchesTheGoldenFile() throws {
        try Self.expectListing(fast: false, matches: "disassembly.expected")
    }

    /// The fast code of the same file: fused instructions, and the continuations that carry a
    /// boolean into the `!`, `&&`, `||` or `return` after it.
    @Test func fastListingMatchesTheGoldenFile() throws {
        try Self.expectListing(fast: true, matches: "disassembly-fast.expected")
    }

    static func expectListing(fast: Bool, matches name: String) throws {
        let input = golden.appendingPathComponent("disassembly.rules.json")
        let data = try #require(FileManager.default.contents(atPath: input.path))
        let file = SourceFile(path: "disassembly.rules.json", bytes: [UInt8](data))
        let ruleset = try #require(RulesCompiler.compile(file).ruleset)
        let listing = Disassembler.listing(ruleset, fast: fast)
        let expectedURL = golden.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] != nil {
            try Data(listing.utf8).write(to: expectedURL)
            return
        }
        let expected = try String(contentsOf: expectedURL, encoding: .utf8)
        #expect(listing == expected)
    }

    @Test func jumpsLandInsideTheirRule() throws {
        let input = Self.golden.appendingPathComponent("disassembly.rules.json")
        let data = try #require(FileManager.default.contents(atPath: input.path))
        let ruleset = try #require(RulesCompiler.compile(SourceFile(path: "x", bytes: [UInt8](data))).ruleset)
        for rule in ruleset.rules where rule.constant == nil {
            #expect(ruleset.instructions[rule.codeEnd - 1].opcode == .return)
            for pc in rule.codeStart..<rule.codeEnd where ruleset.instructions[pc].opcode.isJump {
                let target = Int(ruleset.instructions[pc].operand)
                #expect(target > pc && target < rule.codeEnd, "jump at \(pc) in \(rule.rulePath)")
            }
        }
    }
}

/// Constant folding keeps runtime errors: only what cannot fail is folded.
@Suite struct ConstantFoldingTests {
    func ruleset(_ expression: String) throws -> CompiledRuleset {
        try #require(RulesCompiler.compile(source: #"{"rules": {".write": "\#(expression)"}}"#).ruleset)
    }

    @Test(arguments: [
        ("1 + 2 * 3 == 7", true), ("'a' + 'b' == 'ab'", true), ("!(1 < 2)", false),
        ("true || auth.uid == 'x'", true), ("false && auth.uid == 'x'", false), ("1 / 0 == 1 / 0", false),
        ("(1 == 1 ? 2 : 3) == 2", true), ("5 == '5'", false),
    ])
    func wholeRuleFoldsToAConstant(expression: String, value: Bool) throws {
        let rs = try ruleset(expression)
        #expect(rs.rules[0].constant == value)
        #expect(rs.instructions.isEmpty)
    }

    @Test(arguments: ["auth.uid == 'x' && false", "'a' + 1 == 'a1'", "'a' < 'b'", "auth.uid == 'x' || true"])
    func whatCouldFailOrNeedsTheRuntimeIsNotFolded(expression: String) throws {
        let rs = try ruleset(expression)
        #expect(rs.rules[0].constant == nil)
        #expect(!rs.instructions.isEmpty)
    }

    @Test func foldedSubExpressionsBecomeOnePush() throws {
        let rs = try ruleset("auth.uid == 'user-' + 'alice'")
        #expect(rs.instructions.contains(Instruction(.pushString, Int32(rs.strings.firstIndex(of: "user-alice")!))))
        #expect(!rs.instructions.contains { $0.opcode == .add })
    }
}

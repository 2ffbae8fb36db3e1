import DatabaseRules
import Testing

/// String results are bounded: an operation whose result would be longer than the 10 MB string
/// limit is a runtime error that fails its rule, refused before anything is allocated.
@Suite struct StringBoundsTests {
    /// `'aaaaaaaaaa'.replace('', 'aaaaaaaaaa')` chained seven times: each step multiplies the
    /// length by eleven, to about 214 MB at the end.
    static let replaceChain = "'aaaaaaaaaa'" + String(repeating: ".replace('','aaaaaaaaaa')", count: 7) + ".length > 0"

    static func denial(_ rule: String, value: DataInput = "x") throws -> String {
        let rules = try Ruleset(source: #"{"rules": {"x": {".write": "\#(rule)"}}}"#)
        let decision = rules.decide(.set(path: "/x", value: value), on: Database(), auth: .user(uid: "a"), explain: true)
        #expect(!decision.allowed)
        let decisive = try #require(decision.explanation?.decisive)
        guard case .error(let error) = decisive.outcome else {
            Issue.record("not a runtime error: \(decisive.outcome)")
            return ""
        }
        return error.message
    }

    @Test func aReplaceChainIsRefusedBeforeItIsBuilt() throws {
        let message = try Self.denial(Self.replaceChain)
        #expect(message.hasPrefix("replace() would make a string of "))
        #expect(message.hasSuffix("bytes, over the 10485760-byte limit."))
    }

    @Test func aQuadraticReplaceOverAClientStringIsRefused() throws {
        let message = try Self.denial("newData.val().replace('', newData.val()).length > 0", value: .string(String(repeating: "z", count: 60_000)))
        #expect(message == "replace() would make a string of 3600120000 bytes, over the 10485760-byte limit.")
    }

    @Test func concatenationPastTheLimitIsRefused() throws {
        let value = DataInput.string(String(repeating: "z", count: 6_000_000))
        let message = try Self.denial("(newData.val() + newData.val()).length > 0", value: value)
        #expect(message == "Invalid + expression: the result would be 12000000 bytes, over the 10485760-byte string limit.")
    }

    @Test func caseMappingThatGrowsPastTheLimitIsRefused() throws {
        // U+0390 (2 bytes) upper-cases to three scalars (6 bytes): 4 MB become 12 MB.
        let value = DataInput.string(String(repeating: "\u{390}", count: 2_000_000))
        let message = try Self.denial("newData.val().toUpperCase().length > 0", value: value)
        #expect(message == "toUpperCase() would make a string of 12000000 bytes, over the 10485760-byte limit.")
    }

    @Test func resultsWithinTheLimitAreUnchanged() throws {
        let rules = try Ruleset(source: #"{"rules": {"x": {".write": "newData.val().replace('', '-') === '-a-b-' && ('x' + 1) === 'x1'"}}}"#)
        #expect(rules.decide(.set(path: "/x", value: "ab"), on: Database(), auth: .null).allowed)
        #expect(StringSemantics.replacedLength("abcabc", "bc", with: "XYZ") == StringSemantics.replaceAll("abcabc", "bc", with: "XYZ").utf8.count)
        #expect(StringSemantics.replacedLength("é€", "", with: "ab") == StringSemantics.replaceAll("é€", "", with: "ab").utf8.count)
    }
}

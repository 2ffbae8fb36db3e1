import RulesTestSupport
import Foundation
import RulesCompiler
import RulesRuntime
import RulesSyntax
import Testing

/// The 186 expressions recorded from the live server (`Tests/Data/conformance/targaryen-fixtures.json`, with its licence):
/// each must be a compile error, a runtime error or the recorded boolean, exactly as recorded.
struct ConformanceFixture: Sendable, CustomTestStringConvertible {
    let index: Int
    let rule: String
    let user: AuthValue
    let userName: String
    let wildchildren: [(String, String)]
    let dataJSON: String?
    let query: QueryParameters
    let isValid: Bool
    let failAtRuntime: Bool
    let evaluateTo: Bool?

    var testDescription: String { "#\(index) \(rule) as \(userName)" }

    static let all: [ConformanceFixture] = load()

    static func load() -> [ConformanceFixture] {
        let url = TestPaths.conformance.appendingPathComponent("targaryen-fixtures.json")
        guard let data = FileManager.default.contents(atPath: url.path) else { return [] }
        let file = SourceFile(path: url.path, bytes: [UInt8](data))
        guard let root = RelaxedJSONReader.read(file).root, let members = root.members else { return [] }
        func member(_ ms: [JSONMember], _ key: String) -> JSONNode? { ms.first { $0.key.value == key }?.value }
        var users: [String: AuthValue] = [:]
        for m in member(members, "users")?.members ?? [] { users[m.key.value] = AuthValue(json: m.value) }
        guard case .array(let tests)? = member(members, "tests")?.kind else { return [] }
        var out: [ConformanceFixture] = []
        for (i, t) in tests.enumerated() {
            guard let ms = t.members else { continue }
            let userName = member(ms, "user")?.string?.value ?? "unauth"
            var wild: [(String, String)] = []
            for w in member(ms, "wildchildren")?.members ?? [] { wild.append((w.key.value, w.value.string?.value ?? "")) }
            var query = QueryParameters(orderByKey: true)  // a REST GET without orderBy
            if let q = member(ms, "query")?.members {
                query = QueryParameters()
                for f in q {
                    let prim: Primitive? = {
                        switch f.value.kind {
                        case .string(let s): .string(s.value)
                        case .number(let n, _): .number(n)
                        case .bool(let b): .bool(b)
                        default: nil
                        }
                    }()
                    switch f.key.value {
                    case "orderByKey": query.orderByKey = true
                    case "orderByValue": query.orderByValue = true
                    case "orderByPriority": query.orderByPriority = true
                    case "orderByChild": query.orderByChild = f.value.string?.value
                    case "startAt": query.startAt = prim
                    case "endAt": query.endAt = prim
                    case "equalTo": query.equalTo = prim
                    case "limitToFirst": if case .number(let n)? = prim { query.limitToFirst = n }
                    case "limitToLast": if case .number(let n)? = prim { query.limitToLast = n }
                    default: break
                    }
                }
            }
            var evaluateTo: Bool?
            if case .bool(let b)? = member(ms, "evaluateTo")?.kind { evaluateTo = b }
            var isValid = true
            if case .bool(let b)? = member(ms, "isValid")?.kind { isValid = b }
            var fails = false
            if case .bool(let b)? = member(ms, "failAtRuntime")?.kind { fails = b }
            out.append(ConformanceFixture(
                index: i, rule: member(ms, "rule")?.string?.value ?? "", user: users[userName] ?? .null,
                userName: userName, wildchildren: wild, dataJSON: member(ms, "data").map { file.text(of: $0.range) },
                query: query, isValid: isValid, failAtRuntime: fails, evaluateTo: evaluateTo))
        }
        return out
    }

    /// The rules document: the rule as `.read` below one node per wildcard.
    var document: String {
        var node = "{\".read\": \(JSONText.quote(rule))}"
        for (name, _) in wildchildren.reversed() { node = "{\(JSONText.quote(name)): \(node)}" }
        return "{\"rules\": \(node)}"
    }
}

@Suite struct ConformanceTests {
    @Test func allFixturesAreLoaded() {
        #expect(ConformanceFixture.all.count == 186)
        #expect(ConformanceFixture.all.filter { !$0.isValid }.count == 28)
    }

    @Test(arguments: ConformanceFixture.all)
    func fixture(_ f: ConformanceFixture) throws {
        let result = RulesCompiler.compile(source: f.document)
        guard f.isValid else {
            #expect(result.ruleset == nil, "the server refused to deploy this rule, but it compiled")
            #expect(result.diagnostics.containsErrors)
            return
        }
        let errors = result.diagnostics.filter { $0.severity == .error }.map(\.message)
        let ruleset = try #require(result.ruleset, "the server deployed this rule, but: \(errors)")
        let root = try f.dataJSON.map { try DataInputReader.read(json: $0).resolved(now: 0, existing: nil) } ?? nil
        let path = "/" + f.wildchildren.map(\.1).joined(separator: "/")
        let decision = RulesEngine(ruleset: ruleset).decide(
            .read(path: path, query: f.query), on: root, auth: f.user, now: 1_500_000_000_000, explain: true)
        let outcome = try #require(decision.explanation?.evaluations.last?.outcome)
        if f.failAtRuntime {
            guard case .error = outcome else {
                Issue.record("expected a runtime error, got \(outcome)")
                return
            }
        } else {
            #expect(outcome == .value(f.evaluateTo ?? false))
        }
        #expect(decision.allowed == (outcome == .value(true)))
    }
}

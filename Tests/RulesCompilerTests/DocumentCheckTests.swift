import Testing

@testable import RulesCompiler
@testable import RulesSyntax

/// The checks on the shape of the rules document (spec §1.1), run through the whole compile.
@Suite struct DocumentCheckTests {
    private let invalidKey = ##"String can't contain ".", "#", "$", "/", "[", or "]""##

    /// Compiles and returns the file with the result.
    private func compile(_ text: String) -> (SourceFile, CompilationResult) {
        let file = SourceFile(path: "database.rules.json", text: text)
        return (file, RulesCompiler.compile(file))
    }

    /// `(code, message, covered text)` of every diagnostic, in order.
    private func summary(_ text: String) -> [String] {
        let (file, result) = compile(text)
        return result.diagnostics.map { "\($0.severity) \($0.code) \(file.text(of: $0.range)): \($0.message)" }
    }

    // MARK: - Top level

    @Test func topLevelWithoutRules() {
        let (file, result) = compile("{\n  \"rulez\": {}\n}")
        #expect(result.ruleset == nil)
        #expect(result.tree == nil)
        #expect(result.diagnostics.map(\.code) == [.rulesMissing, .topLevelKey])
        #expect(result.diagnostics[0].message == "Expected 'rules' property.")
        #expect(file.location(of: result.diagnostics[0].range) == RulesSyntax.SourceLocation(line: 1, column: 2))
        #expect(file.text(of: result.diagnostics[1].range) == "\"rulez\"")
    }

    @Test func extraTopLevelKeyNextToRules() {
        let (file, result) = compile("{\n  \"rules\": { \".read\": true },\n  \"version\": 2\n}")
        #expect(result.ruleset == nil)
        // The rules themselves are still checked and built.
        #expect(result.tree?.read != nil)
        #expect(result.diagnostics.count == 1)
        let d = result.diagnostics[0]
        #expect(d.code == .topLevelKey)
        #expect(d.severity == .error)
        #expect(d.message == "Unexpected top-level key 'version': a rules document holds only 'rules'.")
        #expect(file.location(of: d.range) == RulesSyntax.SourceLocation(line: 3, column: 3))
    }

    @Test(arguments: ["[]", "\"rules\"", "5", "null", "true"])
    func documentThatIsNotAnObject(_ text: String) {
        #expect(summary(text) == ["error expected-object \(text): Expected '{'."])
    }

    @Test(arguments: ["[]", "\"x\"", "5", "null", "true"])
    func rulesThatAreNotAnObject(_ value: String) {
        #expect(summary("{\"rules\": \(value)}") == ["error expected-object \(value): Expected '{'."])
    }

    @Test func emptyRulesAreValid() {
        let (_, result) = compile("{\"rules\": {}}")
        #expect(result.diagnostics.isEmpty)
        #expect(result.ruleset != nil)
    }

    // MARK: - Rule values

    @Test(arguments: ["null", "1", "0", "[true]", "[]", "{}", "{\"x\": 1}"])
    func ruleValueThatIsNotBooleanOrString(_ value: String) {
        // null is refused like every other non-boolean, non-string value.
        #expect(summary("{\"rules\": {\".read\": \(value)}}").first
            == "error invalid-rule-value \(value): Invalid rule expression.  Expected 'true', 'false', or an expression string.")
    }

    @Test func emptyExpressionStringIsASyntaxError() {
        let (_, result) = compile("{\"rules\": {\".read\": \"\"}}")
        #expect(result.ruleset == nil)
        #expect(result.diagnostics.first?.code == .expressionSyntax)
    }

    @Test func booleanRulesAreConstants() throws {
        let (_, result) = compile("{\"rules\": {\".read\": true, \".write\": false, \".validate\": \"true\"}}")
        #expect(result.diagnostics.isEmpty)
        let tree = try #require(result.tree)
        guard case .constant(true)? = tree.read?.body else { Issue.record("read is not constant true"); return }
        guard case .constant(false)? = tree.write?.body else { Issue.record("write is not constant false"); return }
        guard case .expression? = tree.validate?.body else { Issue.record("validate is not an expression"); return }
    }

    // MARK: - .indexOn

    @Test(arguments: [
        ("\"owner\"", ["owner"]), ("[\"owner\", \"createdAt\"]", ["owner", "createdAt"]), ("[]", []),
        ("\".value\"", [".value"]), ("[\"a/b\"]", ["a/b"]),
    ] as [(String, [String])])
    func validIndexOn(_ value: String, _ expected: [String]) throws {
        let (_, result) = compile("{\"rules\": {\"posts\": {\".indexOn\": \(value)}}}")
        #expect(result.diagnostics.isEmpty)
        #expect(result.tree?.literalChild("posts")?.indexOn == expected)
    }

    @Test(arguments: [
        ("5", "5"), ("true", "true"), ("null", "null"), ("{}", "{}"), ("{\"a\": 1}", "{\"a\": 1}"),
        ("[\"a\", 5]", "5"), ("[[\"a\"]]", "[\"a\"]"), ("[\"a\", null, 1]", "null"),
    ])
    func invalidIndexOn(_ value: String, _ underlined: String) {
        #expect(summary("{\"rules\": {\"posts\": {\".indexOn\": \(value)}}}")
            == ["error invalid-index-on \(underlined): Invalid indexOn expression. Must be either a string or an array of strings"])
    }

    // MARK: - Dot-keys

    @Test(arguments: [".valdiate", ".priority", ".value", ".indexon", ".READ", "."])
    func unknownDotKeyWithAStringValue(_ key: String) {
        #expect(summary("{\"rules\": {\"\(key)\": \"true\"}}") == ["error expected-object \"true\": Expected '{'."])
    }

    @Test(arguments: [".valdiate", ".priority", ".value"])
    func unknownDotKeyWithAnObjectValue(_ key: String) {
        #expect(summary("{\"rules\": {\"\(key)\": {}}}") == ["error invalid-key \"\(key)\": \(invalidKey)"])
    }

    @Test func unknownDotKeyWithABooleanValue() {
        #expect(summary("{\"rules\": {\".valdiate\": true}}") == ["error expected-object true: Expected '{'."])
    }

    // MARK: - Literal keys

    @Test(arguments: ["a.b", "a#b", "a$b", "a/b", "a[b", "a]b", "#", "/", "[0]", "a\\u0001b", "a\\u007fb", "a\\nb", ""])
    func literalKeyWithAForbiddenCharacter(_ key: String) throws {
        let text = "{\n  \"rules\": {\n    \"\(key)\": {}\n  }\n}"
        let (file, result) = compile(text)
        #expect(result.ruleset == nil)
        #expect(result.diagnostics.count == 1)
        let d = try #require(result.diagnostics.first)
        #expect(d.code == .invalidKey)
        #expect(d.message == invalidKey)
        #expect(file.text(of: d.range) == "\"\(key)\"")
        #expect(file.location(of: d.range) == RulesSyntax.SourceLocation(line: 3, column: 5))
    }

    @Test(arguments: ["users", "user-posts", "a b", "ünïcödé", "emoji😀", "@home", "a:b", "1", "a\\\\b", "%2F"])
    func literalKeyThatIsAllowed(_ key: String) throws {
        let (_, result) = compile("{\"rules\": {\"\(key)\": {\".read\": true}}}")
        #expect(result.diagnostics.isEmpty)
        #expect(result.ruleset != nil)
        #expect(result.tree?.literalChildren.count == 1)
    }

    @Test(arguments: ["[]", "5", "\"x\"", "null", "false"])
    func childThatIsNotAnObject(_ value: String) {
        #expect(summary("{\"rules\": {\"users\": \(value)}}") == ["error expected-object \(value): Expected '{'."])
    }

    @Test func commentKeyIsNotAComment() throws {
        let text = """
            {
              "rules": {
                "//": "anyone may read",
                ".read": true
              }
            }
            """
        let (file, result) = compile(text)
        #expect(result.ruleset == nil)
        #expect(result.diagnostics.count == 1)
        let d = try #require(result.diagnostics.first)
        #expect(d.code == .expectedObject)
        #expect(d.message == "Expected '{'.")
        #expect(file.location(of: d.range) == RulesSyntax.SourceLocation(line: 3, column: 11))
    }

    @Test func commentKeyWithAnObjectIsAnInvalidKey() {
        #expect(summary("{\"rules\": {\"//\": {}}}") == ["error invalid-key \"//\": \(invalidKey)"])
    }

    @Test func realCommentsAreAccepted() {
        let text = """
            // Rules for the chat app.
            {
              /* the whole tree */
              "rules": {
                ".read": "auth != null", // signed-in users
                ".write": false
              }
            }
            """
        let (_, result) = compile(text)
        #expect(result.diagnostics.isEmpty)
        #expect(result.ruleset != nil)
    }

    // MARK: - Wildcards

    @Test(arguments: ["$a-b", "$1abc", "$a b", "$é"])
    func wildcardNameThatIsNotAnIdentifier(_ key: String) throws {
        let (file, result) = compile("{\"rules\": {\"\(key)\": {\".read\": true}}}")
        #expect(result.diagnostics.count == 1)
        let d = try #require(result.diagnostics.first)
        #expect(d.severity == .warning)
        #expect(d.code == .wildcardName)
        #expect(d.message == "Wildcard '\(key)' is not an identifier, so rules cannot refer to it as a variable.")
        #expect(file.text(of: d.range) == "\"\(key)\"")
        // A warning does not stop compilation.
        #expect(result.ruleset != nil)
        #expect(result.tree?.wildcard?.name == key)
    }

    @Test(arguments: ["$", "$a$b", "$a.b", "$a/b", "$a#b", "$[x]"])
    func wildcardNameWithAForbiddenCharacter(_ key: String) {
        #expect(summary("{\"rules\": {\"\(key)\": {}}}") == ["error invalid-key \"\(key)\": \(invalidKey)"])
    }

    @Test func shadowedWildcardWarnsAndTheInnerOneWins() throws {
        let text = """
            {
              "rules": {
                "$id": {
                  "$id": { ".read": "$id == 'x'" }
                }
              }
            }
            """
        let (file, result) = compile(text)
        #expect(result.diagnostics.count == 1)
        let d = try #require(result.diagnostics.first)
        #expect(d.severity == .warning)
        #expect(d.code == .wildcardShadowed)
        #expect(file.location(of: d.range) == RulesSyntax.SourceLocation(line: 4, column: 7))
        #expect(result.ruleset != nil)
        let inner = try #require(result.tree?.wildcard?.node.wildcard?.node.read)
        guard case .expression(let checked) = inner.body else { Issue.record("not an expression"); return }
        guard case .binary(_, let lhs, _, _) = checked.root.kind else { Issue.record("not a comparison"); return }
        guard case .wildcard(name: "$id", slot: 1)? = checked.resolutions[lhs.id] else {
            Issue.record("$id does not resolve to the inner wildcard: \(String(describing: checked.resolutions[lhs.id]))")
            return
        }
    }

    @Test func threeWildcardsGiveTwoErrors() {
        #expect(summary("{\"rules\": {\"$a\": {}, \"$b\": {}, \"$c\": {}}}") == [
            "error multiple-wildcards \"$b\": Cannot have multiple default rules ('$a' and '$b').",
            "error multiple-wildcards \"$c\": Cannot have multiple default rules ('$a' and '$c').",
        ])
    }

    @Test func literalAndWildcardSiblingsAreFine() throws {
        let (_, result) = compile("{\"rules\": {\"admin\": {\".read\": false}, \"$other\": {\".read\": \"$other != 'admin'\"}}}")
        #expect(result.diagnostics.isEmpty)
        #expect(result.tree?.literalChild("admin") != nil)
        #expect(result.tree?.wildcard?.name == "$other")
    }

    @Test func wildcardVariableIsVisibleOnlyBelowIt() {
        let text = "{\"rules\": {\".read\": \"$uid == 'a'\", \"$uid\": {\".read\": \"$uid == 'a'\", \"x\": {\".read\": \"$uid == 'b'\"}}}}"
        #expect(summary(text) == ["error unknown-variable $uid: Unknown variable '$uid'."])
    }

    // MARK: - Reader findings through the compile

    @Test func trailingCommaIsAWarningAndTheRulesCompile() throws {
        let text = """
            {
              "rules": {
                ".read": true,
                "a": { ".write": "auth != null", },
              },
            }
            """
        let (file, result) = compile(text)
        #expect(result.diagnostics.count == 3)
        #expect(result.diagnostics.allSatisfy { $0.severity == .warning && $0.code == .jsonTrailingComma })
        #expect(result.diagnostics.allSatisfy { file.text(of: $0.range) == "," })
        #expect(result.diagnostics.map { file.location(of: $0.range).line } == [4, 4, 5])
        #expect(result.ruleset != nil)
    }

    @Test func duplicateKeyIsAnError() throws {
        let text = """
            {
              "rules": {
                "users": { ".read": true },
                "users": { ".read": false }
              }
            }
            """
        let (file, result) = compile(text)
        #expect(result.ruleset == nil)
        #expect(result.diagnostics.count == 1)
        let d = try #require(result.diagnostics.first)
        #expect(d.code == .jsonDuplicateKey)
        #expect(d.severity == .error)
        #expect(d.message == "Duplicate key 'users'.")
        #expect(file.location(of: d.range) == RulesSyntax.SourceLocation(line: 4, column: 5))
    }

    @Test func duplicateRuleKeyIsAnError() {
        #expect(summary("{\"rules\": {\".read\": true, \".read\": \"foo\"}}") == [
            "error json-duplicate-key \".read\": Duplicate key '.read'."
        ])
    }

    @Test func rawLineBreaksInsideRuleStrings() throws {
        let text = "{\"rules\": {\".read\": \"query.orderByKey &&\n query.limitToFirst <= 100\"}}"
        let (_, result) = compile(text)
        #expect(result.diagnostics.isEmpty)
        #expect(result.ruleset != nil)
    }

    @Test func diagnosticsComeInFileOrder() {
        let text = """
            {
              "rules": {
                "$a": { ".read": "nope" },
                "b#": {},
                "$c": {},
                ".indexOn": 1,
              }
            }
            """
        let (file, result) = compile(text)
        let lines = result.diagnostics.map { file.location(of: $0.range).line }
        #expect(lines == [3, 4, 5, 6, 6])
        #expect(result.diagnostics.map(\.code) == [.unknownVariable, .invalidKey, .multipleWildcards, .invalidIndexOn, .jsonTrailingComma])
    }
}

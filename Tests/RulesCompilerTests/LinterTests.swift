import Testing

@testable import RulesCompiler
@testable import RulesSyntax

/// One lint case: a rules document and the lint codes it must produce (and only those).
struct LintCase: Sendable, CustomTestStringConvertible {
    var name: String
    var rules: String
    var expected: [LintCode]
    var testDescription: String { name }
}

/// Lints a document (which must compile cleanly).
func lintCodes(_ text: String) -> [LintCode] {
    let file = SourceFile(path: "t.json", text: text)
    let result = RulesCompiler.compile(file)
    #expect(!result.diagnostics.containsErrors, "\(result.diagnostics)")
    return Linter.lint(result, file: file).map(\.code)
}

/// Wraps the inside of the `rules` object.
func doc(_ inner: String) -> String { "{\"rules\": {\(inner)}}" }

@Suite struct LinterTests {
    static let cases: [LintCase] = [
        // public-read / public-write
        .init(name: "root read true", rules: doc(#"".read": true"#), expected: [.publicRead]),
        .init(name: "root read string true", rules: doc(#"".read": "true""#), expected: [.publicRead]),
        .init(name: "read true when signed out", rules: doc(#""a": {".read": "auth == null || auth.uid == 'x'"}"#), expected: [.publicRead]),
        .init(name: "auth.uid !== x is true signed out", rules: doc(#""a": {".read": "auth.uid !== 'admin'"}"#), expected: [.publicRead]),
        .init(name: "read requires auth", rules: doc(#"".read": "auth != null""#), expected: []),
        .init(name: "read depends on data", rules: doc(#"".read": "data.child('public').val() == true""#), expected: []),
        .init(name: "deep leaf is not large", rules: doc(#""config": {"public": {"motd": {".read": true}}}"#), expected: []),
        .init(name: "collection member is large", rules: doc(#""a": {"b": {"$id": {".read": true}}}"#), expected: [.publicRead]),
        .init(name: "public write", rules: doc(#""a": {".write": true, ".validate": "newData.isString()"}"#), expected: [.publicWrite]),
        .init(name: "erroring operand is not public", rules: doc(#""a": {".read": "auth.uid.length > 0 || true"}"#), expected: []),
        // shadowed-rule
        .init(name: "shadowed write", rules: doc(#""a": {"b": {"c": {".write": true, ".validate": "newData.isString()", "d": {".write": "auth != null"}}}}"#), expected: [.shadowedRule]),
        .init(name: "conditional ancestor does not shadow", rules: doc(#""a": {"b": {"c": {".read": "auth != null", "d": {".read": "auth != null"}}}}"#), expected: []),
        .init(name: "validate is never shadowed", rules: doc(#""a": {"b": {"c": {".read": true, "d": {".validate": "newData.isString()"}}}}"#), expected: []),
        // unreachable-wildcard and wildcard facts
        .init(name: "wildcard equal to sibling deeper", rules: doc(#""p": {"name": {}, "$k": {"x": {".validate": "$k == 'name' || newData.isString()"}}}"#), expected: [.impossibleCondition]),
        .init(name: "wildcard equal to another key", rules: doc(#""p": {"name": {}, "$k": {".validate": "$k == 'other'"}}"#), expected: []),
        // constant-rule
        .init(name: "folds true", rules: doc(#""a": {".validate": "1 < 2"}"#), expected: [.constantRule]),
        .init(name: "never true", rules: doc(#""a": {".validate": "newData.isString() && 1 > 2"}"#), expected: [.impossibleCondition]),
        .init(name: "always errors", rules: doc(#"".validate": "root.parent().exists()""#), expected: [.constantRule]),
        .init(name: "bare false is fine", rules: doc(#""a": {".validate": "false"}"#), expected: []),
        // impossible-condition
        .init(name: "two types", rules: doc(#""a": {".validate": "newData.child('x').isNumber() && newData.child('x').isBoolean()"}"#), expected: [.impossibleCondition]),
        .init(name: "exists and not", rules: doc(#""a": {".validate": "data.exists() && !data.exists()"}"#), expected: [.impossibleCondition]),
        .init(name: "two values", rules: doc(#""a": {".validate": "newData.val() == 'x' && newData.val() == 'y'"}"#), expected: [.impossibleCondition]),
        .init(name: "type and value", rules: doc(#""a": {".validate": "newData.isNumber() && newData.val() == 'x'"}"#), expected: [.impossibleCondition]),
        .init(name: "different snapshots", rules: doc(#""a": {".validate": "newData.isString() && data.isNumber()"}"#), expected: []),
        .init(name: "either type", rules: doc(#""a": {".validate": "newData.isString() || newData.isNumber()"}"#), expected: []),
        // type-mismatch-comparison
        .init(name: "wildcard vs number", rules: doc(#""a": {"$id": {".validate": "$id == 5 || newData.isString()"}}"#), expected: [.typeMismatchComparison]),
        .init(name: "auth.uid vs number", rules: doc(#""a": {".validate": "auth.uid == 1 || newData.isString()"}"#), expected: [.typeMismatchComparison]),
        .init(name: "now vs string", rules: doc(#""a": {".validate": "now != 'x' && newData.isString()"}"#), expected: [.typeMismatchComparison]),
        .init(name: "auth.uid vs null", rules: doc(#""a": {".read": "auth.uid != null"}"#), expected: []),
        .init(name: "val vs number", rules: doc(#""a": {".validate": "newData.val() == 5"}"#), expected: []),
        // delete-guard-in-validate
        .init(name: "not exists branch", rules: doc(#""a": {".validate": "!newData.exists() || newData.isString()"}"#), expected: [.deleteGuardInValidate]),
        .init(name: "val null", rules: doc(#""a": {".validate": "newData.val() != null"}"#), expected: [.deleteGuardInValidate]),
        .init(name: "child exists is fine", rules: doc(#""a": {".validate": "newData.child('x').exists()"}"#), expected: []),
        .init(name: "exists in write is fine", rules: doc(#""a": {"$b": {".write": "auth != null && newData.exists()", ".validate": "newData.isString()"}}"#), expected: []),
        // unvalidated-write
        .init(name: "no validate", rules: doc(#""a": {"$b": {".write": "auth != null"}}"#), expected: [.unvalidatedWrite]),
        .init(name: "validate below", rules: doc(#""a": {"$b": {".write": "auth != null", "$c": {".validate": false}}}"#), expected: []),
        .init(name: "write checks the value", rules: doc(#""a": {"$b": {".write": "auth != null && newData.val() == true"}}"#), expected: []),
        .init(name: "delete only", rules: doc(#""a": {"$b": {".write": "auth != null && !newData.exists()"}}"#), expected: []),
        .init(name: "write false", rules: doc(#""a": {".write": false}"#), expected: []),
        // root-in-write
        .init(name: "root into own location", rules: doc(#""p": {"$id": {".write": "auth != null && !root.child('p').child($id).exists()", ".validate": "newData.isString()"}}"#), expected: [.rootInWrite]),
        .init(name: "root elsewhere", rules: doc(#""p": {"$id": {".write": "root.child('admins').hasChild(auth.uid)", ".validate": "newData.isString()"}}"#), expected: []),
        .init(name: "root to another wildcard", rules: doc(#""p": {"$id": {".write": "auth != null && root.child('p').child(auth.uid).exists()", ".validate": "newData.isString()"}}"#), expected: []),
        .init(name: "root in read", rules: doc(#""p": {"$id": {".read": "auth != null && root.child('p/' + $id).exists()"}}"#), expected: []),
        // query-without-index
        .init(name: "orderByChild without index", rules: doc(#""m": {".read": "auth != null && query.orderByChild == 'ts'"}"#), expected: [.queryWithoutIndex]),
        .init(name: "orderByValue without index", rules: doc(#""m": {".read": "auth != null && query.orderByValue"}"#), expected: [.queryWithoutIndex]),
        .init(name: "indexed", rules: doc(#""m": {".indexOn": "ts", ".read": "auth != null && query.orderByChild == 'ts'"}"#), expected: []),
    ]

    @Test(arguments: cases)
    func lintTable(_ c: LintCase) {
        #expect(lintCodes(c.rules) == c.expected)
    }

    @Test func unreachableWildcardReplacesItsInnerFindings() throws {
        let text = doc(#""p": {"a": {}, "b": {}, "$k": {".validate": "$k == 'a' || $k == 'b'"}}"#)
        let file = SourceFile(path: "t.json", text: text)
        let found = Linter.lint(RulesCompiler.compile(file), file: file)
        #expect(found.map(\.code) == [.unreachableWildcard])
        let f = try #require(found.first)
        #expect(f.anchor == "/p/$k .validate")
        #expect(f.diagnostic.message.contains("'a', 'b'"))
        #expect(f.diagnostic.severity == .warning)
    }

    @Test func findingsPointAtTheSubExpression() throws {
        let text = "{\"rules\": {\"a\": {\"$id\": {\".validate\": \"newData.isString() || $id == 5\"}}}}"
        let file = SourceFile(path: "t.json", text: text)
        let f = try #require(Linter.lint(RulesCompiler.compile(file), file: file).first)
        #expect(f.code == .typeMismatchComparison)
        #expect(file.text(of: f.diagnostic.range) == "$id == 5")
    }

    @Test func filesWithErrorsAreNotLinted() {
        let file = SourceFile(path: "t.json", text: doc(#"".read": true, ".write": "nope""#))
        #expect(Linter.lint(RulesCompiler.compile(file), file: file).isEmpty)
    }

    @Test func sizeNearLimit() {
        let small = doc(#"".read": "auth != null""#)
        #expect(lintCodes(small).isEmpty)
        let padding = String(repeating: " ", count: Linter.sizeWarningThreshold - small.utf8.count)
        #expect(lintCodes(small + padding) == [.rulesSizeNearLimit])
        #expect(lintCodes(small + padding.dropLast()).isEmpty)
        // Over the documented limit the compiler's rules-file-large warning speaks instead.
        let over = String(repeating: " ", count: Linter.sizeLimit + 1 - small.utf8.count)
        #expect(lintCodes(small + over).isEmpty)
        let file = SourceFile(path: "t.json", text: small + over)
        #expect(RulesCompiler.compile(file).diagnostics.map(\.code) == [.rulesFileLarge])
    }

    // MARK: - Configuration

    @Test func configuration() throws {
        let text = doc(#"".read": true, "a": {"$b": {".write": "auth != null"}}"#)
        let file = SourceFile(path: "t.json", text: text)
        let result = RulesCompiler.compile(file)
        #expect(Linter.lint(result, file: file).map(\.code) == [.publicRead, .unvalidatedWrite])
        let off = try LintConfiguration.from(enable: [], disable: ["public-read"])
        #expect(Linter.lint(result, file: file, configuration: off).map(\.code) == [.unvalidatedWrite])
        let back = try LintConfiguration.from(enable: ["public-read"], disable: [])
        #expect(back == .default)
        #expect(throws: UnknownLintCodeError(name: "public-reed")) { try LintConfiguration.from(enable: [], disable: ["public-reed"]) }
    }
}

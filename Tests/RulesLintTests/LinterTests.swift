import Testing

@testable import RulesCompiler
@testable import RulesLint
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
        .init(name: "conditional ancestor does not shadow", rules: doc(#""a": {"b": {"c": {".read": "auth.token.admin == true", "d": {".read": "auth != null"}}}}"#), expected: []),
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
        .init(name: "allow-null idiom is quiet", rules: doc(#""a": {".validate": "!newData.exists() || newData.isString()"}"#), expected: []),
        .init(name: "allow-null with val is quiet", rules: doc(#""a": {".validate": "newData.isString() || newData.val() == null"}"#), expected: []),
        .init(name: "ternary condition is quiet", rules: doc(#""a": {".validate": "newData.exists() ? newData.isString() : true"}"#), expected: []),
        .init(name: "required under double negation", rules: doc(#""a": {".validate": "!(!newData.exists() || !newData.isString())"}"#), expected: [.deleteGuardInValidate]),
        .init(name: "required via == true", rules: doc(#""a": {".validate": "newData.exists() == true && newData.isString()"}"#), expected: [.deleteGuardInValidate]),
        .init(name: "val == null negated is required", rules: doc(#""a": {".validate": "!(newData.val() == null)"}"#), expected: [.deleteGuardInValidate]),
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
        .init(name: "root existence test in write is quiet", rules: doc(#""p": {"$id": {".write": "auth != null && !root.child('p').child($id).exists()", ".validate": "newData.isString()"}}"#), expected: []),
        .init(name: "old owner compared with auth in write is quiet", rules: doc(#""p": {"$id": {".write": "root.child('p/' + $id + '/owner').val() == auth.uid", ".validate": "newData.isString()"}}"#), expected: []),
        .init(name: "type test through root in write", rules: doc(#""p": {"$id": {".write": "auth != null && root.child('p').child($id).isString()", ".validate": "newData.isString()"}}"#), expected: [.rootInWrite]),
        .init(name: "length through root in write", rules: doc(#""p": {"$id": {".write": "auth != null && root.child('p/' + $id).val().length < 10", ".validate": "newData.isString()"}}"#), expected: [.rootInWrite]),
        .init(name: "root into own location in validate", rules: doc(#""p": {"$id": {".write": "auth.uid == $id", ".validate": "root.child('p').child($id).isString()"}}"#), expected: [.rootInWrite]),
        .init(name: "root elsewhere", rules: doc(#""p": {"$id": {".write": "root.child('admins').hasChild(auth.uid)", ".validate": "newData.isString()"}}"#), expected: []),
        .init(name: "root to another wildcard", rules: doc(#""p": {"$id": {".write": "auth != null && root.child('p').child(auth.uid).exists()", ".validate": "newData.isString()"}}"#), expected: []),
        .init(name: "root in read", rules: doc(#""p": {"$id": {".read": "auth != null && root.child('p/' + $id).exists()"}}"#), expected: []),
        .init(name: "admin-only write needs no validate", rules: doc(#""config": {".write": "auth != null && root.child('/admins/' + auth.uid).val() == true"}, "flags": {".write": "root.child('admins').child(auth.uid).exists()"}, "more": {".write": "root.child('admins').hasChild(auth.uid)"}"#), expected: []),
        .init(name: "a user write with an admin alternative needs a validate", rules: doc(#""u": {"$uid": {".write": "auth.uid == $uid || root.child('admins/' + auth.uid).exists()"}}"#), expected: [.unvalidatedWrite]),
        // authorization-in-validate
        .init(name: "owner check only in validate", rules: doc(#""p": {"$id": {".write": "auth != null", ".validate": "newData.child('owner').val() == auth.uid"}}"#), expected: [.authorizationInValidate]),
        .init(name: "token check only in validate", rules: doc(#""p": {"$id": {".write": "auth != null", ".validate": "auth.token.admin == true && newData.isString()"}}"#), expected: [.authorizationInValidate]),
        .init(name: "admin lookup only in validate", rules: doc(#""m": {"$id": {".write": true, ".validate": "newData.isString() && root.child('admins').child(auth.uid).val() != null"}}"#), expected: [.publicWrite, .authorizationInValidate]),
        .init(name: "membership check only in validate", rules: doc(#""m": {"$id": {".write": "auth != null", ".validate": "root.child('members').hasChild(auth.uid) && newData.isString()"}}"#), expected: [.authorizationInValidate]),
        .init(name: "owner check also in write", rules: doc(#""p": {"$id": {".write": "auth != null && (!data.exists() || data.child('owner').val() == auth.uid)", ".validate": "newData.child('owner').val() == auth.uid"}}"#), expected: []),
        // Deletes are forbidden, but the old owner is never checked: anyone signed in takes the record.
        .init(name: "write forbids deletes", rules: doc(#""p": {"$id": {".write": "auth != null && newData.exists()", ".validate": "newData.child('owner').val() == auth.uid"}}"#), expected: [.ownershipTakeover]),
        .init(name: "create only write", rules: doc(#""p": {"$id": {".write": "auth != null && !data.exists()", ".validate": "newData.child('owner').val() == auth.uid"}}"#), expected: []),
        .init(name: "auth only signed-in test in validate", rules: doc(#""p": {"$id": {".write": "auth != null", ".validate": "auth != null && newData.isString()"}}"#), expected: []),
        .init(name: "ancestor write with auth property", rules: doc(#""p": {".write": "auth.uid == 'admin'", "$id": {".validate": "newData.child('owner').val() == auth.uid"}}"#), expected: []),
        // weaker-ancestor-grant
        .init(name: "signed-in parent implies owner child", rules: doc(#""u": {".write": "auth != null", "$uid": {".write": "auth.uid == $uid", ".validate": "newData.isString()"}}"#), expected: [.weakerAncestorGrant]),
        .init(name: "signed-in parent implies owner read", rules: doc(#""u": {".read": "auth != null", "$uid": {".read": "auth.uid == $uid"}}"#), expected: [.weakerAncestorGrant]),
        .init(name: "a repeated grant is not stricter", rules: doc(#""u": {".read": "auth != null", "$uid": {".read": "auth != null"}}"#), expected: []),
        .init(name: "a signed-in alternative is not stricter", rules: doc(#""u": {".read": "auth.uid != null", "$uid": {".read": "auth != null || root.child('admins/' + auth.uid).exists()"}}"#), expected: []),
        .init(name: "shared conjunct implies", rules: doc(#""u": {".read": "auth.token.admin == true", "$uid": {".read": "auth.token.admin == true && query.limitToFirst <= 10"}}"#), expected: [.weakerAncestorGrant]),
        .init(name: "child true when signed out is not implied", rules: doc(#""u": {".read": "auth != null", "$uid": {".read": "data.child('public').val() == true"}}"#), expected: []),
        .init(name: "data conjuncts differ by location", rules: doc(#""u": {".read": "data.child('open').val() == true", "$uid": {".read": "data.child('open').val() == true"}}"#), expected: []),
        .init(name: "different kinds do not imply", rules: doc(#""u": {".read": "auth != null", "$uid": {".write": "auth.uid == $uid", ".validate": "newData.isString()"}}"#), expected: []),
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

    @Test func unvalidatedWritesAreGroupedAtTheTopmostLocation() throws {
        let text = doc(#""a": {"$x": {".write": "auth != null", "b": {".write": "auth.uid == $x"}, "c": {".write": "auth.uid == $x"}}}"#)
        let file = SourceFile(path: "t.json", text: text)
        let found = Linter.lint(RulesCompiler.compile(file), file: file).filter { $0.code == .unvalidatedWrite }
        #expect(found.count == 1)
        let f = try #require(found.first)
        #expect(f.anchor == "/a/$x .write")
        #expect(f.diagnostic.message.contains("The same holds for the 2 .write rules below it"))
    }

    @Test func publicAndUnvalidatedWriteAreOneFinding() throws {
        let text = doc(#""a": {"$x": {".write": true}}"#)
        let file = SourceFile(path: "t.json", text: text)
        let found = Linter.lint(RulesCompiler.compile(file), file: file)
        #expect(found.map(\.code) == [.publicWrite])
        #expect(found.first?.diagnostic.message.contains(".validate") == true)
    }

    @Test func weakerAncestorGrantOnTheRealPattern() throws {
        // A profile tree where every signed-in user was meant to write only their own profile.
        let text = doc(#"""
            "profiles": {
              ".read": "auth != null",
              ".write": "auth != null",
              "$uid": {
                ".write": "auth != null && auth.uid == $uid",
                ".validate": "newData.hasChildren(['name'])",
                "name": {".validate": "newData.isString() && newData.val().length < 50"},
                "$other": {".validate": false}
              }
            }
            """#)
        let file = SourceFile(path: "t.json", text: text)
        let found = Linter.lint(RulesCompiler.compile(file), file: file)
        #expect(found.map(\.code) == [.weakerAncestorGrant])
        #expect(found.first?.anchor == "/profiles/$uid .write")
        #expect(found.first?.diagnostic.message.contains("/profiles (auth != null)") == true)
    }

    @Test func authorizationInValidateOnTheRealPattern() throws {
        // Messages where the author's ownership lives in .validate: any signed-in user can delete any message.
        let text = doc(#"""
            "messages": {
              "$room": {
                "$msg": {
                  ".write": "auth != null",
                  ".validate": "newData.hasChildren(['uid', 'text']) && newData.child('uid').val() === auth.uid",
                  "text": {".validate": "newData.isString()"},
                  "uid": {".validate": "newData.isString()"},
                  "$other": {".validate": false}
                }
              }
            }
            """#)
        let file = SourceFile(path: "t.json", text: text)
        let found = Linter.lint(RulesCompiler.compile(file), file: file)
        #expect(found.map(\.code) == [.authorizationInValidate])
        #expect(found.first?.anchor == "/messages/$room/$msg .validate")
    }

    @Test func findingsPointAtTheSubExpression() throws {
        let text = "{\"rules\": {\"a\": {\"$id\": {\".validate\": \"newData.isString() || $id == 5\"}}}}"
        let file = SourceFile(path: "t.json", text: text)
        let f = try #require(Linter.lint(RulesCompiler.compile(file), file: file).first)
        #expect(f.code == .typeMismatchComparison)
        #expect(file.text(of: f.diagnostic.range) == "$id == 5")
    }

    /// The same expression in two places shares its parsed tree; each occurrence is still
    /// linted, and each finding points into its own occurrence.
    @Test func repeatedExpressionsAreLintedAtEachOccurrence() throws {
        let text = "{\"rules\": {\"a\": {\"$id\": {\".validate\": \"newData.isString() || $id == 5\"}}, \"b\": {\"$id\": {\".validate\": \"newData.isString() || $id == 5\"}}}}"
        let file = SourceFile(path: "t.json", text: text)
        let found = Linter.lint(RulesCompiler.compile(file), file: file).filter { $0.code == .typeMismatchComparison }
        #expect(found.count == 2)
        #expect(found.map { file.text(of: $0.diagnostic.range) } == ["$id == 5", "$id == 5"])
        #expect(Set(found.map(\.diagnostic.range.start)).count == 2)
    }

    @Test func filesWithErrorsAreNotLinted() {
        let file = SourceFile(path: "t.json", text: doc(#"".read": true, ".write": "nope""#))
        #expect(Linter.lint(RulesCompiler.compile(file), file: file).isEmpty)
    }

    @Test func sizeNearLimit() {
        let small = doc(#"".read": "auth != null""#)
        #expect(lintCodes(small).isEmpty)
        let padding = String(repeating: " ", count: RulesSizeNearLimitLint.threshold - small.utf8.count)
        #expect(lintCodes(small + padding) == [.rulesSizeNearLimit])
        #expect(lintCodes(small + padding.dropLast()).isEmpty)
        // Over the documented limit the compiler's rules-file-large warning speaks instead.
        let over = String(repeating: " ", count: RulesSizeNearLimitLint.sizeLimit + 1 - small.utf8.count)
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

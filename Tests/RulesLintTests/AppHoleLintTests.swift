import Testing

@testable import RulesCompiler
@testable import RulesLint
@testable import RulesSyntax

/// The holes real apps have (self-granted privileges, ownership takeovers, record checks at the
/// collection, grants voided through lookups and alternatives, literal keys meant for the
/// wildcard, authorization in `.validate` below the grant) and the two noise cases, as a table:
/// each document must produce exactly these codes.
@Suite struct AppHoleLintTests {
    static let cases: [LintCase] = [
        // 1. self-granted privilege
        .init(name: "role in the user's own record", rules: doc(#"""
            "users": {"$uid": {".write": "auth.uid === $uid", ".validate": "newData.hasChildren(['name'])"}},
            "grades": {".write": "root.child('users').child(auth.uid).child('role').val() === 'teacher'", ".validate": "newData.hasChildren()"}
            """#), expected: [.selfGrantedPrivilege]),
        .init(name: "role by concatenated path, two uses", rules: doc(#"""
            "profiles": {"$uid": {".write": "$uid === auth.uid", ".validate": "newData.hasChildren()"}},
            "config": {".read": "root.child('profiles/' + auth.uid + '/admin').val() == true",
                       ".write": "root.child('profiles/' + auth.uid + '/admin').val() == true", ".validate": "newData.hasChildren()"}
            """#), expected: [.selfGrantedPrivilege]),
        .init(name: "self-join a member list", rules: doc(#"""
            "rooms": {"$room": {
                ".read": "root.child('rooms').child($room).child('members').hasChild(auth.uid)",
                "members": {"$uid": {".write": "auth.uid == $uid", ".validate": "newData.isBoolean()"}}}}
            """#), expected: [.selfGrantedPrivilege]),
        .init(name: "roles written by administrators only", rules: doc(#"""
            "roles": {"$uid": {".write": "root.child('roles').child(auth.uid).val() === 'admin'", ".validate": "newData.isString()"}},
            "grades": {".write": "root.child('roles').child(auth.uid).val() === 'teacher'", ".validate": "newData.hasChildren()"}
            """#), expected: []),
        // 2. ownership takeover
        .init(name: "write compares only the new owner", rules: doc(#"""
            "notes": {"$noteId": {".write": "newData.child('uid').val() === auth.uid", ".validate": "newData.hasChildren(['uid', 'text'])"}}
            """#), expected: [.ownershipTakeover]),
        .init(name: "old owner checked", rules: doc(#"""
            "notes": {"$noteId": {".write": "(!data.exists() || data.child('uid').val() === auth.uid) && newData.child('uid').val() === auth.uid", ".validate": "newData.hasChildren(['uid'])"}}
            """#), expected: []),
        .init(name: "key is the owner", rules: doc(#"""
            "users": {"$uid": {".write": "auth.uid === $uid", ".validate": "newData.child('uid').val() === auth.uid"}}
            """#), expected: []),
        // 3. a record check at the collection level
        .init(name: "field of the records tested at the collection", rules: doc(#"""
            "submissions": {".write": "newData.child('student_id').val() === auth.uid",
                "$submissionId": {".validate": "newData.hasChildren(['student_id', 'answer'])"}}
            """#), expected: [.recordCheckAtCollection]),
        .init(name: "field tested on the record", rules: doc(#"""
            "submissions": {"$submissionId": {".write": "!data.exists() && newData.child('student_id').val() === auth.uid",
                ".validate": "newData.hasChildren(['student_id', 'answer'])"}}
            """#), expected: []),
        .init(name: "collection-level count is not a record field", rules: doc(#"""
            "rooms": {".validate": "newData.child('count').isNumber() || !newData.child('count').exists()", "count": {".validate": true},
                "$room": {".write": "auth != null && !data.exists()", ".validate": "newData.hasChildren(['name'])"}}
            """#), expected: []),
        // 4. grants voided by an ancestor, through lookups and alternatives
        .init(name: "signed-in ancestor over a member lookup", rules: doc(#"""
            "chatData": {".read": "auth.uid != null",
                "$chatId": {"messages": {".read": "root.child('members').child($chatId).child(auth.uid).exists()"}}}
            """#), expected: [.weakerAncestorGrant]),
        .init(name: "ancestor's alternative grants more than the child", rules: doc(#"""
            "teams": {"$team": {".write": "root.child('admins').child(auth.uid).exists() || root.child('teams').child($team).child('owner').val() === auth.uid",
                ".validate": "newData.hasChildren()",
                "budget": {".write": "root.child('admins').child(auth.uid).exists()"}}}
            """#), expected: [.weakerAncestorGrant]),
        .init(name: "one cause voiding two children is reported once", rules: doc(#"""
            "users": {".write": "auth != null", "$uid": {".validate": "newData.hasChildren()",
                "profile": {".write": "auth.uid === $uid", ".validate": "newData.hasChildren()"},
                "settings": {".write": "auth.uid === $uid", ".validate": "newData.hasChildren()"}}}
            """#), expected: [.weakerAncestorGrant]),
        .init(name: "private settings under a record every signed-in user reads", rules: doc(#"""
            "users": {"$uid": {".read": "auth != null", ".write": "auth.uid === $uid", ".validate": "newData.hasChildren()",
                "settings": {".read": "auth.uid === $uid"}}}
            """#), expected: [.weakerAncestorGrant]),
        .init(name: "child narrower than no ancestor", rules: doc(#"""
            "teams": {"$team": {".write": "root.child('admins').child(auth.uid).exists()", ".validate": "newData.hasChildren()",
                "budget": {".write": "root.child('treasurers').child(auth.uid).exists()"}}}
            """#), expected: []),
        // 5. a literal key beside the wildcard it was meant for
        .init(name: "field rule beside the records", rules: doc(#"""
            "posts": {"$postid": {".write": "auth != null && !data.exists()", ".validate": "newData.hasChildren(['user', 'text'])"},
                "user": {".validate": "newData.val() === auth.uid"}}
            """#), expected: [.literalKeyBesideWildcard]),
        .init(name: "field rule inside the records", rules: doc(#"""
            "posts": {"$postid": {".write": "auth != null && !data.exists()", ".validate": "newData.hasChildren(['user', 'text'])",
                "user": {".validate": "newData.val() === auth.uid"}}}
            """#), expected: []),
        // 6. authorization in .validate on a keyed child, with the grant higher up
        .init(name: "owner check on the record under a signed-in grant on the collection", rules: doc(#"""
            "posts": {".write": "auth.uid != null", "$postId": {".validate": "newData.child('owner').val() === auth.uid"}}
            """#), expected: [.authorizationInValidate]),
        .init(name: "owner check in write", rules: doc(#"""
            "posts": {"$postId": {".write": "auth != null && (!data.exists() || data.child('owner').val() === auth.uid) && (!newData.exists() || newData.child('owner').val() === auth.uid)",
                ".validate": "newData.hasChildren(['owner'])"}}
            """#), expected: []),
        // Noise: custom-claim administrators are trusted with the shape of what they store.
        .init(name: "custom claim admin write", rules: doc(#""catalog": {".read": "auth != null", ".write": "auth.token.admin === true"}"#), expected: []),
        .init(name: "custom claim role write", rules: doc(#""catalog": {".write": "auth.token.role == 'editor'"}"#), expected: []),
        .init(name: "a claim in a larger condition is not administration", rules: doc(#""catalog": {".write": "auth.token.admin === true || auth.uid != null"}"#), expected: [.unvalidatedWrite]),
    ]

    @Test(arguments: cases)
    func lints(_ c: LintCase) {
        #expect(lintCodes(c.rules) == c.expected)
    }

    /// One cause voiding several rules is one finding that lists them.
    @Test func cascadingCauseIsListedOnce() throws {
        let text = doc(#"""
            "users": {".write": "auth != null", "$uid": {".validate": "newData.hasChildren()",
                "profile": {".write": "auth.uid === $uid", ".validate": "newData.hasChildren()"},
                "settings": {".write": "auth.uid === $uid", ".validate": "newData.hasChildren()"}}}
            """#)
        let file = SourceFile(path: "t.json", text: text)
        let findings = Linter.lint(RulesCompiler.compile(file), file: file)
        let f = try #require(findings.first)
        #expect(findings.count == 1)
        #expect(f.diagnostic.message.hasSuffix("The same grant voids the .write rules at /users/$uid/settings."))
        #expect(!f.witnessCandidates.isEmpty)
    }
}

/// An unconditional grant that shadows several rules is one finding listing them.
@Suite struct ShadowedOnceTests {
    @Test func oneGrantOneFinding() throws {
        let text = doc(#""shop": {"catalog": {".read": true, "a": {".read": "auth != null"}, "b": {".read": "auth != null"}}}"#)
        let file = SourceFile(path: "t.json", text: text)
        let findings = Linter.lint(RulesCompiler.compile(file), file: file).filter { $0.code == .shadowedRule }
        let f = try #require(findings.first)
        #expect(findings.count == 1)
        #expect(f.diagnostic.message.hasSuffix("The same grant shadows the rules at /shop/catalog/b."))
    }
}

import RulesCompiler
import RulesRuntime
import RulesSyntax
import Testing

private let alice: AuthValue = .user(uid: "alice")

/// The value stored at a slash path of a tree, as JSON (nil when nothing is stored there).
private func json(_ root: DataNode?, _ path: String = "/") -> String? {
    let keys = path.split(separator: "/").map(String.init)
    guard let node = root?.descendant(keys) else { return nil }
    return node.exportJSON()
}

/// One point of spec §8 each (8.1–8.7), plus push, path validation and structural sharing.
@Suite struct EngineSemanticsTests {
    // MARK: - §8.1 Finding the rule node

    /// r19: a key that a literal sibling names uses only the literal subtree, in either order.
    @Test(arguments: [
        #"{"rules": {"a": {".read": false}, "$other": {".read": true}}}"#,
        #"{"rules": {"$other": {".read": true}, "a": {".read": false}}}"#,
    ])
    func literalBeatsWildcard(_ rules: String) throws {
        let a = try RuleProbe.decide(rules, .read(path: "/a"), root: nil)
        #expect(!a.allowed)
        #expect(RuleProbe.rulePaths(a) == ["/a/.read"])
        let b = try RuleProbe.decide(rules, .read(path: "/b"), root: nil)
        #expect(b.allowed)
        #expect(RuleProbe.rulePaths(b) == ["/$other/.read"])
    }

    /// r19: the wildcard's `.validate` does not apply to a key its literal sibling names.
    @Test func wildcardValidateDoesNotApplyToLiteralSibling() throws {
        let rules = #"{"rules": {".write": true, "$k": {".validate": false}, "lit": {}}}"#
        #expect(try RuleProbe.decide(rules, .set(path: "/lit", value: 1), root: nil).allowed)
        #expect(try !RuleProbe.decide(rules, .set(path: "/other", value: 1), root: nil).allowed)
    }

    /// Below a key with neither a literal nor a wildcard child there are no rules at all.
    @Test func noRuleNodeBelowAnUnmatchedKey() throws {
        let rules = #"{"rules": {".write": true, "a": {"b": {".validate": false}}}}"#
        #expect(try !RuleProbe.decide(rules, .set(path: "/a/b", value: 1), root: nil).allowed)
        let d = try RuleProbe.decide(rules, .set(path: "/c/b", value: 1), root: nil)
        #expect(d.allowed)
        #expect(RuleProbe.rulePaths(d) == ["/.write"])
    }

    // MARK: - §8.2 Reads

    /// 8.2.1: `.read` runs at each depth with `data` at that depth.
    @Test func readRulesSeeDataAtTheirDepth() throws {
        let rules = #"{"rules": {"a": {".read": "data.child('x').val() == 1"}}}"#
        #expect(try RuleProbe.decide(rules, .read(path: "/a/b"), root: RuleProbe.tree(#"{"a": {"x": 1}}"#)).allowed)
        #expect(try !RuleProbe.decide(rules, .read(path: "/a/b"), root: RuleProbe.tree(#"{"a": {"x": 2}}"#)).allowed)
    }

    /// 8.2.2: any true `.read` on the path grants, and a deeper false cannot take it away.
    @Test func anyTrueReadOnThePathGrants() throws {
        let deeper = #"{"rules": {".read": false, "a": {".read": true}}}"#
        let d = try RuleProbe.decide(deeper, .read(path: "/a/b/c"), root: nil)
        #expect(d.allowed)
        #expect(RuleProbe.outcomes(d) == [.isFalse, .isTrue])
        let shallower = #"{"rules": {".read": true, "a": {".read": false}}}"#
        let s = try RuleProbe.decide(shallower, .read(path: "/a"), root: nil)
        #expect(s.allowed)
        #expect(RuleProbe.rulePaths(s) == ["/.read"], "rules below a granting one are not evaluated")
    }

    /// 8.2.3: rules are not filters; a deeper `.read` never grants its parent.
    @Test func deeperReadNeverGrantsTheParent() throws {
        let rules = #"{"rules": {"a": {"b": {".read": true}}}}"#
        let root = try RuleProbe.tree(#"{"a": {"b": 1}}"#)
        #expect(try !RuleProbe.decide(rules, .read(path: "/a"), root: root).allowed)
        #expect(try !RuleProbe.decide(rules, .read(path: "/"), root: root).allowed)
        #expect(try RuleProbe.decide(rules, .read(path: "/a/b"), root: root).allowed)
    }

    /// 8.2.4: no rule, or only `.validate`/`.write` rules, means deny.
    @Test(arguments: [
        #"{"rules": {}}"#,
        #"{"rules": {".validate": true, ".write": true}}"#,
        #"{"rules": {"other": {".read": true}}}"#,
    ])
    func noReadRuleDenies(_ rules: String) throws {
        let d = try RuleProbe.decide(rules, .read(path: "/a"), root: RuleProbe.tree(#"{"a": 1}"#))
        #expect(!d.allowed)
        #expect(d.explanation?.evaluations.isEmpty == true)
    }

    /// 8.2.5 / §4.3: a query read sees its fields; a plain read has `orderByKey` false (an SDK
    /// read) and every other field null or false.
    @Test func queryReadsSeeTheQueryFields() throws {
        let rules = #"{"rules": {"list": {".read": "query.orderByChild == 'score' && query.limitToLast == 10 && query.startAt == 5 && !query.orderByKey"}}}"#
        let q = QueryParameters(orderByChild: "score", startAt: .number(5), limitToLast: 10)
        #expect(try RuleProbe.decide(rules, .read(path: "/list", query: q), root: nil).allowed)
        #expect(try !RuleProbe.decide(rules, .read(path: "/list"), root: nil).allowed)

        let plain = #"{"rules": {".read": "query.orderByKey == false && query.orderByValue == false && query.orderByPriority == false && query.orderByChild == null && query.startAt == null && query.endAt == null && query.equalTo == null && query.limitToFirst == null && query.limitToLast == null"}}"#
        #expect(try RuleProbe.decide(plain, .read(path: "/x"), root: nil).allowed)
        // A REST GET without orderBy arrives as a query ordered by key.
        let rest = #"{"rules": {".read": "query.orderByKey"}}"#
        #expect(try !RuleProbe.decide(rest, .read(path: "/x"), root: nil).allowed)
        #expect(try RuleProbe.decide(rest, .read(path: "/x", query: QueryParameters(orderByKey: true)), root: nil).allowed)
    }

    /// §4.3 (r30): `query.limitToFirst <= 2` denies a plain read with a runtime error.
    @Test func limitRuleDeniesPlainReadWithAnError() throws {
        let rules = #"{"rules": {".read": "query.limitToFirst <= 2"}}"#
        let plain = try RuleProbe.decide(rules, .read(path: "/"), root: nil)
        #expect(!plain.allowed)
        #expect(RuleProbe.outcomes(plain) == [.error])
        #expect(try RuleProbe.decide(rules, .read(path: "/", query: QueryParameters(limitToFirst: 2)), root: nil).allowed)
        let three = try RuleProbe.decide(rules, .read(path: "/", query: QueryParameters(limitToFirst: 3)), root: nil)
        #expect(!three.allowed)
        #expect(RuleProbe.outcomes(three) == [.isFalse])
    }

    /// §4.3 (r30): the owner-scoped pattern allows exactly the owner's query.
    @Test func ownerScopedQuery() throws {
        let rules = #"{"rules": {"items": {".read": "query.orderByChild == 'owner' && query.equalTo == auth.uid"}}}"#
        let mine = QueryParameters(orderByChild: "owner", equalTo: .string("alice"))
        let theirs = QueryParameters(orderByChild: "owner", equalTo: .string("bob"))
        #expect(try RuleProbe.decide(rules, .read(path: "/items", query: mine), root: nil, auth: alice).allowed)
        #expect(try !RuleProbe.decide(rules, .read(path: "/items", query: theirs), root: nil, auth: alice).allowed)
        #expect(try !RuleProbe.decide(rules, .read(path: "/items"), root: nil, auth: alice).allowed)
        #expect(try !RuleProbe.decide(rules, .read(path: "/items", query: mine), root: nil).allowed, "signed out")
    }

    // MARK: - §8.3 Writes

    /// 8.3.1: `newData` is the old tree with the write merged in: siblings stay visible, and
    /// `root` still shows the tree before the write.
    @Test func newDataIsTheMergedTree() throws {
        let rules = #"""
        {"rules": {"a": {".write": "newData.child('x').val() == 5 && newData.child('y').val() == 2 && data.child('x').val() == 1 && root.child('a/x').val() == 1"}}}
        """#
        let root = try RuleProbe.tree(#"{"a": {"x": 1, "y": 2}}"#)
        let d = try RuleProbe.decide(rules, .set(path: "/a/x", value: 5), root: root)
        #expect(d.allowed)
        #expect(json(d.newRoot) == #"{"a":{"x":5,"y":2}}"#)
        let sibling = #"{"rules": {"a": {"x": {".write": "newData.parent().child('y').val() == 2"}}}}"#
        #expect(try RuleProbe.decide(sibling, .set(path: "/a/x", value: 5), root: root).allowed)
    }

    /// 8.3.1: writing null or {} deletes and prunes ancestors left empty; "", 0 and false are
    /// stored and exist.
    @Test(arguments: [DataInput.null, DataInput.object([]), ["c": nil, "d": [:]]])
    func writingNullOrEmptyDeletesAndPrunes(_ value: DataInput) throws {
        let rules = #"{"rules": {".write": true}}"#
        let root = try RuleProbe.tree(#"{"a": {"b": {"c": 1}}, "z": 1}"#)
        let d = try RuleProbe.decide(rules, .set(path: "/a/b", value: value), root: root)
        #expect(d.allowed)
        #expect(json(d.newRoot) == #"{"z":1}"#)
        let all = try RuleProbe.decide(rules, .set(path: "/", value: value), root: root)
        #expect(all.allowed)
        #expect(all.newRoot == nil)
    }

    @Test(arguments: [("\"\"", DataInput.string("")), ("0", 0), ("false", false)])
    func falsyValuesAreStored(_ text: String, _ value: DataInput) throws {
        let rules = #"{"rules": {"a": {".write": "newData.exists()"}}}"#
        let d = try RuleProbe.decide(rules, .set(path: "/a", value: value), root: nil)
        #expect(d.allowed)
        #expect(json(d.newRoot, "/a") == text)
    }

    /// 8.3.2 (r24): `.write` is consulted only on the path to the written location.
    @Test func writeRulesBelowThePathAreNotConsulted() throws {
        let rules = #"{"rules": {"rooms": {"$id": {".write": true}}}}"#
        let d = try RuleProbe.decide(rules, .set(path: "/rooms", value: ["r1": ["name": "x"]]), root: nil)
        #expect(!d.allowed)
        #expect(d.explanation?.evaluations.isEmpty == true, "/rooms/$id/.write is not even evaluated")
        #expect(try RuleProbe.decide(rules, .set(path: "/rooms/r1", value: ["name": "x"]), root: nil).allowed)
    }

    /// 8.3.2: a true shallower `.write` grants everything below it.
    @Test func shallowerTrueWriteGrantsEverything() throws {
        let rules = #"{"rules": {".write": true, "a": {".write": false, "b": {".write": false}}}}"#
        let d = try RuleProbe.decide(rules, .set(path: "/a/b", value: 1), root: nil)
        #expect(d.allowed)
        #expect(RuleProbe.rulePaths(d) == ["/.write"])
    }

    /// §7.1 (r26): an erroring ancestor `.write` plus a true `.write` at the target allows.
    @Test func erroringAncestorWriteDoesNotBlockADeeperGrant() throws {
        let rules = #"{"rules": {"a": {".write": "data.val() > 1", "b": {".write": true}}}}"#
        let d = try RuleProbe.decide(rules, .set(path: "/a/b", value: 1), root: nil)
        #expect(d.allowed)
        #expect(RuleProbe.outcomes(d) == [.error, .isTrue])
        let only = try RuleProbe.decide(rules, .set(path: "/a", value: 1), root: nil)
        #expect(!only.allowed)
        #expect(RuleProbe.outcomes(only) == [.error])
    }

    /// 8.3.3 (r15): ancestors are validated against the merged value.
    @Test func ancestorsAreValidatedAgainstTheMergedValue() throws {
        let rules = #"{"rules": {".write": true, "p1": {".validate": "newData.hasChildren(['x'])"}}}"#
        let missing = try RuleProbe.decide(rules, .set(path: "/p1/y/z", value: 2), root: RuleProbe.tree(#"{"p1": {"y": 1}}"#))
        #expect(!missing.allowed)
        #expect(RuleProbe.rulePaths(missing) == ["/.write", "/p1/.validate"])
        #expect(RuleProbe.outcomes(missing) == [.isTrue, .isFalse])
        let present = try RuleProbe.decide(rules, .set(path: "/p1/y/z", value: 2), root: RuleProbe.tree(#"{"p1": {"x": 1}}"#))
        #expect(present.allowed)
    }

    /// 8.3.3 (r23): every non-null node the write carries is validated, unchanged ones included.
    @Test func everyCarriedNodeIsValidatedEvenUnchanged() throws {
        let rules = #"{"rules": {".write": true, "a": {"$k": {".validate": "newData.isNumber()"}}}}"#
        let root = try RuleProbe.tree(#"{"a": {"k1": "s"}}"#)
        let carried = try RuleProbe.decide(rules, .set(path: "/a", value: ["k1": "s", "k2": 1]), root: root)
        #expect(!carried.allowed, "k1 is carried, unchanged, and fails")
        #expect(carried.newRoot === root, "a denied write leaves the tree as it was")
        let notCarried = try RuleProbe.decide(rules, .update(path: "/a", values: [("k2", 1)]), root: root)
        #expect(notCarried.allowed, "k1 is not carried by the update")
    }

    /// 8.3.3: deeper levels of the written value are validated too.
    @Test func deepNodesOfTheWrittenValueAreValidated() throws {
        let rules = #"{"rules": {".write": true, "a": {"$k": {"n": {".validate": "newData.isNumber()"}}}}}"#
        #expect(try !RuleProbe.decide(rules, .set(path: "/a", value: ["k": ["n": "s"]]), root: nil).allowed)
        #expect(try RuleProbe.decide(rules, .set(path: "/a", value: ["k": ["n": 1]]), root: nil).allowed)
    }

    /// 8.3.3 / 8.3.5 (r21): `.validate` never runs on null: a delete passes a failing
    /// `.validate`, whether by null, by {} or by a child dropped from the written value.
    @Test func noValidationOnNull() throws {
        let rules = #"{"rules": {".write": true, "a": {".validate": false, "b": {".validate": false}}}}"#
        let root = try RuleProbe.tree(#"{"a": {"b": 1}}"#)
        for op: DatabaseOperation in [.delete(path: "/a"), .set(path: "/a", value: nil), .set(path: "/a", value: [:]), .update(path: "/", values: [("a", nil)])] {
            let d = try RuleProbe.decide(rules, op, root: root)
            #expect(d.allowed, "\(op.kindName)")
            #expect(d.newRoot == nil)
            #expect(RuleProbe.rulePaths(d) == ["/.write"])
        }
        let dropped = #"{"rules": {".write": true, "a": {"b": {".validate": false}}}}"#
        let d = try RuleProbe.decide(dropped, .set(path: "/a", value: ["c": 1]), root: root)
        #expect(d.allowed, "b is deleted by the write and not validated")
        let kept = try RuleProbe.decide(dropped, .set(path: "/a", value: ["b": 2]), root: root)
        #expect(!kept.allowed)
    }

    /// 8.3.3 (r23): siblings the write does not carry are not validated.
    @Test func siblingsNotCarriedAreNotValidated() throws {
        let rules = #"{"rules": {".write": true, "$k": {".validate": "newData.isNumber()"}}}"#
        let root = try RuleProbe.tree(#"{"bad": "s"}"#)
        let d = try RuleProbe.decide(rules, .set(path: "/good", value: 1), root: root)
        #expect(d.allowed)
        #expect(RuleProbe.rulePaths(d) == ["/.write", "/$k/.validate"])
    }

    /// 8.3.3: `.validate` only vetoes; it never grants.
    @Test func validateNeverGrants() throws {
        let rules = #"{"rules": {".validate": true, "a": {".validate": true}}}"#
        let d = try RuleProbe.decide(rules, .set(path: "/a", value: 1), root: nil)
        #expect(!d.allowed)
        #expect(d.explanation?.evaluations.isEmpty == true, "nothing is validated once the write is refused")
    }

    // MARK: - §8.4 Multi-path updates

    /// 8.4.2: every entry sees one merged tree, also through `newData.parent()`.
    @Test func updateEntriesSeeOneMergedTree() throws {
        let rules = #"""
        {"rules": {
          "a": {".write": true, ".validate": "newData.parent().child('b').val() == 2"},
          "b": {".write": true, ".validate": "newData.parent().child('a').val() == 1"}
        }}
        """#
        let root = try RuleProbe.tree(#"{"a": 0, "b": 0}"#)
        let both = try RuleProbe.decide(rules, .update(path: "/", values: [("a", 1), ("b", 2)]), root: root)
        #expect(both.allowed)
        #expect(json(both.newRoot) == #"{"a":1,"b":2}"#)
        let one = try RuleProbe.decide(rules, .update(path: "/", values: [("a", 1)]), root: root)
        #expect(!one.allowed)
    }

    /// 8.4.3: atomic; one failing entry denies all and nothing is written.
    @Test func updatesAreAtomic() throws {
        let rules = #"{"rules": {"a": {".write": true}, "b": {".write": true, ".validate": "newData.isString()"}, "c": {".write": false}}}"#
        let root = try RuleProbe.tree(#"{"a": 0}"#)
        for values: [(String, DataInput)] in [[("a", 1), ("c", 2)], [("a", 1), ("b", 2)]] {
            let d = try RuleProbe.decide(rules, .update(path: "/", values: values), root: root)
            #expect(!d.allowed)
            #expect(d.newRoot === root)
            #expect(d.reason != nil)
        }
        let ok = try RuleProbe.decide(rules, .update(path: "/", values: [("a", 1), ("b", "s")]), root: root)
        #expect(ok.allowed)
        #expect(json(ok.newRoot) == #"{"a":1,"b":"s"}"#)
    }

    /// 8.4.1: overlapping paths are rejected before any rule runs.
    @Test(arguments: [["a", "a/b"], ["a/b", "a"], ["x/y/z", "x/y"], ["a", "/a/"]])
    func overlappingUpdatePathsAreRejected(_ paths: [String]) throws {
        let rules = #"{"rules": {".write": true}}"#
        let d = try RuleProbe.decide(rules, .update(path: "/", values: paths.map { ($0, 1) }), root: nil)
        #expect(!d.allowed)
        #expect(d.reason?.contains("overlap") == true)
        #expect(d.explanation?.evaluations.isEmpty == true)
        #expect(d.explanation?.rejection != nil)
    }

    /// Few paths are checked pair by pair and many by sorting; both name the same pair, in
    /// path order, wherever the overlapping paths sit in the update.
    @Test(arguments: [3, 16, 17, 40])
    func overlapIsNamedTheSameForFewAndManyPaths(_ count: Int) throws {
        let rules = #"{"rules": {".write": true}}"#
        var paths = (0..<count - 1).map { "k\($0)/v" }
        paths.insert("k1/v/deep", at: 0)
        let d = try RuleProbe.decide(rules, .update(path: "/", values: paths.map { ($0, 1) }), root: nil)
        #expect(!d.allowed)
        #expect(d.reason == "Update paths overlap: /k1/v and /k1/v/deep.")
        let clean = try RuleProbe.decide(rules, .update(path: "/", values: paths.dropFirst().map { ($0, 1) }), root: nil)
        #expect(clean.allowed)
    }

    @Test func siblingPathsWithACommonPrefixDoNotOverlap() throws {
        let rules = #"{"rules": {".write": true}}"#
        let d = try RuleProbe.decide(rules, .update(path: "/", values: [("a", 1), ("ab", 2), ("a!/b", 3)]), root: nil)
        #expect(d.allowed)
    }

    /// Keys are compared by their bytes, so canonically equivalent spellings ("é" precomposed
    /// and "e" + U+0301) are two different keys: no overlap, and each is validated.
    @Test func canonicallyEquivalentKeysAreDistinctInUpdates() throws {
        let rules = #"{"rules": {".write": true, "$k": {".validate": "newData.hasChildren(['ok'])"}}}"#
        let both = try RuleProbe.decide(rules, .update(path: "/", values: [("\u{E9}/ok", 1), ("e\u{301}/ok", 2)]), root: nil)
        #expect(both.allowed)
        #expect(both.newRoot?.keys.count == 2)
        // The second ancestor is validated on its own even though Swift's String == calls the keys equal.
        let second = try RuleProbe.decide(rules, .update(path: "/", values: [("\u{E9}/ok", 1), ("e\u{301}/bad", 2)]), root: nil)
        #expect(!second.allowed)
        #expect(RuleProbe.rulePaths(second).filter { $0 == "/$k/.validate" }.count == 2)
    }

    /// An update with no entries writes nothing and runs no rule; it is allowed.
    @Test func emptyUpdateChangesNothing() throws {
        let rules = #"{"rules": {".write": false}}"#
        let root = try RuleProbe.tree(#"{"a": 1}"#)
        let d = try RuleProbe.decide(rules, .update(path: "/a", values: []), root: root)
        #expect(d.allowed)
        #expect(d.newRoot === root)
        #expect(d.explanation?.evaluations.isEmpty == true)
    }

    /// 8.4.5: a null entry deletes without `.validate`; ancestors left non-null are validated.
    @Test func nullUpdateEntryDeletesAndAncestorsAreStillValidated() throws {
        let rules = #"{"rules": {".write": true, "p": {".validate": "newData.hasChildren(['x'])", "$c": {".validate": false}}}}"#
        let root = try RuleProbe.tree(#"{"p": {"x": 1, "y": 2}}"#)
        let dropY = try RuleProbe.decide(rules, .update(path: "/p", values: [("y", nil)]), root: root)
        #expect(dropY.allowed)
        #expect(json(dropY.newRoot) == #"{"p":{"x":1}}"#)
        #expect(RuleProbe.rulePaths(dropY) == ["/.write", "/p/.validate"])
        let dropX = try RuleProbe.decide(rules, .update(path: "/p", values: [("x", nil)]), root: root)
        #expect(!dropX.allowed, "/p is validated and lacks x")
    }

    /// 8.4.4: the base path is only a prefix; rules at and above it act as ancestors, and
    /// permission is checked for each entry.
    @Test func updateBasePathIsAPrefix() throws {
        let rules = #"{"rules": {"p": {"q": {".write": true, "r": {".validate": "newData.val() == 1"}}, "s": {".write": false}}}}"#
        let ok = try RuleProbe.decide(rules, .update(path: "/p", values: [("q/r", 1), ("q/t", 2)]), root: nil)
        #expect(ok.allowed)
        #expect(json(ok.newRoot) == #"{"p":{"q":{"r":1,"t":2}}}"#)
        #expect(try !RuleProbe.decide(rules, .update(path: "/p", values: [("q/r", 2)]), root: nil).allowed)
        #expect(try !RuleProbe.decide(rules, .update(path: "/p", values: [("q/r", 1), ("s", 1)]), root: nil).allowed)
        let base = #"{"rules": {"p": {".write": true, ".validate": "newData.child('q/r').val() == 1"}}}"#
        #expect(try RuleProbe.decide(base, .update(path: "/p", values: [("q/r", 1)]), root: nil).allowed)
        #expect(try !RuleProbe.decide(base, .update(path: "/p", values: [("q/r", 2)]), root: nil).allowed)
    }

    // MARK: - §8.6 Server values

    /// A timestamp resolves to `now` before the rules run.
    @Test func timestampIsNow() throws {
        let rules = #"{"rules": {"t": {".write": true, ".validate": "newData.val() == now && newData.isNumber()"}}}"#
        let d = try RuleProbe.decide(rules, .set(path: "/t", value: .timestamp), root: nil, now: 1234)
        #expect(d.allowed)
        #expect(json(d.newRoot, "/t") == "1234")
    }

    /// r28: in an update every entry sees the resolved timestamp, also through `newData.parent()`.
    @Test func timestampSeenThroughParentInAnUpdate() throws {
        let rules = #"{"rules": {".write": true, "a": {".validate": "newData.parent().child('t').val() == now"}}}"#
        let d = try RuleProbe.decide(rules, .update(path: "/", values: [("a", 1), ("t", .timestamp)]), root: nil, now: 99)
        #expect(d.allowed)
        #expect(json(d.newRoot) == #"{"a":1,"t":99}"#)
    }

    /// An increment gives n on a missing location, stored + n on a number, n on a non-number.
    @Test(arguments: [
        (nil, "5"),
        (#"{"c": 10}"#, "15"),
        (#"{"c": "ten"}"#, "5"),
        (#"{"c": {"d": 1}}"#, "5"),
        (#"{"c": 0.5}"#, "5.5"),
    ] as [(String?, String)])
    func incrementResolution(_ before: String?, _ after: String) throws {
        let rules = #"{"rules": {"c": {".write": true, ".validate": "newData.isNumber()"}}}"#
        let d = try RuleProbe.decide(rules, .set(path: "/c", value: .increment(5)), root: RuleProbe.tree(before))
        #expect(d.allowed)
        #expect(json(d.newRoot, "/c") == after)
    }

    /// `newData` shows the resolved increment, so `newData.val() == data.val() + 1` holds.
    @Test func incrementIsResolvedInNewData() throws {
        let rules = #"{"rules": {"c": {".write": "newData.val() == data.val() + 1"}}}"#
        #expect(try RuleProbe.decide(rules, .set(path: "/c", value: .increment(1)), root: RuleProbe.tree(#"{"c": 41}"#)).allowed)
    }

    /// r27: `data.val() + 1` on a missing counter is a runtime error, so the write is denied;
    /// the guarded form allows it.
    @Test func counterArithmeticOnMissingDataIsAnError() throws {
        let naive = #"{"rules": {"c": {".write": "newData.val() == data.val() + 1"}}}"#
        let d = try RuleProbe.decide(naive, .set(path: "/c", value: .increment(1)), root: nil)
        #expect(!d.allowed)
        #expect(RuleProbe.outcomes(d) == [.error])
        let guarded = #"{"rules": {"c": {".write": "newData.val() == (data.exists() ? data.val() : 0) + 1"}}}"#
        #expect(try RuleProbe.decide(guarded, .set(path: "/c", value: .increment(1)), root: nil).allowed)
    }

    // MARK: - §8.7 Priorities

    /// A priority is kept in the export format; `getPriority()` reports it; `val()` ignores it.
    @Test func priorities() throws {
        let rules = #"{"rules": {"a": {".write": "newData.getPriority() == 5 && newData.val() == 'v'"}, "o": {".write": "newData.getPriority() == 'p' && newData.child('x').val() == 1"}}}"#
        let leaf = try RuleProbe.decide(rules, .set(path: "/a", value: .withPriority("v", priority: 5)), root: nil)
        #expect(leaf.allowed)
        #expect(json(leaf.newRoot) == #"{"a":{".value":"v",".priority":5}}"#)
        let object = try RuleProbe.decide(rules, .set(path: "/o", value: .withPriority(["x": 1], priority: "p")), root: nil)
        #expect(object.allowed)
        #expect(json(object.newRoot) == #"{"o":{"x":1,".priority":"p"}}"#)
        let plain = try RuleProbe.decide(rules, .set(path: "/a", value: "v"), root: nil)
        #expect(!plain.allowed, "a plain set leaves the priority null")
        let timestamp = #"{"rules": {"a": {".write": "newData.getPriority() == now"}}}"#
        let t = try RuleProbe.decide(timestamp, .set(path: "/a", value: .withPriority("v", priority: .timestamp)), root: nil, now: 7)
        #expect(t.allowed)
        #expect(json(t.newRoot, "/a") == #"{".value":"v",".priority":7}"#)
    }

    // MARK: - Push

    /// A push writes at `path/key`, and a wildcard there binds the key.
    @Test func pushWritesAtPathSlashKey() throws {
        let rules = #"{"rules": {"msgs": {"$id": {".write": "$id == '-Nabc' && newData.val() == 'hi'"}}}}"#
        let d = try RuleProbe.decide(rules, .push(path: "/msgs", value: "hi", key: "-Nabc"), root: nil)
        #expect(d.allowed)
        #expect(json(d.newRoot) == #"{"msgs":{"-Nabc":"hi"}}"#)
    }

    /// A push at the root writes at `/key`.
    @Test func pushAtTheRoot() throws {
        let rules = #"{"rules": {"$id": {".write": "$id == '-Nabc'"}}}"#
        let d = try RuleProbe.decide(rules, .push(path: "/", value: 1, key: "-Nabc"), root: nil)
        #expect(d.allowed)
        #expect(json(d.newRoot) == #"{"-Nabc":1}"#)
    }

    /// A push key must be one valid key: not empty, no `/`, none of the forbidden characters.
    @Test(arguments: ["", "a/b", "a.b", "a$", "/"])
    func invalidPushKeysAreRejected(_ key: String) throws {
        let rules = #"{"rules": {".write": true}}"#
        let root = try RuleProbe.tree(#"{"msgs": {"old": 1}}"#)
        let d = try RuleProbe.decide(rules, .push(path: "/msgs", value: 1, key: key), root: root)
        #expect(!d.allowed)
        #expect(d.newRoot === root)
        #expect(d.explanation?.rejection != nil)
        #expect(d.explanation?.evaluations.isEmpty == true)
    }

    // MARK: - §9 Invalid paths and keys

    static let deepPath = "/" + (1...32).map { "k\($0)" }.joined(separator: "/")
    static let deepestPath = "/" + (1...31).map { "k\($0)" }.joined(separator: "/")

    /// Invalid paths, keys and depths are rejected before any rule runs.
    @Test(arguments: [
        DatabaseOperation.set(path: "/a.b", value: 1),
        .set(path: "/a#", value: 1),
        .set(path: "/a/.priority", value: 1),
        .set(path: "/a", value: .withPriority(1, priority: true)),
        .set(path: "/a", value: .withPriority(1, priority: ["x": 1])),
        .set(path: "/a//b", value: 1),
        .set(path: "/a", value: ["b.c": 1]),
        .set(path: "/a", value: ["b": ["$c": 1]]),
        .set(path: EngineSemanticsTests.deepPath, value: 1),
        .set(path: "/k1", value: DataInput.nested(31)),
        .delete(path: "/a[0]"),
        .read(path: "/a.b"),
        .read(path: EngineSemanticsTests.deepPath),
        .update(path: "/", values: [("a.b", 1)]),
        .update(path: "/", values: [("ok", DataInput.object([("bad]", 1)]))]),
        .update(path: EngineSemanticsTests.deepestPath, values: [("more", 1)]),
    ])
    func invalidPathsAndKeysAreRejectedBeforeRules(_ op: DatabaseOperation) throws {
        let rules = #"{"rules": {".read": true, ".write": true}}"#
        let d = try RuleProbe.decide(rules, op, root: nil)
        #expect(!d.allowed)
        #expect(d.reason != nil)
        #expect(d.explanation?.rejection != nil)
        #expect(d.explanation?.evaluations.isEmpty == true)
    }

    /// 31 levels is the deepest allowed path.
    @Test func thirtyOneLevelsAreAllowed() throws {
        let rules = #"{"rules": {".read": true, ".write": true}}"#
        #expect(try RuleProbe.decide(rules, .set(path: Self.deepestPath, value: 1), root: nil).allowed)
        #expect(try RuleProbe.decide(rules, .set(path: "/k1", value: DataInput.nested(30)), root: nil).allowed)
        #expect(try RuleProbe.decide(rules, .read(path: Self.deepestPath), root: nil).allowed)
    }

    // MARK: - Structural sharing

    /// A write copies only the nodes on its path: untouched subtrees are the same objects.
    @Test func untouchedSubtreesAreShared() throws {
        let rules = #"{"rules": {".write": true}}"#
        let root = try #require(try RuleProbe.tree(#"{"a": {"big": {"x": 1, "y": [1, 2, 3]}}, "b": {"c": 1, "d": {"e": 2}}}"#))
        let d = try RuleProbe.decide(rules, .set(path: "/b/c", value: 5), root: root)
        let newRoot = try #require(d.newRoot)
        #expect(newRoot !== root)
        #expect(newRoot.child("a") === root.child("a"))
        #expect(newRoot.child("b") !== root.child("b"))
        #expect(newRoot.child("b")?.child("d") === root.child("b")?.child("d"))
        #expect(json(newRoot) == #"{"a":{"big":{"x":1,"y":{"0":1,"1":2,"2":3}}},"b":{"c":5,"d":{"e":2}}}"#)
    }
}

extension DataInput {
    /// `{"k": {"k": … 1}}` with `levels` keys.
    fileprivate static func nested(_ levels: Int) -> DataInput {
        var v: DataInput = 1
        for _ in 0..<levels { v = ["k": v] }
        return v
    }
}

extension EngineSemanticsTests {
    /// A literal rule key matches data keys byte for byte: the decomposed spelling of "é" goes to the wildcard.
    @Test func literalRuleKeysMatchByBytes() throws {
        let source = #"{"rules": {"\u00e9": {".read": true}, "$other": {".read": false}}}"#
        let ruleset = try #require(RulesCompiler.compile(source: source).ruleset)
        let engine = RulesEngine(ruleset: ruleset)
        #expect(engine.decide(.read(path: "/\u{E9}"), on: nil, now: 0).allowed)
        #expect(!engine.decide(.read(path: "/e\u{301}"), on: nil, now: 0).allowed)
    }
}

extension EngineSemanticsTests {
    /// String constants are pooled by their bytes: the precomposed and decomposed spellings of "é"
    /// in one file stay two constants, and each matches only itself.
    @Test func stringConstantsArePooledByBytes() throws {
        let source = #"{"rules": {"a": {".write": "newData.val() === '\u00e9'"}, "b": {".write": "newData.val() === 'e\u0301'"}}}"#
        let ruleset = try #require(RulesCompiler.compile(source: source).ruleset)
        let engine = RulesEngine(ruleset: ruleset)
        #expect(engine.decide(.set(path: "/a", value: .string("\u{E9}")), on: nil, now: 0).allowed)
        #expect(!engine.decide(.set(path: "/a", value: .string("e\u{301}")), on: nil, now: 0).allowed)
        #expect(engine.decide(.set(path: "/b", value: .string("e\u{301}")), on: nil, now: 0).allowed)
        #expect(!engine.decide(.set(path: "/b", value: .string("\u{E9}")), on: nil, now: 0).allowed)
    }
}

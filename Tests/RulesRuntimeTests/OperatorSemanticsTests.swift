import RulesCompiler
import RulesRuntime
import RulesSyntax
import Testing

/// One expression evaluated as a rule (spec §4–§7).
///
/// A read case is the `.read` rule of `/`, evaluated by reading `/` with `data` as the whole
/// tree. A write case is the `.write` rule of `/x`, evaluated by setting `/x` to `newValue` over
/// a tree whose `/x` holds `data`, so that `data` and `newData` are both available.
struct OperatorCase: Sendable, CustomTestStringConvertible {
    let expression: String
    let data: String?
    let auth: AuthValue
    let newValue: DataInput?
    let expected: Expected
    let why: String

    var testDescription: String {
        var s = "\(expression) → \(expected)"
        if let data { s += " [data \(data)]" }
        if let newValue { s += " [newData \(newValue)]" }
        if auth != .null { s += " [signed in]" }
        if !why.isEmpty { s += " (\(why))" }
        return s
    }

    /// A `.read` at `/` with `data` as the tree.
    static func read(_ expression: String, data: String? = nil, auth: AuthValue = .null, _ expected: Expected, _ why: String = "") -> OperatorCase {
        OperatorCase(expression: expression, data: data, auth: auth, newValue: nil, expected: expected, why: why)
    }

    /// A `.write` at `/x`: `data` is the old value there, `newValue` the written one.
    static func write(_ expression: String, old: String? = nil, new: DataInput, auth: AuthValue = .null, _ expected: Expected, _ why: String = "") -> OperatorCase {
        OperatorCase(expression: expression, data: old, auth: auth, newValue: new, expected: expected, why: why)
    }

    /// Runs the case; returns the outcome of the one rule evaluated and the decision.
    func run() throws -> (Expected, Decision) {
        let rule = JSONText.quote(expression)
        let rules: String
        let root: DataNode?
        let operation: DatabaseOperation
        if let newValue {
            rules = "{\"rules\": {\"x\": {\".write\": \(rule)}}}"
            root = try data.map { try RuleProbe.tree("{\"x\": \($0)}") } ?? nil
            operation = .set(path: "/x", value: newValue)
        } else {
            rules = "{\"rules\": {\".read\": \(rule)}}"
            root = try RuleProbe.tree(data)
            operation = .read(path: "/")
        }
        let decision = try RuleProbe.decide(rules, operation, root: root, auth: auth)
        // The fast path (no explanation) must decide the same.
        let plain = try RulesEngine(ruleset: RuleProbe.ruleset(rules)).decide(operation, on: root, auth: auth, now: RuleProbe.now)
        #expect(plain.allowed == decision.allowed, "explain: false decides differently")
        let evaluations = try #require(decision.explanation?.evaluations)
        #expect(evaluations.count == 1, "exactly one rule is evaluated")
        let last = try #require(evaluations.last)
        return (Expected(last.outcome), decision)
    }
}

private let signedOut: AuthValue = .null
private let alice: AuthValue = .user(uid: "alice", claims: ["n": 12, "flag": true, "s": "x", "decomposed": "e\u{301}", "list": ["a", "b"], "1": "one"])
/// Claims named by canonically equivalent spellings, in a small token and in a larger one.
private let fewClaims: AuthValue = .user(uid: "few", claims: ["e\u{301}": 1])
private let manyClaims: AuthValue = .user(uid: "many", claims: ["e\u{301}": 1, "c1": 1, "c2": 2, "c3": 3, "c4": 4, "c5": 5, "c6": 6, "c7": 7, "c8": 8])

@Suite struct OperatorSemanticsTests {
    // MARK: - `+` (§7)

    static let additionCases: [OperatorCase] = [
        .read("1 + 2 == 3", .isTrue, "number + number is the sum"),
        .read("'a' + 'b' == 'ab'", .isTrue, "string + string concatenates"),
        .read("'a' + 5 == 'a5'", .isTrue, "string + number: the integer has no trailing .0"),
        .read("5 + 'a' == '5a'", .isTrue, "number + string"),
        .read("'one' + 1 == 'one1'", .isTrue),
        .read("auth.token.s + 1 == 2", auth: alice, .isFalse, "a string claim plus 1 concatenates: false, not an error"),
        .read("'a' + 1.0 == 'a1'", .isTrue, "1.0 is the integer 1"),
        .read("'a' + 0.5 == 'a0.5'", .isTrue),
        .read("'a' + -1.5 == 'a-1.5'", .isTrue),
        .read("'a' + 1e21 == 'a1e+21'", .isTrue, "JavaScript switches to exponent form at 1e21"),
        .read("'a' + 1e20 == 'a100000000000000000000'", .isTrue, "below 1e21 integers are written out"),
        .read("'a' + 1e-7 == 'a1e-7'", .isTrue, "exponent form below 1e-6"),
        .read("'a' + 0.000001 == 'a0.000001'", .isTrue),
        .read("'a' + (-0) == 'a0'", .isTrue, "negative zero prints as 0"),
        .read("'a' + (0.1 + 0.2) == 'a0.30000000000000004'", .isTrue, "shortest round-trip digits"),
        .read("'a' + 0.1 + 0.2 == 'a0.10.2'", .isTrue, "left to right: string first, then string again"),
        .read("'a' + 9007199254740992 == 'a9007199254740992'", .isTrue, "2^53 written in full"),
        .read("'a' + 123456789012345680000 == 'a123456789012345680000'", .isTrue),
        .read("(1/0 + '') == 'NaN'", .isTrue, "NaN concatenates as 'NaN'"),
        .read("'a' + 1e308 * 10 == 'aInfinity'", .isTrue, "an overflow is Infinity"),
        .read("(data.val() + '').matches(/^-?\\d+$/)", data: "0.0", .isTrue, "Bolt's integer check accepts 0.0"),
        .read("(data.val() + '').matches(/^-?\\d+$/)", data: "-123", .isTrue, "Bolt's integer check accepts -123"),
        .read("(data.val() + '').matches(/^-?\\d+$/)", data: "1.1", .isFalse, "Bolt's integer check rejects 1.1"),
        .read("data.val() + 1 == 6", data: "5", .isTrue),
        .read("data.val() + 1 == 1", .error, "null + number (no data) is an error"),
        .read("data.val() + 'a' == 'nulla'", .error, "null + string is an error, not 'nulla'"),
        .read("'a' + data.val() == 'atrue'", data: "true", .error, "string + boolean is an error"),
        .read("auth.token.flag + 1 == 2", auth: alice, .error, "boolean + number is an error, not 2"),
        .read("data.val() + 1 == 2", data: #"{"a": 1}"#, .error, "an object + number is an error"),
    ]

    @Test(arguments: additionCases) func addition(_ c: OperatorCase) throws { try check(c) }

    // MARK: - `-` `*` `/` `%` and unary `-` (§7)

    static let arithmeticCases: [OperatorCase] = [
        .read("7 - 2 == 5", .isTrue),
        .read("3 * 4 == 12", .isTrue),
        .read("8 / 2 == 4", .isTrue),
        .read("7 / 2 == 3.5", .isTrue, "no integer division"),
        .read("7 % 4 == 3", .isTrue),
        .read("-7 % 4 == -3", .isTrue, "% takes the sign of the dividend, as in JavaScript"),
        .read("7 % -4 == 3", .isTrue, "% ignores the divisor's sign"),
        .read("-7 % -4 == -3", .isTrue),
        .read("5.5 % 2 == 1.5", .isTrue, "% on non-integers"),
        .read("(5 % 0 + '') == 'NaN'", .isTrue, "x % 0 is NaN"),
        .read("(1/0 + '') == 'NaN'", .isTrue, "x / 0 is NaN, not Infinity"),
        .read("(-1/0 + '') == 'NaN'", .isTrue, "-x / 0 is NaN, not -Infinity"),
        .read("(0/0 + '') == 'NaN'", .isTrue),
        .read("(1/0) > 2", .isFalse, "NaN is not greater than anything"),
        .read("(1/0) < 2", .isFalse, "NaN is not less than anything"),
        .read("(1/0) >= 2 || (1/0) <= 2", .isFalse),
        .read("(1/0) == (1/0)", .isFalse, "NaN equals nothing, itself included"),
        .read("(1/0) != (1/0)", .isTrue),
        .read("data.val() - 1 == 4", data: "5", .isTrue),
        .read("data.val() - 1 == 0", .error, "null - number"),
        .read("data.val() - 1 == 4", data: #""5""#, .error, "string - number: no coercion"),
        .read("data.val() * 2 == 10", data: #""5""#, .error, "string * number: no coercion"),
        .read("data.val() * 2 == 2", data: "true", .error, "boolean * number"),
        .read("data.val() / 2 == 0", .error, "null / number"),
        .read("data.val() % 2 == 0", .error, "null % number"),
        .read("2 % data.val() == 0", data: #""a""#, .error, "number % string"),
        .read("-data.val() == -5", data: "5", .isTrue, "unary minus of a number"),
        .read("-(-3) == 3", .isTrue),
        .read("-data.val() == 0", .error, "unary minus of null"),
        .read("-data.val() == -5", data: #""5""#, .error, "unary minus of a string"),
        .read("-data.val() == -1", data: "true", .error, "unary minus of a boolean"),
        .read("-auth.uid == 0", .error, "unary minus of null auth member"),
    ]

    @Test(arguments: arithmeticCases) func arithmetic(_ c: OperatorCase) throws { try check(c) }

    // MARK: - `==` `!=` `===` `!==` (§7)

    static let equalityCases: [OperatorCase] = [
        .read("5 == '5'", .isFalse, "no coercion between number and string"),
        .read("1 == true", .isFalse),
        .read("0 == false", .isFalse),
        .read("'' == false", .isFalse),
        .read("true == '1'", .isFalse),
        .read("null == false", .isFalse),
        .read("1 == 1.0", .isTrue, "numbers are doubles"),
        .read("null == null", .isTrue),
        .read("'a' == 'a'", .isTrue),
        .read("data.val() == null", .isTrue, "a missing value == null"),
        .read("data.val() == 5", data: #""5""#, .isFalse, "stored string vs number"),
        .read("data.val() == '5'", data: "5", .isFalse, "stored number vs string"),
        .read("data.val() == 5", data: "5", .isTrue),
        .read("data.val() == data.val()", data: "5", .isTrue, "a primitive equals itself"),
        .read("5 != '5'", .isTrue),
        .read("1 != 1.0", .isFalse),
        .read("5 === '5'", .isFalse, "=== is the same strict equality"),
        .read("1 === 1.0", .isTrue),
        .read("5 !== '5'", .isTrue),
        .read("1 !== 1", .isFalse),
        .read("auth.token.decomposed == 'é'", auth: alice, .isFalse, "code units compare, no Unicode normalisation"),
        .read("auth.token.decomposed == 'e\u{301}'", auth: alice, .isTrue, "the same code units are equal"),
        .read("auth == null", .isTrue, "signed out"),
        .read("auth != null", auth: alice, .isTrue, "signed in"),
        .read("auth.token == auth.token", auth: alice, .isFalse, "auth objects equal nothing"),
        .read("data.val() == data.val()", data: #"{"a": 1}"#, .isFalse, "val() of an object equals nothing, itself included"),
        .read("data.val() == null", data: #"{"a": 1}"#, .isFalse, "val() of an object is not null"),
        .read("data.val() != null", data: #"{"a": 1}"#, .isTrue),
        .read("data.val() == 'a'", data: #"{"a": 1}"#, .isFalse, "different types give false, never an error"),
        .write("newData.val() == data.val()", old: #"{"a": 1}"#, new: ["a": 1], .isFalse, "two equal objects are still not equal"),
        .write("newData.val() != data.val()", old: #"{"a": 1}"#, new: ["a": 1], .isTrue),
    ]

    @Test(arguments: equalityCases) func equality(_ c: OperatorCase) throws { try check(c) }

    // MARK: - `<` `<=` `>` `>=` (§7)

    static let orderingCases: [OperatorCase] = [
        .read("1 < 2", .isTrue),
        .read("2 <= 2", .isTrue),
        .read("3 > 2", .isTrue),
        .read("2 >= 3", .isFalse),
        .read("-0 < 0", .isFalse, "negative zero equals zero"),
        .read("'a' < 'b'", .isTrue, "strings order lexicographically"),
        .read("'B' < 'a'", .isTrue, "by code unit: upper case first"),
        .read("'abc' > 'ab'", .isTrue, "a proper prefix sorts first"),
        .read("'ab' >= 'ab'", .isTrue),
        .read("'😀' < 'ｱ'", .isTrue, "UTF-16 code units: U+1F600 is D83D DE00, below U+FF71"),
        .read("'10' < '9'", .isTrue, "strings compare as text, not numbers"),
        .read("data.val() > 1", data: #""one""#, .error, "string > number at runtime"),
        .read("'one' > data.val()", data: "1", .error, "string > number, the other way round"),
        .read("data.val() > 1", .error, "null > number (no data)"),
        .read("data.val() <= 'a'", .error, "null <= string"),
        .read("'foo' > auth.foo", .error, "null from a signed-out auth"),
        .read("auth.foo < 1", .error),
        .read("data.val() < 1", data: "true", .error, "boolean < number"),
        .read("data.val() >= 1", data: #"{"a": 1}"#, .error, "object >= number"),
        .read("query.limitToFirst <= 2", .error, "a null query field in an ordering"),
    ]

    @Test(arguments: orderingCases) func ordering(_ c: OperatorCase) throws { try check(c) }

    // MARK: - `&&` `||` `!` `?:` and errors (§7, §7.1)

    static let logicCases: [OperatorCase] = [
        .read("false && false || true", .isTrue, "&& binds tighter than ||"),
        .read("!(true || false && false)", .isFalse),
        .read("!(1 == 2)", .isTrue),
        .read("false && data.val() > 1", .isFalse, "short-circuit skips the erroring operand"),
        .read("true || data.val() > 1", .isTrue, "short-circuit skips the erroring operand"),
        .write("newData.isString() && newData.val().length > 2", new: 5, .isFalse, "a type guard avoids the error"),
        .write("newData.isString() && newData.val().length > 2", new: "abc", .isTrue),
        .read("data.val() > 1 || true", .error, "|| does not absorb an error that happened"),
        .write("newData.val().toUpperCase() == 'OK' || newData.isNumber()", new: 5, .error, "the recorded production case"),
        .read("!(data.val() > 1)", .error, "! does not absorb an error"),
        .read("!(data.val() > 1) || true", .error),
        .read("data.val() > 1 ? true : true", .error, "an error in the condition fails the rule"),
        .read("true ? true : data.val() > 1", .isTrue, "only the chosen branch runs"),
        .read("false ? data.val() > 1 : true", .isTrue, "only the chosen branch runs"),
        .read("true ? data.val() > 1 : true", .error, "an error in the chosen branch"),
        .read("data.val() <= (data.val() > 50 ? 200 : 100)", data: "150", .isTrue, "branches of any type"),
        .read("data.val() <= (data.val() > 50 ? 200 : 100)", data: "120", .isTrue),
        .read("data.val() <= (data.val() > 50 ? 200 : 100)", data: "30", .isTrue),
        .read("data.val() <= (data.val() > 50 ? 200 : 100)", data: "250", .isFalse),
        .read("true ? false : true ? true : true", .isFalse, "?: is right-associative"),
    ]

    @Test(arguments: logicCases) func logic(_ c: OperatorCase) throws { try check(c) }

    // MARK: - String members (§6.1)

    static let stringsCases: [OperatorCase] = [
        .read("'abc'.length == 3", .isTrue),
        .read("''.length == 0", .isTrue),
        .read("'😀'.length == 2", .isTrue, "length counts UTF-16 code units (an astral character is 2)"),
        .read("'é'.length == 1", .isTrue, "a precomposed letter is one unit"),
        .read("auth.token.decomposed.length == 2", auth: alice, .isTrue, "e + combining accent is two units"),
        .read("auth.token.s.length == 1", auth: alice, .isTrue, "length of a string auth member"),
        .read("data.val().length > 2", data: "5", .error, "length of a number"),
        .read("data.val().length > 2", .error, "length of null"),
        .read("data.val().length > 2", data: #"{"a": 1}"#, .error, "length of an object"),
        .read("auth.foo.length == 0", .error, "length of a null auth member"),
        .read("'aXbXc'.replace('X', '-') == 'a-b-c'", .isTrue, "replace replaces every occurrence"),
        .read("'aaa'.replace('aa', 'b') == 'ba'", .isTrue, "left to right, without overlaps"),
        .read("'a.b.c'.replace('.', '') == 'abc'", .isTrue, "the target is text, not a pattern"),
        .read("'x/a/g'.replace('/a/g', 'y') == 'xy'", .isTrue, "'/a/g' is just text"),
        .read("'abc'.replace('z', 'y') == 'abc'", .isTrue),
        .read("'abc'.replace('', '-') == '-a-b-c-'", .isTrue, "an empty target: the replacement around every character"),
        .read("''.replace('', '-') == '-'", .isTrue),
        .read("data.val().replace('a', 'b') == 'b'", data: "5", .error, "replace on a number"),
        .read("'abc'.replace(auth.uid, 'b') == 'abc'", .error, "a null argument 1"),
        .read("'abc'.replace('a', auth.uid) == 'abc'", .error, "a null argument 2"),
        .read("'a12'.replace(auth.token.n, 'b') == 'a12'", auth: alice, .error, "a number argument is not converted"),
        .read("'hello'.contains('ell')", .isTrue),
        .read("'hello'.contains('')", .isTrue, "everything contains the empty string"),
        .read("'hello'.contains('xyz')", .isFalse),
        .read("'hello'.contains(auth.uid)", .error, "a null argument"),
        .read("'a12'.contains(auth.token.n)", auth: alice, .error, "a number argument is not converted to '12'"),
        .read("data.val().contains('a')", data: "5", .error, "contains on a number"),
        .read("'hello'.beginsWith('he')", .isTrue),
        .read("'hello'.beginsWith('lo')", .isFalse),
        .read("'he'.beginsWith('hello')", .isFalse, "a longer prefix"),
        .read("'hello'.beginsWith('')", .isTrue),
        .read("'hello'.beginsWith(auth.uid)", .error),
        .read("'hello'.endsWith('lo')", .isTrue),
        .read("'hello'.endsWith('he')", .isFalse),
        .read("'hello'.endsWith('')", .isTrue),
        .read("'abc'.endsWith('xabc')", .isFalse, "targaryen's endsWith bug: no match and one character longer"),
        .read("'abc'.endsWith('abcd')", .isFalse, "targaryen's endsWith bug, other form"),
        .read("'lo'.endsWith('hello')", .isFalse),
        .read("'hello'.endsWith(auth.uid)", .error),
        .read("'HeLLo'.toLowerCase() == 'hello'", .isTrue),
        .read("'HeLLo'.toUpperCase() == 'HELLO'", .isTrue),
        .read("'ÄÖ'.toLowerCase() == 'äö'", .isTrue, "case mapping beyond ASCII"),
        .read("'straße'.toUpperCase() == 'STRASSE'", .isTrue, "full case mapping, as the JVM's toUpperCase"),
        .read("data.val().toLowerCase() == '5'", data: "5", .error, "toLowerCase on a number"),
        .read("data.val().toUpperCase() == ''", .error, "toUpperCase on null"),
        .read("'ba'.matches(/a/)", .isTrue, "matches searches anywhere"),
        .read("'ba'.matches(/^a/)", .isFalse),
        .read("'ABC'.matches(/abc/i)", .isTrue),
        .read("data.val().matches(/a/)", data: "5", .error, "matches on a number"),
    ]

    @Test(arguments: stringsCases) func strings(_ c: OperatorCase) throws { try check(c) }

    // MARK: - auth (§4.2)

    static let authCases: [OperatorCase] = [
        .read("auth.uid == null", .isTrue, "member access through null auth gives null"),
        .read("auth.foo.baz == null", .isTrue, "and so does a deeper access"),
        .read("auth.uid !== 'x'", .isTrue),
        .read("auth.token['firebase']['sign_in_provider'] == 'custom'", auth: alice, .isTrue),
        .read("auth.token.admin == null", auth: alice, .isTrue, "a missing claim is null"),
        .read("auth.token.n == 12", auth: alice, .isTrue, "custom claims sit at the top of token"),
        .read("auth.uid == 'alice'", auth: alice, .isTrue),
        .read("auth.foo.contains('x')", .error, "a method call on a null auth member"),
        .read("auth.uid.beginsWith('a')", .error),
        .read("auth.uid.beginsWith('a')", auth: alice, .isTrue),
        .read("auth.token.sub == auth.uid", auth: alice, .isTrue, "token.sub is the uid"),
        .read("auth.provider == 'custom'", auth: alice, .isTrue, "the default provider"),
        .read("auth.token.list.length == 2", auth: alice, .isTrue, "length of an auth array is its count"),
        .read("auth.token.list[0] == 'a'", auth: alice, .isTrue, "a number indexes an auth array"),
        .read("auth.token.list[5] == null", auth: alice, .isTrue, "out of range is null"),
        .read("auth.token.list[0.5] == null", auth: alice, .isTrue, "a non-integer index is null"),
        .read("auth.token[1] == 'one'", auth: alice, .isTrue, "a number indexes an object by its string form"),
        .read("auth.token['n'] == 12", auth: alice, .isTrue),
        .read("auth.token['é'] == null", auth: fewClaims, .isTrue, "member names compare by bytes: é is not e + U+0301"),
        .read("auth.token['e\u{301}'] == 1", auth: fewClaims, .isTrue, "the same bytes name the member"),
        .read("auth.token['é'] == null", auth: manyClaims, .isTrue, "by bytes in a larger token too"),
        .read("auth.token['e\u{301}'] == 1", auth: manyClaims, .isTrue),
        .read("auth.token.c8 == 8", auth: manyClaims, .isTrue),
        .read("auth['uid'] == 'few'", auth: fewClaims, .isTrue),
        .read("auth.uid.foo == null", auth: alice, .error, "a property of a string is an error, not null"),
        .read("auth.token.n.foo == null", auth: alice, .error, "a property of a number is an error"),
    ]

    @Test(arguments: authCases) func auth(_ c: OperatorCase) throws { try check(c) }

    // MARK: - Snapshots (§5)

    static let snapshotsCases: [OperatorCase] = [
        .read("data.child(auth.uid).exists()", .error, "child() with null (signed out)"),
        .read("data.child(data.child('n').val()).exists()", data: #"{"n": 5}"#, .error, "child() with a number"),
        .read("data.hasChild(auth.uid)", .error, "hasChild() with null"),
        .read("data.hasChildren([auth.uid])", .error, "hasChildren() with a null element"),
        .read("data.child(auth.uid).exists()", data: #"{"alice": 1}"#, auth: alice, .isTrue),
        .read("root.parent().exists()", .error, "parent() of the root"),
        .read("data.parent().exists()", .error, "data is the root here"),
        .read("data.hasChildren([])", data: "5", .isTrue, "hasChildren([]) is true, even on a leaf"),
        .read("data.hasChildren([])", .isTrue, "and on nothing"),
        .read("data.hasChildren()", data: "5", .isFalse, "a leaf has no children"),
        .read("data.hasChildren()", .isFalse),
        .read("data.hasChildren()", data: #"{"a": 1}"#, .isTrue),
        .read("data.hasChildren(['a', 'b'])", data: #"{"a": 1, "b": 2}"#, .isTrue),
        .read("data.hasChildren(['a', 'c'])", data: #"{"a": 1, "b": 2}"#, .isFalse),
        .read("data.hasChildren(['a/b'])", data: #"{"a": {"b": 1}}"#, .isTrue, "slash paths in hasChildren"),
        .read("data.child('a/b').val() == 1", data: #"{"a": {"b": 1}}"#, .isTrue, "child() takes a slash path"),
        .read("data.child('a').child('b').val() == 1", data: #"{"a": {"b": 1}}"#, .isTrue),
        .read("data.hasChild('a/b')", data: #"{"a": {"b": 1}}"#, .isTrue),
        .read("data.child('players/0').val() == 'x'", data: #"{"players": ["x", "y"]}"#, .isTrue, "arrays are objects keyed 0, 1, …"),
        .read("data.child('a.b').exists()", data: #"{"a": {"b": 1}}"#, .isFalse, "illegal key characters find nothing (no error)"),
        .read("data.child('x@y.com').exists()", data: #"{"a": 1}"#, .isFalse, "an e-mail address as a key"),
        .read("data.hasChild('a[0]')", data: #"{"a": 1}"#, .isFalse),
        .read("data.child('./a').exists()", data: #"{"a": 1}"#, .isFalse, ". segments are not resolved"),
        .read("data.child('b/../a').exists()", data: #"{"a": 1, "b": 1}"#, .isFalse, ".. segments are not resolved"),
        .read("data.child('').exists()", data: #"{"a": 1}"#, .isFalse, "child('') names no location"),
        .read("data.child('/a').val() == 1", data: #"{"a": 1}"#, .isTrue, "a leading slash is ignored"),
        .read("data.child('a/').val() == 1", data: #"{"a": 1}"#, .isTrue, "a trailing slash is ignored"),
        .read("data.child('a//b').val() == 1", data: #"{"a": {"b": 1}}"#, .isTrue, "empty segments are skipped"),
        .read("data.child('a').parent().child('b').val() == 2", data: #"{"a": 1, "b": 2}"#, .isTrue),
        .read("data.child('missing').child('deeper').parent().parent().child('b').val() == 2", data: #"{"b": 2}"#, .isTrue, "parent() of empty snapshots"),
        .read("data.exists()", .isFalse),
        .read("data.child('e').exists()", data: #"{"e": ""}"#, .isTrue, "an empty string is stored"),
        .read("data.child('z').exists()", data: #"{"z": 0}"#, .isTrue, "zero is stored"),
        .read("data.child('f').exists()", data: #"{"f": false}"#, .isTrue, "false is stored"),
        .read("data.child('a').isNumber()", data: #"{"a": 1}"#, .isTrue),
        .read("data.child('a').isString()", data: #"{"a": 1}"#, .isFalse),
        .read("data.child('a').isString()", data: #"{"a": "1"}"#, .isTrue),
        .read("data.child('a').isBoolean()", data: #"{"a": false}"#, .isTrue),
        .read("data.isNumber() || data.isString() || data.isBoolean()", data: #"{"a": 1}"#, .isFalse, "type tests are false for objects"),
        .read("data.isNumber() || data.isString() || data.isBoolean()", .isFalse, "and for null"),
        .read("data.child('a').getPriority() == 5", data: #"{"a": {".value": "v", ".priority": 5}}"#, .isTrue),
        .read("data.child('a').val() == 'v'", data: #"{"a": {".value": "v", ".priority": 5}}"#, .isTrue, "val() ignores the priority"),
        .read("data.child('a').getPriority() == 'p'", data: #"{"a": {"b": 1, ".priority": "p"}}"#, .isTrue, "an object's priority"),
        .read("data.child('a').getPriority() == null", data: #"{"a": 1}"#, .isTrue, "no priority is null"),
        .read("data.getPriority() == null", .isTrue),
        .read("now == 1700000000000", .isTrue, "now is the request time in ms"),
    ]

    @Test(arguments: snapshotsCases) func snapshots(_ c: OperatorCase) throws { try check(c) }

    // MARK: - Wildcards (§4.1)

    static let wildcardRows: [(String, String, Expected)] = [
        ("$id == 5", "5", .isFalse),
        ("$id == '5'", "5", .isTrue),
        ("$id.length == 1", "5", .isTrue),
        ("$id + 1 == '51'", "5", .isTrue),
        ("$id < '6'", "5", .isTrue),
    ]

    /// `$vars` are always strings: `$id == 5` is false, not an error, for the key `5`.
    @Test(arguments: wildcardRows) func wildcardVariablesAreStrings(_ expression: String, _ key: String, _ expected: Expected) throws {
        let rules = "{\"rules\": {\"$id\": {\".read\": \(JSONText.quote(expression))}}}"
        let d = try RuleProbe.decide(rules, .read(path: "/\(key)"), root: nil)
        #expect(RuleProbe.outcomes(d) == [expected])
        #expect(d.allowed == (expected == .isTrue))
    }

    // MARK: - Running

    private func check(_ c: OperatorCase, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let (outcome, decision) = try c.run()
        #expect(outcome == c.expected, sourceLocation: sourceLocation)
        // A true rule is the only thing that grants (§7.1: an error counts as not true).
        #expect(decision.allowed == (c.expected == .isTrue), sourceLocation: sourceLocation)
    }
}

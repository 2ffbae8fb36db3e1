import DatabaseRules
import RulesCompiler
import RulesLint
import RulesSyntax
import Testing

/// A cell whose answer is known by reading its rules.
struct OracleCell: Sendable, CustomTestStringConvertible {
    var name: String
    /// The inside of the `rules` object.
    var rules: String
    var location: String
    var principal: String
    var operation: AccessOperation
    /// `allowed` (with a witness the engine allows) or `never`.
    var allowed: Bool
    var testDescription: String { name }

    init(_ name: String, _ rules: String, _ location: String, _ principal: String, _ operation: AccessOperation, allowed: Bool) {
        self.name = name
        self.rules = rules
        self.location = location
        self.principal = principal
        self.operation = operation
        self.allowed = allowed
    }
}

/// The solver's oracle: cells allowed only with a value, principal or data that nobody would
/// guess (a regular expression, a narrow range, string bounds and affixes, another record's value,
/// `now`, a uid or e-mail the rules name, a query, many required children), each reported
/// `allowed` with a witness the engine allows where the bounded search alone finds nothing; and
/// contradictions, each reported `never`.
@Suite struct SolverOracleTests {
    static let signedIn = #"".write": "auth != null""#

    static let allowedCells: [OracleCell] = [
        .init("a slug a regular expression requires", #""posts": {"$id": {\#(signedIn), ".validate": "newData.child('slug').val().matches(/^[a-z]{3}-[0-9]{4}$/)"}}"#, "/posts/$id", "stranger", .create, allowed: true),
        .init("a number in a narrow range", #""scores": {"$id": {\#(signedIn), ".validate": "newData.isNumber() && newData.val() > 41.5 && newData.val() < 41.75"}}"#, "/scores/$id", "stranger", .create, allowed: true),
        .init("a string of exactly 17 characters", #""codes": {"$id": {\#(signedIn), ".validate": "newData.isString() && newData.val().length >= 17 && newData.val().length <= 17"}}"#, "/codes/$id", "stranger", .create, allowed: true),
        .init("a prefix and a suffix", #""tickets": {"$id": {\#(signedIn), ".validate": "newData.val().beginsWith('ticket_') && newData.val().endsWith('_ok')"}}"#, "/tickets/$id", "stranger", .create, allowed: true),
        .init("a short string with an at sign", #""handles": {"$id": {\#(signedIn), ".validate": "newData.val().contains('@') && newData.val().length < 6"}}"#, "/handles/$id", "stranger", .create, allowed: true),
        .init("a timestamp equal to now", #""events": {"$id": {\#(signedIn), ".validate": "newData.hasChildren(['at']) && newData.child('at').val() == now"}}"#, "/events/$id", "stranger", .create, allowed: true),
        .init("a vote carrying the poll's token", #""polls": {".read": true}, "votes": {"$poll": {"$uid": {".write": "auth.uid == $uid && newData.val() == root.child('polls').child($poll).child('token').val()"}}}"#, "/votes/$poll/$uid", "owner", .create, allowed: true),
        .init("a uid the rules name", #""admin": {".read": "auth.uid == 'ops-7f3a'"}"#, "/admin", "named", .read, allowed: true),
        .init("a verified e-mail at a domain", #""staff": {".read": "auth.token.email_verified == true && auth.token.email.endsWith('@example.com')"}"#, "/staff", "named", .read, allowed: true),
        .init("a query by owner", #""items": {".read": "query.orderByChild == 'owner' && query.equalTo == auth.uid"}"#, "/items", "stranger", .read, allowed: true),
        .init("a query with a small limit", #""feed": {".read": "query.limitToFirst <= 10"}"#, "/feed", "anonymous", .read, allowed: true),
        .init("six required children with checks", #""forms": {"$id": {\#(signedIn), ".validate": "newData.hasChildren(['a', 'b', 'c', 'd', 'e', 'f'])", "a": {".validate": "newData.isString()"}, "b": {".validate": "newData.val() > 5"}, "c": {".validate": "newData.val() == 'x'"}, "d": {".validate": "newData.isBoolean()"}, "e": {".validate": "newData.val() < -3"}, "f": {".validate": "newData.val().length == 2"}}}"#, "/forms/$id", "stranger", .create, allowed: true),
        .init("a case-insensitive greeting", #""greetings": {"$id": {\#(signedIn), ".validate": "newData.val().matches(/^hello [a-z]+$/i)"}}"#, "/greetings/$id", "stranger", .create, allowed: true),
        .init("a phone number", #""phones": {"$id": {\#(signedIn), ".validate": "newData.val().matches(/^\\+[0-9]{11}$/)"}}"#, "/phones/$id", "stranger", .create, allowed: true),
        .init("a key a pattern requires", #""rooms": {"$code": {".write": "$code.matches(/^[A-Z]{2}[0-9]{2}$/)"}}"#, "/rooms/$code", "anonymous", .create, allowed: true),
        .init("a public key prefix", #""shares": {"$id": {".read": "$id.beginsWith('pub_')"}}"#, "/shares/$id", "anonymous", .read, allowed: true),
        .init("a token with an organisation and a level", #""org": {".read": "auth.token.org == 'acme' && auth.token.level > 3"}"#, "/org", "named", .read, allowed: true),
        .init("a counter moved by one", #""counters": {"$uid": {".write": "auth.uid == $uid && newData.child('count').val() == data.child('count').val() + 1"}}"#, "/counters/$uid", "owner", .update, allowed: true),
        .init("an end after its start", #""slots": {"$id": {\#(signedIn), ".validate": "newData.child('start').isNumber() && newData.child('end').val() > newData.child('start').val() + 3600"}}"#, "/slots/$id", "stranger", .create, allowed: true),
        .init("a document not locked", #""docs": {"$id": {"body": {".write": "auth != null && root.child('locks').child($id).val() === false"}}}"#, "/docs/$id/body", "stranger", .write, allowed: true),
        .init("an e-mail at a corporate domain", #""intranet": {".read": "auth.token.email.matches(/@corp\\.example$/)"}"#, "/intranet", "named", .read, allowed: true),
        .init("exactly one thousand", #""totals": {"$id": {\#(signedIn), ".validate": "newData.isNumber() && newData.val() >= 1000 && newData.val() <= 1000"}}"#, "/totals/$id", "stranger", .create, allowed: true),
        .init("a hexadecimal digest", #""digests": {"$id": {\#(signedIn), ".validate": "newData.val().matches(/^[0-9a-f]{32}$/)"}}"#, "/digests/$id", "stranger", .create, allowed: true),
        .init("a value whose dashes are dropped", #""plain": {"$id": {\#(signedIn), ".validate": "newData.isString() && newData.val().replace('-', '') == 'abc' && newData.val().length == 4"}}"#, "/plain/$id", "stranger", .create, allowed: true),
        .init("a role in lower case", #""roles": {"$id": {\#(signedIn), ".validate": "newData.val().toLowerCase() == 'editor'"}}"#, "/roles/$id", "stranger", .create, allowed: true),
        .init("a kind chosen by a condition", #""things": {"$id": {\#(signedIn), ".validate": "newData.child('kind').val() == 'big' ? newData.child('n').val() > 100 : false"}}"#, "/things/$id", "stranger", .create, allowed: true),
        .init("a page of fifty by key", #""pages": {".read": "query.orderByKey && query.limitToFirst == 50"}"#, "/pages", "anonymous", .read, allowed: true),
        .init("names from m on", #""people": {".read": "query.orderByChild == 'name' && query.startAt == 'm'"}"#, "/people", "anonymous", .read, allowed: true),
        .init("a three-digit key starting with nine", #""areas": {"$n": {".read": "$n.length == 3 && $n.beginsWith('9')"}}"#, "/areas/$n", "anonymous", .read, allowed: true),
        .init("a service account uid prefix", #""jobs": {".write": "auth.uid.beginsWith('svc-')"}"#, "/jobs", "named", .write, allowed: true),
        .init("a uid the rules name for writes", #""config": {".write": "auth.uid === 'ZmA9xQ'", ".read": true}"#, "/config", "named", .write, allowed: true),
        .init("a price in cents", #""prices": {"$id": {\#(signedIn), ".validate": "newData.isNumber() && newData.val() * 4 == 1999"}}"#, "/prices/$id", "stranger", .create, allowed: true),
    ]

    static let neverCells: [OracleCell] = [
        .init("above five and below three", #""a": {"$id": {\#(signedIn), ".validate": "newData.val() > 5 && newData.val() < 3"}}"#, "/a/$id", "stranger", .create, allowed: false),
        .init("a string and a number", #""b": {"$id": {\#(signedIn), ".validate": "newData.isString() && newData.isNumber()"}}"#, "/b/$id", "stranger", .create, allowed: false),
        .init("longer than three and shorter than two", #""c": {"$id": {\#(signedIn), ".validate": "newData.val().length > 3 && newData.val().length < 2"}}"#, "/c/$id", "stranger", .create, allowed: false),
        .init("a key starting with a and with b", #""d": {"$id": {".write": "$id.matches(/^a/) && $id.beginsWith('b')"}}"#, "/d/$id", "stranger", .create, allowed: false),
        .init("signed out with a uid", #""e": {".read": "auth == null && auth.uid == 'x'"}"#, "/e", "anonymous", .read, allowed: false),
        .init("digits containing x", #""f": {"$id": {\#(signedIn), ".validate": "newData.val().matches(/^[0-9]+$/) && newData.val().contains('x')"}}"#, "/f/$id", "stranger", .create, allowed: false),
        .init("a limit above ten and below five", #""g": {".read": "query.limitToFirst > 10 && query.limitToFirst < 5"}"#, "/g", "anonymous", .read, allowed: false),
        .init("a child equal to one that does not exist", #""h": {"$id": {\#(signedIn), ".validate": "newData.child('a').val() == 1 && !newData.hasChild('a')"}}"#, "/h/$id", "stranger", .create, allowed: false),
        .init("now and before now", #""i": {"$id": {\#(signedIn), ".validate": "newData.val() == now && newData.val() < now"}}"#, "/i/$id", "stranger", .create, allowed: false),
        .init("a delete that must leave data", #""j": {"$id": {".write": "newData.exists()"}}"#, "/j/$id", "anonymous", .delete, allowed: false),
        .init("two values at one place", #""k": {".read": "root.child('x').val() == 'a' && root.child('x').val() == 'b'"}"#, "/k", "anonymous", .read, allowed: false),
        .init("another user's profile", #""users": {"$uid": {".read": "auth.uid == $uid"}}"#, "/users/$uid", "stranger", .read, allowed: false),
        .init("a write nobody may make", #""l": {".write": false, ".validate": "newData.isString()"}"#, "/l", "owner", .write, allowed: false),
        .init("a validate that contradicts its child", #""m": {"$id": {\#(signedIn), ".validate": "newData.child('n').isString()", "n": {".validate": "newData.isNumber()"}}}"#, "/m/$id", "stranger", .create, allowed: false),
    ]

    static func model(_ inner: String, solver: Bool) throws -> AccessModel {
        let file = SourceFile(path: "oracle.json", text: "{\"rules\": {\(inner)}}")
        let rules = try Ruleset(file: file)
        return AccessModel.build(rules: rules, tree: rules.compiled.tree, solver: solver ? .init(milliseconds: 30000, seconds: 900) : nil)
    }

    static func cell(_ model: AccessModel, _ c: OracleCell) -> AccessCell? {
        model.cells.first { $0.location.path == c.location && $0.principal.name == c.principal && $0.operation == c.operation }
    }

    @Test(arguments: allowedCells)
    func allowedWithAWitnessTheEngineAllows(_ c: OracleCell) throws {
        let model = try Self.model(c.rules, solver: true)
        let cell = try #require(Self.cell(model, c), "no cell \(c.location) \(c.principal) \(c.operation); principals: \(model.principals.map(\.name))")
        guard case .allowed(let w) = cell.verdict else {
            Issue.record("\(c.name): \(cell.verdict)")
            return
        }
        // The engine, run again from scratch, allows the witness.
        let rules = try Ruleset(file: SourceFile(path: "oracle.json", text: "{\"rules\": {\(c.rules)}}"))
        let again = WitnessSearch.run(w, rules: rules)
        #expect(again.confirmed, "\(w.lines)")
    }

    @Test(arguments: allowedCells)
    func theBoundedSearchAloneMissesIt(_ c: OracleCell) throws {
        let model = try Self.model(c.rules, solver: false)
        let cell = Self.cell(model, c)
        #expect(cell?.verdict.isAllowed != true, "\(c.name): the search found \(cell?.verdict.witness?.lines ?? [])")
    }

    @Test(arguments: neverCells)
    func contradictionsAreNever(_ c: OracleCell) throws {
        let model = try Self.model(c.rules, solver: true)
        let cell = try #require(Self.cell(model, c))
        guard case .never = cell.verdict else {
            Issue.record("\(c.name): \(cell.verdict)")
            return
        }
        #expect(model.solved)
    }

    @Test func theOracleIsLargeEnough() {
        #expect(Self.allowedCells.count >= 30)
        #expect(Self.neverCells.count >= 10)
    }
}

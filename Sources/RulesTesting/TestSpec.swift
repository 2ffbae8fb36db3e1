import RulesCoverage
import RulesRuntime
import RulesSyntax

/// A loaded spec file: the rules, the starting data and the tests, ready to run.
package struct TestSpec: Sendable {
    /// The spec file's path, as given.
    package var path: String
    /// The compiled rules the tests run against.
    package var rules: LoadedRules
    /// The file-level clock (ms), if set.
    package var now: Double?
    /// The file-level starting tree, if any (server values are resolved with each test's clock).
    package var data: DataInput?
    /// The tests, in file order.
    package var tests: [TestCase]

    /// Creates a spec.
    package init(path: String, rules: LoadedRules, now: Double?, data: DataInput?, tests: [TestCase]) {
        self.path = path
        self.rules = rules
        self.now = now
        self.data = data
        self.tests = tests
    }
}

/// One test: a fresh starting tree and steps run in order on one state.
package struct TestCase: Sendable {
    /// The name.
    package var name: String
    /// Where the test starts in its file.
    package var location: SourceLocation
    /// Replaces the file-level data, when set.
    package var data: DataInput?
    /// Path → value written over the data without rules, in order.
    package var seed: [(path: DataPath, value: DataInput)]
    /// The test's clock (ms), if set.
    package var now: Double?
    /// The steps.
    package var steps: [TestStep]
    /// `skip: true`: reported as skipped, not run.
    package var skip = false
    /// `only: true`: when any test of a file has it, only those tests of the file run.
    package var only = false

    /// Creates a test.
    package init(name: String, location: SourceLocation, data: DataInput?, seed: [(path: DataPath, value: DataInput)], now: Double?, steps: [TestStep]) {
        self.name = name
        self.location = location
        self.data = data
        self.seed = seed
        self.now = now
        self.steps = steps
    }
}

/// One operation with its expected outcome.
package struct TestStep: Sendable {
    /// The caller (``AuthValue/null`` when unauthenticated).
    package var auth: AuthValue
    /// How the caller is shown in messages: the `auth` name, a uid, or `unauthenticated`.
    package var caller: String
    /// What to do.
    package var operation: StepOperation
    /// The step's clock (ms), if set.
    package var now: Double?
    /// True when the operation must be allowed.
    package var expectAllow: Bool
    /// Where the step starts in its file.
    package var location: SourceLocation
    /// `expectData`: path → the value stored there after the step (null: nothing).
    package var expectData: [(path: DataPath, value: DataInput)] = []
    /// `expectValue`: the value a read returns (what is stored at its path).
    package var expectValue: DataInput?
    /// `expectRule`: the rule that decided, as its rule path (`/posts/$postId/.write`).
    package var expectRule: String?
    /// `expectReason`: text the denial's reason or explanation contains.
    package var expectReason: String?

    /// True when checking the step needs its explanation (which rule decided, and why).
    package var needsExplanation: Bool { expectRule != nil || expectReason != nil }

    /// Creates a step.
    package init(auth: AuthValue, caller: String, operation: StepOperation, now: Double?, expectAllow: Bool, location: SourceLocation) {
        self.auth = auth
        self.caller = caller
        self.operation = operation
        self.now = now
        self.expectAllow = expectAllow
        self.location = location
    }
}

/// The operation of a step. Paths are passed to the engine as written, so that an invalid one is
/// refused (denied) with the engine's reason rather than rejected while loading.
package enum StepOperation: Sendable {
    /// A read, plain or as a query.
    case read(path: String, query: QueryParameters)
    /// Replace the value at a path.
    case set(path: String, value: DataInput)
    /// A multi-path update: relative path → value, in order.
    case update(path: String, values: [(String, DataInput)])
    /// Delete the value at a path.
    case delete(path: String)
    /// Set a value under a new push key.
    case push(path: String, value: DataInput)

    /// A one-line description, e.g. `update /` or `read /posts/p1`.
    package var summary: String {
        switch self {
        case .read(let p, let q): "read \(p)" + (q == .none ? "" : " (query)")
        case .set(let p, _): "set \(p)"
        case .update(let p, _): "update \(p)"
        case .delete(let p): "delete \(p)"
        case .push(let p, _): "push \(p)"
        }
    }
}

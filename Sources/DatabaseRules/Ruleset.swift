import Foundation
import RulesCompiler

/// A compiled rules file, ready to authorize operations.
///
/// Immutable and `Sendable`: compile once at startup and share it across every request and thread.
///
/// ```swift
/// let rules = try Ruleset(contentsOfFile: "database.rules.json")
/// let decision = rules.decide(.set(path: "/posts/p1/title", value: "Hello"),
///                             on: database, auth: .user(uid: "alice"))
/// ```
public struct Ruleset: Sendable {
    /// The compiled form (bytecode, rule tree, source file).
    package let compiled: CompiledRuleset
    /// The engine that decides (its tables built once per ruleset; copies share them).
    package private(set) var engine: RulesEngine

    /// The work one decision may do (``EvaluationBudget/default`` unless set): a decision that
    /// runs out is denied, with a reason naming the rule and the data path
    /// (``Decision/isBudgetExhausted``).
    public var budget: EvaluationBudget {
        get { engine.budget }
        set { engine.budget = newValue }
    }

    /// How much an explanation records (``ExplanationLimits/default`` unless set).
    public var explanationLimits: ExplanationLimits {
        get { engine.explanationLimits }
        set { engine.explanationLimits = newValue }
    }

    /// Warnings found while compiling (errors make compilation throw).
    public var warnings: [Diagnostic] { compiled.diagnostics }

    /// The `.indexOn` entries of the rule that matches a data path (literal keys before
    /// `$wildcards`, as the rules are matched); empty when no rule node matches or it has none.
    /// `".value"` stands for an index on the children's values.
    public func indexOn(at path: [String]) -> [String] {
        let nodes = compiled.nodes
        guard !nodes.isEmpty else { return [] }
        var index = 0
        for key in path {
            let node = nodes[index]
            if let literal = node.literals[key] {
                index = Int(literal)
            } else if node.wildcard >= 0 {
                index = Int(node.wildcard)
            } else {
                return []
            }
        }
        return nodes[index].indexOn
    }

    /// The source of ``open`` (also what a server shows as its open rules).
    package static let openSource = """
        {
          "rules": {
            ".read": true,
            ".write": true
          }
        }
        """

    /// Rules that allow every read and write and validate nothing: what an administrator's
    /// requests are decided with (limits, key checks and server values still apply).
    public static let open: Ruleset = {
        do {
            return try Ruleset(source: openSource, path: "<open rules>")
        } catch {
            preconditionFailure("the open rules compile: \(error)")
        }
    }()

    /// Compiles rules from text. Throws ``RulesError`` with every diagnostic when there are errors.
    public init(source: String, path: String = "database.rules.json") throws(RulesError) {
        try self.init(file: SourceFile(path: path, text: source))
    }

    /// Reads and compiles a rules file.
    public init(contentsOfFile path: String) throws(RulesError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RulesError(file: nil, diagnostics: [], message: "\(path): cannot read the file")
        }
        try self.init(file: SourceFile(path: path, bytes: [UInt8](data)))
    }

    /// Compiles a source file.
    public init(file: SourceFile) throws(RulesError) {
        let result = RulesCompiler.compile(file)
        guard let ruleset = result.ruleset else {
            throw RulesError(file: file, diagnostics: result.diagnostics, message: nil)
        }
        self.init(compiled: ruleset)
    }

    /// Rules already compiled (what ``init(file:)`` makes of a file without errors).
    package init(compiled: CompiledRuleset) {
        self.compiled = compiled
        self.engine = RulesEngine(ruleset: compiled)
    }

    /// Decides an operation.
    /// - Parameters:
    ///   - operation: the read or write to authorize.
    ///   - database: the data before the operation.
    ///   - auth: the caller (`AuthValue.null` when signed out; see `AuthValue.user(uid:provider:claims:)`).
    ///   - now: the server time in ms since the epoch (defaults to the current time); also the value
    ///     of `{".sv": "timestamp"}`.
    ///   - explain: record every rule evaluated (costs nothing when false), within
    ///     ``explanationLimits``.
    ///   - redactUnreadable: with `explain`, make the explanation safe to show to the caller:
    ///     every value derived from data that `auth` may not read (by these rules' `.read`, on
    ///     `database`) is shown as `<unreadable>`, and evaluations that would tell what such data
    ///     holds are left out. Leave it false for the administrator and for logs. The decision
    ///     is the same either way.
    public func decide(
        _ operation: DatabaseOperation, on database: Database, auth: AuthValue = .null, now: Double? = nil, explain: Bool = false,
        redactUnreadable: Bool = false
    ) -> Decision {
        return engine.decide(operation, on: database.root, auth: auth, now: Self.time(now), explain: explain, redactUnreadable: redactUnreadable)
    }

    /// Decides a write on `root` and applies it there when it is allowed, without an
    /// explanation (see `RulesEngine.apply(_:to:auth:now:)`): what ``Database/apply(_:rules:auth:now:explain:)`` does.
    package func apply(_ operation: DatabaseOperation, to root: inout DataNode?, auth: AuthValue, now: Double?) -> Decision {
        engine.apply(operation, to: &root, auth: auth, now: Self.time(now))
    }

    /// `now`, or the current time in whole ms since the epoch.
    private static func time(_ now: Double?) -> Double {
        now ?? (Date().timeIntervalSince1970 * 1000).rounded(.down)
    }
}

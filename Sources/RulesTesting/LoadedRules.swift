import RulesCompiler
import RulesRuntime
import RulesSyntax

/// A compiled rules file and its engine, shared by every spec that names the file.
public final class LoadedRules: Sendable {
    /// The compiled rules (with the source file, for positions).
    public let ruleset: CompiledRuleset
    /// The engine that decides operations.
    public let engine: RulesEngine
    /// Rule index by rule path (`/posts/$postId/.write`), to map explanations back to rules.
    public let indexByRulePath: [String: Int]

    /// Wraps a compiled ruleset.
    public init(ruleset: CompiledRuleset) {
        self.ruleset = ruleset
        self.engine = RulesEngine(ruleset: ruleset)
        var index: [String: Int] = [:]
        for (i, rule) in ruleset.rules.enumerated() { index[rule.rulePath] = i }
        self.indexByRulePath = index
    }

    /// The path of the rules file (or the name given to inline rules).
    public var path: String { ruleset.file.path }

    /// Compiles a source file; errors become ``TestSpecError``s pointing into that file.
    /// `origin` maps an error's byte range to a place in another file (inline rules written in
    /// YAML are compiled from generated JSON; their errors point at the YAML).
    public static func compile(
        _ file: SourceFile, origin: ((SourceRange) -> (file: String, location: SourceLocation)?)? = nil
    ) throws(TestSpecErrors) -> LoadedRules {
        let result = RulesCompiler.compile(file)
        guard let ruleset = result.ruleset else {
            var errors = result.diagnostics.filter { $0.severity == .error }.map { d in
                let message = "\(d.message) [\(d.code)]"
                if let (path, location) = origin?(d.range) {
                    return TestSpecError(file: path, location: location, message: message)
                }
                return TestSpecError(file: file.path, location: file.location(of: d.range), message: message)
            }
            if errors.isEmpty {
                errors = [TestSpecError(file: file.path, location: SourceLocation(line: 1, column: 1), message: "the rules do not compile")]
            }
            throw TestSpecErrors(errors)
        }
        return LoadedRules(ruleset: ruleset)
    }
}

/// One or more input errors.
public struct TestSpecErrors: Error, Sendable, CustomStringConvertible {
    /// The errors, in the order found.
    public var errors: [TestSpecError]

    /// Wraps errors.
    public init(_ errors: [TestSpecError]) { self.errors = errors }

    /// One `file:line:col: error: message` line per error.
    public var description: String { errors.map(\.description).joined(separator: "\n") }
}

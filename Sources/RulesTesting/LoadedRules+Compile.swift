import RulesCompiler
import RulesCoverage
import RulesSyntax

extension LoadedRules {
    /// Compiles a source file; errors become ``TestSpecError``s pointing into that file.
    /// `origin` maps an error's byte range to a place in another file (inline rules written in
    /// YAML are compiled from generated JSON; their errors point at the YAML).
    package static func compile(
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

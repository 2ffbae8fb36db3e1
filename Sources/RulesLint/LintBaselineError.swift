import RulesCompiler
/// A baseline file that cannot be read.
package struct LintBaselineError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    package let message: String

    package var description: String { message }
}

/// Facts about the `rules` tool itself, as reports name it.
package enum RulesTool {
    /// The tool's version (`rules --version`, SARIF's `tool.driver.version`).
    package static let version = "0.1.0"

    /// The project's home page.
    package static let homepage = "https://github.com/swift-database-rules/swift-database-rules"

    /// Where the documentation of every code lives by default: SARIF's `helpUri` is this base
    /// followed by `lints.md#CODE` or `diagnostics.md#CODE`. A project can point it elsewhere (a
    /// fork, a pinned tag) with `documentation:` in `.database-rules.yaml` or `--docs-url`.
    package static let documentationBase = homepage + "/blob/main/docs/"

    /// The documentation address of a code under `base` (which ends with `/`).
    package static func documentationURL(for code: String, isLint: Bool, base: String = documentationBase) -> String {
        let slash = base.hasSuffix("/") ? base : base + "/"
        return slash + (isLint ? "lints.md#" : "diagnostics.md#") + code
    }
}

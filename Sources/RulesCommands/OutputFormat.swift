import ArgumentParser

/// How `rules check` prints its findings.
package enum OutputFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// gcc-style lines with source excerpts and a summary.
    case text
    /// One JSON object.
    case json
    /// SARIF 2.1.0, for code scanning.
    case sarif
    /// GitHub Actions workflow annotations.
    case github
}

/// When to colour text output.
package enum ColorChoice: String, ExpressibleByArgument, CaseIterable, Sendable {
    case auto, always, never
}

/// What ``RelaxedJSONReader`` made of a file: the document, if it could be read, and the findings.
package struct JSONReadResult: Sendable {
    /// The top-level value; nil when the document could not be read at all (a syntax error,
    /// invalid UTF-8, nesting that is too deep).
    package var root: JSONNode?
    /// Errors and warnings, in the order they were found. A non-nil ``root`` can still come with
    /// errors (a duplicate key, a forbidden trailing comma) that did not stop the reading.
    package var diagnostics: [Diagnostic]

    /// Creates a result.
    package init(root: JSONNode?, diagnostics: [Diagnostic]) {
        self.root = root
        self.diagnostics = diagnostics
    }
}

import DatabaseRules

/// JSON string quoting shared with the data exporter.
enum DataTextBridge {
    static func quoted(_ s: String) -> String { DataText.jsonQuoted(s) }
}

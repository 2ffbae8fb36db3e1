import RulesCompiler
import RulesSyntax

/// Known lint findings that a team has accepted, so that only new ones are reported.
///
/// Each entry names the file, the code, the anchor (rule path and key) and the message. None of
/// these depend on line numbers, so edits elsewhere in the file do not invalidate the baseline.
/// Matching counts: two identical findings need two entries.
///
/// The file format is JSON:
/// `{"version": 1, "findings": [{"file": "...", "code": "...", "path": "...", "message": "..."}]}`.
package struct LintBaseline: Sendable, Hashable {
    /// One accepted finding.
    package struct Entry: Sendable, Hashable, Comparable {
        /// The file path, as given on the command line without a leading `./`.
        package var file: String
        /// The lint code.
        package var code: String
        /// The finding's anchor (``LintFinding/anchor``).
        package var path: String
        /// The finding's message.
        package var message: String

        /// Creates an entry.
        package init(file: String, code: String, path: String, message: String) {
            self.file = file
            self.code = code
            self.path = path
            self.message = message
        }

        /// The entry for a finding in a file.
        package init(_ finding: LintFinding, file: String) {
            self.init(file: LintBaseline.normalize(file), code: finding.code.rawValue, path: finding.anchor, message: finding.diagnostic.message)
        }

        package static func < (a: Entry, b: Entry) -> Bool {
            (a.file, a.code, a.path, a.message) < (b.file, b.code, b.path, b.message)
        }
    }

    /// The entries, sorted.
    package var entries: [Entry]

    /// Creates a baseline.
    package init(entries: [Entry]) { self.entries = entries.sorted() }

    /// A baseline of every finding, by file path.
    package init(findings: [(file: String, findings: [LintFinding])]) {
        self.init(entries: findings.flatMap { f in f.findings.map { Entry($0, file: f.file) } })
    }

    /// Reads a baseline file's text.
    package static func parse(_ text: String, path: String = "baseline.json") throws(LintBaselineError) -> LintBaseline {
        let read = RelaxedJSONReader.read(SourceFile(path: path, text: text))
        if let e = read.diagnostics.first(where: { $0.severity == .error }) { throw LintBaselineError(message: e.message) }
        guard let members = read.root?.members else { throw LintBaselineError(message: "expected a JSON object") }
        guard let list = members.first(where: { $0.key.value == "findings" })?.value, case .array(let items) = list.kind else {
            throw LintBaselineError(message: "expected a \"findings\" array")
        }
        var entries: [Entry] = []
        for item in items {
            guard let fields = item.members else { throw LintBaselineError(message: "each finding must be an object") }
            func field(_ name: String) throws(LintBaselineError) -> String {
                guard let s = fields.first(where: { $0.key.value == name })?.value.string?.value else {
                    throw LintBaselineError(message: "a finding has no string \"\(name)\"")
                }
                return s
            }
            entries.append(Entry(file: try field("file"), code: try field("code"), path: try field("path"), message: try field("message")))
        }
        return LintBaseline(entries: entries)
    }

    /// The JSON text of the baseline, one finding per line.
    package func rendered() -> String {
        var out = "{\n  \"version\": 1,\n  \"findings\": ["
        for (i, e) in entries.enumerated() {
            out += i == 0 ? "\n" : ",\n"
            out += "    {\"file\": \(JSONText.quote(e.file)), \"code\": \(JSONText.quote(e.code)), \"path\": \(JSONText.quote(e.path)), \"message\": \(JSONText.quote(e.message))}"
        }
        out += entries.isEmpty ? "]\n}\n" : "\n  ]\n}\n"
        return out
    }

    /// The findings of `file` that the baseline does not account for.
    package func newFindings(_ findings: [LintFinding], file: String) -> [LintFinding] {
        var remaining: [Entry: Int] = [:]
        let name = Self.normalize(file)
        for e in entries where e.file == name { remaining[e, default: 0] += 1 }
        return findings.filter { f in
            let key = Entry(f, file: file)
            guard let n = remaining[key], n > 0 else { return true }
            remaining[key] = n - 1
            return false
        }
    }

    /// The same baseline with every entry's file path passed through `canonical` (the command
    /// line makes paths relative to the working directory, so an entry matches its file however
    /// either path was typed).
    package func mappingFiles(_ canonical: (String) -> String) -> LintBaseline {
        LintBaseline(entries: entries.map { e in Entry(file: canonical(e.file), code: e.code, path: e.path, message: e.message) })
    }

    /// This baseline's entries for files other than `files`, with `replacement`'s: what
    /// `--update-baseline` writes when a run checked only some of the files.
    package func updated(with replacement: LintBaseline, forFiles files: Set<String>) -> LintBaseline {
        let checked = Set(files.map(Self.normalize))
        return LintBaseline(entries: entries.filter { !checked.contains($0.file) } + replacement.entries)
    }

    /// A path without leading `./`.
    static func normalize(_ path: String) -> String {
        var p = Substring(path)
        while p.hasPrefix("./") { p = p.dropFirst(2) }
        return String(p)
    }
}

import Foundation
import RulesTesting
import RulesCompiler
import RulesSyntax
import RulesLint

/// Renders the findings of `rules check` in each output format.
package struct DiagnosticReporter: Sendable {
    /// The tool version, for SARIF.
    package static let version = RulesTool.version

    package let terminal: Terminal
    /// The directory SARIF (`%SRCROOT%`) and the GitHub annotations name files relative to; nil:
    /// the repository root of the first file, as ``SourceRoot/find(explicit:configurationDirectory:files:workingDirectory:)``.
    package let sourceRoot: SourceRoot?
    /// The base of each code's documentation address (SARIF's `helpUri`).
    package let documentationBase: String

    /// The width a source line of the text report may take: a longer line is cut around the
    /// finding, with `…` where text is left out (nil: lines are shown whole).
    package let lineWidth: Int?

    /// Creates a reporter.
    package init(
        terminal: Terminal = .plain, sourceRoot: SourceRoot? = nil, documentationBase: String = RulesTool.documentationBase, lineWidth: Int? = nil
    ) {
        self.terminal = terminal
        self.sourceRoot = sourceRoot
        self.documentationBase = documentationBase
        self.lineWidth = lineWidth
    }

    /// Everything for a run, in `format`.
    package func report(_ files: [FileDiagnostics], format: OutputFormat) -> String {
        switch format {
        case .text: text(files)
        case .json: json(files).rendered() + "\n"
        case .sarif: sarif(files).rendered() + "\n"
        case .github: github(files)
        }
    }

    // MARK: - Positions

    /// 1-based start and exclusive end (line, column) in UTF-8 bytes.
    static func span(_ d: Diagnostic, in file: SourceFile) -> (SourceLocation, SourceLocation) { span(d.range, in: file) }

    /// ``span(_:in:)`` of a range.
    static func span(_ range: SourceRange, in file: SourceFile) -> (SourceLocation, SourceLocation) {
        let start = file.location(of: Int(range.start))
        let end = file.location(of: Int(max(range.end, range.start)))
        return (start, end.line == start.line && end.column <= start.column ? SourceLocation(line: start.line, column: start.column + 1) : end)
    }

    /// Converts a UTF-8 byte column to a UTF-16 column on a line (SARIF's column kind).
    static func utf16Column(_ file: SourceFile, _ loc: SourceLocation) -> Int {
        let line = Array(file.lineText(loc.line).utf8)
        let n = max(0, min(loc.column - 1, line.count))
        return String(decoding: line[0..<n], as: UTF8.self).utf16.count + 1 + max(0, loc.column - 1 - line.count)
    }

    // MARK: - Text

    /// gcc-style lines with the source line and a caret under the range, and a summary.
    package func text(_ files: [FileDiagnostics]) -> String {
        var out = ""
        for f in files {
            if let e = f.readError {
                out += terminal.bold("\(f.path): ") + terminal.red("error:") + " " + terminal.bold(e) + "\n"
                continue
            }
            guard let file = f.file else { continue }
            let lints = Self.lintIndex(f)
            for d in f.diagnostics {
                let (start, end) = Self.span(d, in: file)
                let label: String
                switch d.severity {
                case .error: label = terminal.red("error:")
                case .warning: label = terminal.yellow("warning:")
                case .note: label = terminal.dim("note:")
                }
                out += terminal.bold("\(file.path):\(start.line):\(start.column):") + " \(label) " + terminal.bold(d.message) + " [\(d.code)]\n"
                out += excerpt(file, start, end)
                if let lint = lints[LintKey(d)] {
                    out += relatedText(lint, file)
                    out += witnessText(lint)
                }
            }
            if f.lintsSkipped {
                out += terminal.bold("\(file.path):") + " " + terminal.dim("note:") + " lints were not run: the file has errors, and lints judge only rules that compile (fix the errors first)\n"
            }
        }
        out += summary(files) + "\n"
        if let tally = tally(files) { out += tally + "\n" }
        return out
    }

    /// The lint finding behind a diagnostic, if it is one.
    static func lint(for d: Diagnostic, in f: FileDiagnostics) -> LintFinding? {
        f.lints.first { $0.code.diagnosticCode == d.code && $0.diagnostic.range == d.range }
    }

    /// The file's lint findings by code and range, so that a report with many findings looks
    /// each one up in constant time.
    static func lintIndex(_ f: FileDiagnostics) -> [LintKey: LintFinding] {
        var out: [LintKey: LintFinding] = [:]
        for l in f.lints { out[LintKey(code: l.code.rawValue, start: l.diagnostic.range.start, end: l.diagnostic.range.end)] = out[LintKey(code: l.code.rawValue, start: l.diagnostic.range.start, end: l.diagnostic.range.end)] ?? l }
        return out
    }

    /// A lint finding's identity in a report: its code and range.
    struct LintKey: Hashable {
        var code: String
        var start: Int32
        var end: Int32

        init(code: String, start: Int32, end: Int32) {
            self.code = code
            self.start = start
            self.end = end
        }

        init(_ d: Diagnostic) { self.init(code: d.code.rawValue, start: d.range.start, end: d.range.end) }
    }

    /// The other places a finding concerns, one line each: `  related: file:3:5: message`.
    private func relatedText(_ lint: LintFinding, _ file: SourceFile) -> String {
        lint.related.map { r in
            let loc = file.location(of: Int(r.range.start))
            return terminal.dim("  related: \(file.path):\(loc.line):\(loc.column): \(r.message)") + "\n"
        }.joined()
    }

    /// A finding's related locations as JSON: `[{"line", "column", "endLine", "endColumn", "message"}]`.
    static func relatedJSON(_ lint: LintFinding, _ file: SourceFile) -> JSONText {
        .array(lint.related.map { r in
            let (s, e) = span(r.range, in: file)
            return .object([
                ("line", .int(s.line)), ("column", .int(s.column)), ("endLine", .int(e.line)), ("endColumn", .int(e.column)),
                ("message", .string(r.message)),
            ])
        })
    }

    /// The witness under a security finding: `  witness: as ...:` and one line per step, or
    /// `  witness: unconfirmed (...)`.
    private func witnessText(_ lint: LintFinding) -> String {
        guard let status = lint.witnessStatus else { return "" }
        guard let w = lint.witness else {
            return terminal.dim("  witness: unconfirmed (no counterexample the engine allows was found)") + "\n"
        }
        let lines = w.lines
        return terminal.dim("  witness (\(status)): " + lines[0]) + "\n" + lines.dropFirst().map { terminal.dim("    " + $0) + "\n" }.joined()
    }

    /// The witness as JSON: `{"status", "identity": {"role", "uid"}, "data", "steps": [...]}`.
    static func witnessJSON(_ lint: LintFinding) -> JSONText? {
        guard let status = lint.witnessStatus else { return nil }
        guard let w = lint.witness else { return .object([("status", .string(status))]) }
        var identity: [(String, JSONText)] = [("role", .string(w.identity.role))]
        if let uid = w.identity.uid { identity.append(("uid", .string(uid))) }
        let steps: [JSONText] = w.steps.map { s in
            var m: [(String, JSONText)] = [("operation", .string(s.operation.rawValue)), ("path", .string(s.path))]
            if let v = s.value { m.append(("value", .string(v.json))) }
            m.append(("expected", .string(s.expectAllowed ? "allow" : "deny")))
            m.append(("verdict", .string(s.allowed.map { $0 ? "allow" : "deny" } ?? "not run")))
            m.append(("note", .string(s.note)))
            return .object(m)
        }
        return .object([
            ("status", .string(status)), ("identity", .object(identity)),
            ("data", .string(w.data?.json ?? "null")), ("now", .int(Int(RulesLint.WitnessSearch.now))), ("steps", .array(steps)),
        ])
    }

    /// From five findings on, a line counting them by code, most frequent first, so a long report
    /// can be read by kind: `By code: 3 unvalidated-write, 2 root-in-write.`
    package func tally(_ files: [FileDiagnostics]) -> String? {
        var counts: [String: Int] = [:]
        for f in files { for d in f.diagnostics { counts[d.code.rawValue, default: 0] += 1 } }
        guard counts.values.reduce(0, +) >= 5 else { return nil }
        let ordered = counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
        return "By code: " + ordered.map { "\($0.value) \($0.key)" }.joined(separator: ", ") + "."
    }

    private func excerpt(_ file: SourceFile, _ start: SourceLocation, _ end: SourceLocation) -> String {
        let line = file.lineText(start.line)
        let bytes = Array(line.utf8)
        let number = String(start.line)
        let gutter = String(repeating: " ", count: number.count)
        let endColumn = end.line == start.line ? end.column : bytes.count + 1
        var chars = Array(line)
        var first = String(decoding: bytes.prefix(max(0, start.column - 1)), as: UTF8.self).count
        let underlinedBytes = bytes.dropFirst(max(0, start.column - 1)).prefix(max(1, endColumn - start.column))
        var width = max(1, String(decoding: underlinedBytes, as: UTF8.self).count)
        // A line wider than the room is cut to a window around the finding, `…` marking the cuts.
        if let lineWidth, chars.count > max(20, lineWidth - gutter.count - 4) {
            let room = max(20, lineWidth - gutter.count - 4) - 2
            let shown = min(width, room)
            let from = max(0, min(first - (room - shown) / 2, chars.count - room))
            let to = min(chars.count, from + room)
            chars = (from > 0 ? ["…"] : []) + Array(chars[from..<to]) + (to < chars.count ? ["…"] : [])
            first = first - from + (from > 0 ? 1 : 0)
            width = max(1, min(width, to - (first - (from > 0 ? 1 : 0) + from)))
        }
        // Keep tabs so the caret lines up; everything else becomes one space per character.
        let lead = chars.prefix(first).map { $0 == "\t" ? "\t" : " " }.joined()
        let marks = "^" + String(repeating: "~", count: max(0, width - 1))
        return " \(number) | \(String(chars))\n \(gutter) | \(lead)" + terminal.green(marks) + "\n"
    }

    /// `2 errors, 1 warning in 1 file` or `No problems in 3 files.`
    package func summary(_ files: [FileDiagnostics]) -> String {
        let errors = files.reduce(0) { $0 + $1.count(.error) + ($1.readError == nil ? 0 : 1) }
        let warnings = files.reduce(0) { $0 + $1.count(.warning) }
        let fileWord = files.count == 1 ? "1 file" : "\(files.count) files"
        if errors == 0 && warnings == 0 { return "No problems in \(fileWord)." }
        func plural(_ n: Int, _ w: String) -> String { n == 1 ? "1 \(w)" : "\(n) \(w)s" }
        return "\(plural(errors, "error")), \(plural(warnings, "warning")) in \(fileWord)."
    }

    // MARK: - JSON

    /// `{"diagnostics": [...], "errors": N, "warnings": N}`; columns are 1-based UTF-8 byte columns,
    /// `endColumn` is one past the last character.
    package func json(_ files: [FileDiagnostics]) -> JSONText {
        var items: [JSONText] = []
        var errors = 0, warnings = 0
        for f in files {
            if let e = f.readError {
                errors += 1
                items.append(.object([
                    ("file", .string(f.path)), ("line", .int(1)), ("column", .int(1)), ("endLine", .int(1)),
                    ("endColumn", .int(1)), ("severity", .string("error")), ("code", .string(DiagnosticCode.unreadableFile.rawValue)),
                    ("message", .string(e)),
                ]))
                continue
            }
            guard let file = f.file else { continue }
            let lints = Self.lintIndex(f)
            for d in f.diagnostics {
                if d.severity == .error { errors += 1 }
                if d.severity == .warning { warnings += 1 }
                let (s, e) = Self.span(d, in: file)
                var members: [(String, JSONText)] = [
                    ("file", .string(f.path)), ("line", .int(s.line)), ("column", .int(s.column)),
                    ("endLine", .int(e.line)), ("endColumn", .int(e.column)), ("severity", .string(d.severity.rawValue)),
                    ("code", .string(d.code.rawValue)), ("message", .string(d.message)),
                ]
                if let lint = lints[LintKey(d)] { members.append(("anchor", .string(lint.anchor))) }
                if let lint = lints[LintKey(d)], !lint.related.isEmpty { members.append(("related", Self.relatedJSON(lint, file))) }
                if let witness = lints[LintKey(d)].flatMap(Self.witnessJSON) { members.append(("witness", witness)) }
                items.append(.object(members))
            }
        }
        return .object([("diagnostics", .array(items)), ("errors", .int(errors)), ("warnings", .int(warnings))])
    }

    // MARK: - SARIF

    /// SARIF 2.1.0 with one run, every known rule described, UTF-16 columns.
    package func sarif(_ files: [FileDiagnostics]) -> JSONText {
        let catalog = DiagnosticCatalog.all
        let ruleIndex = Dictionary(uniqueKeysWithValues: catalog.enumerated().map { ($1.code, $0) })
        let rules: [JSONText] = catalog.map { entry in
            .object([
                ("id", .string(entry.code.rawValue)),
                ("name", .string(entry.name)),
                ("shortDescription", .object([("text", .string(entry.summary))])),
                ("fullDescription", .object([("text", .string(entry.help))])),
                ("help", .object([("text", .string(entry.help))])),
                ("helpUri", .string(RulesTool.documentationURL(for: entry.code.rawValue, isLint: LintCode(entry.code) != nil, base: documentationBase))),
                ("defaultConfiguration", .object([("level", .string(entry.severity == .error ? "error" : "warning"))])),
                ("properties", Self.ruleProperties(entry.code)),
            ])
        }
        let root = self.root(of: files)
        var fingerprints = FingerprintCounter()
        var results: [JSONText] = []
        for f in files {
            if let e = f.readError {
                let location = artifactLocation(f.path, root: root)
                let print = fingerprints.next(code: .unreadableFile, location: location, anchor: e)
                results.append(result(code: .unreadableFile, level: "error", message: e, location: location, region: nil, index: ruleIndex[.unreadableFile], fingerprint: print))
                continue
            }
            guard let file = f.file else { continue }
            let lints = Self.lintIndex(f)
            for d in f.diagnostics {
                let (s, e) = Self.span(d, in: file)
                let region: JSONText = .object([
                    ("startLine", .int(s.line)), ("startColumn", .int(Self.utf16Column(file, s))),
                    ("endLine", .int(e.line)), ("endColumn", .int(Self.utf16Column(file, e))),
                ])
                let level = d.severity == .error ? "error" : d.severity == .warning ? "warning" : "note"
                let location = artifactLocation(f.path, root: root)
                // Lints have a line-independent anchor (`/users/$uid .write`); other findings use
                // their message and the text they point at.
                let anchor = lints[LintKey(d)]?.anchor
                    ?? d.message + "\u{0}" + file.text(of: d.range)
                let print = fingerprints.next(code: d.code, location: location, anchor: anchor)
                var item = result(code: d.code, level: level, message: d.message, location: location, region: region, index: ruleIndex[d.code], fingerprint: print)
                if let lint = lints[LintKey(d)] {
                    item = Self.addingWitness(lint, to: item, location: location, region: region)
                    item = Self.addingRelated(lint, to: item, file: file, location: location)
                }
                results.append(item)
            }
        }
        let driver: JSONText = .object([
            ("name", .string("rules")),
            ("fullName", .string("swift-database-rules")),
            ("version", .string(Self.version)),
            ("semanticVersion", .string(Self.version)),
            ("informationUri", .string(RulesTool.homepage)),
            ("rules", .array(rules)),
        ])
        return .object([
            ("$schema", .string("https://json.schemastore.org/sarif-2.1.0.json")),
            ("version", .string("2.1.0")),
            ("runs", .array([.object([
                ("tool", .object([("driver", driver)])),
                ("originalUriBaseIds", .object([(Self.sourceRootId, .object([("uri", .string(root.uri))]))])),
                ("columnKind", .string("utf16CodeUnits")),
                ("results", .array(results)),
            ])])),
        ])
    }

    /// The directory the reports that name files relative to a root (SARIF, GitHub) use: see ``sourceRoot``.
    func root(of files: [FileDiagnostics]) -> SourceRoot {
        sourceRoot ?? SourceRoot.find(explicit: nil, configurationDirectory: nil, files: files.map(\.path))
    }

    /// The name of the source root in SARIF (`originalUriBaseIds`, `uriBaseId`).
    package static let sourceRootId = "%SRCROOT%"

    /// The key of SARIF's `partialFingerprints` entry.
    package static let fingerprintKey = "rulesFinding/v1"

    /// A file inside the root as a relative URI under `%SRCROOT%`; one outside it as an absolute
    /// `file://` URI.
    private func artifactLocation(_ path: String, root: SourceRoot) -> JSONText {
        if let relative = root.relative(path) {
            return .object([("uri", .string(Self.uriReference(relative))), ("uriBaseId", .string(Self.sourceRootId))])
        }
        return .object([("uri", .string("file://" + Self.uriReference(LexicalPath.absolute(path, workingDirectory: FileManager.default.currentDirectoryPath))))])
    }

    /// `tags` (the lint's category) and, for security lints, `security-severity`.
    static func ruleProperties(_ code: DiagnosticCode) -> JSONText {
        guard let lint = LintCode(code) else { return .object([("tags", .array([.string("compile")]))]) }
        var members: [(String, JSONText)] = [("tags", .array([.string("lint"), .string(lint.category.rawValue)]))]
        if let severity = lint.securitySeverity {
            members.append(("security-severity", .string(String(format: "%.1f", severity))))
        }
        return .object(members)
    }

    private func result(code: DiagnosticCode, level: String, message: String, location: JSONText, region: JSONText?, index: Int?, fingerprint: String) -> JSONText {
        var physical: [(String, JSONText)] = [("artifactLocation", location)]
        if let region { physical.append(("region", region)) }
        var members: [(String, JSONText)] = [("ruleId", .string(code.rawValue))]
        if let index { members.append(("ruleIndex", .int(index))) }
        members += [
            ("level", .string(level)),
            ("message", .object([("text", .string(message))])),
            ("locations", .array([.object([("physicalLocation", .object(physical))])])),
            ("partialFingerprints", .object([(Self.fingerprintKey, .string(fingerprint))])),
        ]
        return .object(members)
    }

    /// A SARIF result with the finding's related locations (`relatedLocations`, numbered from 1).
    static func addingRelated(_ lint: LintFinding, to result: JSONText, file: SourceFile, location: JSONText) -> JSONText {
        guard !lint.related.isEmpty, case .object(var members) = result else { return result }
        let related: [JSONText] = lint.related.enumerated().map { i, r in
            let (s, e) = span(r.range, in: file)
            let region: JSONText = .object([
                ("startLine", .int(s.line)), ("startColumn", .int(utf16Column(file, s))),
                ("endLine", .int(e.line)), ("endColumn", .int(utf16Column(file, e))),
            ])
            return .object([
                ("id", .int(i + 1)),
                ("physicalLocation", .object([("artifactLocation", location), ("region", region)])),
                ("message", .object([("text", .string(r.message))])),
            ])
        }
        members.append(("relatedLocations", .array(related)))
        return .object(members)
    }

    /// A SARIF result with the finding's witness: its text after the message, and a `codeFlows`
    /// entry with one thread-flow location per step (at the finding's region), each step's
    /// operation and the engine's verdict in its message; the structured witness in `properties`.
    static func addingWitness(_ lint: LintFinding, to result: JSONText, location: JSONText, region: JSONText?) -> JSONText {
        guard let status = lint.witnessStatus, case .object(var members) = result else { return result }
        let witnessLine: String
        if let w = lint.witness {
            witnessLine = "Witness (the engine ran it): " + w.lines.joined(separator: " ")
        } else {
            witnessLine = "Witness: unconfirmed (no counterexample the engine allows was found)."
        }
        if let i = members.firstIndex(where: { $0.0 == "message" }), case .object(let message) = members[i].1,
            case .string(let text)? = message.first(where: { $0.0 == "text" })?.1
        {
            members[i].1 = .object([("text", .string(text + "\n\n" + witnessLine))])
        }
        if let w = lint.witness {
            var physical: [(String, JSONText)] = [("artifactLocation", location)]
            if let region { physical.append(("region", region)) }
            let steps: [JSONText] = w.lines.dropFirst().map { line in
                .object([("location", .object([("physicalLocation", .object(physical)), ("message", .object([("text", .string(line))]))]))])
            }
            members.append(("codeFlows", .array([.object([
                ("message", .object([("text", .string(w.lines[0]))])),
                ("threadFlows", .array([.object([("locations", .array(steps))])])),
            ])])))
        }
        var properties: [(String, JSONText)] = [("witnessStatus", .string(status))]
        if let json = witnessJSON(lint) { properties.append(("witness", json)) }
        members.append(("properties", .object(properties)))
        return .object(members)
    }

    /// A file path as a relative URI reference (SARIF's `uri` must be a valid URI): every byte
    /// other than letters, digits, `-._~` and `/` is percent-encoded, so spaces, `#`, `%` and a
    /// `:` that would read as a scheme survive.
    static func uriReference(_ path: String) -> String {
        var out = ""
        for b in path.utf8 {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                let hex = String(b, radix: 16, uppercase: true)
                out += "%" + (hex.count < 2 ? "0" : "") + hex
            }
        }
        return out
    }

    // MARK: - GitHub

    /// `::error file=…,line=…,col=…,endLine=…,endColumn=…,title=code::message` lines. GitHub places
    /// an annotation by its path in the repository, so files are named relative to the root SARIF
    /// uses (``root(of:)``), whichever directory `rules check` runs in; a file outside it keeps the
    /// path it was given.
    package func github(_ files: [FileDiagnostics]) -> String {
        let root = self.root(of: files)
        var out = ""
        for f in files {
            let path = root.relative(f.path) ?? f.path
            if let e = f.readError {
                out += "::error file=\(Self.property(path)),title=\(DiagnosticCode.unreadableFile)::\(Self.data(e))\n"
                continue
            }
            guard let file = f.file else { continue }
            for d in f.diagnostics {
                let (s, e) = Self.span(d, in: file)
                let command = d.severity == .error ? "error" : d.severity == .warning ? "warning" : "notice"
                out += "::\(command) file=\(Self.property(path)),line=\(s.line),col=\(s.column),endLine=\(e.line),endColumn=\(e.column),title=\(Self.property(d.code.rawValue))::\(Self.data(d.message))\n"
            }
        }
        return out
    }

    /// Escapes a workflow-command message: `%`, CR and LF.
    static func data(_ s: String) -> String { escape(s, property: false) }

    /// Escapes a workflow-command property value: as ``data(_:)``, plus `:` and `,`.
    static func property(_ s: String) -> String { escape(s, property: true) }

    // Works on Unicode scalars, not Characters: "\r\n" is a single Character, so a
    // Character-based search for "\n" would miss it and let a CRLF through unescaped.
    private static func escape(_ s: String, property: Bool) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            case ":" where property: out += "%3A"
            case "," where property: out += "%2C"
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }
}

import RulesSyntax
import RulesTesting

/// The compile time of one rules file.
package struct FileTiming: Sendable {
    /// The rules file.
    package var file: String
    /// Load + check + compile, median over the rounds, in milliseconds.
    package var compileMs: Double
    /// The timing's spread and rounds.
    package var stats: BenchStatistics
}

/// The timing of one step of a spec test, decided from the state before the step.
package struct OperationTiming: Sendable {
    /// The spec file.
    package var file: String
    /// The test name.
    package var test: String
    /// The step number, from 1.
    package var step: Int
    /// `read`, `set`, `update`, `delete` or `push`.
    package var kind: String
    /// What the step does, e.g. `update / as bob`.
    package var summary: String
    /// Whether the engine allowed it.
    package var allowed: Bool
    /// Nanoseconds per decision.
    package var stats: BenchStatistics
}

/// One case of the built-in suite.
package struct SuiteResult: Sendable {
    /// The group, e.g. `compile`, `blog 10^6`, `native`.
    package var group: String
    /// The case.
    package var name: String
    /// Nanoseconds per operation.
    package var stats: BenchStatistics
    /// Heap allocations per operation, when counted.
    package var allocations: Double?
    /// A derived figure (a ratio) or remark.
    package var note: String?
}

/// Everything one `rules bench` run measured.
package struct BenchReport: Sendable {
    /// Rules files and their compile times.
    package var files: [FileTiming] = []
    /// Spec steps.
    package var operations: [OperationTiming] = []
    /// Suite cases.
    package var suite: [SuiteResult] = []
    /// Warnings shown before the results (e.g. a debug build).
    package var warnings: [String] = []

    /// Creates an empty report.
    package init() {}

    /// The version of the JSON format (it changes only when a field changes meaning or goes away).
    package static let version = 1

    /// `{"version": 1, "files": [{"file", "compileMs"}], "operations": [{"file", "test", "step",
    /// "kind", "nsPerOp", "spreadPercent", "allowed"}]}`, with `suite` and `warnings` members when
    /// there are any (documented in BENCHMARKS.md).
    package func json() -> String {
        var members: [(String, JSONText)] = [
            ("version", .int(Self.version)),
            ("files", .array(files.map { f in
                .object([("file", .string(f.file)), ("compileMs", .double(Self.round(f.compileMs, 4)))])
            })),
            ("operations", .array(operations.map { o in
                .object([
                    ("file", .string(o.file)), ("test", .string(o.test)), ("step", .int(o.step)), ("kind", .string(o.kind)),
                    ("nsPerOp", .double(Self.round(o.stats.median, 1))), ("spreadPercent", .double(Self.round(o.stats.spreadPercent, 1))),
                    ("allowed", .bool(o.allowed)),
                ])
            })),
        ]
        if !suite.isEmpty {
            members.append(("suite", .array(suite.map { s in
                var m: [(String, JSONText)] = [
                    ("group", .string(s.group)), ("name", .string(s.name)), ("nsPerOp", .double(Self.round(s.stats.median, 1))),
                    ("spreadPercent", .double(Self.round(s.stats.spreadPercent, 1))),
                ]
                if let a = s.allocations { m.append(("allocations", .double(Self.round(a, 2)))) }
                if let n = s.note { m.append(("note", .string(n))) }
                return .object(m)
            })))
        }
        if !warnings.isEmpty { members.append(("warnings", .array(warnings.map(JSONText.string)))) }
        return JSONText.object(members).rendered() + "\n"
    }

    /// Human-readable tables.
    package func text() -> String {
        var out = warnings.map { "warning: \($0)\n" }.joined()
        if !files.isEmpty {
            out += "compile (load + check + compile), median of \(files.first?.stats.rounds ?? 0)\n"
            for f in files {
                out += "  \(Self.pad(Self.ms(f.compileMs), 10))  ±\(Self.fixed(f.stats.spreadPercent, 1))%  \(f.file)\n"
            }
        }
        var lastTest = ""
        for o in operations {
            let header = "\(o.file): \(o.test)"
            if header != lastTest { out += header + "\n"; lastTest = header }
            out += "  \(Self.pad(Self.ns(o.stats.median), 10))  ±\(Self.fixed(o.stats.spreadPercent, 1))%  step \(o.step): \(o.summary)\(o.allowed ? "" : " (denied)")\n"
        }
        var lastGroup = ""
        for s in suite {
            if s.group != lastGroup { out += s.group + "\n"; lastGroup = s.group }
            var line = "  \(Self.pad(Self.ns(s.stats.median), 10))  ±\(Self.pad(Self.fixed(s.stats.spreadPercent, 1), 4))%  \(s.name)"
            if let a = s.allocations { line += "  [\(Self.fixed(a, 1)) allocs/op]" }
            if let n = s.note { line += "  \(n)" }
            out += line + "\n"
        }
        if !suite.isEmpty && suite.allSatisfy({ $0.allocations == nil }) {
            out += "allocations: not counted here (this binary keeps the system allocator); rules-profile counts them\n"
        }
        return out
    }

    /// A duration in ns, shown in the most readable unit.
    package static func ns(_ v: Double) -> String {
        if v >= 1e6 { return fixed(v / 1e6, 2) + " ms" }
        if v >= 1e4 { return fixed(v / 1e3, 1) + " µs" }
        if v >= 1e3 { return fixed(v / 1e3, 2) + " µs" }
        return fixed(v, 0) + " ns"
    }

    static func ms(_ v: Double) -> String { fixed(v, 2) + " ms" }

    /// `v` with `digits` decimals.
    static func fixed(_ v: Double, _ digits: Int) -> String {
        guard v.isFinite else { return "-" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let r = (v * scale).rounded() / scale
        var s = String(Int64(r.rounded(.towardZero)))
        if r < 0 && s.first != "-" { s = "-" + s }
        guard digits > 0 else { return s }
        let frac = Int64((abs(r) * scale).rounded()) % Int64(scale)
        var f = String(frac)
        while f.count < digits { f = "0" + f }
        return s + "." + f
    }

    static func round(_ v: Double, _ digits: Int) -> Double {
        guard v.isFinite else { return 0 }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        return (v * scale).rounded() / scale
    }

    static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : String(repeating: " ", count: width - s.count) + s
    }
}

import Foundation
import RulesSyntax

/// Renders coverage: a text summary, a JSON document and lcov tracefiles.
package enum CoverageReporter {
    /// Per file: percent of rules evaluated and of outcome branches seen, then the rules never
    /// evaluated (rule path and `file:line:col`).
    package static func text(_ c: CoverageCollector) -> String {
        var out = "Coverage:\n"
        for f in c.files {
            out += "  \(f.path): \(percent(f.percent)) of rules evaluated (\(f.evaluatedRules)/\(f.rules.count)), "
            out += "\(percent(f.branchPercent)) of outcome branches seen (\(f.seenBranches)/\(f.totalBranches))\n"
            let missed = f.rules.filter { $0.evaluations == 0 }
            if !missed.isEmpty {
                out += "    never evaluated:\n"
                for r in missed { out += "      \(r.rulePath) (\(f.path):\(r.location.line):\(r.location.column))\n" }
            }
        }
        out += "  total: \(percent(c.percent)) of rules evaluated (\(c.evaluatedRules)/\(c.totalRules)), "
        out += "\(percent(c.branchPercent)) of outcome branches seen (\(c.seenBranches)/\(c.totalBranches))\n"
        return out
    }

    /// The version of the coverage JSON format (it changes only when a field changes meaning or
    /// goes away).
    package static let version = 1

    /// The full data as JSON, with the format's `version` and the overall `percent` of rules
    /// evaluated at the top.
    package static func json(_ c: CoverageCollector) -> String {
        // Rules and branches one per line.
        document(c).rendered(indent: 2, inlineFrom: 4) + "\n"
    }

    /// The JSON report as a value (see ``json(_:)``), for documents that carry it with more.
    package static func document(_ c: CoverageCollector) -> JSONText {
        func pct(_ p: Double) -> JSONText { .double((p * 100).rounded() / 100) }
        func location(_ l: SourceLocation) -> [(String, JSONText)] { [("line", .int(l.line)), ("column", .int(l.column))] }
        let files: [JSONText] = c.files.map { f in
            let rules: [JSONText] = f.rules.map { r in
                var members: [(String, JSONText)] = [("rulePath", .string(r.rulePath))] + location(r.location)
                if let k = r.constant { members.append(("constant", .bool(k))) }
                members += [
                    ("evaluations", .int(r.evaluations)), ("true", .int(r.trueCount)), ("false", .int(r.falseCount)),
                    ("error", .int(r.errorCount)),
                    ("branches", .array(r.branches.map { b in
                        .object([("role", .string(b.role.rawValue)), ("text", .string(b.text))] + location(b.location) + [
                            ("true", .int(b.trueCount)), ("false", .int(b.falseCount)), ("error", .int(b.errorCount)),
                        ])
                    })),
                ]
                return .object(members)
            }
            return .object([
                ("path", .string(f.path)), ("percent", pct(f.percent)), ("branchPercent", pct(f.branchPercent)),
                ("rules", .array(rules)),
            ])
        }
        return .object([
            ("version", .int(version)), ("percent", pct(c.percent)), ("branchPercent", pct(c.branchPercent)),
            ("rulesEvaluated", .int(c.evaluatedRules)), ("rulesTotal", .int(c.totalRules)),
            ("branchesSeen", .int(c.seenBranches)), ("branchesTotal", .int(c.totalBranches)),
            ("files", .array(files)),
        ])
    }

    /// An lcov tracefile: per rules file (its `SF` an absolute path, so `genhtml` finds the file
    /// wherever it runs) `DA` for each line holding a rule (hits = evaluations),
    /// `BRDA` for each rule's true/false outcome and each operand's or condition's true/false
    /// (block = rule index; `-` when the rule never ran), with the `LF/LH/BRF/BRH` totals.
    package static func lcov(_ c: CoverageCollector) -> String {
        var out = ""
        for f in c.files {
            out += "TN:\nSF:\(absolute(f.path))\n"
            var branchesFound = 0, branchesHit = 0
            for (block, r) in f.rules.enumerated() where r.constant == nil {
                var entries: [(line: Int, count: Int)] = [(r.location.line, r.trueCount), (r.location.line, r.falseCount)]
                for b in r.branches {
                    entries.append((b.location.line, b.trueCount))
                    entries.append((b.location.line, b.falseCount))
                }
                for (branch, e) in entries.enumerated() {
                    let taken = r.evaluations == 0 ? "-" : String(e.count)
                    out += "BRDA:\(e.line),\(block),\(branch),\(taken)\n"
                    branchesFound += 1
                    if e.count > 0 { branchesHit += 1 }
                }
            }
            out += "BRF:\(branchesFound)\nBRH:\(branchesHit)\n"
            var hitsByLine: [Int: Int] = [:]
            for r in f.rules { hitsByLine[r.location.line, default: 0] += r.evaluations }
            let lines = hitsByLine.keys.sorted()
            for line in lines { out += "DA:\(line),\(hitsByLine[line] ?? 0)\n" }
            out += "LF:\(lines.count)\nLH:\(lines.count { (hitsByLine[$0] ?? 0) > 0 })\n"
            out += "end_of_record\n"
        }
        return out
    }

    /// `path` made absolute against the working directory, with `.` and `..` resolved.
    package static func absolute(_ path: String) -> String {
        LexicalPath.absolute(path, workingDirectory: FileManager.default.currentDirectoryPath)
    }

    /// `95.2%`.
    package static func percent(_ p: Double) -> String {
        let tenths = Int((p * 10).rounded(.down))
        return "\(tenths / 10).\(tenths % 10)%"
    }
}

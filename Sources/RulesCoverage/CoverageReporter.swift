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
        func pct(_ p: Double) -> String { JSONText.double((p * 100).rounded() / 100).rendered() }
        var out = "{\n  \"version\": \(version),\n  \"percent\": \(pct(c.percent)),\n  \"branchPercent\": \(pct(c.branchPercent)),\n"
        out += "  \"rulesEvaluated\": \(c.evaluatedRules),\n  \"rulesTotal\": \(c.totalRules),\n"
        out += "  \"branchesSeen\": \(c.seenBranches),\n  \"branchesTotal\": \(c.totalBranches),\n  \"files\": ["
        for (fi, f) in c.files.enumerated() {
            out += fi == 0 ? "\n" : ",\n"
            out += "    {\n      \"path\": \(JSONText.quote(f.path)),\n      \"percent\": \(pct(f.percent)),\n"
            out += "      \"branchPercent\": \(pct(f.branchPercent)),\n      \"rules\": ["
            for (ri, r) in f.rules.enumerated() {
                out += ri == 0 ? "\n" : ",\n"
                out += "        {\"rulePath\": \(JSONText.quote(r.rulePath)), \"line\": \(r.location.line), \"column\": \(r.location.column), "
                if let k = r.constant { out += "\"constant\": \(k), " }
                out += "\"evaluations\": \(r.evaluations), \"true\": \(r.trueCount), \"false\": \(r.falseCount), \"error\": \(r.errorCount), \"branches\": ["
                out += r.branches.map { b in
                    "{\"role\": \"\(b.role.rawValue)\", \"text\": \(JSONText.quote(b.text)), \"line\": \(b.location.line), \"column\": \(b.location.column), "
                        + "\"true\": \(b.trueCount), \"false\": \(b.falseCount), \"error\": \(b.errorCount)}"
                }.joined(separator: ", ")
                out += "]}"
            }
            out += f.rules.isEmpty ? "]\n    }" : "\n      ]\n    }"
        }
        out += c.files.isEmpty ? "]\n}\n" : "\n  ]\n}\n"
        return out
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

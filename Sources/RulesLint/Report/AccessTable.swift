import RulesCompiler
import RulesSolver
import RulesSyntax

/// The access model as a table: a row per location and operation, a column per principal, each
/// cell `yes`, `no`, `if <privilege>` or `escalation`; as text for a terminal, Markdown, or JSON.
package struct AccessTable {
    package var model: AccessModel
    /// Only locations whose path pattern starts with this (`/users/$uid`), when set.
    package var pathPrefix: String?
    /// Only this principal's column (`anonymous`, `stranger`, `owner`, `role:...`, `claim:...`).
    package var principal: String?
    /// Show each allowed cell's witness under the table.
    package var witnesses = false

    package init(model: AccessModel, pathPrefix: String? = nil, principal: String? = nil, witnesses: Bool = false) {
        self.model = model
        self.pathPrefix = pathPrefix
        self.principal = principal
        self.witnesses = witnesses
    }

    /// The principals shown.
    package var principals: [AccessPrincipal] {
        guard let principal else { return model.principals }
        return model.principals.filter { $0.name == principal || ($0.name.hasPrefix(principal + ":")) || short($0) == principal }
    }

    /// The locations shown.
    package var locations: [AccessLocation] {
        guard let p = pathPrefix else { return model.locations }
        let want = AccessPaths.normalized(p)
        return model.locations.filter { AccessPaths.normalized($0.path).hasPrefix(want) }
    }

    /// `role:1` for the first privilege, `claim:admin`: short column names.
    package func short(_ p: AccessPrincipal) -> String {
        switch p {
        case .holder(let privilege): "role:\((model.privileges.firstIndex(of: privilege) ?? 0) + 1)"
        default: p.name
        }
    }

    /// One cell's word.
    package func word(_ cell: AccessCell?) -> String {
        guard let cell else { return "-" }
        switch cell.verdict {
        case .never: return model.solved ? "never" : "no"
        case .unknown: return "unknown"
        case .escalated: return "escalation"
        case .allowed:
            switch cell.principal {
            case .holder: return "if role"
            case .claimant: return "if claim"
            case .named: return "if named"
            default: return "yes"
            }
        }
    }

    private func rows() -> [(location: AccessLocation, operation: AccessOperation, cells: [AccessCell?])] {
        var index: [String: AccessCell] = [:]
        for c in model.cells { index["\(ObjectIdentifier(c.location.node))|\(c.principal.name)|\(c.operation.rawValue)"] = c }
        var out: [(AccessLocation, AccessOperation, [AccessCell?])] = []
        for l in locations {
            for op in l.operations {
                out.append((l, op, principals.map { index["\(ObjectIdentifier(l.node))|\($0.name)|\(op.rawValue)"] }))
            }
        }
        return out
    }

    /// The legend of the principals whose names are long.
    private var legend: [String] {
        principals.compactMap { p in
            switch p {
            case .holder(let privilege): "\(short(p)): a holder of \(privilege.description)"
            case .claimant(let c): "\(short(p)): a user whose token has \(c.name) = \(c.value.json)"
            case .named: "named: a signed-in user whose uid or token the rules compare with literals (the witness names them)"
            default: nil
            }
        }
    }

    /// The table for a terminal: aligned columns, then the legend and the bounds.
    package func text() -> String {
        let header = ["location", "operation"] + principals.map(short)
        var lines = [header]
        for r in rows() { lines.append([r.location.path, r.operation.rawValue] + r.cells.map(word)) }
        var widths = Array(repeating: 0, count: header.count)
        for l in lines { for (i, c) in l.enumerated() { widths[i] = max(widths[i], c.count) } }
        var out = ""
        for (n, l) in lines.enumerated() {
            out += l.enumerated().map { i, c in c.padding(toLength: widths[i], withPad: " ", startingAt: 0) }.joined(separator: "  ")
                .trimmingTrailingSpaces() + "\n"
            if n == 0 { out += widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n" }
        }
        for l in legend { out += l + "\n" }
        out += footnote + "\n"
        if witnesses { out += witnessText() }
        return out
    }

    /// The table in Markdown, for a wiki or a pull request.
    package func markdown() -> String {
        var out = "| location | operation | " + principals.map { "`\(short($0))`" }.joined(separator: " | ") + " |\n"
        out += "| --- | --- | " + principals.map { _ in "---" }.joined(separator: " | ") + " |\n"
        for r in rows() {
            out += "| `\(r.location.path)` | \(r.operation.rawValue) | " + r.cells.map(word).joined(separator: " | ") + " |\n"
        }
        if !legend.isEmpty { out += "\n" + legend.map { "- " + $0 }.joined(separator: "\n") + "\n" }
        out += "\n" + footnote + "\n"
        if witnesses { out += "\n```text\n" + witnessText() + "```\n" }
        return out
    }

    /// The model as JSON: `{"principals": [...], "cells": [{"path", "operation", "principal",
    /// "verdict": "allowed" | "never" | "escalation", "rule", "witness"}], "decisions"}`.
    package func json() -> JSONText {
        var cells: [JSONText] = []
        for r in rows() {
            for case let c? in r.cells {
                var m: [(String, JSONText)] = [
                    ("path", .string(r.location.path)), ("kind", .string("\(r.location.kind)")), ("operation", .string(r.operation.rawValue)),
                    ("principal", .string(c.principal.name)),
                ]
                switch c.verdict {
                case .never:
                    m.append(("verdict", .string("never")))
                    if model.solved { m.append(("bounds", .string(SolverBounds.text))) }
                case .unknown(let reason): m += [("verdict", .string("unknown")), ("reason", .string(reason))]
                case .allowed: m.append(("verdict", .string("allowed")))
                case .escalated(_, let p): m += [("verdict", .string("escalation")), ("privilege", .string(p.description))]
                }
                if let rule = c.decidedBy { m.append(("rule", .string(rule.description))) }
                if let w = c.verdict.witness { m.append(("witness", AccessJSON.witness(w))) }
                cells.append(.object(m))
            }
        }
        return .object([
            ("principals", .array(principals.map { .object([("name", .string($0.name)), ("column", .string(short($0)))]) })),
            ("cells", .array(cells)), ("decisions", .int(model.decisions)),
        ] + (model.solved ? [("solver", .object([("checks", .int(model.solverChecks)), ("unknown", .int(model.unknownCells)), ("bounds", .string(SolverBounds.text))]))] : []))
    }

    private var footnote: String {
        guard !model.solved else {
            return "yes: allowed (a witness the engine ran); never: no request is allowed within the bounds (\(SolverBounds.text)); unknown: neither shown (\(model.unknownCells) cells); if role / if claim / if named: allowed to those principals; escalation: a signed-in stranger obtains a privilege with allowed writes, then is allowed. \(model.decisions) decisions, \(model.solverChecks) solver checks."
        }
        return "yes: allowed (a witness the engine ran); no: the bounded search found no allowed request; if role / if claim: allowed to its holders; escalation: a signed-in stranger obtains a privilege with allowed writes, then is allowed. \(model.decisions) decisions."
    }

    private func witnessText() -> String {
        var out = ""
        for r in rows() {
            for case let c? in r.cells {
                guard let w = c.verdict.witness else { continue }
                out += "\(r.location.path) \(r.operation.rawValue), \(short(c.principal))" + (c.decidedBy.map { " (by \($0.description))" } ?? "") + ":\n"
                out += w.lines.map { "  " + $0 + "\n" }.joined()
            }
        }
        return out
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var s = self
        while s.hasSuffix(" ") { s.removeLast() }
        return s
    }
}

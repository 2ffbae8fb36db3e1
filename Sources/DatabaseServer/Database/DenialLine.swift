import DatabaseRules
import Foundation

/// The one line that says why a request was denied: the operation, the deciding rule at
/// `file:line:col`, its false sub-expression and what made that false.
enum DenialLine {
    /// The reason of a denied decision that was made with an explanation.
    static func line(_ decision: Decision) -> String {
        line(decision, explanation: decision.explanation)
    }

    /// The line of a denied decision from one of its explanations (the caller's redacted one,
    /// or the host's unredacted copy).
    static func line(_ decision: Decision, explanation: Explanation?) -> String {
        guard let explanation else { return decision.reason ?? "denied" }
        guard let hint = explanation.notConsultedHint else { return cause(explanation) }
        return cause(explanation) + "; " + hint
    }

    /// The operation and what denied it.
    private static func cause(_ explanation: Explanation) -> String {
        if let rejection = explanation.rejection { return "\(explanation.operation): \(rejection)" }
        guard let rule = explanation.decisive else {
            // Reads are granted by `.read` rules, writes by `.write` ones (every explained
            // operation is titled by its kind: `read /a`, `set /a`, `update /`, …).
            let kind = explanation.operation.hasPrefix("read ") ? ".read" : ".write"
            return "\(explanation.operation): no \(kind) rule grants it on this path or above"
        }
        var text = "\(explanation.operation): \(rule.rulePath) at \(rule.position) is \(rule.outcome)"
        if rule.falseAlternatives.count > 1 {
            // Every alternative of the `||` that decided, each with what made it false.
            for a in rule.falseAlternatives {
                text += "; \(a.part) is \(a.value)"
                if let detail = a.detail { text += ": \(detail)" }
            }
        } else {
            if let part = rule.falsePart { text += "; \(part) is false" }
            // What made it false: the keys a hasChildren missed, the values a comparison compared.
            if let detail = rule.falseDetail { text += ": \(detail)" }
        }
        if !rule.bindings.isEmpty {
            text += " (with " + rule.bindings.map { "\($0.name) = \($0.value)" }.joined(separator: ", ") + ")"
        }
        return text
    }

}

import DatabaseRules
import Foundation

/// The one line that says why a request was denied: the operation, the deciding rule at
/// `file:line:col`, its false sub-expression and what made that false.
enum DenialReason {
    /// The reason of a denied decision that was made with an explanation.
    static func line(_ decision: Decision) -> String {
        guard let explanation = decision.explanation else { return decision.reason ?? "denied" }
        if let rejection = explanation.rejection { return "\(explanation.operation): \(rejection)" }
        guard let rule = explanation.decisive else {
            return "\(explanation.operation): no rule grants it (no .read/.write on this path or above)"
        }
        var text = "\(explanation.operation): \(rule.rulePath) at \(rule.position) is \(rule.outcome)"
        if let part = rule.falsePart { text += "; \(part) is false" }
        // What made it false: the keys a hasChildren missed, the values a comparison compared.
        if let detail = rule.falseDetail { text += ": \(detail)" }
        if !rule.bindings.isEmpty {
            text += " (with " + rule.bindings.map { "\($0.name) = \($0.value)" }.joined(separator: ", ") + ")"
        }
        return text
    }

}

import RulesCompiler
import RulesSyntax

/// One rule evaluated: the VM run under the budget, traced and recorded when asked.
extension Evaluator {
    mutating func evaluate(_ ruleIndex: Int32, data: Int32, newData: Int32) -> RuleOutcome {
        // A step per rule evaluated; once the budget has run out, every rule fails at once
        // (and is neither traced nor recorded).
        vm.remainingSteps &-= 1
        if vm.remainingSteps < 0 {
            if exhaustion == nil { return budgetRanOut(ruleIndex, data: data, newData: newData, at: nil) }
            return .error(RuntimeError("evaluation budget exhausted", range: ruleset.rules[Int(ruleIndex)].range))
        }
        context.data = data
        context.newData = newData
        let rule = tables.rules[Int(ruleIndex)]
        var outcome: RuleOutcome
        if rule.constant >= 0 {
            outcome = .value(rule.constant == 1)
        } else if rule.authCheck >= 0 && !explain && T.self == NoTracer.self {
            // `auth != null` / `auth == null`: nothing to trace, so no need to run the code.
            let signedIn: Bool
            if case .null = context.auth { signedIn = false } else { signedIn = true }
            outcome = .value(signedIn == (rule.authCheck == 1))
        } else {
            outcome = vm.run(code: rule.codeStart..<rule.codeEnd, in: ruleset, tables: tables, context: context, snapshots: &snaps, tracer: &tracer)
            // Also when the rule's last instruction overspent (its result then does not count).
            if vm.remainingSteps < 0 {
                if case .error(let e) = outcome { return budgetRanOut(ruleIndex, data: data, newData: newData, at: e.range) }
                return budgetRanOut(ruleIndex, data: data, newData: newData, at: nil)
            }
        }
        if T.self != NoTracer.self { tracer.ruleEvaluated(ruleIndex, outcome: outcome) }
        if explain { record(Int(ruleIndex), outcome, data) }
        return outcome
    }

    /// Makes what an explained decision records (kept out of ``decide(_:_:)``, which every plain
    /// decision runs).
    @inline(never)
    mutating func beginExplaining(_ root: DataNode?) {
        if recording == nil { recording = ExplanationRecording(limits: .default, redact: false) }
        if recording!.redact {
            recording!.redaction = Redaction(oldRoot: root, ruleset: ruleset, tables: tables, auth: context.auth, now: now, budget: budget)
        }
    }

    /// The budget ran out while evaluating rule `ruleIndex` (at `range` in its code, or before
    /// it started): the reason is written, and the evaluation fails (and is recorded, when
    /// explaining, as the one that decides).
    @inline(never)
    mutating func budgetRanOut(_ ruleIndex: Int32, data: Int32, newData: Int32, at range: SourceRange?) -> RuleOutcome {
        let rule = ruleset.rules[Int(ruleIndex)]
        let file = ruleset.file
        let location = file.location(of: range ?? rule.range)
        let entry = data >= 0 ? data : newData
        // A read's rule may run without its location in the snapshot table.
        let path = readDepth >= 0 ? Self.display(pathBytes, pathBounds, readDepth) : entry >= 0 ? display(snaps.path(of: entry)) : "/"
        let message = "evaluation budget exhausted (\(budget.steps) steps) at \(path) in \(rule.rulePath) at \(file.path):\(location.line):\(location.column)"
        exhaustion = message
        exhaustedEvaluation = evaluationCount
        let outcome = RuleOutcome.error(RuntimeError(message, range: range ?? rule.range))
        if T.self != NoTracer.self { tracer.ruleEvaluated(ruleIndex, outcome: outcome) }
        if explain { record(Int(ruleIndex), outcome, data) }
        return outcome
    }
}

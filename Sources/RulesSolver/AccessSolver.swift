import RulesCompiler

/// Answers ``AccessQuestion``s with Z3: first a model of the question in ``SolverMode/find``,
/// read back as a concrete ``SolverWitness`` that the caller replays through the engine (a model
/// the engine denies is excluded and the solver asked again, a few times); then, when none is
/// found, the question in ``SolverMode/prove``, whose encoding is never narrower than the rules:
/// unsatisfiable means no request within ``SolverBounds`` is allowed.
///
/// One solver per file: its Z3 context keeps the terms of every question asked.
package final class AccessSolver {
    fileprivate let smt = SMT()
    /// The time one satisfiability check may take.
    package var milliseconds: UInt32
    /// Models replayed per question before the answer is `unknown`.
    package var attempts = 3
    /// When set, no check runs past it: a question asked later is `unknown`.
    package var deadline: ContinuousClock.Instant?
    /// When set, the work all checks may do, in Z3's resource count (``SMT/workPerMillisecond``):
    /// past it a question is `unknown`. Unlike ``deadline``, the same on any machine and under any load.
    package var workLimit: UInt64?
    /// The work of every check so far.
    package var work: UInt64 { smt.work }
    /// Checks made, and checks that ran out of time.
    package private(set) var checks = 0
    package private(set) var timeouts = 0

    package init(milliseconds: UInt32 = 2000) {
        self.milliseconds = milliseconds
    }

    /// Answers `question`; `replay` runs a witness through the engine and tells whether it was allowed.
    ///
    /// A quick look for a witness first (a quarter of the time), then the proof, then the rest of
    /// the witness search: an allowed cell is usually settled by the first check, a cell nobody
    /// may act on by the first two.
    package func ask(_ question: AccessQuestion, replay: (SolverWitness) -> Bool) -> AccessAnswer {
        let found = QuestionEncoding(smt: smt, question: question, mode: .find)
        var constraints = found.constraints
        var refused = 0
        var noneToFind = false
        var reason: String?
        func look(_ ms: UInt32) -> SolverWitness? {
            guard let ms = limit(ms) else {
                reason = reason ?? Self.outOfBudget
                return nil
            }
            checks += 1
            switch smt.check(constraints, milliseconds: ms) {
            case .sat(let model):
                let witness = found.witness(model)
                if replay(witness) { return witness }
                refused += 1
                constraints.append(found.excluding(model))
            case .unsat:
                noneToFind = true
            case .unknown(let r):
                if r.contains("time") { timeouts += 1 }
                reason = reason ?? r
            }
            return nil
        }
        if let w = look(max(1, milliseconds / 4)) { return .witness(w) }
        guard let proofTime = limit(milliseconds) else { return .unknown(reason ?? Self.outOfBudget) }
        checks += 1
        switch smt.check(QuestionEncoding(smt: smt, question: question, mode: .prove).constraints, milliseconds: proofTime) {
        case .unsat: return .never
        case .sat: break
        case .unknown(let r):
            if r.contains("time") { timeouts += 1 }
            reason = r
        }
        var tries = 1
        while !noneToFind, tries < attempts {
            tries += 1
            if let w = look(milliseconds) { return .witness(w) }
        }
        if refused > 0 { return .unknown("the engine denied the \(refused) request\(refused == 1 ? "" : "s") the solver found, and no other was found") }
        return .unknown(reason ?? "the solver found a request only where its encoding is wider than the rules")
    }
}

extension AccessSolver {
    package static let outOfBudget = "the file's time budget for the solver ran out"

    /// `ms`, or less so as to end by the deadline and within the work limit; nil past either.
    private func limit(_ ms: UInt32) -> UInt32? {
        var ms = ms
        if let workLimit {
            let left = workLimit > smt.work ? (workLimit - smt.work) / SMT.workPerMillisecond : 0
            guard left >= 1 else { return nil }
            ms = UInt32(min(UInt64(ms), left))
        }
        guard let deadline else { return ms }
        let (seconds, attoseconds) = ContinuousClock.now.duration(to: deadline).components
        let left = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        guard left >= 1 else { return nil }
        return UInt32(min(Int64(ms), left))
    }

    /// Whether the file's work limit or deadline has passed.
    package var exhausted: Bool { limit(1) == nil }

    /// Whether `question` is satisfiable in `mode` (nil when the solver cannot tell in time): for
    /// testing the encoding against the engine on questions whose every unknown is given.
    package func isSatisfiable(_ question: AccessQuestion, mode: SolverMode) -> Bool? {
        switch smt.check(QuestionEncoding(smt: smt, question: question, mode: mode).constraints, milliseconds: milliseconds) {
        case .sat: true
        case .unsat: false
        case .unknown: nil
        }
    }
}

/// The answer to one question.
package enum AccessAnswer: Sendable {
    /// A request the engine allowed.
    case witness(SolverWitness)
    /// No request within ``SolverBounds`` is allowed.
    case never
    /// Neither could be shown, and why.
    case unknown(String)
}

/// A concrete request read from a model.
package struct SolverWitness: Sendable, Hashable {
    /// The keys of the location's path.
    package var path: [String]
    /// The data before (nil: an empty database).
    package var data: SolverTree?
    /// The value written by a set.
    package var value: SolverTree?
    /// The uid the solver picked (``SolverPrincipal/anyUser(excluded:)``).
    package var uid: String?
    /// Token claims the solver picked, by name.
    package var claims: [String: SolverValue] = [:]
    /// The query's fields that are not those of a plain read.
    package var query: [String: SolverValue] = [:]
}

/// A JSON value read from a model.
package indirect enum SolverTree: Sendable, Hashable {
    case leaf(SolverValue)
    case object([String: SolverTree])

    /// The tree with `leaf` at `keys`.
    func setting(_ leaf: SolverValue, at keys: ArraySlice<String>) -> SolverTree {
        guard let first = keys.first else { return .leaf(leaf) }
        var members: [String: SolverTree] = [:]
        if case .object(let m) = self { members = m }
        members[first] = (members[first] ?? .object([:])).setting(leaf, at: keys.dropFirst())
        return .object(members)
    }

    /// Empty objects removed (nil when nothing is left).
    var pruned: SolverTree? {
        guard case .object(let m) = self else { return self }
        let kept = m.compactMapValues { $0.pruned }
        return kept.isEmpty ? nil : .object(kept)
    }
}

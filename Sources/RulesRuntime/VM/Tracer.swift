/// Receives the value of each sub-expression as the VM computes it. The VM is generic over its
/// tracer, so with ``NoTracer`` the calls compile away and explanations cost nothing when not asked for.
package protocol Tracer {
    /// Called after an instruction that completes the expression node `node`.
    mutating func record(node: Int32, value: Value, snapshots: SnapshotTable)
    /// Hands over what was recorded since the last call, and starts afresh.
    mutating func take() -> [Int32: String]
    /// Called after each rule the engine evaluates, with its index in
    /// ``CompiledRuleset/rules`` and its outcome, whether or not an explanation is asked for
    /// (never for ``NoTracer``). Coverage uses it to skip rendering explanations.
    mutating func ruleEvaluated(_ rule: Int32, outcome: RuleOutcome)
    /// Hands over what was stored at each snapshot value recorded since the last ``take()``, by
    /// expression node id (nil: nothing stored there), for explanations that look into the
    /// data: which keys a `hasChildren([...])` missed, the keys of an object `val()` returned.
    /// When explaining, the engine calls it just before ``take()``.
    mutating func takeStored() -> [Int32: DataNode?]
    /// Hands over the snapshot-table entry of each snapshot value recorded since the last
    /// ``take()``, by expression node id: where each snapshot a rule used is, for explanations
    /// that withhold what the caller may not read. When explaining, the engine calls it just
    /// before ``take()``.
    mutating func takeSnapshotEntries() -> [Int32: Int32]
}

extension Tracer {
    /// Does nothing by default.
    @inline(__always)
    package mutating func ruleEvaluated(_ rule: Int32, outcome: RuleOutcome) {}

    /// Nothing by default.
    package mutating func takeStored() -> [Int32: DataNode?] { [:] }

    /// Nothing by default (a redacted explanation then withholds every snapshot's content).
    package mutating func takeSnapshotEntries() -> [Int32: Int32] { [:] }
}

/// The tracer that records nothing.
package struct NoTracer: Tracer, Sendable {
    /// Creates one.
    package init() {}
    @inline(__always)
    package mutating func record(node: Int32, value: Value, snapshots: SnapshotTable) {}
    package mutating func take() -> [Int32: String] { [:] }
}

/// A tracer that keeps the last value of every node, rendered for people: a snapshot is shown as
/// its path and what is stored there, an object by its keys (`{body, title, +3 more}`, see
/// ``ExplanationFormat/objectSummary(_:)``).
package struct RecordingTracer: Tracer {
    /// Rendered values by expression node id.
    package var values: [Int32: String] = [:]
    /// What was stored at each snapshot value, by expression node id (see ``takeStored()``).
    package var stored: [Int32: DataNode?] = [:]
    /// The snapshot-table entry of each snapshot value, by expression node id.
    package var snapshotEntries: [Int32: Int32] = [:]

    /// Creates an empty recorder.
    package init() {}

    package mutating func record(node: Int32, value: Value, snapshots: SnapshotTable) {
        if case .snapshot(let i) = value {
            let path = "/" + snapshots.path(of: i).joined(separator: "/")
            let here = snapshots.peekNode(i)
            let content: String
            if let here {
                content = here.value.map { Value($0).description } ?? ExplanationFormat.objectSummary(here)
            } else {
                content = "null"
            }
            values[node] = "snapshot \(path) = \(content)"
            stored[node] = .some(here)
            snapshotEntries[node] = i
        } else if case .auth(let member) = value {
            values[node] = ExplanationFormat.authSummary(member)
        } else {
            values[node] = value.description
        }
    }

    package mutating func take() -> [Int32: String] {
        defer {
            values.removeAll(keepingCapacity: true)
            stored.removeAll(keepingCapacity: true)
            snapshotEntries.removeAll(keepingCapacity: true)
        }
        return values
    }

    package mutating func takeStored() -> [Int32: DataNode?] { stored }

    package mutating func takeSnapshotEntries() -> [Int32: Int32] { snapshotEntries }
}

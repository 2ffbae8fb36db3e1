import RulesRuntime

/// Records, for each rule evaluation, the boolean value of every expression node the VM
/// completed, while also rendering values for explanations (as ``RecordingTracer`` does).
///
/// The engine calls ``take()`` once after each rule it evaluates (when explaining), so
/// ``evaluations`` lines up with ``Explanation/evaluations``.
package struct CoverageTracer: Tracer {
    private var rendering = RecordingTracer()
    private var current: [Int32: Bool] = [:]
    /// Per evaluation: node id → boolean value. Nodes with non-boolean values are left out.
    package private(set) var evaluations: [[Int32: Bool]] = []

    /// Creates an empty tracer.
    package init() {}

    package mutating func record(node: Int32, value: Value, snapshots: SnapshotTable) {
        rendering.record(node: node, value: value, snapshots: snapshots)
        if case .bool(let b) = value { current[node] = b }
    }

    package mutating func take() -> [Int32: String] {
        evaluations.append(current)
        current.removeAll(keepingCapacity: true)
        return rendering.take()
    }
}

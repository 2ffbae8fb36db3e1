import DatabaseRules

/// Invariants the fuzz targets assert. A violation stops the process, which libFuzzer records as
/// a crash with the input that caused it.
public enum FuzzCheck {
    /// Stops with `message`.
    public static func fail(_ message: String) -> Never {
        fatalError("fuzz invariant violated: \(message)")
    }

    /// Stops with `message` unless `condition` holds.
    public static func that(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fail(message()) }
    }

    /// Every node's range lies inside a file of `size` bytes.
    public static func ranges(of node: JSONNode, within size: Int) {
        var stack = [node]
        while let n = stack.popLast() {
            that(n.range.start <= n.range.end && Int(n.range.end) <= size, "node range \(n.range) outside \(size) bytes")
            switch n.kind {
            case .array(let items): stack.append(contentsOf: items)
            case .object(let members):
                for m in members {
                    that(Int(m.key.range.end) <= size, "key range \(m.key.range) outside \(size) bytes")
                    stack.append(m.value)
                }
            default: break
            }
        }
    }

    /// The decision is consistent: a reason exactly when denied, and the tree unchanged by a read
    /// or a denied write.
    public static func decision(_ d: Decision, for op: DatabaseOperation, on root: DataNode?) {
        that(d.allowed == (d.reason == nil), "allowed \(d.allowed) with reason \(d.reason ?? "nil") for \(op.kindName)")
        if !d.allowed || !op.isWrite {
            that(same(d.newRoot, root), "a \(d.allowed ? "read" : "denied \(op.kindName)") changed the tree")
        }
    }

    /// True when both trees are absent or equal.
    public static func same(_ a: DataNode?, _ b: DataNode?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let x?, let y?): x === y || x.isEqual(to: y)
        default: false
        }
    }
}

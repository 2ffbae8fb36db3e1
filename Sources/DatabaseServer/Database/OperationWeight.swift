import DatabaseRules

/// How much of an operation a record of it keeps: the values it writes, counted in nodes (a
/// leaf, or a member of an object) up to a cap, so that measuring a huge write costs no more
/// than the cap.
enum OperationWeight {
    /// The nodes of `operation`'s values, or `cap + 1` once it has more than `cap`.
    static func of(_ operation: DatabaseOperation, cap: Int) -> Int {
        var count = 0
        switch operation {
        case .read, .delete: return 0
        case .set(_, let value), .push(_, let value, _): add(value, &count, cap)
        case .update(_, let values):
            for (_, value) in values where count <= cap {
                count += 1
                add(value, &count, cap)
            }
        }
        return min(count, cap + 1)
    }

    private static func add(_ value: DataInput, _ count: inout Int, _ cap: Int) {
        var stack = [value]
        while let next = stack.popLast(), count <= cap {
            count += 1
            switch next {
            case .object(let members):
                for (_, member) in members { stack.append(member) }
            case .withPriority(let inner, let priority):
                stack.append(inner)
                stack.append(priority)
            case .null, .primitive, .serverValue:
                break
            }
        }
    }

    /// The most nodes of written values a request's record keeps for the page to explain later
    /// (a larger write is logged without it: deciding it again would cost its size again, and
    /// keeping it would keep its whole value for as long as the log holds the record).
    static let recordedCap = 10_000
}

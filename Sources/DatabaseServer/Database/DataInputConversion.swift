import DatabaseRules

/// A stored node as a write input (to write it back with a new priority).
enum DataInputConversion {
    static func input(_ node: DataNode, priority: Bool) -> DataInput {
        let value: DataInput
        if let leaf = node.value {
            value = .primitive(leaf)
        } else {
            var members: [(String, DataInput)] = []
            node.forEachChild { key, child in members.append((key, input(child, priority: true))) }
            value = .object(members)
        }
        if priority, let p = node.priority { return .withPriority(value, priority: .primitive(p)) }
        return value
    }
}

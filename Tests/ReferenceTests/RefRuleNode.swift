/// A rules document for the reference and the generator: expression texts per node, literal
/// children, and at most one wildcard child.
struct RefRuleNode {
    var read: String?
    var write: String?
    var validate: String?
    var children: [(String, RefRuleNode)] = []
    /// The wildcard's name with its `$`, and its node.
    /// At most one element (an array so that the type can contain itself).
    var wildcards: [(String, RefRuleNode)] = []
    var wildcard: (String, RefRuleNode)? {
        get { wildcards.first }
        set { wildcards = newValue.map { [$0] } ?? [] }
    }

    init(read: String? = nil, write: String? = nil, validate: String? = nil,
         children: [(String, RefRuleNode)] = [], wildcard: (String, RefRuleNode)? = nil) {
        self.read = read
        self.write = write
        self.validate = validate
        self.children = children
        self.wildcards = wildcard.map { [$0] } ?? []
    }

    /// The node for one more key, and the wildcard binding it makes (spec §8.1: literal first).
    func step(_ key: String) -> (RefRuleNode, (String, String)?)? {
        if let literal = children.first(where: { Array($0.0.utf8) == Array(key.utf8) }) { return (literal.1, nil) }
        if let (name, node) = wildcard { return (node, (name, key)) }
        return nil
    }

    /// The rules document as JSON text.
    var document: String { "{\"rules\": " + json(indent: "  ") + "}" }

    func json(indent: String) -> String {
        var members: [String] = []
        if let read { members.append("\".read\": " + RefInput.quote(read)) }
        if let write { members.append("\".write\": " + RefInput.quote(write)) }
        if let validate { members.append("\".validate\": " + RefInput.quote(validate)) }
        for (k, n) in children { members.append(RefInput.quote(k) + ": " + n.json(indent: indent + "  ")) }
        if let (k, n) = wildcard { members.append(RefInput.quote(k) + ": " + n.json(indent: indent + "  ")) }
        if members.isEmpty { return "{}" }
        return "{\n" + members.map { indent + $0 }.joined(separator: ",\n") + "\n" + String(indent.dropLast(2)) + "}"
    }
}

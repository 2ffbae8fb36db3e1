import RulesCompiler

extension AccessModel {
    /// The cells that show a wipe: a stranger's or anonymous write of a collection whose records
    /// belong to users, with the owner's record in it. `collection-wipe` reports them; the rules
    /// that allow them are left to it by `ownership-takeover` and `authorization-in-validate`.
    var collectionWipes: [AccessCell] {
        cells.filter { c in
            guard c.location.kind == .collection, c.operation == .write, c.principal == .stranger || c.principal == .anonymous,
                case .allowed = c.verdict, let (_, child) = c.location.node.wildcard
            else { return false }
            return locations.contains { $0.node === child && $0.isOwned }
        }
    }
}

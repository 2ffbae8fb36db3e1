import RulesCompiler
import RulesSyntax

/// A location of the access model: a rule node, what kind of place it is, and who owns what is
/// stored there.
package struct AccessLocation: Sendable {
    /// What the location holds.
    package enum Kind: Sendable {
        /// A `$wildcard` location: one record of a collection.
        case record
        /// A location whose children are `$wildcard` records.
        case collection
        /// Any other location with rules.
        case other
    }

    package var node: RuleNode
    package var kind: Kind
    /// The `$wildcard`s of the path that the rules compare with `auth.uid`: they take the
    /// owner's uid.
    package var ownerWildcards: Set<String>
    /// Children of a record that name its owner: compared with `auth.uid` by a rule, or required
    /// by `.validate` under a name that says so (`uid`, `userId`, `owner`, `author`...).
    package var ownerFields: [String]

    /// The path pattern, e.g. `/users/$uid`.
    package var path: String { node.pathDescription }

    /// Whether the record belongs to a user: by its key (`/users/$uid`) or by a field.
    package var isOwned: Bool { !ownerFields.isEmpty || node.path.contains { ownerWildcards.contains($0) } }

    /// Whether the record's own key is its owner's uid (`/users/$uid`).
    package var isKeyedByOwner: Bool { node.path.last.map { ownerWildcards.contains($0) } ?? false }

    /// Whether reading or writing it reaches many records: the root, a location at depth 1, or a
    /// location with `$wildcard` children (a collection, itself a record of another or not).
    package var isLarge: Bool { kind == .collection || node.wildcard != nil || node.path.count <= 1 }

    /// The operations that make sense here.
    package var operations: [AccessOperation] {
        switch kind {
        case .record: [.read, .create, .update, .delete]
        case .collection: [.read, .write]
        case .other: [.read, .write]
        }
    }

    /// Names of fields that say who owns a record.
    static let ownerFieldNames: Set<String> = [
        "uid", "userId", "userid", "user_id", "user", "owner", "ownerId", "owner_id", "ownerUid", "author", "authorId",
        "authorUid", "author_id", "createdBy", "creator", "creatorId", "sender", "senderId", "from", "organizer", "organizerId",
        "postedBy", "writer", "by",
    ]
}

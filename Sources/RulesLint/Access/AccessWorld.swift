import RulesCompiler

/// The concrete world in which a location's cells are decided: the key each `$wildcard` takes
/// and the data before the operation, where the owner (`alice`) has her record at the location
/// and the links the rules check name her.
package struct AccessWorld: Sendable {
    /// The key of each `$wildcard` (owner wildcards take the owner's uid, others `k1`).
    package var keys: [String: String]
    /// The data before any operation: the owner's record (for records and collections) and
    /// every data link the rules compare with `auth.uid`, set for the owner.
    package var data: WitnessValue
    /// The concrete path of the location, e.g. `/users/alice`.
    package var path: String
    /// The owner's record as stored (records only).
    package var record: WitnessValue?

    /// The world of `location` in `model`.
    init(_ location: AccessLocation, links: [Privilege], ownerWildcards: Set<String>) {
        var keys: [String: String] = [:]
        for s in location.node.path where s.hasPrefix("$") {
            keys[s] = ownerWildcards.contains(s) ? AccessPrincipal.ownerUID : "k1"
        }
        self.keys = keys
        path = WitnessPlanner.concrete(location.node.path, keys: keys, fallback: "k1")
        var data: WitnessValue = .object([:])
        for link in links where (link.neededIsCaller && !link.segments.contains(.caller)) || link.isRegistration {
            let g = link.grant(uid: AccessPrincipal.ownerUID, keys: keys)
            data = data.setting(g.value, at: g.path)
        }
        switch location.kind {
        case .record:
            let r = Self.value(location, uid: AccessPrincipal.ownerUID)
            record = r
            data = data.setting(r, at: WitnessPlanner.segments(path))
        case .collection:
            if let (name, child) = location.node.wildcard {
                let childLocation = AccessLocation(node: child, kind: .record, ownerWildcards: location.ownerWildcards, ownerFields: AccessModelBuilder.ownerFields(child))
                let key = ownerWildcards.contains(name) ? AccessPrincipal.ownerUID : "k1"
                data = data.setting(Self.value(childLocation, uid: AccessPrincipal.ownerUID), at: WitnessPlanner.segments(path) + [key])
            }
        case .other:
            break
        }
        self.data = data
    }

    /// A value for `location` that its rules probably accept, written by `uid`: owner fields
    /// name `uid` (or the owner when signed out).
    static func value(_ location: AccessLocation, uid: String?) -> WitnessValue {
        var v = WitnessPlanner.sample(location.node, uid: uid ?? AccessPrincipal.ownerUID)
        guard case .object = v else { return v }
        for f in location.ownerFields {
            v = v.setting(.string(uid ?? AccessPrincipal.ownerUID), at: [f])
        }
        return v
    }
}

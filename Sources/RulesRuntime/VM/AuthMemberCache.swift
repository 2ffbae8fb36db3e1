/// The members of `auth` that one decision has looked up (`auth.uid`, `auth.token`), by the
/// index of their name in the ruleset's strings: a rule set names the same few members in
/// rule after rule, and each look-up otherwise hashes the name into the user's dictionary.
///
/// Emptied at the start of every decision, as the user changes with it.
struct AuthMemberCache: Sendable {
    /// Most members kept; rules rarely name more than two or three.
    static let capacity = 8

    private var names: [Int32] = []
    private var values: [Value] = []

    /// Forgets every member (keeping the storage).
    @inline(__always)
    mutating func removeAll() {
        // Most decisions look up no member, or the cache was emptied after the last one.
        if names.isEmpty { return }
        names.clearKeepingCapacity()
        values.clearKeepingCapacity()
    }

    /// The member whose name is string `name`, if looked up before in this decision.
    @inline(__always)
    func value(_ name: Int32) -> Value? {
        var i = 0
        while i < names.count {
            if names[i] == name { return values[i] }
            i += 1
        }
        return nil
    }

    /// Remembers a member (nothing happens once full).
    mutating func remember(_ name: Int32, _ value: Value) {
        guard names.count < Self.capacity else { return }
        if names.capacity < Self.capacity {
            names.reserveCapacity(Self.capacity)
            values.reserveCapacity(Self.capacity)
        }
        names.append(name)
        values.append(value)
    }
}

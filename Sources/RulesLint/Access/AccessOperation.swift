/// What a principal does at a location: a column of the access model's table.
package enum AccessOperation: String, Hashable, Sendable, CaseIterable {
    /// Read the location.
    case read
    /// Create a record where there is none (a `$wildcard` location).
    case create
    /// Replace an existing record (someone else's, for everyone but its owner).
    case update
    /// Delete an existing record.
    case delete
    /// Replace or delete a whole collection (a location with `$wildcard` children) that holds
    /// the owner's record; at other locations, a write of the location.
    case write
}

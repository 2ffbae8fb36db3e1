/// Path patterns compared across versions of a file: a `$wildcard`'s name does not matter.
package enum AccessPaths {
    /// `/users/$uid/posts/$postId` → `/users/$/posts/$`.
    package static func normalized(_ path: String) -> String {
        let parts = path.split(separator: "/").map { $0.hasPrefix("$") ? "$" : String($0) }
        return "/" + parts.joined(separator: "/")
    }
}

/// Where a committed write changed data, as listeners need it: one location, or a base
/// location and the relative paths of a multi-path update.
enum WriteShape: Sendable {
    /// A set, push or delete at these keys.
    case single([String])
    /// An update at `base`: each entry's key as the client sent it and its split path.
    case update(base: [String], entries: [(key: String, keys: [String])])
}

/// The Realtime Database's documented data limits
/// (https://firebase.google.com/docs/database/usage/limits, "Data tree").
public enum DataLimits {
    /// The longest key, in UTF-8 bytes: "Length of a key: 768 bytes".
    public static let maxKeyBytes = 768
    /// "Depth of child nodes: 32". A path must be **less than** 32 levels deep, so the deepest
    /// allowed path has ``maxPathLevels`` keys.
    public static let maxDepth = 32
    /// The most keys a path (the location of any stored node) may have: `maxDepth - 1` = 31.
    public static let maxPathLevels = maxDepth - 1
    /// The longest string value, in UTF-8 bytes: "Size of one string: 10 MB (UTF-8 encoded)",
    /// taken as 10 × 2^20 bytes.
    public static let maxStringBytes = 10 * 1024 * 1024
    /// The deepest JSON nesting ``DataInputReader`` reads at all. Path-depth checks normally stop
    /// a value much earlier; this bounds the rest (for example nesting inside `".sv"`), so that no
    /// input can exhaust memory or the stack. Not a Firebase limit.
    public static let maxReaderNesting = 1_000
}

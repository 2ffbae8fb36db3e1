#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A location of the compiled rule tree, with its rules and children by index.
package struct CompiledNode: Sendable {
    /// The rule path, e.g. `/posts/$postId`.
    package let path: String
    /// Literal children: key to node index.
    package let literals: [String: Int32]
    /// The wildcard child's node index, or -1.
    package let wildcard: Int32
    /// The wildcard's name (with `$`), or "".
    package let wildcardName: String
    /// Rule indexes for `.read`, `.write`, `.validate`, or -1.
    package let read: Int32
    package let write: Int32
    package let validate: Int32
    /// True when this node or a descendant has a `.validate`, so a write under it needs walking.
    package let validatesBelow: Bool
    /// `.indexOn` entries.
    package let indexOn: [String]

    /// Creates a node.
    package init(path: String, literals: [String: Int32], wildcard: Int32, wildcardName: String, read: Int32, write: Int32, validate: Int32, validatesBelow: Bool, indexOn: [String]) {
        self.path = path
        self.literals = literals
        self.wildcard = wildcard
        self.wildcardName = wildcardName
        self.read = read
        self.write = write
        self.validate = validate
        self.validatesBelow = validatesBelow
        self.indexOn = indexOn
    }

    /// The child node for a data key: the literal one if the key names one, else the wildcard.
    @inline(__always)
    package func child(_ key: String) -> (index: Int32, isWildcard: Bool)? {
        // Swift's String equality folds canonically equivalent text ("é" and "e\u{301}"); keys
        // are bytes, so a hit must also match byte for byte.
        if let at = literals.index(forKey: key) {
            let (stored, index) = literals[at]
            if Self.sameBytes(stored, key) { return (index, false) }
        }
        if wildcard >= 0 { return (wildcard, true) }
        return nil
    }

    /// Byte-for-byte equality of two strings (the generic `elementsEqual` on UTF-8 views is
    /// not specialised well and dominated key look-ups).
    @inline(__always)
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { pa in
            b.withUTF8 { pb in
                pa.count == pb.count && (pa.isEmpty || memcmp(pa.baseAddress!, pb.baseAddress!, pa.count) == 0)
            }
        }
    }

    /// The rule index of a kind.
    package func rule(_ kind: RuleKind) -> Int32 {
        switch kind {
        case .read: read
        case .write: write
        case .validate: validate
        }
    }
}

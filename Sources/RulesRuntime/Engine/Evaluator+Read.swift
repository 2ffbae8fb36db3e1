import RulesCompiler
import RulesSyntax

/// Reads: the `.read` rules down the path, any true grants.
extension Evaluator {
    /// Whether a `.read` rule on the path or above it grants the read. The path is the first
    /// `levels` keys of `pathBytes`, at the byte ranges in `pathBounds` (see
    /// ``DataPath/keyBounds(_:into:)``).
    ///
    /// The walk down the rule tree compares bytes. A rule that reads neither `data` nor a `$`
    /// variable (`auth != null`) runs without its location: the snapshot entries and wildcard
    /// keys down to a rule's depth are made only when it needs them (or when tracing).
    mutating func read(_ levels: Int, _ root: DataNode?) -> Bool {
        snaps.reset()
        // The root is entered in the snapshot table when the first rule that reads a snapshot
        // runs (`auth != null` reads none).
        rootEntry = -1
        wildcardKeys.clearKeepingCapacity()
        // The deepest location entered in the snapshot table, and its depth.
        var entry: Int32 = -1
        var entryDepth = 0
        // Bit `d` set: the key at depth `d` was matched by a wildcard (paths have at most
        // `DataLimits.maxPathLevels` keys, fewer than 64).
        var wildcardDepths: UInt64 = 0
        let always = explain || !(T.self == NoTracer.self)
        var nodeIndex: Int32 = 0
        var depth = 0
        while true {
            // Members are read through the array, not a copy of the node (which would retain
            // and release its dictionary and strings on every level).
            let readRule = tables.nodes[Int(nodeIndex)].read
            if readRule >= 0 {
                let rule = tables.rules[Int(readRule)]
                if entry < 0 && (always || rule.readsSnapshots) {
                    entry = snaps.addRoot(root)
                    rootEntry = entry
                }
                if always || rule.readsLocation {
                    while entryDepth < depth {
                        let key = String(decoding: pathBytes[pathBounds[2 * entryDepth]..<pathBounds[2 * entryDepth + 1]], as: UTF8.self)
                        if wildcardDepths & (1 << UInt64(entryDepth)) != 0 { wildcardKeys.append(key) }
                        entry = snaps.addChild(of: entry, key: key)
                        entryDepth += 1
                    }
                }
                readDepth = depth
                let outcome = evaluate(readRule, data: entry, newData: -1)
                if explain { decisive = logIndex(ofEvaluation: evaluationCount - 1) }
                if outcome.isTrue { return true }
            }
            if depth == levels {
                if explain { deniedAtNode = nodeIndex }
                return false
            }
            guard let (child, isWildcard) = tables.child(of: nodeIndex, pathBytes, pathBounds[2 * depth]..<pathBounds[2 * depth + 1], in: ruleset) else {
                return false
            }
            if isWildcard { wildcardDepths |= 1 << UInt64(depth) }
            nodeIndex = child
            depth += 1
        }
    }

    /// Copies a path's bytes into `bytes` and finds its keys' byte ranges
    /// (``DataPath/keyBounds(_:into:)``): the number of keys, or nil for a path that is not
    /// plainly valid. Both buffers only grow, and their elements are plain integers, so
    /// nothing is cleared between decisions.
    static func split(_ path: String, into bytes: inout [UInt8], _ bounds: inout [Int]) -> Int? {
        let n = path.utf8.count
        if bytes.count < n { bytes = [UInt8](repeating: 0, count: Swift.max(n, 64)) }
        if bounds.count < 2 * DataLimits.maxPathLevels { bounds = [Int](repeating: 0, count: 2 * DataLimits.maxPathLevels) }
        return bytes.withUnsafeMutableBufferPointer { buffer in
            let copied =
                path.utf8.withContiguousStorageIfAvailable { source in
                    if n > 0, let from = source.baseAddress, let to = buffer.baseAddress { to.update(from: from, count: n) }
                    return n
                } ?? buffer.initialize(from: path.utf8).1
            guard copied == n else { return nil }
            return bounds.withUnsafeMutableBufferPointer { b in
                DataPath.keyBounds(UnsafeBufferPointer(rebasing: buffer[0..<n]), into: b)
            }
        }
    }

    /// `/a/b` for the first `levels` keys of a path given as byte ranges; `/` for the root.
    static func display(_ path: [UInt8], _ bounds: [Int], _ levels: Int) -> String {
        guard levels > 0 else { return "/" }
        // Keys are separated by exactly one "/" (there are no empty keys).
        return "/" + String(decoding: path[bounds[0]..<bounds[2 * levels - 1]], as: UTF8.self)
    }
}

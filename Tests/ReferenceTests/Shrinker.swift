/// Greedy shrinking: keep taking the first smaller candidate that still fails, until none does.
enum Shrinker {
    static func shrink<T>(_ start: T, maxSteps: Int = 5000, smaller: (T) -> [T], fails: (T) -> Bool) -> T {
        var current = start
        var steps = 0
        var improved = true
        while improved && steps < maxSteps {
            improved = false
            for candidate in smaller(current) {
                steps += 1
                if fails(candidate) {
                    current = candidate
                    improved = true
                    break
                }
                if steps >= maxSteps { break }
            }
        }
        return current
    }

    /// Trees with one member removed or one subtree replaced by a leaf.
    static func smallerTrees(_ d: RefData?) -> [RefData?] {
        guard let d else { return [] }
        var out: [RefData?] = [nil]
        guard case .object(let m) = d else { return out }
        for key in m.keys.sorted() {
            var fewer = m
            fewer[key] = nil
            out.append(fewer.isEmpty ? nil : .object(fewer))
            for s in smallerTrees(m[key]) {
                var changed = m
                changed[key] = s
                out.append(changed.isEmpty ? nil : .object(changed))
            }
        }
        return out
    }

    /// Written values with one member removed or simplified.
    static func smallerInputs(_ v: RefInput) -> [RefInput] {
        switch v {
        case .null: return []
        case .object(let m):
            var out: [RefInput] = [.null, .number(1)]
            for i in m.indices {
                var fewer = m
                fewer.remove(at: i)
                out.append(.object(fewer))
                for s in smallerInputs(m[i].1) {
                    var changed = m
                    changed[i].1 = s
                    out.append(.object(changed))
                }
            }
            return out
        default: return v == .null ? [] : [.null]
        }
    }
}

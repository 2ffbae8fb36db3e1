import RulesSyntax

extension DataNode {
    /// The tree as compact JSON text.
    ///
    /// Numbers are printed without a fraction when they are integers (`1`, not `1.0`). With
    /// `includePriority`, priorities use Firebase's export format: a leaf with a priority becomes
    /// `{".value":v,".priority":p}` and an object with one gains a `".priority"` member (after
    /// its children). Members are in ``KeyOrder`` (the database's order) when `sortedKeys` is
    /// true, and in plain UTF-8 byte order of the keys otherwise (the order of generic JSON
    /// tools' sorted output, such as `jq -S`).
    ///
    /// With `arrays` (and without priorities), an object whose keys are all canonical
    /// non-negative integers below twice its number of children is written as a JSON array with
    /// `null` in the holes, as the server answers a read (`set([1,2,3])` reads back `[1,2,3]`).
    package func exportJSON(includePriority: Bool = true, sortedKeys: Bool = true, arrays: Bool = false) -> String {
        var out = ""
        export(to: &out, includePriority: includePriority, sortedKeys: sortedKeys, arrays: arrays && !includePriority)
        return out
    }

    /// The array length an object reads as (its largest index + 1), or nil when it reads as an
    /// object: every key `0` or digits without a leading zero within 2^31, the largest below
    /// twice the count.
    package var arrayLength: Int? {
        guard value == nil, childCount > 0 else { return nil }
        var maxIndex = -1
        var all = true
        forEachChild { key, _ in
            guard all else { return }
            if let index = Self.arrayIndex(key) { maxIndex = Swift.max(maxIndex, index) } else { all = false }
        }
        return all && maxIndex < 2 * childCount ? maxIndex + 1 : nil
    }

    /// The index a key stands for in an array, if it is one.
    static func arrayIndex(_ key: String) -> Int? {
        let bytes = key.utf8
        guard let first = bytes.first, bytes.count <= 10 else { return nil }
        if first == UInt8(ascii: "0") { return bytes.count == 1 ? 0 : nil }
        var n = 0
        for b in bytes {
            guard b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") else { return nil }
            n = n * 10 + Int(b - UInt8(ascii: "0"))
        }
        return n <= Int(Int32.max) ? n : nil
    }

    private func export(to out: inout String, includePriority: Bool, sortedKeys: Bool, arrays: Bool) {
        let priority = includePriority ? self.priority : nil
        if let value {
            if let priority {
                out += #"{".value":"# + Self.jsonText(value) + #",".priority":"# + Self.jsonText(priority) + "}"
            } else {
                out += Self.jsonText(value)
            }
            return
        }
        // Read once: for a wide object each read builds the arrays.
        let keys = self.keys, children = self.children
        if arrays, let length = arrayLength {
            var items = [DataNode?](repeating: nil, count: length)
            for (key, child) in zip(keys, children) { items[Self.arrayIndex(key)!] = child }
            out += "["
            for (n, item) in items.enumerated() {
                if n > 0 { out += "," }
                if let item { item.export(to: &out, includePriority: false, sortedKeys: sortedKeys, arrays: true) } else { out += "null" }
            }
            out += "]"
            return
        }
        var order = Array(keys.indices)
        if !sortedKeys {
            order.sort { x, y in
                var a = keys[x]
                var b = keys[y]
                return a.withUTF8 { pa in b.withUTF8 { pb in KeyOrder.compareBytes(pa, pb) < 0 } }
            }
        }
        out += "{"
        for (n, index) in order.enumerated() {
            if n > 0 { out += "," }
            out += JSONText.quote(keys[index]) + ":"
            children[index].export(to: &out, includePriority: includePriority, sortedKeys: sortedKeys, arrays: arrays)
        }
        if let priority {
            out += #",".priority":"# + Self.jsonText(priority)
        }
        out += "}"
    }

    /// A primitive as JSON text.
    static func jsonText(_ p: Primitive) -> String {
        switch p {
        case .string(let s): JSONText.quote(s)
        case .number(let d): JSONText.number(d)
        case .bool(let b): b ? "true" : "false"
        }
    }

    /// Reads JSON (in the format ``DataInputReader`` accepts, export format included) and
    /// resolves it as a write at the root of an empty database, with server timestamps at 0.
    /// Returns nil for `null` and `{}`.
    package static func fromJSON(_ text: String) throws(DataError) -> DataNode? {
        try DataInputReader.read(json: text).resolved(now: 0, existing: nil)
    }
}

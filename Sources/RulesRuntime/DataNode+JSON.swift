extension DataNode {
    /// The tree as compact JSON text.
    ///
    /// Numbers are printed without a fraction when they are integers (`1`, not `1.0`). With
    /// `includePriority`, priorities use Firebase's export format: a leaf with a priority becomes
    /// `{".value":v,".priority":p}` and an object with one gains a `".priority"` member (after
    /// its children). Members are in ``KeyOrder`` (the database's order) when `sortedKeys` is
    /// true, and in plain UTF-8 byte order of the keys otherwise (the order of generic JSON
    /// tools' sorted output, such as `jq -S`).
    public func exportJSON(includePriority: Bool = true, sortedKeys: Bool = true) -> String {
        var out = ""
        export(to: &out, includePriority: includePriority, sortedKeys: sortedKeys)
        return out
    }

    private func export(to out: inout String, includePriority: Bool, sortedKeys: Bool) {
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
            out += DataText.jsonQuoted(keys[index]) + ":"
            children[index].export(to: &out, includePriority: includePriority, sortedKeys: sortedKeys)
        }
        if let priority {
            out += #",".priority":"# + Self.jsonText(priority)
        }
        out += "}"
    }

    /// A primitive as JSON text.
    static func jsonText(_ p: Primitive) -> String {
        switch p {
        case .string(let s): DataText.jsonQuoted(s)
        case .number(let d): DataText.number(d)
        case .bool(let b): b ? "true" : "false"
        }
    }

    /// Reads JSON (in the format ``DataInputReader`` accepts, export format included) and
    /// resolves it as a write at the root of an empty database, with server timestamps at 0.
    /// Returns nil for `null` and `{}`.
    public static func fromJSON(_ text: String) throws(DataError) -> DataNode? {
        try DataInputReader.read(json: text).resolved(now: 0, existing: nil)
    }
}

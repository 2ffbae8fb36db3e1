import RulesSyntax

/// The member chain just before the cursor in a half-typed rule expression, e.g.
/// `newData.child('profile').` → head `newData`, steps `child('profile')`, then the partial
/// name after the last dot.
package struct ExpressionChain: Sendable, Equatable {
    /// One `.name` or `.name(arguments)` after the head.
    package struct Step: Sendable, Equatable {
        package var name: String
        /// The call's arguments as written, nil for a property.
        package var arguments: String?
    }

    /// The first name (`auth`, `data`, `$uid`, ...), empty when the chain starts with something
    /// else (a literal, a parenthesis).
    package var head: String
    package var steps: [Step]

    /// Parses a chain written left to right (`root.child('a').child(x)`); nil when it is not one.
    package static func parse(_ text: Substring) -> ExpressionChain? {
        var chars = Array(text)
        var i = 0
        func name() -> String {
            var out = ""
            while i < chars.count, chars[i].isLetter || chars[i].isNumber || chars[i] == "_" || chars[i] == "$" {
                out.append(chars[i])
                i += 1
            }
            return out
        }
        let head = name()
        guard !head.isEmpty else { return nil }
        var steps: [Step] = []
        while i < chars.count {
            if chars[i] == "[" {
                guard let close = matching(chars, from: i) else { return nil }
                steps.append(Step(name: String(chars[i + 1..<close]), arguments: nil))
                i = close + 1
                continue
            }
            guard chars[i] == "." else { return nil }
            i += 1
            let n = name()
            guard !n.isEmpty else { return nil }
            if i < chars.count, chars[i] == "(" {
                guard let close = matching(chars, from: i) else { return nil }
                steps.append(Step(name: n, arguments: String(chars[i + 1..<close])))
                i = close + 1
            } else {
                steps.append(Step(name: n, arguments: nil))
            }
        }
        chars.removeAll()
        return ExpressionChain(head: head, steps: steps)
    }

    /// The index of the bracket that closes the one at `open`, skipping string literals.
    private static func matching(_ chars: [Character], from open: Int) -> Int? {
        var depth = 0
        var quote: Character?
        var i = open
        while i < chars.count {
            let c = chars[i]
            if let q = quote {
                if c == "\\" { i += 2; continue }
                if c == q { quote = nil }
            } else if c == "'" || c == "\"" {
                quote = c
            } else if c == "(" || c == "[" {
                depth += 1
            } else if c == ")" || c == "]" {
                depth -= 1
                if depth == 0 { return i }
            }
            i += 1
        }
        return nil
    }

    /// The start of the chain that ends at the end of `text` (walking back over names, dots and
    /// balanced brackets).
    package static func start(endingAt text: [Character]) -> Int {
        var i = text.count
        while i > 0 {
            let c = text[i - 1]
            if c.isLetter || c.isNumber || c == "_" || c == "$" || c == "." {
                i -= 1
            } else if c == ")" || c == "]" {
                var depth = 0
                var j = i - 1
                var quote: Character?
                while j >= 0 {
                    let d = text[j]
                    if let q = quote {
                        if d == q && (j == 0 || text[j - 1] != "\\") { quote = nil }
                    } else if d == "'" || d == "\"" {
                        quote = d
                    } else if d == ")" || d == "]" {
                        depth += 1
                    } else if d == "(" || d == "[" {
                        depth -= 1
                        if depth == 0 { break }
                    }
                    j -= 1
                }
                guard j >= 0 else { return i }
                i = j
            } else {
                break
            }
        }
        return i
    }

    /// The offset of the `(` whose call the end of `text` is inside (its arguments so far may
    /// hold complete literals, brackets and commas), nil when there is none.
    package static func unclosedParenthesis(_ text: [Character]) -> Int? {
        var depth = 0
        var quote: Character?
        var i = text.count - 1
        while i >= 0 {
            let c = text[i]
            if let q = quote {
                if c == q && (i == 0 || text[i - 1] != "\\") { quote = nil }
            } else if c == "'" || c == "\"" {
                quote = c
            } else if c == ")" || c == "]" {
                depth += 1
            } else if c == "[" {
                depth = max(0, depth - 1)
            } else if c == "(" {
                if depth == 0 { return i }
                depth -= 1
            }
            i -= 1
        }
        return nil
    }

    /// The string literal the text ends inside, if any: the offset (in characters) of its
    /// opening quote.
    package static func openStringLiteral(_ text: [Character]) -> Int? {
        var quote: Character?
        var start = 0
        var i = 0
        while i < text.count {
            let c = text[i]
            if let q = quote {
                if c == "\\" { i += 2; continue }
                if c == q { quote = nil }
            } else if c == "'" || c == "\"" {
                quote = c
                start = i
            }
            i += 1
        }
        return quote == nil ? nil : start
    }

    /// The constant path of a `child()` argument: `'a/b'` → `["a", "b"]`; `$uid` → `["$uid"]`;
    /// anything else → a segment matching any key (`"*"`).
    static func pathSegments(_ argument: String) -> [String] {
        let a = argument.trimmingCharacters(in: " \t")
        if let q = a.first, q == "'" || q == "\"", a.count >= 2, a.last == q, !a.dropFirst().dropLast().contains(q) {
            return a.dropFirst().dropLast().split(separator: "/").map(String.init)
        }
        if a.hasPrefix("$"), a.dropFirst().allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) { return [a] }
        // `'users/' + auth.uid`: the constant segments, then one that matches any key.
        if let q = a.first, q == "'" || q == "\"", let close = a.dropFirst().firstIndex(of: q) {
            let constant = a[a.index(after: a.startIndex)..<close]
            let rest = String(a[a.index(after: close)...]).trimmingCharacters(in: " \t")
            if rest.hasPrefix("+"), constant.hasSuffix("/") {
                return constant.split(separator: "/").map(String.init) + ["*"]
            }
        }
        return ["*"]
    }
}

extension String {
    /// The text without leading and trailing characters of `set`.
    func trimmingCharacters(in set: String) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}

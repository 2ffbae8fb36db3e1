import RulesCompiler
import RulesSyntax

/// One `rules-lint-disable` comment in a rules file.
///
/// Three forms, in `//` or `/* */` comments, with codes separated by commas and an optional
/// reason after `--`:
///
/// - `// rules-lint-disable-line CODE[, CODE]`: findings that start on the comment's line;
/// - `// rules-lint-disable-next-line CODE[, CODE]`: findings that start on the next line with
///   something other than comments and blanks;
/// - `// rules-lint-disable-node CODE[, CODE]`: findings anywhere inside the rule or location
///   whose key starts on that next line (its key through the end of its value).
package struct LintSuppression: Sendable, Hashable {
    /// How far a suppression reaches.
    package enum Scope: String, Sendable, Hashable {
        case line = "rules-lint-disable-line"
        case nextLine = "rules-lint-disable-next-line"
        case node = "rules-lint-disable-node"
    }

    /// The form.
    package let scope: Scope
    /// The lint codes it names.
    package let codes: Set<LintCode>
    /// Where each code is written in the comment.
    package let codeRanges: [LintCode: SourceRange]
    /// The byte range it covers: findings starting inside it are hidden.
    package let covers: SourceRange
    /// The comment's range.
    package let range: SourceRange

    /// Finds every suppression comment in `file`. Names that are not lint codes come back as
    /// `unknown-lint-code` findings.
    package static func scan(_ file: SourceFile, tree: RuleNode?) -> (suppressions: [LintSuppression], unknown: [LintFinding]) {
        let comments = CommentScanner.scan(file.bytes)
        var out: [LintSuppression] = []
        var unknown: [LintFinding] = []
        let members = tree.map(memberRanges) ?? []
        let contentLine = firstContentLines(file, comments: comments)
        for c in comments {
            let text = String(decoding: file.bytes[Int(c.text.start)..<Int(c.text.end)], as: UTF8.self)
            let trimmed = text.drop { $0 == " " || $0 == "\t" || $0 == "*" }
            guard let scope = [Scope.nextLine, .node, .line].first(where: { trimmed.hasPrefix($0.rawValue) }) else { continue }
            let afterName = trimmed.dropFirst(scope.rawValue.count)
            guard afterName.first.map({ $0 == " " || $0 == "\t" || $0 == "," }) ?? true else { continue }
            var list = Substring(afterName)
            if let dash = list.indices.first(where: { list[$0] == "-" && list[list.index(after: $0)...].first == "-" }) {
                list = list[..<dash]
            }
            // Byte offset of each code, for pointing at a misspelt one.
            let listStart = Int(c.text.start) + (text.utf8.count - afterName.utf8.count)
            var codes: Set<LintCode> = []
            var codeRanges: [LintCode: SourceRange] = [:]
            var offset = listStart
            for part in list.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "," }) {
                let lead = part.prefix { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
                let name = part.dropFirst(lead.count).prefix { !($0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r") }
                if !name.isEmpty {
                    let s = offset + lead.utf8.count
                    if let code = LintCode(rawValue: String(name)) {
                        codes.insert(code)
                        codeRanges[code] = codeRanges[code] ?? SourceRange(s, s + name.utf8.count)
                    } else {
                        unknown.append(UnknownLintCodeLint.finding(name: name, range: SourceRange(s, s + name.utf8.count), scope: scope))
                    }
                }
                offset += part.utf8.count + 1
            }
            let line = file.location(of: Int(c.range.start)).line
            let covers: SourceRange
            switch scope {
            case .line:
                covers = lineRange(file, line)
            case .nextLine, .node:
                let endLine = file.location(of: Int(c.range.end)).line
                guard let target = contentLine[endLine + 1] else { continue }
                if scope == .nextLine {
                    covers = lineRange(file, target)
                } else {
                    let lr = lineRange(file, target)
                    let starting = members[firstMember(startingAtOrAfter: lr.start, in: members)...].prefix { $0.start < lr.end }
                    guard let first = starting.first else { continue }
                    covers = starting.dropFirst().reduce(first) { $0.union($1) }
                }
            }
            out.append(LintSuppression(scope: scope, codes: codes, codeRanges: codeRanges, covers: covers, range: c.range))
        }
        return (out, unknown)
    }

    /// True when this suppression hides the finding.
    package func hides(_ finding: LintFinding) -> Bool {
        codes.contains(finding.code) && finding.diagnostic.range.start >= covers.start && finding.diagnostic.range.start < covers.end
    }

    private static func lineRange(_ file: SourceFile, _ line: Int) -> SourceRange {
        let start = file.lineStarts[line - 1]
        let end = line < file.lineStarts.count ? file.lineStarts[line] : file.bytes.count
        return SourceRange(start, end)
    }

    /// For each line number `l` (1-based; one entry past the last line), the first line at or after
    /// `l` with a byte outside comments and whitespace. One pass over the file: `comments` are in
    /// file order, so a single cursor finds the comment around each byte.
    private static func firstContentLines(_ file: SourceFile, comments: [CommentScanner.Comment]) -> [Int?] {
        let lines = file.lineStarts.count
        var hasContent = [Bool](repeating: false, count: lines + 1)
        var k = 0
        for l in 1...lines {
            let r = lineRange(file, l)
            var i = Int(r.start)
            while i < Int(r.end) {
                while k < comments.count && Int(comments[k].range.end) <= i { k += 1 }
                if k < comments.count && Int(comments[k].range.start) <= i {
                    i = Int(comments[k].range.end)
                    continue
                }
                let b = file.bytes[i]
                if b != UInt8(ascii: " ") && b != UInt8(ascii: "\t") && b != UInt8(ascii: "\r") && b != UInt8(ascii: "\n") {
                    hasContent[l] = true
                    break
                }
                i += 1
            }
        }
        var first = [Int?](repeating: nil, count: lines + 2)
        for l in stride(from: lines, through: 1, by: -1) { first[l] = hasContent[l] ? l : first[l + 1] }
        return first
    }

    /// The index of the first of `members` (sorted by start) that starts at or after `offset`.
    private static func firstMember(startingAtOrAfter offset: Int32, in members: [SourceRange]) -> Int {
        var lo = 0, hi = members.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if members[mid].start < offset { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The key-through-value range of every rule and location in the tree.
    private static func memberRanges(_ tree: RuleNode) -> [SourceRange] {
        var out: [SourceRange] = []
        tree.forEachNode { n in
            if !n.path.isEmpty { out.append(n.keyRange.union(n.range)) }
            for k in RuleKind.allCases {
                if let r = n.rule(k) { out.append(r.keyRange.union(r.valueRange)) }
            }
        }
        return out.sorted { $0.start < $1.start }
    }
}

import RulesSyntax
import Testing

@testable import RulesCompiler

/// One rejected literal and the single issue expected for it.
struct RejectedRegex: Sendable, CustomTestStringConvertible {
    var pattern: String
    var flags: String = ""
    var message: String
    var code: DiagnosticCode
    var start: Int
    var end: Int
    var isInFlags = false

    var testDescription: String { "/\(pattern)/\(flags)" }
}

private let anchorMessage = "^ and $ may only appear at the start and end of a regular expression"
private let emptyAlternative = "regular expressions do not support empty alternatives"

@Suite struct RegexSubsetTests {
    @Test(arguments: [
        ("bar", ""), ("BAR", "i"), ("^foo", ""), ("^foo$", ""), (#"\{foo}"#, ""),
        (#"^(19|20)\d\d$"#, ""), (#"^-?\d+$"#, ""), (#"^[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,4}$"#, "i"),
        ("a*?b+?c??", ""), ("a{2}", ""), ("a{2,}", ""), ("a{2,5}?", ""), (#"[\w.-]+"#, ""), ("[^0-9]", ""),
        ("[a-z]", ""), (#"\.\/\\\$"#, ""), (#"a\$b"#, ""), ("[$^]", ""), ("^$", ""), (#"\n\t\r\f\v"#, ""),
        ("a{", ""), ("a{,3}", ""), ("}", ""), ("{", ""), ("x{1,2", ""), ("[-a]", ""), ("[a-]", ""),
        (#"[\w-.]"#, ""), ("é+", ""), ("[à-ü]", ""), ("a|b", ""), ("(a|b)|c", ""), ("[[]", ""), (#"\a"#, ""),
        (#"\s\S\w\W\d\D"#, ""), ("(ab)*", ""), ("((a))", ""), ("a b#c", ""),
        // The URL example from the legacy Firebase documentation.
        (#"^(ht|f)tp(s?):\/\/[0-9a-zA-Z]([-.\w]*[0-9a-zA-Z])*((0-9)*)*(\/?)([a-zA-Z0-9\-\.\?\,\'\/\\\+&=%\$#_]*)?$"#, ""),
    ])
    func accepted(pattern: String, flags: String) {
        #expect(RegexSubset.validate(pattern: pattern, flags: flags) == [])
    }

    @Test(arguments: [
        // Flags: offsets are within the flags string.
        RejectedRegex(pattern: "bar", flags: "ig", message: RegexSubset.unsupportedFlagsMessage, code: .regexFlags,
                      start: 1, end: 2, isInFlags: true),
        RejectedRegex(pattern: "bar", flags: "g", message: "regular expressions do not support flags other than i",
                      code: .regexFlags, start: 0, end: 1, isInFlags: true),
        RejectedRegex(pattern: "bar", flags: "gim", message: RegexSubset.unsupportedFlagsMessage, code: .regexFlags,
                      start: 0, end: 3, isInFlags: true),
        RejectedRegex(pattern: "bar", flags: "ii", message: RegexSubset.repeatedFlagMessage, code: .regexFlags,
                      start: 1, end: 2, isInFlags: true),
        // Anchors.
        RejectedRegex(pattern: "(^foo$|bar)", message: anchorMessage, code: .regexAnchor, start: 1, end: 2),
        RejectedRegex(pattern: "foo$bar", message: anchorMessage, code: .regexAnchor, start: 3, end: 4),
        RejectedRegex(pattern: "a^", message: anchorMessage, code: .regexAnchor, start: 1, end: 2),
        RejectedRegex(pattern: "(a$)", message: anchorMessage, code: .regexAnchor, start: 2, end: 3),
        // Empty alternatives: the range spans the delimiters around the empty alternative.
        RejectedRegex(pattern: "^(foo|)$", message: emptyAlternative, code: .regexEmptyAlternative, start: 5, end: 7),
        RejectedRegex(pattern: "|a", message: emptyAlternative, code: .regexEmptyAlternative, start: 0, end: 1),
        RejectedRegex(pattern: "a|", message: emptyAlternative, code: .regexEmptyAlternative, start: 1, end: 2),
        RejectedRegex(pattern: "()", message: emptyAlternative, code: .regexEmptyAlternative, start: 0, end: 2),
        RejectedRegex(pattern: "a||b", message: emptyAlternative, code: .regexEmptyAlternative, start: 1, end: 3),
        RejectedRegex(pattern: "^|a", message: emptyAlternative, code: .regexEmptyAlternative, start: 1, end: 2),
        RejectedRegex(pattern: "a|$", message: emptyAlternative, code: .regexEmptyAlternative, start: 1, end: 2),
        // Unsupported constructs.
        RejectedRegex(pattern: "(?:a)", message: "regular expressions do not support '(?'", code: .regexUnsupported,
                      start: 0, end: 2),
        RejectedRegex(pattern: "a(?=b)", message: "regular expressions do not support '(?'", code: .regexUnsupported,
                      start: 1, end: 3),
        RejectedRegex(pattern: #"(a)\1"#, message: "regular expressions do not support backreferences",
                      code: .regexUnsupported, start: 3, end: 5),
        RejectedRegex(pattern: #"\bfoo"#, message: #"regular expressions do not support '\b'"#,
                      code: .regexUnsupported, start: 0, end: 2),
        RejectedRegex(pattern: #"a\B"#, message: #"regular expressions do not support '\B'"#,
                      code: .regexUnsupported, start: 1, end: 3),
        RejectedRegex(pattern: #"\u0041"#, message: #"regular expressions do not support '\u'"#,
                      code: .regexUnsupported, start: 0, end: 2),
        RejectedRegex(pattern: #"[\x41]"#, message: #"regular expressions do not support '\x'"#,
                      code: .regexUnsupported, start: 1, end: 3),
        RejectedRegex(pattern: #"\p{L}"#, message: #"regular expressions do not support '\p'"#,
                      code: .regexUnsupported, start: 0, end: 2),
        RejectedRegex(pattern: #"\k<n>"#, message: #"regular expressions do not support '\k'"#,
                      code: .regexUnsupported, start: 0, end: 2),
        RejectedRegex(pattern: #"\cA"#, message: #"regular expressions do not support '\c'"#,
                      code: .regexUnsupported, start: 0, end: 2),
        RejectedRegex(pattern: #"\0"#, message: #"regular expressions do not support '\0'"#,
                      code: .regexUnsupported, start: 0, end: 2),
        RejectedRegex(pattern: "[]", message: "regular expressions do not support empty character classes",
                      code: .regexUnsupported, start: 0, end: 2),
        RejectedRegex(pattern: "a[^]", message: "regular expressions do not support empty character classes",
                      code: .regexUnsupported, start: 1, end: 4),
        // Syntax.
        RejectedRegex(pattern: "(a", message: "unbalanced parenthesis", code: .regexSyntax, start: 0, end: 1),
        RejectedRegex(pattern: "a)", message: "unbalanced parenthesis", code: .regexSyntax, start: 1, end: 2),
        RejectedRegex(pattern: "(b(a)", message: "unbalanced parenthesis", code: .regexSyntax, start: 0, end: 1),
        RejectedRegex(pattern: "é(", message: "unbalanced parenthesis", code: .regexSyntax, start: 2, end: 3),
        RejectedRegex(pattern: "x[a", message: "unbalanced bracket", code: .regexSyntax, start: 1, end: 2),
        RejectedRegex(pattern: "a]", message: "unbalanced bracket", code: .regexSyntax, start: 1, end: 2),
        RejectedRegex(pattern: "*a", message: "nothing to repeat", code: .regexSyntax, start: 0, end: 1),
        RejectedRegex(pattern: "a**", message: "nothing to repeat", code: .regexSyntax, start: 2, end: 3),
        RejectedRegex(pattern: "a*+", message: "nothing to repeat", code: .regexSyntax, start: 2, end: 3),
        RejectedRegex(pattern: "a*??", message: "nothing to repeat", code: .regexSyntax, start: 3, end: 4),
        RejectedRegex(pattern: "^*", message: "nothing to repeat", code: .regexSyntax, start: 1, end: 2),
        RejectedRegex(pattern: "(*a)", message: "nothing to repeat", code: .regexSyntax, start: 1, end: 2),
        RejectedRegex(pattern: "a|+", message: "nothing to repeat", code: .regexSyntax, start: 2, end: 3),
        RejectedRegex(pattern: "{2}", message: "nothing to repeat", code: .regexSyntax, start: 0, end: 3),
        RejectedRegex(pattern: "a{2}{3}", message: "nothing to repeat", code: .regexSyntax, start: 4, end: 7),
        RejectedRegex(pattern: "a{3,1}", message: "numbers out of order in {} quantifier", code: .regexSyntax,
                      start: 1, end: 6),
        RejectedRegex(pattern: "a{70000}", message: "number too large in {} quantifier", code: .regexSyntax,
                      start: 1, end: 8),
        RejectedRegex(pattern: "a{99999999999999999999999}", message: "number too large in {} quantifier",
                      code: .regexSyntax, start: 1, end: 26),
        RejectedRegex(pattern: "[z-a]", message: "range out of order in character class", code: .regexSyntax,
                      start: 1, end: 4),
        RejectedRegex(pattern: "", message: "empty regular expression", code: .regexSyntax, start: 0, end: 0),
        RejectedRegex(pattern: #"a\"#, message: #"\ at end of pattern"#, code: .regexSyntax, start: 1, end: 2),
    ])
    func rejected(_ example: RejectedRegex) {
        let issues = RegexSubset.validate(pattern: example.pattern, flags: example.flags)
        #expect(issues == [
            RegexIssue(message: example.message, range: SourceRange(example.start, example.end),
                       isInFlags: example.isInFlags, code: example.code)
        ])
    }

    @Test func patternAndFlagIssuesAreBothReported() {
        let issues = RegexSubset.validate(pattern: "(a", flags: "gi")
        #expect(issues.map(\.code) == [.regexSyntax, .regexFlags])
        #expect(issues.map(\.isInFlags) == [false, true])
    }

    @Test func deepNestingIsHandledWithoutRecursion() {
        let depth = 100_000
        let balanced = String(repeating: "(", count: depth) + "a" + String(repeating: ")", count: depth)
        #expect(RegexSubset.validate(pattern: balanced, flags: "") == [])
        let unbalanced = String(repeating: "(", count: depth) + "a"
        #expect(RegexSubset.validate(pattern: unbalanced, flags: "").map(\.message) == ["unbalanced parenthesis"])
    }

    @Test(arguments: [
        ("bar", "bar"),
        (#"^(19|20)\d\d$"#, #"^(19|20)\d\d$"#),
        (#"^[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,4}$"#, #"^[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,4}$"#),
        (#"\{foo}"#, #"\{foo\}"#),
        ("a{,3}", #"a\{,3\}"#),
        ("a{3}b{2,}c{01,5}", "a{3}b{2,}c{1,5}"),
        ("a.b", #"a[^\n\r\x{2028}\x{2029}]b"#),
        (#"\s"#, #"[\s\p{Z}\x{feff}]"#),
        (#"\S"#, #"[^\s\p{Z}\x{feff}]"#),
        (#"[\sa]"#, #"[\s\p{Z}\x{feff}a]"#),
        (#"[\Sa]"#, #"(?:[a]|[^\s\p{Z}\x{feff}])"#),
        (#"[^\Sa]"#, #"(?:(?![a])[\s\p{Z}\x{feff}])"#),
        (#"[\w-.]"#, #"[\w\-.]"#),
        (#"[a-\d]"#, #"[a\-\d]"#),
        ("[a-b-c]", #"[a-b\-c]"#),
        ("[[:a]", #"[\[:a]"#),
        (#"\v"#, #"\x{0b}"#),
        (#"\a\/"#, #"a\/"#),
        ("a\u{0}b", #"a\x{0}b"#),
    ])
    func translation(pattern: String, expected: String) {
        #expect(RegexSubset.pcre2Pattern(for: pattern) == expected)
    }

    @Test func rejectedPatternIsReturnedUnchanged() {
        #expect(RegexSubset.pcre2Pattern(for: "(?:a.)") == "(?:a.)")
    }
}

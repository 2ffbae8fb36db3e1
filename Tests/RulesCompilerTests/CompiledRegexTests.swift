import CPCRE2
import Testing

@testable import RulesCompiler

/// One pattern, flags and subject with the expected `test()` result.
struct MatchCase: Sendable, CustomTestStringConvertible {
    var pattern: String
    var caseInsensitive = false
    var subject: String
    var expected: Bool

    init(_ pattern: String, i caseInsensitive: Bool = false, _ subject: String, _ expected: Bool) {
        self.pattern = pattern
        self.caseInsensitive = caseInsensitive
        self.subject = subject
        self.expected = expected
    }

    var testDescription: String { "/\(pattern)/\(caseInsensitive ? "i" : "") on \(subject.debugDescription)" }
}

private let email = #"^[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,4}$"#

private let matchCases: [MatchCase] = [
    // Unanchored search and anchors (documentation examples).
    MatchCase("a", "ba", true), MatchCase("^a", "ba", false), MatchCase("a$", "ab", false),
    MatchCase("^a*$", "", true), MatchCase("^a*$", "aaa", true), MatchCase("^a*$", "b", false),
    MatchCase("^a+$", "", false), MatchCase("^a?$", "aa", false), MatchCase("(ab)*", "abab", true),
    MatchCase("a|bc", "ac", true), MatchCase("^(a|bc)$", "ac", false), MatchCase("^........$", "Firebase", true),
    MatchCase("^a$", "a\n", false),  // $ only at the very end
    MatchCase("^a+?$", "aaa", true),
    // Spec fixtures.
    MatchCase(#"\{foo}"#, "{foo}", true), MatchCase(#"\{foo}"#, "foo", false),
    MatchCase(#"^(19|20)\d\d$"#, "1999", true), MatchCase(#"^(19|20)\d\d$"#, "2100", false),
    MatchCase(#"^-?\d+$"#, "-12", true), MatchCase(#"^-?\d+$"#, "1.5", false),
    MatchCase(email, i: true, "Someone.Else+tag@Example-Mail.CO", true),
    MatchCase(email, i: true, "someone@example", false),
    MatchCase(email, "someone@example.com", false),  // upper-case classes without i
    // Case-insensitivity.
    MatchCase("^BAR$", i: true, "bar", true), MatchCase("^BAR$", "bar", false),
    MatchCase("^[a-c]+$", i: true, "ABC", true), MatchCase("^é$", i: true, "É", true),
    // Classes and ASCII-only \d \w.
    MatchCase(#"^\d$"#, "3", true), MatchCase(#"^\d$"#, "٣", false), MatchCase(#"^\w$"#, "é", false),
    MatchCase(#"^\w+$"#, "a_Z9", true), MatchCase(#"^\D$"#, "٣", true),
    MatchCase("^[^0-9]$", "x", true), MatchCase("^[^0-9]$", "5", false),
    MatchCase(#"^[\w-.]+$"#, "a-b.c", true), MatchCase("^[a-b-c]+$", "a-c", true),
    MatchCase("^[à-ü]$", "é", true), MatchCase("^[[:a]+$", "[:a", true),
    // `.` is one code point, and not a JavaScript line terminator.
    MatchCase("^.$", "é", true), MatchCase("^.$", "😀", true), MatchCase("^..$", "é", false),
    MatchCase("^.$", "\n", false), MatchCase("^.$", "\r", false), MatchCase("^.$", "\u{2028}", false),
    MatchCase("^.$", "\u{0B}", true),
    // JavaScript white space.
    MatchCase(#"^\s$"#, "\u{00A0}", true), MatchCase(#"^\s$"#, "\u{FEFF}", true), MatchCase(#"^\s$"#, "\t", true),
    MatchCase(#"^\s$"#, "x", false), MatchCase(#"^\S$"#, "\u{00A0}", false), MatchCase(#"^\S$"#, "x", true),
    MatchCase(#"^[\S]$"#, "\u{3000}", false), MatchCase(#"^[\S]$"#, "x", true),
    MatchCase(#"^[^\Sx]$"#, " ", true), MatchCase(#"^[^\Sx]$"#, "\u{00A0}", true),
    MatchCase(#"^[^\Sx]$"#, "x", false), MatchCase(#"^[^\Sx]$"#, "y", false),
    MatchCase(#"^[x\S]$"#, "y", true), MatchCase(#"^[x\S]$"#, " ", false),
    MatchCase(#"^\v$"#, "\u{0B}", true), MatchCase(#"^\v$"#, "\n", false),
    // Literal braces, escapes, NUL bytes and empty subjects.
    MatchCase("a{,3}", "a{,3}", true), MatchCase("a{,3}", "aaa", false), MatchCase(#"^\$\.$"#, "$.", true),
    MatchCase(#"^\a$"#, "a", true), MatchCase("b", "a\u{0}b", true), MatchCase("^a\u{0}b$", "a\u{0}b", true),
    MatchCase("^a.b$", "a\u{0}b", true), MatchCase("^$", "", true), MatchCase("a", "", false),
]

@Suite struct CompiledRegexTests {
    @Test(arguments: matchCases, [true, false])
    func matching(_ example: MatchCase, useJIT: Bool) throws {
        #expect(RegexSubset.validate(pattern: example.pattern, flags: example.caseInsensitive ? "i" : "") == [])
        let regex = try CompiledRegex(
            firebasePattern: example.pattern, caseInsensitive: example.caseInsensitive, useJIT: useJIT)
        #expect(try regex.matches(example.subject) == example.expected)
        let buffer = MatchBuffer()
        #expect(try regex.matches(example.subject, buffer: buffer) == example.expected)
    }

    @Test func properties() throws {
        let regex = try CompiledRegex(firebasePattern: "a.b", caseInsensitive: true)
        #expect(regex.pattern == "a.b")
        #expect(regex.pcre2Pattern == RegexSubset.pcre2Pattern(for: "a.b"))
        #expect(regex.caseInsensitive)
        #expect(regex.isJITCompiled == PCRE2Info.jitAvailable)
        let interpreted = try CompiledRegex(firebasePattern: "a", caseInsensitive: false, useJIT: false)
        #expect(!interpreted.isJITCompiled)
    }

    @Test func libraryInfo() {
        #expect(PCRE2Info.version.hasPrefix("10."))
        #expect(PCRE2Info.errorMessage(PCRE2_ERROR_MATCHLIMIT) == "match limit exceeded")
    }

    @Test func bufferIsReusableAcrossPatternsWithGroups() throws {
        let buffer = MatchBuffer()
        let groups = try CompiledRegex(firebasePattern: "^(a)(b)(c)$", caseInsensitive: false)
        let digits = try CompiledRegex(firebasePattern: "[0-9]{3}", caseInsensitive: false)
        for i in 0..<200 {
            #expect(try digits.matches("id-\(i)", buffer: buffer) == (i >= 100))
            #expect(try groups.matches(i.isMultiple(of: 2) ? "abc" : "abd", buffer: buffer) == i.isMultiple(of: 2))
        }
    }

    @Test func compileErrorCarriesCodeOffsetAndMessage() {
        // Not validated first: PCRE2 reports its own error on the untranslated text.
        #expect {
            _ = try CompiledRegex(firebasePattern: "a(b", caseInsensitive: false)
        } throws: { error in
            guard let error = error as? RegexCompileError else { return false }
            return error.code > 100 && error.byteOffset == 3 && error.message.contains("missing closing parenthesis")
        }
    }

    @Test func compileErrorOffsetIsMappedBackThroughTheTranslation() throws {
        // PCRE2 limits nesting to 250 parentheses; the subset does not.
        let nested = String(repeating: "(", count: 300) + "a" + String(repeating: ")", count: 300)
        func offset(_ pattern: String) -> Int? {
            do {
                _ = try CompiledRegex(firebasePattern: pattern, caseInsensitive: false)
                return nil
            } catch {
                return error.byteOffset
            }
        }
        let plain = try #require(offset(nested))
        #expect(plain > 0)
        // Each `.` becomes 24 bytes of PCRE2 text but is one byte of the Firebase pattern.
        #expect(offset("..." + nested) == plain + 3)
    }

    @Test(arguments: [true, false])
    func matchLimitStopsCatastrophicBacktracking(useJIT: Bool) throws {
        let regex = try CompiledRegex(firebasePattern: "^(a+)+$", caseInsensitive: false, useJIT: useJIT)
        #expect(RegexSubset.validate(pattern: "^(a+)+$", flags: "") == [])
        #expect(try regex.matches(String(repeating: "a", count: 40)))
        #expect {
            _ = try regex.matches(String(repeating: "a", count: 40) + "b")
        } throws: { error in
            (error as? RegexMatchError)?.isMatchLimit == true
        }
    }

    @Test func matchLimitErrorReportsPCRE2Code() {
        do {
            let regex = try CompiledRegex(
                firebasePattern: "^(a|aa)+$", caseInsensitive: false, matchLimit: 1_000, useJIT: false)
            _ = try regex.matches(String(repeating: "a", count: 60) + "b")
            Issue.record("expected a match-limit error")
        } catch let error as RegexMatchError {
            #expect(error.code == PCRE2_ERROR_MATCHLIMIT)
            #expect(error.message == "match limit exceeded")
            #expect(error.isMatchLimit)
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func longSubjectFallsBackToTheInterpreterWhenTheJITStackRunsOut() throws {
        // A repeated group needs backtracking state per character: 20,000 characters exceed the
        // JIT's default 32 KB stack, and the interpreter then finishes within a generous depth limit.
        let subject = String(repeating: "ab", count: 10_000)
        let generous = try CompiledRegex(firebasePattern: "^(a|b)*$", caseInsensitive: false, depthLimit: 1_000_000)
        #expect(try generous.matches(subject))
        #expect(try !generous.matches(subject + "c"))
        // With the default depth limit the same match stops with a limit error, not a crash.
        let strict = try CompiledRegex(firebasePattern: "^(a|b)*$", caseInsensitive: false)
        #expect {
            _ = try strict.matches(subject)
        } throws: { error in
            (error as? RegexMatchError)?.isMatchLimit == true
        }
    }

    @Test func resourceErrorsAreLimitsButOthersAreNot() {
        #expect(RegexMatchError(code: PCRE2_ERROR_DEPTHLIMIT).isMatchLimit)
        #expect(RegexMatchError(code: PCRE2_ERROR_JIT_STACKLIMIT).isMatchLimit)
        #expect(!RegexMatchError(code: PCRE2_ERROR_NOMEMORY).isMatchLimit)
    }
}

@Test func oneCompiledRegexSharedAcrossConcurrentTasks() async throws {
    let regex = try CompiledRegex(firebasePattern: #"^user_\d+$"#, caseInsensitive: true)
    let counts = try await withThrowingTaskGroup(of: Int.self) { group in
        for task in 0..<8 {
            group.addTask {
                let buffer = MatchBuffer()  // match data: one per task
                var hits = 0
                for i in 0..<2_000 {
                    let subject = i.isMultiple(of: 2) ? "USER_\(task * i)" : "user-\(i)"
                    if try regex.matches(subject, buffer: buffer) { hits += 1 }
                }
                return hits
            }
        }
        var counts: [Int] = []
        for try await hits in group { counts.append(hits) }
        return counts
    }
    #expect(counts == Array(repeating: 1_000, count: 8))
}

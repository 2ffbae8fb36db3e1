import Foundation
import Testing

@testable import RulesCompiler
@testable import RulesSyntax

/// A rules document with one mistake, marked with `‸` just before the first byte the diagnostic
/// must point at, and the server's exact text for it (spec §1.2).
struct MessageCase: Sendable, CustomTestStringConvertible {
    /// The expected message, byte for byte.
    var message: String
    /// The expected code.
    var code: DiagnosticCode
    /// The document, with one marker.
    var marked: String
    /// The expected 1-based line (stated, not derived from the marker, as a cross-check).
    var line: Int
    /// The text the diagnostic's range must cover.
    var underlined: String

    init(_ message: String, _ code: DiagnosticCode, line: Int, _ underlined: String, _ marked: String) {
        self.message = message
        self.code = code
        self.marked = marked
        self.line = line
        self.underlined = underlined
    }

    var testDescription: String { "\(message) at \(underlined.debugDescription)" }

    static let marker = "‸"

    /// The document without the marker, and the marker's byte offset in it.
    var source: (text: String, offset: Int) {
        let offset = marked.range(of: Self.marker).map { marked.utf8.distance(from: marked.startIndex, to: $0.lowerBound) } ?? -1
        return (marked.replacingOccurrences(of: Self.marker, with: ""), offset)
    }

    /// The 1-based line and byte column of the marker, counted here rather than by `SourceFile`.
    var expectedLocation: RulesSyntax.SourceLocation? {
        let (text, offset) = source
        guard offset >= 0 else { return nil }
        let before = Array(text.utf8)[0..<offset]
        let line = before.filter { $0 == UInt8(ascii: "\n") }.count + 1
        let lineStart = (before.lastIndex(of: UInt8(ascii: "\n")) ?? -1) + 1
        return RulesSyntax.SourceLocation(line: line, column: offset - lineStart + 1)
    }
}

/// A document with one rule, `key`, on line 6; the expression text is pasted into the JSON
/// string as given (so it may hold escapes and raw line breaks: its second line is file line 7).
private func rule(_ key: String = ".write", _ expressionLines: String...) -> String {
    """
    {
      "rules": {
        "items": {
          "$item": {
            ".indexOn": ["owner", "createdAt"],
            "\(key)": "\(expressionLines.joined(separator: "\n"))"
          }
        }
      }
    }
    """
}

private let documentCases: [MessageCase] = [
    MessageCase(
        "Expected 'rules' property.", .rulesMissing, line: 2, "",
        """
        // The server reports this just inside the brace.
        {‸
          // nothing here yet
        }
        """),
    MessageCase(
        "Cannot have multiple default rules ('$x' and '$y').", .multipleWildcards, line: 5, #""$y""#,
        """
        {
          "rules": {
            "users": {
              "$x": { ".read": true },
              ‸"$y": { ".read": true }
            }
          }
        }
        """),
    MessageCase(
        ##"String can't contain ".", "#", "$", "/", "[", or "]""##, .invalidKey, line: 4, #""a#b""#,
        """
        {
          "rules": {
            "ok": {},
            ‸"a#b": {}
          }
        }
        """),
    MessageCase(
        ##"String can't contain ".", "#", "$", "/", "[", or "]""##, .invalidKey, line: 4, #"".valdiate""#,
        """
        {
          "rules": {
            ".read": true,
            ‸".valdiate": { "x": {} }
          }
        }
        """),
    MessageCase(
        "Expected '{'.", .expectedObject, line: 4, "true",
        """
        {
          "rules": {
            "users": {},
            "posts": ‸true
          }
        }
        """),
    MessageCase(
        "Expected '{'.", .expectedObject, line: 4, #""newData.exists()""#,
        """
        {
          "rules": {
            ".read": true,
            ".valdiate": ‸"newData.exists()"
          }
        }
        """),
    MessageCase(
        "Invalid rule expression.  Expected 'true', 'false', or an expression string.", .invalidRuleValue, line: 4, "1",
        """
        {
          "rules": {
            "a": {
              ".read": ‸1
            }
          }
        }
        """),
    MessageCase(
        "Invalid rule expression.  Expected 'true', 'false', or an expression string.", .invalidRuleValue, line: 4,
        "{\n        \"x\": 1\n      }",
        """
        {
          "rules": {
            "a": {
              ".write": ‸{
                "x": 1
              }
            }
          }
        }
        """),
    MessageCase(
        "Invalid indexOn expression. Must be either a string or an array of strings", .invalidIndexOn, line: 4, "5",
        """
        {
          "rules": {
            "a": {
              ".indexOn": ‸5
            }
          }
        }
        """),
    MessageCase(
        "Unknown variable '$one'.", .unknownVariable, line: 8, "$one",
        """
        {
          "rules": {
            "a": {
              "$one": { ".read": true }
            },
            "b": {
              ".read":
                "auth != null && ‸$one == 'x'"
            }
          }
        }
        """),
]

private let expressionCases: [MessageCase] = [
    // Names.
    MessageCase("Unknown variable 'foo'.", .unknownVariable, line: 7, "foo", rule(".write", "auth != null &&", "    ‸foo == 1")),
    MessageCase("Unknown variable '$nope'.", .unknownVariable, line: 6, "$nope", rule(".write", "$item == 'a' || ‸$nope == 'x'")),
    MessageCase(
        "newData is invalid in .read expressions.", .newDataInRead, line: 7, "newData",
        rule(".read", "data.exists() &&", "\t‸newData.exists()")),
    // Members.
    MessageCase("No such method/property 'foo'.", .noSuchMember, line: 6, "foo", rule(".write", "data.‸foo()")),
    MessageCase("No such method/property 'foo'.", .noSuchMember, line: 7, "foo", rule(".write", "auth != null &&", "  data.‸foo == 1")),
    MessageCase("No such method/property 'contains'.", .noSuchMember, line: 6, "contains", rule(".write", "data.‸contains('a')")),
    MessageCase("No such method/property 'bar'.", .noSuchMember, line: 6, "bar", rule(".write", "newData.val().‸bar()")),
    MessageCase("No such method/property 'foo'.", .noSuchMember, line: 7, "foo", rule(".read", "", "  query.‸foo == 1")),
    MessageCase("No such method/property 'kind'.", .noSuchMember, line: 6, "'kind'", rule(".write", "newData.val()[‸'kind'] == 'x'")),
    MessageCase("No such method/property 'isArray'.", .noSuchMember, line: 6, "isArray", rule(".validate", "newData.‸isArray()")),
    MessageCase(
        "No such method/property 'numChildren'.", .noSuchMember, line: 7, "numChildren",
        rule(".validate", "newData.hasChildren() &&", "  newData.‸numChildren() > 0")),
    MessageCase(
        "No such method/property 'toFixed'.", .noSuchMember, line: 6, "toFixed", rule(".validate", "newData.val().‸toFixed(0) == '1'")),
    MessageCase(
        "Type error: Function call on target that is not a function.", .notAFunction, line: 7, "length()",
        rule(".validate", "newData.isString() &&", "  newData.val().‸length() > 0")),
    MessageCase(
        "Type error: Function call on target that is not a function.", .notAFunction, line: 6, "exists()",
        rule(".read", "auth.‸exists()")),
    // Relational operands.
    MessageCase(
        "Invalid > expression: left operand must be a number or string.", .invalidOperand, line: 7, "data",
        rule(".write", "auth != null &&", "  ‸data > 1")),
    MessageCase("Invalid > expression: left operand must be a number or string.", .invalidOperand, line: 6, "true", rule(".write", "‸true > 1")),
    MessageCase("Invalid > expression: right operand must be a number or string.", .invalidOperand, line: 6, "data", rule(".write", "1 > ‸data")),
    MessageCase("Invalid < expression: left operand must be a number or string.", .invalidOperand, line: 6, "data", rule(".write", "‸data < 1")),
    MessageCase("Invalid < expression: right operand must be a number or string.", .invalidOperand, line: 6, "root", rule(".write", "1 < ‸root")),
    MessageCase(
        "Invalid >= expression: left operand must be a number or string.", .invalidOperand, line: 7, "newData",
        rule(".write", "data.exists() ||", "  ‸newData >= 1")),
    MessageCase("Invalid <= expression: right operand must be a number or string.", .invalidOperand, line: 6, "true", rule(".read", "root.val() <= ‸true")),
    // Arithmetic and unary operands.
    MessageCase("Invalid - expression: left operand is not a number.", .invalidOperand, line: 6, "'a'", rule(".write", "‸'a' - 1 > 0")),
    MessageCase("! only operates on booleans.", .notBoolean, line: 7, "'a'", rule(".write", "data.exists() &&", "  !‸'a'")),
    MessageCase("Invalid + expression: left operand is not a number or string.", .invalidOperand, line: 6, "true", rule(".write", "‸true + 1 > 0")),
    MessageCase("Invalid + expression: right operand is not a number or string.", .invalidOperand, line: 6, "null", rule(".write", "1 + ‸null == 1")),
    MessageCase("Invalid * expression: left operand is not a number.", .invalidOperand, line: 6, "'a'", rule(".write", "‸'a' * 2 > 0")),
    MessageCase("Invalid / expression: right operand is not a number.", .invalidOperand, line: 6, "'a'", rule(".write", "2 / ‸'a' > 0")),
    MessageCase("Invalid % expression: right operand is not a number.", .invalidOperand, line: 6, "true", rule(".write", "now % ‸true == 0")),
    // Equality operands.
    MessageCase(
        "Invalid == expression: left operand is not a number, boolean, string, null.", .invalidOperand, line: 7, "data",
        rule(".write", "auth != null &&", "  ‸data == 1")),
    MessageCase(
        "Invalid == expression: left operand is not a number, boolean, string, null.", .invalidOperand, line: 6, "root.child('a')",
        rule(".write", "‸root.child('a') === 1")),
    MessageCase(
        "Invalid == expression: right operand is not a number, boolean, string, or null.", .invalidOperand, line: 6, "data",
        rule(".write", "1 == ‸data")),
    MessageCase(
        "Invalid != expression: left operand is not a number, boolean, string, or null.", .invalidOperand, line: 6, "data",
        rule(".write", "‸data != 1")),
    MessageCase(
        "Invalid != expression: right operand is not a number, boolean, string, or null.", .invalidOperand, line: 6, "data",
        rule(".write", "1 !== ‸data")),
    // The whole rule.
    MessageCase("Expression must evaluate to a boolean.", .notBoolean, line: 6, "auth.uid", rule(".read", "‸auth.uid")),
    MessageCase("Expression must evaluate to a boolean.", .notBoolean, line: 6, "1", rule(".read", "‸1")),
    MessageCase(
        "Expression must evaluate to a boolean.", .notBoolean, line: 6, "auth.uid +\n  'x'",
        rule(".read", "‸auth.uid +", "  'x'")),
    // Calls.
    MessageCase("child() expects 1 argument.", .argumentCount, line: 6, "child()", rule(".write", "data.‸child().exists()")),
    MessageCase(
        "child() expects 1 argument.", .argumentCount, line: 6, "child('a',\n    'b')",
        rule(".write", "data.‸child('a',", "    'b').exists()")),
    MessageCase("hasChild() expects a string argument.", .argumentType, line: 6, "1", rule(".write", "data.hasChild(‸1)")),
    MessageCase("hasChild() expects a string argument.", .argumentType, line: 6, "null", rule(".write", "data.hasChild(‸null)")),
    MessageCase("child() expects a string argument.", .argumentType, line: 6, "1", rule(".write", "data.child(‸1).exists()")),
    MessageCase(
        "matches() expects a regular expression literal argument.", .argumentType, line: 7, "'a'",
        rule(".validate", "newData.isString() &&", "  newData.val().matches(‸'a')")),
    MessageCase("Rule expressions may not contain assignments.", .expressionAssignment, line: 6, "=", rule(".read", "auth.uid ‸= 'x'")),
    MessageCase("hasChildren() expects an array of child names.", .argumentType, line: 6, "'a'", rule(".validate", "newData.hasChildren(‸'a')")),
    MessageCase(
        "hasChildren() expects an array of child names.", .argumentType, line: 6, "data.val()",
        rule(".validate", "newData.hasChildren(‸data.val())")),
    MessageCase(
        "hasChildren() expects only a single argument (containing an array of child names).", .argumentCount, line: 7,
        "hasChildren(['a'], ['b'])", rule(".validate", "auth != null &&", "  newData.‸hasChildren(['a'], ['b'])")),
    MessageCase("hasChildren() expects an array of strings.", .argumentType, line: 6, "1", rule(".validate", "newData.hasChildren(['a', ‸1])")),
    MessageCase("beginsWith() expects a string argument.", .argumentType, line: 6, "12", rule(".write", "newData.val().beginsWith(‸12)")),
    MessageCase("contains() expects a string argument.", .argumentType, line: 6, "true", rule(".write", "newData.val().contains(‸true)")),
    MessageCase("endsWith() expects a string argument.", .argumentType, line: 6, "null", rule(".write", "newData.val().endsWith(‸null)")),
    MessageCase("beginsWith() expects 1 argument.", .argumentCount, line: 6, "beginsWith()", rule(".write", "newData.val().‸beginsWith()")),
    MessageCase(
        "beginsWith() expects 1 argument.", .argumentCount, line: 7, "beginsWith('a', 'b')",
        rule(".write", "auth != null &&", "  newData.val().‸beginsWith('a', 'b')")),
    MessageCase(
        "Argument 1 of replace() must be a string.", .argumentType, line: 6, "/a/", rule(".write", "newData.val().replace(‸/a/, 'b') == ''")),
    MessageCase(
        "Argument 2 of replace() must be a string.", .argumentType, line: 6, "1", rule(".write", "newData.val().replace('a', ‸1) == ''")),
    // Regular expressions.
    MessageCase(
        "unterminated regular expression literal", .expressionSyntax, line: 7, "/",
        rule(".write", "newData.isString() &&", "  newData.val().matches(‸/abc)")),
    MessageCase(
        "regular expressions do not support flags other than i", .regexFlags, line: 6, "g",
        rule(".write", "newData.val().matches(/a/‸g)")),
    // Literals.
    MessageCase("Unexpected array literal", .misplacedLiteral, line: 6, "['a']", rule(".write", "‸['a'] == 1")),
    // Escapes and multi-byte characters before the error keep byte columns exact.
    MessageCase(
        "Unknown variable 'foo'.", .unknownVariable, line: 6, "foo", rule(".write", #"auth.uid == \"a\tb\u00e9\" && ‸foo == 1"#)),
    MessageCase("Unknown variable 'foo'.", .unknownVariable, line: 7, "foo", rule(".write", "'héllo ✓' == 'x' ||", "  'ü' == ‸foo")),
]

@Suite struct DiagnosticMessageTests {
    @Test(arguments: documentCases + expressionCases)
    func messageTextAndPosition(_ c: MessageCase) throws {
        let (text, _) = c.source
        let file = SourceFile(path: "database.rules.json", text: text)
        let result = RulesCompiler.compile(file)
        #expect(result.ruleset == nil)
        #expect(result.diagnostics.count == 1, "\(result.diagnostics)")
        let d = try #require(result.diagnostics.first)
        #expect(d.message == c.message)
        #expect(d.code == c.code)
        #expect(d.severity == .error)
        let location = file.location(of: d.range)
        #expect(location.line == c.line)
        let expected = try #require(c.expectedLocation, "the case has no \(MessageCase.marker) marker")
        #expect(location == expected)
        #expect(file.text(of: d.range) == c.underlined)
    }

    @Test func everyServerMessageIsCovered() {
        // Every message of spec §1.2 (both tables), in its generic form.
        let patterns = [
            "Expected 'rules' property.", "Cannot have multiple default rules (", "String can't contain",
            "Expected '{'.", "Invalid rule expression.  Expected 'true', 'false', or an expression string.",
            "Invalid indexOn expression. Must be either a string or an array of strings", "Unknown variable '",
            "newData is invalid in .read expressions.", "No such method/property '",
            "Type error: Function call on target that is not a function.", "left operand must be a number or string.",
            "right operand must be a number or string.", "left operand is not a number.", "! only operates on booleans.",
            "Expression must evaluate to a boolean.", "expects 1 argument.", "expects a string argument.",
            "matches() expects a regular expression literal argument.", "Rule expressions may not contain assignments.",
            "hasChildren() expects an array of child names.",
            "hasChildren() expects only a single argument (containing an array of child names).",
            "hasChildren() expects an array of strings.", "Argument 1 of replace() must be a string.",
            "Argument 2 of replace() must be a string.", "unterminated regular expression literal",
            "regular expressions do not support flags other than i", "left operand is not a number or string.",
            "right operand is not a number or string.", "left operand is not a number, boolean, string, null.",
            "right operand is not a number, boolean, string, or null.",
            "Invalid != expression: left operand is not a number, boolean, string, or null.", "Unexpected array literal",
        ]
        let messages = (documentCases + expressionCases).map(\.message)
        for p in patterns {
            #expect(messages.contains { $0.contains(p) }, "no case for \(p)")
        }
    }

    @Test func rulesMissingIsAtLineOneColumnTwo() throws {
        // The position the server gives (spec §1.1), stated outright.
        let file = SourceFile(path: "r.json", text: "{\"rulez\": {}}")
        let result = RulesCompiler.compile(file)
        let d = try #require(result.diagnostics.first { $0.code == .rulesMissing })
        #expect(file.location(of: d.range) == RulesSyntax.SourceLocation(line: 1, column: 2))
    }

    @Test func columnsCountUTF8Bytes() throws {
        // `{"rules": {".read": "` is 21 bytes, `'é'` 4 more (é is two bytes), ` == 'x' && ` 11:
        // foo starts at byte 36, column 37 (it would be column 36 counted in characters).
        let file = SourceFile(path: "r.json", text: #"{"rules": {".read": "'é' == 'x' && foo == 1"}}"#)
        let d = try #require(RulesCompiler.compile(file).diagnostics.first)
        #expect(d.message == "Unknown variable 'foo'.")
        #expect(file.location(of: d.range) == RulesSyntax.SourceLocation(line: 1, column: 37))
        #expect(d.range == SourceRange(36, 39))
    }

    @Test func escapesBeforeTheErrorAreSkippedInTheFile() throws {
        // `\"` and `\u0041` are 2 and 6 bytes in the file but 1 byte each in the expression.
        let text = #"{"rules": {".read": "\"\u0041\" == foo"}}"#
        let file = SourceFile(path: "r.json", text: text)
        let d = try #require(RulesCompiler.compile(file).diagnostics.first)
        #expect(d.message == "Unknown variable 'foo'.")
        #expect(file.text(of: d.range) == "foo")
        #expect(file.location(of: d.range) == RulesSyntax.SourceLocation(line: 1, column: 36))
    }

    @Test func crlfLineEndingsKeepPositions() throws {
        let text = "{\r\n  \"rules\": {\r\n    \".read\": \"auth != null &&\r\n      foo == 1\"\r\n  }\r\n}\r\n"
        let file = SourceFile(path: "r.json", text: text)
        let d = try #require(RulesCompiler.compile(file).diagnostics.first)
        #expect(d.message == "Unknown variable 'foo'.")
        #expect(file.location(of: d.range) == RulesSyntax.SourceLocation(line: 4, column: 7))
        #expect(file.text(of: d.range) == "foo")
    }

    @Test func oneMistakeOneMessageAcrossRules() {
        // Errors in several rules are all reported, in file order.
        let text = """
            {
              "rules": {
                ".read": "foo == 1",
                ".write": "data.bar()",
                "x": { ".validate": "1" }
              }
            }
            """
        let result = RulesCompiler.compile(source: text)
        #expect(result.diagnostics.map(\.message) == [
            "Unknown variable 'foo'.", "No such method/property 'bar'.", "Expression must evaluate to a boolean.",
        ])
        #expect(result.diagnostics.map { SourceFile(path: "", text: text).location(of: $0.range).line } == [3, 4, 5])
    }
}

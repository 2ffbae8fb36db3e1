import RulesSyntax

extension DiagnosticCode {
    /// A file that could not be read.
    package static let unreadableFile: DiagnosticCode = "unreadable-file"
}

/// Every diagnostic code with its documentation: the source of SARIF rule descriptions and of
/// `docs/diagnostics.md` (a test keeps the two in step). The compiler's codes are here; the lints'
/// come from their registry in `RulesLint`, which adds `all` (both) and `entry(_:)`.
package enum DiagnosticCatalog {
    /// One documented code.
    package struct Entry: Sendable {
        package let code: DiagnosticCode
        package let severity: Severity
        /// A PascalCase name for SARIF.
        package let name: String
        /// One line.
        package let summary: String
        /// What triggers it and how to fix it.
        package let help: String
    }

    package static func e(_ code: DiagnosticCode, _ severity: Severity, _ summary: String, _ help: String) -> Entry {
        let name = code.rawValue.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        return Entry(code: code, severity: severity, name: name, summary: summary, help: help)
    }

    /// The compiler's codes, grouped by phase.
    package static let compilerEntries: [Entry] = [
        e(.unreadableFile, .error, "The file cannot be read.", "The path does not exist or is not readable."),
        e(.rulesFileLarge, .warning, "A rules file larger than the documented 256 KB.", "Firebase documents a limit of 256 KB for rules files (a dry run accepted a little more); a real deploy may fail. Split long rules or remove repetition."),
        e(.rulesFileTooLarge, .error, "A rules file larger than 10 MB.", "The file is not read at all; the limit bounds the work one compilation can take."),
        // JSON
        e("json-syntax", .error, "The file is not valid JSON.", "Rules files are JSON with comments allowed. The message names what was expected and what was found."),
        e("json-trailing-comma", .warning, "A trailing comma before '}' or ']'.", "The server's parser is lenient here, but strict JSON tools reject the file. Remove the comma."),
        e("json-duplicate-key", .error, "A key appears twice in one object.", "Only one of the two would take effect; remove or merge the duplicate."),
        e("json-invalid-utf8", .error, "The file is not valid UTF-8.", "Save the file as UTF-8."),
        e("json-too-deep", .error, "Objects or arrays are nested too deeply.", "The reader stops at a fixed depth instead of overflowing its stack."),
        // Document
        e(.rulesMissing, .error, "The document has no 'rules' property.", "A rules file is an object with one key, \"rules\", whose value is the rule tree for '/'. Server text: Expected 'rules' property."),
        e(.topLevelKey, .error, "A top-level key other than 'rules'.", "Only \"rules\" may stand at the top level."),
        e(.expectedObject, .error, "An object was expected.", "Every child location must be an object; an unknown '.key' with a non-object value is read as a child. Server text: Expected '{'."),
        e(.invalidRuleValue, .error, "A rule that is not true, false or a string.", "Server text: Invalid rule expression.  Expected 'true', 'false', or an expression string."),
        e(.invalidIndexOn, .error, "A .indexOn that is not a string or an array of strings.", "Server text: Invalid indexOn expression. Must be either a string or an array of strings"),
        e(.invalidKey, .error, "A key with a forbidden character, or an unknown '.key'.", "Keys cannot contain . # $ / [ ] (a leading $ makes a wildcard). Server text: String can't contain \".\", \"#\", \"$\", \"/\", \"[\", or \"]\""),
        e(.multipleWildcards, .error, "Two $wildcards in one node.", "A node has at most one wildcard child. Server text: Cannot have multiple default rules ('$x' and '$y')."),
        e(.wildcardName, .warning, "A wildcard name that is not an identifier.", "Rules can only refer to $names made of letters, digits and _."),
        e(.wildcardShadowed, .warning, "A wildcard reuses the name of an enclosing wildcard.", "Below it, the name refers to the inner key only; rename one of them."),
        // Expressions: syntax
        e("expression-syntax", .error, "The rule expression cannot be parsed.", "Rules are single JavaScript-like expressions: no statements, declarations or functions."),
        e("expression-assignment", .error, "An assignment in a rule.", "Use == or === to compare. Server text: Rule expressions may not contain assignments."),
        e("expression-operator", .error, "An operator the rules language does not have.", "There is no **, no bitwise operators, no ++/--, and no unary +."),
        e("expression-too-deep", .error, "An expression nested too deeply.", "Nesting is limited so that checking and evaluation cannot overflow the stack."),
        e("expression-too-long", .error, "An expression longer than the limit.", "Split the rule or simplify it."),
        // Expressions: types
        e(.unknownVariable, .error, "A name that is not a variable here.", "Variables are auth, root, data, newData (not in .read), now, query and the $wildcards of enclosing locations. Server text: Unknown variable 'foo'."),
        e(.newDataInRead, .error, "newData in a .read rule.", "Reads do not change data. Server text: newData is invalid in .read expressions."),
        e(.noSuchMember, .error, "A method or property the value does not have.", "Snapshots have ten methods (val, child, parent, hasChild, hasChildren, exists, getPriority, isNumber, isString, isBoolean); strings have length and their methods. Server text: No such method/property 'foo'."),
        e(.notAFunction, .error, "A call of something that is not a method.", "For example length() (a property) or auth.exists(). Server text: Type error: Function call on target that is not a function."),
        e(.invalidOperand, .error, "An operand of the wrong type.", "Ordering needs numbers or strings, arithmetic needs numbers, == needs primitives (not snapshots: call val())."),
        e(.notBoolean, .error, "A value that must be a boolean is not.", "A rule, and each operand of && || !, must be boolean. Server text: Expression must evaluate to a boolean."),
        e(.argumentCount, .error, "A call with the wrong number of arguments.", "Server text: child() expects 1 argument."),
        e(.argumentType, .error, "A call argument of the wrong type.", "Paths and substrings are strings; hasChildren takes an array literal of strings; matches takes a regular expression literal."),
        e(.misplacedLiteral, .error, "An array or regular expression literal where it cannot stand.", "Array literals only go in hasChildren([...]); regular expressions only in matches(/.../)."),
        e(.invalidIndex, .error, "A computed index into a snapshot, string or query.", "Only auth values may be indexed with an expression; elsewhere x['name'] must use a string literal."),
        // Regular expressions
        e(.regexFlags, .error, "A regular expression flag other than i.", "Server text: regular expressions do not support flags other than i"),
        e(.regexAnchor, .error, "^ or $ inside a regular expression.", "^ may only be the first character and $ the last."),
        e(.regexEmptyAlternative, .error, "An empty alternative in a regular expression.", "Write (a|b)? instead of (a|b|)."),
        e(.regexUnsupported, .error, "A regular expression feature the rules language lacks.", "No lookaround, (?:), named groups, backreferences, \\b, or \\u escapes."),
        e(.regexSyntax, .error, "A malformed regular expression.", "Unbalanced parentheses or brackets, nothing to repeat, bad {} bounds."),
        e(.regexCompile, .error, "A regular expression the engine cannot compile.", "The message gives the regular-expression engine's reason."),
    ]
}

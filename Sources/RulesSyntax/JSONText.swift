/// A JSON value for output, with object keys in the order given (stable golden files).
package enum JSONText: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONText])
    case object([(String, JSONText)])

    package static func == (a: JSONText, b: JSONText) -> Bool { a.rendered() == b.rendered() }

    /// `s` as a string, or null when there is none.
    package static func string(orNull s: String?) -> JSONText { s.map(JSONText.string) ?? .null }

    /// The JSON text; `indent` > 0 pretty-prints with that many spaces per level, and arrays
    /// and objects nested `inlineFrom` levels deep or more are then written on one line, their
    /// items separated by `, ` and keys by `: ` (as in `{"rule": "/a", "true": 3}`).
    package func rendered(indent: Int = 2, inlineFrom: Int = .max) -> String {
        var out = ""
        write(&out, indent: indent, level: 0, inlineFrom: inlineFrom)
        return out
    }

    private func write(_ out: inout String, indent: Int, level: Int, inlineFrom: Int) {
        if indent > 0, level >= inlineFrom {
            writeInline(&out)
            return
        }
        let nl = indent > 0 ? "\n" : ""
        let pad = String(repeating: " ", count: indent * (level + 1))
        let closePad = String(repeating: " ", count: indent * level)
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d):
            out += Self.number(d)
        case .string(let s): out += Self.quote(s)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            out += "[" + nl
            for (i, item) in items.enumerated() {
                out += pad
                item.write(&out, indent: indent, level: level + 1, inlineFrom: inlineFrom)
                if i < items.count - 1 { out += "," }
                out += nl
            }
            out += closePad + "]"
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            out += "{" + nl
            for (i, (k, v)) in members.enumerated() {
                out += pad + Self.quote(k) + (indent > 0 ? ": " : ":")
                v.write(&out, indent: indent, level: level + 1, inlineFrom: inlineFrom)
                if i < members.count - 1 { out += "," }
                out += nl
            }
            out += closePad + "}"
        }
    }

    /// One line, with `, ` and `: `.
    private func writeInline(_ out: inout String) {
        switch self {
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += ", " }
                item.writeInline(&out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, (k, v)) in members.enumerated() {
                if i > 0 { out += ", " }
                out += Self.quote(k) + ": "
                v.writeInline(&out)
            }
            out += "}"
        default:
            write(&out, indent: 0, level: 0, inlineFrom: .max)
        }
    }

    /// `s` as a JSON string literal: quotes, `\"`, `\\` and control characters escaped (`\n`,
    /// `\r`, `\t`, `\b`, `\f`, else `\u00XX`; DEL too). The one quoting the project uses for
    /// JSON it writes (data export, reports, the server's messages).
    package static func quote(_ s: String) -> String {
        var out = "\""
        out.reserveCapacity(s.utf8.count + 2)
        appendEscaped(s, to: &out)
        out.append("\"")
        return out
    }

    /// Appends the escaped contents of a JSON string literal (without quotes).
    package static func appendEscaped(_ s: String, to out: inout String) {
        // Fast path: most strings need no escaping.
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F }) {
            out.append(s)
            return
        }
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out.append("\\\"")
            case "\\": out.append("\\\\")
            case "\n": out.append("\\n")
            case "\r": out.append("\\r")
            case "\t": out.append("\\t")
            case "\u{08}": out.append("\\b")
            case "\u{0C}": out.append("\\f")
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let digits = String(scalar.value, radix: 16, uppercase: false)
                    out.append("\\u" + String(repeating: "0", count: Swift.max(0, 4 - digits.count)) + digits)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
    }

    /// A number as JSON text: integers without a fraction (`1`, not `1.0`), `-0` as `0`, other
    /// values in Swift's shortest round-trip form (`0.1`, `1e+30`). Non-finite numbers, which
    /// JSON cannot hold, become `null`.
    package static func number(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        if d == 0 { return "0" }
        // Whole numbers below 1e18 fit Int64 exactly; print them as integers.
        if d == d.rounded(.towardZero), Swift.abs(d) < 1e18 {
            return String(Int64(d))
        }
        return d.description
    }
}

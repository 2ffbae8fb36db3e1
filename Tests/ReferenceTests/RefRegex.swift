import Foundation

/// The reference's regex matching: Foundation's `NSRegularExpression` (ICU), not the project's
/// PCRE2 wrapper. ICU's `\d` and `\w` are Unicode-aware, but the rules language uses
/// JavaScript's ASCII meaning (decision 9), so those escapes are spelled out as ASCII classes
/// first; a dash next to a class escape inside `[...]` is literal (decision 9). ICU also folds
/// case fully for literal text under `i` (`ß` matches `SS`), where JavaScript and the VM use
/// simple folding (one character to one character), so a non-ASCII literal becomes a one-character
/// class, for which ICU folds simply.
enum RefRegex {
    static func matches(_ s: String, pattern: String, flags: String) throws -> Bool {
        let re = try NSRegularExpression(pattern: translate(pattern, caseInsensitive: flags.contains("i")), options: flags.contains("i") ? [.caseInsensitive] : [])
        return re.firstMatch(in: s, range: NSRange(location: 0, length: (s as NSString).length)) != nil
    }

    static func translate(_ pattern: String, caseInsensitive: Bool = false) -> String {
        let chars = Array(pattern)
        var out = ""
        var inClass = false
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "\\" && i + 1 < chars.count {
                let e = chars[i + 1]
                let ascii: String? = switch e {
                case "d": "0-9"
                case "w": "a-zA-Z0-9_"
                default: nil
                }
                let negated: String? = switch e {
                case "D": "0-9"
                case "W": "a-zA-Z0-9_"
                default: nil
                }
                i += 2
                if let ascii {
                    out += inClass ? ascii : "[" + ascii + "]"
                } else if let negated {
                    // Inside a class a negated escape cannot be spelled as a range; keep ICU's.
                    out += inClass ? "\\" + String(e) : "[^" + negated + "]"
                } else {
                    out += "\\" + String(e)
                    continue
                }
                if inClass && i < chars.count && chars[i] == "-" {
                    out += "\\-"
                    i += 1
                }
                continue
            }
            if c == "[" && !inClass {
                inClass = true
            } else if c == "]" && inClass {
                inClass = false
            } else if caseInsensitive && !inClass && !c.isASCII {
                out += "[" + String(c) + "]"
                i += 1
                continue
            }
            out.append(c)
            i += 1
        }
        return out
    }
}

/// Formats numbers the way JavaScript's `String(number)` does, which is what string `+` shows in
/// rules: `5` → `"5"`, `0.5` → `"0.5"`, `1e21` → `"1e+21"`, `1e-7` → `"1e-7"`, NaN → `"NaN"`.
package enum JSNumberFormatter {
    /// The JavaScript spelling of a double.
    package static func string(_ d: Double) -> String {
        if d.isNaN { return "NaN" }
        if d.isInfinite { return d < 0 ? "-Infinity" : "Infinity" }
        if d == 0 { return "0" }
        if d < 0 { return "-" + string(-d) }
        if d < 1e21, d == d.rounded(.towardZero), d < 9.007199254740992e15 {
            return String(Int64(d))
        }
        // Swift's description gives the shortest digits that round-trip, as JavaScript requires;
        // only the layout differs, so take the digits and the exponent and lay them out again.
        let (digits, exponent) = shortestDigits(d)
        let k = digits.count
        let n = exponent  // the decimal point sits after n digits
        if k <= n && n <= 21 {
            return digits + String(repeating: "0", count: n - k)
        }
        if 0 < n && n <= 21 {
            let i = digits.index(digits.startIndex, offsetBy: n)
            return String(digits[..<i]) + "." + String(digits[i...])
        }
        if -6 < n && n <= 0 {
            return "0." + String(repeating: "0", count: -n) + digits
        }
        let e = n - 1
        let sign = e < 0 ? "-" : "+"
        let mantissa = k == 1 ? digits : String(digits.prefix(1)) + "." + String(digits.dropFirst())
        return mantissa + "e" + sign + String(abs(e))
    }

    /// The significant digits (no leading or trailing zeros) and the position of the decimal point.
    private static func shortestDigits(_ d: Double) -> (String, Int) {
        let text = d.description  // e.g. "1.5", "1e-07", "1.2345e+22", "123456.0"
        var mantissa = Substring(text)
        var exp = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            exp = Int(text[text.index(after: e)...]) ?? 0
        }
        var intPart = mantissa
        var fracPart: Substring = ""
        if let dot = mantissa.firstIndex(of: ".") {
            intPart = mantissa[..<dot]
            fracPart = mantissa[mantissa.index(after: dot)...]
        }
        var all = String(intPart) + String(fracPart)
        var point = intPart.count + exp
        while all.hasPrefix("0") && all.count > 1 {
            all.removeFirst()
            point -= 1
        }
        while all.hasSuffix("0") && all.count > 1 { all.removeLast() }
        return (all, point)
    }
}

import Foundation

/// JavaScript's `String(number)` for the reference (decision 3.3), done the plain way: take
/// fixed-precision digits with `%.17g`, shorten them to the fewest that still read back as the
/// same double, then lay them out with JavaScript's thresholds.
enum RefNumberText {
    static func js(_ d: Double) -> String {
        if d.isNaN { return "NaN" }
        if d.isInfinite { return d < 0 ? "-Infinity" : "Infinity" }
        if d == 0 { return "0" }
        if d < 0 { return "-" + js(-d) }
        var digits = ""
        var exponent = 0
        for precision in 1...17 {
            let text = String(format: "%.\(precision - 1)e", d)  // d.ddde±XX
            if Double(text) == d {
                let parts = text.split(separator: "e")
                digits = parts[0].replacingOccurrences(of: ".", with: "")
                exponent = Int(parts[1]) ?? 0
                break
            }
        }
        while digits.count > 1 && digits.hasSuffix("0") { digits.removeLast() }
        let k = digits.count
        let n = exponent + 1  // the decimal point sits after n digits
        if k <= n && n <= 21 { return digits + String(repeating: "0", count: n - k) }
        if 0 < n && n <= 21 { return String(digits.prefix(n)) + "." + String(digits.dropFirst(n)) }
        if -6 < n && n <= 0 { return "0." + String(repeating: "0", count: -n) + digits }
        let e = n - 1
        let mantissa = k == 1 ? digits : String(digits.prefix(1)) + "." + String(digits.dropFirst())
        return mantissa + "e" + (e < 0 ? "-" : "+") + String(abs(e))
    }
}

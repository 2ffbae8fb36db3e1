#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Terminal facts: whether to colour, and the escape codes.
package struct Terminal: Sendable {
    /// Whether output gets ANSI colours.
    package let colors: Bool

    /// Decides colour for stdout: `always`/`never` as given; `auto` colours a terminal unless
    /// `NO_COLOR` is set to a non-empty value (no-color.org: an empty one does not count) or
    /// `TERM` is `dumb`, and `FORCE_COLOR` forces it.
    package init(_ choice: ColorChoice, environment: [String: String], isTerminal: Bool = isatty(STDOUT_FILENO) != 0) {
        switch choice {
        case .always: colors = true
        case .never: colors = false
        case .auto:
            if environment["FORCE_COLOR"].map({ !$0.isEmpty && $0 != "0" }) == true {
                colors = true
            } else if environment["NO_COLOR"].map({ !$0.isEmpty }) == true || environment["TERM"] == "dumb" {
                colors = false
            } else {
                colors = isTerminal
            }
        }
    }

    /// The width of the terminal on standard output, in columns: `COLUMNS` when set, else what
    /// the terminal reports; nil when standard output is no terminal (a file, a pipe, a CI log).
    package static func width(environment: [String: String]) -> Int? {
        if let c = environment["COLUMNS"].flatMap(Int.init), c > 0 { return c }
        guard isatty(STDOUT_FILENO) != 0 else { return nil }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 120
    }

    /// No colours.
    package static let plain = Terminal(colors: false)

    private init(colors: Bool) { self.colors = colors }

    /// Wraps text in an SGR code when colouring.
    package func paint(_ text: String, _ code: String) -> String {
        colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    package func bold(_ t: String) -> String { paint(t, "1") }
    package func red(_ t: String) -> String { paint(t, "1;31") }
    package func yellow(_ t: String) -> String { paint(t, "1;33") }
    package func green(_ t: String) -> String { paint(t, "1;32") }
    package func cyan(_ t: String) -> String { paint(t, "1;36") }
    package func dim(_ t: String) -> String { paint(t, "2") }
}

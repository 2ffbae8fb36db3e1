#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Terminal facts: whether to colour, and the escape codes.
public struct Terminal: Sendable {
    /// Whether output gets ANSI colours.
    public let colors: Bool

    /// Decides colour for stdout: `always`/`never` as given; `auto` colours a terminal unless
    /// `NO_COLOR` is set to a non-empty value (no-color.org: an empty one does not count) or
    /// `TERM` is `dumb`, and `FORCE_COLOR` forces it.
    public init(_ choice: ColorChoice, environment: [String: String], isTerminal: Bool = isatty(STDOUT_FILENO) != 0) {
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

    /// No colours.
    public static let plain = Terminal(colors: false)

    private init(colors: Bool) { self.colors = colors }

    /// Wraps text in an SGR code when colouring.
    public func paint(_ text: String, _ code: String) -> String {
        colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    public func bold(_ t: String) -> String { paint(t, "1") }
    public func red(_ t: String) -> String { paint(t, "1;31") }
    public func yellow(_ t: String) -> String { paint(t, "1;33") }
    public func green(_ t: String) -> String { paint(t, "1;32") }
    public func cyan(_ t: String) -> String { paint(t, "1;36") }
    public func dim(_ t: String) -> String { paint(t, "2") }
}

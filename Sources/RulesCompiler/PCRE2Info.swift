import CPCRE2

/// Facts about the linked PCRE2 library, for `--version` output and diagnostics.
package enum PCRE2Info {
    /// The library version and date, e.g. `10.42 2022-12-11`.
    package static var version: String {
        var buffer = [UInt8](repeating: 0, count: 64)
        let length = buffer.withUnsafeMutableBytes { pcre2_config_8(UInt32(PCRE2_CONFIG_VERSION), $0.baseAddress) }
        // The returned length counts the terminating zero.
        let count = min(max(0, Int(length) - 1), buffer.count)
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    /// Whether the library was built with the JIT compiler.
    package static var jitAvailable: Bool {
        var available: UInt32 = 0
        _ = pcre2_config_8(UInt32(PCRE2_CONFIG_JIT), &available)
        return available == 1
    }

    /// PCRE2's English text for an error code.
    static func errorMessage(_ code: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let length = buffer.withUnsafeMutableBufferPointer {
            pcre2_get_error_message_8(code, $0.baseAddress, $0.count)
        }
        // A negative result means an unknown code (or a truncated message).
        guard length >= 0 else { return "unknown PCRE2 error \(code)" }
        return String(decoding: buffer[..<min(Int(length), buffer.count)], as: UTF8.self)
    }
}

import RulesSyntax

/// Stable identities for SARIF results (`partialFingerprints`), so code-scanning services track a
/// finding across commits: a 64-bit FNV-1a hash of the code, the file's URI relative to the source
/// root, and a line-independent anchor (a lint's rule path, or a message and the text it points
/// at), followed by `:N` for the N-th finding with the same hash. Editing elsewhere in the file
/// or running from another directory leaves it unchanged.
struct FingerprintCounter {
    private var seen: [UInt64: Int] = [:]

    /// The fingerprint of the next finding.
    mutating func next(code: DiagnosticCode, location: JSONText, anchor: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for part in [code.rawValue, location.rendered(), anchor] {
            for byte in part.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
            hash ^= 0xff
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let n = seen[hash, default: 0]
        seen[hash] = n + 1
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex + ":\(n)"
    }
}

import Foundation
import Testing

@testable import DatabaseRules

/// The node hash's SHA-1 against FIPS 180 and reference digests, at the lengths where the
/// padding changes (55, 56, 63, 64, 65 bytes) and over multi-byte text.
@Suite struct SHA1Tests {
    static let vectors: [(input: String, digest: String)] = [
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
        (String(repeating: "a", count: 55), "c1c8bbdc22796e28c0e15163d20899b65621d65a"),
        (String(repeating: "a", count: 56), "c2db330f6083854c99d4b5bfb6e8f29f201be699"),
        (String(repeating: "a", count: 63), "03f09f5b158a7a8cdad920bddc29b81c18a551f5"),
        (String(repeating: "a", count: 64), "0098ba824b5c16427bd7a1122a5a442a25ec644d"),
        (String(repeating: "a", count: 65), "11655326c708d70319be2610e8a57d9a5b959d3b"),
        (String(repeating: "a", count: 119), "ee971065aaa017e0632a8ca6c77bb3bf8b1dfc56"),
        (String(repeating: "é😀", count: 20), "b65e6a09dda6a219215fdb6c6a78f9ea7af1e189"),
    ]

    @Test(arguments: vectors)
    func digests(_ input: String, _ digest: String) {
        let hex = SHA1.digest(input.utf8).map { String(format: "%02x", $0) }.joined()
        #expect(hex == digest)
        // Input without contiguous storage takes the byte-by-byte path.
        let bytewise = SHA1.digest(input.utf8.lazy.map { $0 }).map { String(format: "%02x", $0) }.joined()
        #expect(bytewise == digest)
    }

    @Test func aMillionAs() {
        var hasher = SHA1()
        for _ in 0..<1000 { hasher.update(Array(repeating: UInt8(ascii: "a"), count: 1000)) }
        #expect(hasher.finish().map { String(format: "%02x", $0) }.joined() == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }
}

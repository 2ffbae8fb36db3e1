/// SHA-1 (FIPS 180-4), for the node hash only (``NodeHash``): the Realtime Database's hash is
/// defined with it, so it is used here as a checksum the clients compare, never for security.
/// Written here so that the library needs no cryptography package.
struct SHA1 {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)
    private var block: [UInt8] = []  // the bytes of the block being filled (fewer than 64)
    private var length: UInt64 = 0

    /// The 20-byte digest of `bytes`.
    static func digest(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var hasher = SHA1()
        hasher.update(bytes)
        return hasher.finish()
    }

    mutating func update(_ bytes: some Sequence<UInt8>) {
        // Contiguous input (a string's UTF-8, an array) is taken a block at a time.
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            var rest = buffer[...]
            length &+= UInt64(buffer.count)
            while !rest.isEmpty {
                let take = Swift.min(64 - block.count, rest.count)
                block.append(contentsOf: rest.prefix(take))
                rest = rest.dropFirst(take)
                if block.count == 64 {
                    compress()
                    block.removeAll(keepingCapacity: true)
                }
            }
        }
        if done != nil { return }
        for byte in bytes {
            block.append(byte)
            length &+= 1
            if block.count == 64 {
                compress()
                block.removeAll(keepingCapacity: true)
            }
        }
    }

    mutating func finish() -> [UInt8] {
        let bits = length &* 8
        block.append(0x80)
        if block.count > 56 {
            while block.count < 64 { block.append(0) }
            compress()
            block.removeAll(keepingCapacity: true)
        }
        while block.count < 56 { block.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { block.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        compress()
        var out: [UInt8] = []
        out.reserveCapacity(20)
        for word in [state.0, state.1, state.2, state.3, state.4] {
            for shift in stride(from: 24, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: word >> UInt32(shift))) }
        }
        return out
    }

    private mutating func compress() {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 80) { w in
            for i in 0..<16 {
                w[i] = UInt32(block[4 * i]) << 24 | UInt32(block[4 * i + 1]) << 16 | UInt32(block[4 * i + 2]) << 8 | UInt32(block[4 * i + 3])
            }
            for i in 16..<80 { w[i] = (w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]).rotatedLeft(1) }
            var (a, b, c, d, e) = state
            for i in 0..<80 {
                let f: UInt32, k: UInt32
                switch i {
                case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
                case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
                }
                let t = a.rotatedLeft(5) &+ f &+ e &+ k &+ w[i]
                (e, d, c, b, a) = (d, c, b.rotatedLeft(30), a, t)
            }
            state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e)
        }
    }
}

extension UInt32 {
    fileprivate func rotatedLeft(_ n: UInt32) -> UInt32 { self << n | self >> (32 - n) }
}

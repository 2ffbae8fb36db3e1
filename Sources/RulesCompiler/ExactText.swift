#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A string that is equal to another only when their UTF-8 bytes are: a key for tables of rule
/// text. Swift's `String` equality folds canonically equivalent spellings ("é" precomposed and
/// decomposed), the rules language never does.
struct ExactText: Hashable {
    let string: String

    init(_ string: String) { self.string = string }

    static func == (a: ExactText, b: ExactText) -> Bool {
        var x = a.string
        var y = b.string
        guard x.utf8.count == y.utf8.count else { return false }
        return x.withUTF8 { xb in
            y.withUTF8 { yb in xb.isEmpty || memcmp(xb.baseAddress!, yb.baseAddress!, xb.count) == 0 }
        }
    }

    func hash(into hasher: inout Hasher) {
        var s = string
        s.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

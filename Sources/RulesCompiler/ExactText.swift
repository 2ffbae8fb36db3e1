/// A string that is equal to another only when their UTF-8 bytes are: a key for tables of rule
/// text. Swift's `String` equality folds canonically equivalent spellings ("é" precomposed and
/// decomposed), the rules language never does.
struct ExactText: Hashable {
    let string: String

    init(_ string: String) { self.string = string }

    static func == (a: ExactText, b: ExactText) -> Bool { CompiledNode.sameBytes(a.string, b.string) }

    func hash(into hasher: inout Hasher) {
        var s = string
        s.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

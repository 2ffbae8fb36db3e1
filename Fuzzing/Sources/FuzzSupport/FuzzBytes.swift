/// Copies libFuzzer's input into an array.
public enum FuzzBytes {
    /// The `size` bytes at `data` (libFuzzer passes a null pointer for empty input).
    public static func array(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }
}

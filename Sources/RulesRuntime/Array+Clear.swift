extension Array {
    /// Removes every element and keeps the storage. For the few elements the engine's scratch
    /// arrays hold, popping them is much cheaper than `removeAll(keepingCapacity: true)`, which
    /// goes through the general `replaceSubrange`.
    @inline(__always)
    mutating func clearKeepingCapacity() {
        while !isEmpty { removeLast() }
    }
}

extension Array where Element: AnyObject {
    /// A copy with the element at `index` (a valid index) replaced. Copying element by element
    /// in specialised code is several times cheaper than the copy-on-write path
    /// (`var copy = self; copy[index] = x`), which copies through the generic value witness.
    @inline(__always)
    func replacing(at index: Int, with element: Element) -> [Element] {
        withUnsafeBufferPointer { source in
            [Element](unsafeUninitializedCapacity: source.count) { buffer, initialized in
                guard let from = source.baseAddress, let to = buffer.baseAddress else { return }
                for i in 0..<source.count {
                    (to + i).initialize(to: i == index ? element : from[i])
                }
                initialized = source.count
            }
        }
    }
}

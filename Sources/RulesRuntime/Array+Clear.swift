extension Array {
    /// Removes every element and keeps the storage. For the few elements the engine's scratch
    /// arrays hold, popping them is much cheaper than `removeAll(keepingCapacity: true)`, which
    /// goes through the general `replaceSubrange`.
    @inline(__always)
    mutating func clearKeepingCapacity() {
        while !isEmpty { removeLast() }
    }
}

extension Array {
    /// A copy without the element at `index` (a valid index), built in one pass. `var copy =
    /// self; copy.remove(at:)` first copies the whole array through the generic value witness,
    /// then shifts it.
    @inline(__always)
    func removing(at index: Int) -> [Element] {
        withUnsafeBufferPointer { source in
            [Element](unsafeUninitializedCapacity: source.count - 1) { buffer, initialized in
                guard let from = source.baseAddress, let to = buffer.baseAddress else { return }
                // Element by element: `initialize(from:count:)` goes through the runtime's
                // generic array copy, several times slower for these short arrays.
                var i = 0
                while i < index { (to + i).initialize(to: from[i]); i += 1 }
                while i < source.count - 1 { (to + i).initialize(to: from[i + 1]); i += 1 }
                initialized = source.count - 1
            }
        }
    }

    /// A copy with `element` inserted at `index` (`0 ... count`), built in one pass.
    @inline(__always)
    func inserting(_ element: Element, at index: Int) -> [Element] {
        withUnsafeBufferPointer { source in
            [Element](unsafeUninitializedCapacity: source.count + 1) { buffer, initialized in
                guard let to = buffer.baseAddress else { return }
                if let from = source.baseAddress {
                    var i = 0
                    while i < index { (to + i).initialize(to: from[i]); i += 1 }
                    while i < source.count { (to + i + 1).initialize(to: from[i]); i += 1 }
                }
                (to + index).initialize(to: element)
                initialized = source.count + 1
            }
        }
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

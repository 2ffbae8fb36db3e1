extension Array {
    /// Removes every element and keeps the storage. For the few elements the engine's scratch
    /// arrays hold, popping them is much cheaper than `removeAll(keepingCapacity: true)`, which
    /// goes through the general `replaceSubrange`.
    @inline(__always)
    mutating func clearKeepingCapacity() {
        while !isEmpty { removeLast() }
    }
}

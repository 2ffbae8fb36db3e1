/// The VM's stack during one run: `base[0 ..< count]` hold values, the slots above are free.
/// Pushing past the end is refused (the verifier does not bound the depth, so the loop checks),
/// and taking moves the value out: no copies, no uniqueness checks.
struct VMStack {
    let base: UnsafeMutablePointer<Value>
    let capacity: Int
    var count = 0

    init(_ slots: UnsafeMutableBufferPointer<Value>) {
        // A non-empty array always has storage.
        base = slots.baseAddress!
        capacity = slots.count
    }

    /// Adds a value; false (and nothing added) when the stack is full.
    @inline(__always)
    mutating func push(_ value: consuming Value) -> Bool {
        guard count < capacity else { return false }
        (base + count).initialize(to: value)
        count &+= 1
        return true
    }

    /// Removes and returns the top value; an error when the stack is empty.
    @inline(__always)
    mutating func take() throws(OperatorError) -> Value {
        guard count > 0 else { throw Self.empty() }
        count &-= 1
        return (base + count).move()
    }

    /// The value on top, left in place; an error when the stack is empty.
    @inline(__always)
    func top() throws(OperatorError) -> Value {
        guard count > 0 else { throw Self.empty() }
        return base[count - 1]
    }

    /// Drops the values from `index` up.
    @inline(__always)
    mutating func truncate(to index: Int) {
        // One by one: `deinitialize(count:)` goes through the runtime's generic array destroy,
        // which costs more than the few values dropped here.
        while count > index {
            count &-= 1
            _ = (base + count).move()
        }
    }

    /// Puts every slot back to `.null` (the values held are released). Slot by slot, for the
    /// same reason as ``truncate(to:)``.
    mutating func drain() {
        var i = count
        while i < capacity { (base + i).initialize(to: .null); i &+= 1 }
        i = 0
        while i < count { (base + i).pointee = .null; i &+= 1 }
        count = 0
    }

    @inline(never)
    static func empty() -> OperatorError {
        OperatorError("Internal error: the evaluation stack is empty (the rule is denied).")
    }

    @inline(never)
    static func full() -> OperatorError {
        OperatorError("Internal error: the evaluation stack is full (the rule is denied).")
    }
}

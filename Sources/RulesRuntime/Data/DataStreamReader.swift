/// Reads a value from strict JSON that arrives in chunks (a file of any size) and builds the
/// stored ``DataNode`` tree directly, as ``DataInputReader`` followed by
/// ``DataInput/resolved(now:existing:)`` would, without holding the text or an intermediate
/// ``DataInput`` tree.
///
/// It accepts exactly what ``DataInputReader`` accepts and throws the same errors: strict JSON,
/// arrays as objects keyed `"0"`, `"1"`, …, the export format (`".value"`, `".priority"`, also on
/// objects), server values (a timestamp becomes `now`; an increment its amount, since nothing
/// is stored yet), checked keys, the depth, nesting and string-length limits, and the last member
/// winning when a key appears twice. `null` and `{}` are not stored. Syntax errors give the
/// 0-based byte offset in the whole input: `Invalid JSON at byte 123456: expected ':' after the
/// key.`
///
/// Memory: one chunk of input, the open containers' children (handed to ``DataNode/object(_:priority:)``
/// when each container closes) and the tree built so far. A string up to the length limit, a key
/// and a number are gathered whole, whatever the chunks they span; a longer string is checked
/// and let go as it is read, for its error. Open containers live on an explicit stack, so no
/// input can overflow the call stack.
package struct DataStreamReader: ~Copyable {
    /// Fills the buffer it is given with the next bytes of input and returns how many it wrote;
    /// 0 means the input has ended.
    package typealias Source = (UnsafeMutableRawBufferPointer) throws(DataError) -> Int

    /// The chunk size used unless another is given: 1 MiB.
    package static let defaultChunkSize = 1 << 20

    /// One open array or object.
    private struct Frame {
        var isArray: Bool
        /// Inside a `".sv"`, `".value"` or `".priority"` member: the container is read as a
        /// ``DataInput`` (keys are not database keys there) and checked by the enclosing wrapper.
        var special: Bool
        /// Whether this container's key in its parent was pushed onto `path`.
        var pushedKey: Bool
        /// The key of the member being read.
        var memberKey = ""
        /// Whether `memberKey` is `".sv"`, `".value"` or `".priority"`.
        var memberSpecial = false
        /// Whether `memberKey` adds a level to the path.
        var memberCounts = false
        /// Members read so far (array elements included): the next element's index.
        var memberCount = 0
        /// A special container's members.
        var inputs: [(String, DataInput)] = []
        /// A database container's stored children, in input order.
        var children: [(String, DataNode)] = []
        /// Keys whose member resolved to nothing (`null`, `{}`), each with the number of children
        /// before it: an earlier child of that key is dropped (the last member wins).
        var removed: [(String, Int)] = []
        /// The special members of a database container (the last of each wins).
        var serverValue: DataInput?
        var value: DataInput?
        var priority: DataInput?
        /// The first member key that is not special.
        var firstOther: String?
    }

    /// A finished value: a stored node (nil for nothing) or, inside a special member, an input.
    private enum Completed {
        case node(DataNode?)
        case input(DataInput)
    }

    private let source: Source
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    /// The cursor in `buffer`, and the number of valid bytes there.
    private var i = 0
    private var end = 0
    /// The input offset of `buffer[0]`.
    private var base = 0
    private var ended = false
    private var stack: [Frame] = []
    /// The location of the innermost open container: the write location plus the keys that
    /// count as levels.
    private var path: [String]
    /// A string or number that spans chunks or holds escapes.
    private var scratch: [UInt8] = []
    private let now: Double

    /// The number of input bytes consumed so far.
    package var offset: Int { base + i }

    /// A reader of `source`, whose value is to be written at `location` (it matters only for the
    /// depth limit and for the paths in messages), resolving timestamps to `now` (milliseconds).
    package init(location: DataPath = .root, now: Double, chunkSize: Int = defaultChunkSize, source: @escaping Source) {
        self.source = source
        self.buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(chunkSize, 1))
        self.path = location.keys
        self.now = now
    }

    deinit {
        buffer.deallocate()
    }

    // MARK: - Driver

    /// Reads the whole input; nil when it resolves to nothing (`null`, `{}`).
    package mutating func read() throws(DataError) -> DataNode? {
        outer: while true {
            try skipWhitespace()
            guard let first = try peek() else { throw syntax("expected a value") }
            var completed: Completed
            switch first {
            case UInt8(ascii: "{"):
                try push(isArray: false)
                i += 1
                try skipWhitespace()
                if try peek() == UInt8(ascii: "}") {
                    i += 1
                    completed = try pop()
                } else {
                    try readMemberKey()
                    continue outer
                }
            case UInt8(ascii: "["):
                try push(isArray: true)
                i += 1
                try skipWhitespace()
                if try peek() == UInt8(ascii: "]") {
                    i += 1
                    completed = try pop()
                } else {
                    try beginElement()
                    continue outer
                }
            case UInt8(ascii: "\""):
                let (s, bytesCount) = try readString(keepingAtMost: DataLimits.maxStringBytes)
                guard let s, bytesCount <= DataLimits.maxStringBytes else {
                    let keys = valuePath()
                    throw DataError(message: "String at \(DataText.shownPath(keys)) is too long: \(bytesCount) bytes (the limit is \(DataLimits.maxStringBytes)).", path: DataPath(keys: keys))
                }
                completed = scalar(.string(s))
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                completed = scalar(.number(try readNumber()))
            case UInt8(ascii: "t"):
                try expectWord("true")
                completed = scalar(.bool(true))
            case UInt8(ascii: "f"):
                try expectWord("false")
                completed = scalar(.bool(false))
            case UInt8(ascii: "n"):
                try expectWord("null")
                completed = readingSpecial ? .input(.null) : .node(nil)
            default:
                throw syntax("expected a value")
            }
            // Hand finished values to their containers, closing containers as they end.
            while true {
                guard !stack.isEmpty else {
                    try skipWhitespace()
                    if try peek() != nil { throw syntax("unexpected text after the value") }
                    guard case .node(let node) = completed else { return nil }
                    return node
                }
                add(completed)
                let isArray = stack[stack.count - 1].isArray
                try skipWhitespace()
                guard let c = try peek() else {
                    throw syntax(isArray ? "expected ',' or ']' after an array element" : "expected ',' or '}' after an object member")
                }
                if c == UInt8(ascii: ",") {
                    i += 1
                    try skipWhitespace()
                    if isArray { try beginElement() } else { try readMemberKey() }
                    continue outer
                }
                if c == (isArray ? UInt8(ascii: "]") : UInt8(ascii: "}")) {
                    i += 1
                    completed = try pop()
                    continue
                }
                throw syntax(isArray ? "expected ',' or ']' after an array element" : "expected ',' or '}' after an object member")
            }
        }
    }

    /// Whether the value being read lies inside a special member.
    private var readingSpecial: Bool {
        guard let top = stack.last else { return false }
        return top.special || top.memberSpecial
    }

    private func scalar(_ p: Primitive) -> Completed {
        readingSpecial ? .input(.primitive(p)) : .node(DataNode(leaf: p))
    }

    // MARK: - Containers

    private mutating func push(isArray: Bool) throws(DataError) {
        if stack.count >= DataLimits.maxReaderNesting {
            throw syntax("nesting deeper than \(DataLimits.maxReaderNesting) levels")
        }
        var special = false
        var pushedKey = false
        if let parent = stack.last {
            special = parent.special || parent.memberSpecial
            if parent.memberCounts {
                path.append(parent.memberKey)
                pushedKey = true
            }
        }
        stack.append(Frame(isArray: isArray, special: special, pushedKey: pushedKey))
    }

    /// Gives a finished value to the innermost open container.
    private mutating func add(_ completed: Completed) {
        let top = stack.count - 1
        stack[top].memberCount += 1
        let key = stack[top].memberKey
        switch completed {
        case .input(let input):
            if stack[top].special {
                stack[top].inputs.append((key, input))
            } else {
                switch key {
                case ".sv": stack[top].serverValue = input
                case ".value": stack[top].value = input
                default: stack[top].priority = input
                }
            }
        case .node(let node?):
            stack[top].children.append((key, node))
        case .node(nil):
            let before = stack[top].children.count
            stack[top].removed.append((key, before))
        }
    }

    private mutating func pop() throws(DataError) -> Completed {
        let frame = stack.removeLast()
        let location = path
        if frame.pushedKey { path.removeLast() }
        if frame.special {
            if frame.isArray { return .input(.object(frame.inputs)) }
            return .input(try DataJSONParser.interpretObject(frame.inputs, at: location))
        }
        var priority: Primitive?
        if frame.serverValue != nil || frame.value != nil || frame.priority != nil {
            switch try DataJSONParser.interpretSpecial(
                serverValue: frame.serverValue, value: frame.value, priority: frame.priority, firstOther: frame.firstOther, at: location)
            {
            case .value(let replacement):
                return .node(replacement.resolved(now: now, existing: nil))
            case .object(let p):
                priority = p?.resolvedPriority(now: now)
            }
        }
        return .node(DataNode.object(Self.surviving(frame.children, removed: frame.removed), priority: priority))
    }

    /// The children left when each key in `removed` drops the children of that key before it.
    private static func surviving(_ children: [(String, DataNode)], removed: [(String, Int)]) -> [(String, DataNode)] {
        if removed.isEmpty || children.isEmpty { return children }
        var removedBefore: [String: Int] = [:]
        for (key, count) in removed { removedBefore[key] = max(removedBefore[key] ?? 0, count) }
        var out: [(String, DataNode)] = []
        out.reserveCapacity(children.count)
        for (index, child) in children.enumerated() where index >= removedBefore[child.0] ?? 0 {
            out.append(child)
        }
        return out
    }

    /// Reads `"key" :` in an object and checks the key.
    private mutating func readMemberKey() throws(DataError) {
        guard try peek() == UInt8(ascii: "\"") else { throw syntax("expected a string key") }
        let key = try readString(keepingAtMost: .max).text!
        try skipWhitespace()
        guard try peek() == UInt8(ascii: ":") else { throw syntax("expected ':' after the key") }
        i += 1
        let top = stack.count - 1
        let special = key == ".sv" || key == ".value" || key == ".priority"
        stack[top].memberKey = key
        stack[top].memberSpecial = special
        stack[top].memberCounts = !stack[top].special && !special
        if stack[top].memberCounts {
            if stack[top].firstOther == nil { stack[top].firstOther = key }
            try DataInput.check(key: key, at: path + [key])
        }
    }

    /// Starts the next array element, keyed by its index.
    private mutating func beginElement() throws(DataError) {
        let top = stack.count - 1
        let key = String(stack[top].memberCount)
        stack[top].memberKey = key
        stack[top].memberSpecial = false
        stack[top].memberCounts = !stack[top].special
        if stack[top].memberCounts {
            if stack[top].firstOther == nil { stack[top].firstOther = key }
            try DataInput.check(key: key, at: path + [key])
        }
    }

    /// The location of the value being read (for messages).
    private func valuePath() -> [String] {
        if let top = stack.last, top.memberCounts { return path + [top.memberKey] }
        return path
    }

    // MARK: - Input

    /// The byte at the cursor, reading the next chunk when the buffer is used up; nil at the end.
    @inline(__always)
    private mutating func peek() throws(DataError) -> UInt8? {
        if i < end { return buffer[i] }
        return try refill() ? buffer[i] : nil
    }

    /// Reads the next chunk into the buffer (the cursor is at its end); false at the end of input.
    private mutating func refill() throws(DataError) -> Bool {
        while !ended {
            base += end
            i = 0
            end = 0
            let n = try source(UnsafeMutableRawBufferPointer(buffer))
            if n > 0 {
                end = min(n, buffer.count)
                return true
            }
            ended = true
        }
        return false
    }

    // MARK: - Scalars

    private mutating func skipWhitespace() throws(DataError) {
        while true {
            while i < end {
                switch buffer[i] {
                case 0x20, 0x0A, 0x0D, 0x09: i += 1
                default: return
                }
            }
            guard try refill() else { return }
        }
    }

    private mutating func expectWord(_ word: StaticString) throws(DataError) {
        let start = offset
        for k in 0..<word.utf8CodeUnitCount {
            let expected = word.withUTF8Buffer { $0[k] }
            guard try peek() == expected else { throw syntax("expected a value", at: start) }
            i += 1
        }
    }

    /// Appends the byte at the cursor to `scratch` and moves on.
    @inline(__always)
    private mutating func take(_ c: UInt8) {
        scratch.append(c)
        i += 1
    }

    /// Reads a number by the JSON grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func readNumber() throws(DataError) -> Double {
        let start = offset
        scratch.removeAll(keepingCapacity: true)
        if try peek() == UInt8(ascii: "-") { take(UInt8(ascii: "-")) }
        guard let lead = try peek(), isDigit(lead) else { throw syntax("invalid number", at: start) }
        take(lead)
        if lead == UInt8(ascii: "0") {
            if let c = try peek(), isDigit(c) { throw syntax("invalid number (leading zero)", at: start) }
        } else {
            try takeDigits()
        }
        if try peek() == UInt8(ascii: ".") {
            take(UInt8(ascii: "."))
            guard let c = try peek(), isDigit(c) else { throw syntax("invalid number (expected a digit after '.')", at: start) }
            try takeDigits()
        }
        if let e = try peek(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            take(e)
            if let sign = try peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { take(sign) }
            guard let c = try peek(), isDigit(c) else { throw syntax("invalid number (expected a digit in the exponent)", at: start) }
            try takeDigits()
        }
        let text = String(decoding: scratch, as: UTF8.self)
        // Double(String) rounds correctly; it gives ±infinity for out-of-range exponents.
        guard let value = Double(text), value.isFinite else {
            let keys = valuePath()
            throw DataError(message: "Number \(DataText.truncated(text)) at \(DataText.shownPath(keys)) is out of range (numbers must be finite doubles).", path: DataPath(keys: keys))
        }
        return value
    }

    private mutating func takeDigits() throws(DataError) {
        while let c = try peek(), isDigit(c) { take(c) }
    }

    private func isDigit(_ c: UInt8) -> Bool {
        c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")
    }

    /// Bytes of a string too long to keep that are checked and let go at once.
    private static let dropRun = 1 << 16

    /// Reads a string literal starting at its opening quote (which is in the buffer): its text
    /// and its length in UTF-8 bytes. A string longer than `limit` is read to its end and checked
    /// (so the error is the same as for a kept one) but not kept whole: its text is nil, and its
    /// bytes are let go as they are checked, a run at a time.
    private mutating func readString(keepingAtMost limit: Int) throws(DataError) -> (text: String?, bytes: Int) {
        let start = offset
        i += 1
        // Fast path: the whole string in the buffer, without escapes.
        var j = i
        while j < end {
            let c = buffer[j]
            if c == UInt8(ascii: "\"") {
                guard let s = String(validating: UnsafeBufferPointer(rebasing: buffer[i..<j]), as: UTF8.self) else {
                    throw syntax("invalid UTF-8 in string", at: start)
                }
                let count = j - i
                i = j + 1
                return (s, count)
            }
            if c == UInt8(ascii: "\\") || c < 0x20 { break }
            j += 1
        }
        scratch.removeAll(keepingCapacity: true)
        // Bytes already checked and let go (a string past `limit`).
        var dropped = 0
        while true {
            if scratch.count >= Self.dropRun, dropped + scratch.count > limit {
                dropped += try dropCheckedPrefix(stringStart: start)
            }
            // Copy the run of plain bytes up to the next quote, backslash, control character or
            // the end of the buffer.
            var j = i
            while j < end {
                let c = buffer[j]
                if c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") || c < 0x20 { break }
                j += 1
            }
            if j > i {
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[i..<j]))
                i = j
            }
            guard let c = try peek() else { throw syntax("unterminated string", at: start) }
            if c == UInt8(ascii: "\"") {
                i += 1
                guard let s = String(validating: scratch, as: UTF8.self) else {
                    throw syntax("invalid UTF-8 in string", at: start)
                }
                return dropped == 0 ? (s, scratch.count) : (nil, dropped + scratch.count)
            }
            if c < 0x20 {
                throw syntax("control character in string (it must be escaped)")
            }
            if c != UInt8(ascii: "\\") { continue }
            let escapeStart = offset
            i += 1
            guard let e = try peek() else { throw syntax("unterminated string", at: start) }
            if let byte = JSONEscape.simple(e) {
                scratch.append(byte)
            } else if e == UInt8(ascii: "u") {
                i += 1
                var scalar = try readHex4(escapeStart)
                if JSONEscape.isHighSurrogate(scalar) {
                    // A high surrogate must be followed by an escaped low surrogate.
                    guard try peek() == UInt8(ascii: "\\") else { throw syntax("invalid \\u escape (unpaired surrogate)", at: escapeStart) }
                    i += 1
                    guard try peek() == UInt8(ascii: "u") else { throw syntax("invalid \\u escape (unpaired surrogate)", at: escapeStart) }
                    i += 1
                    let low = try readHex4(escapeStart)
                    guard JSONEscape.isLowSurrogate(low) else {
                        throw syntax("invalid \\u escape (unpaired surrogate)", at: escapeStart)
                    }
                    scalar = JSONEscape.combine(high: scalar, low: low)
                } else if JSONEscape.isLowSurrogate(scalar) {
                    throw syntax("invalid \\u escape (unpaired surrogate)", at: escapeStart)
                }
                guard let u = Unicode.Scalar(scalar) else { throw syntax("invalid \\u escape", at: escapeStart) }
                UTF8.encode(u) { scratch.append($0) }
                continue
            } else {
                throw syntax("invalid escape sequence", at: escapeStart)
            }
            i += 1
        }
    }

    /// Checks the UTF-8 of `scratch` up to its last whole character and removes it, keeping a
    /// character whose bytes are not all there yet; returns how many bytes were removed.
    private mutating func dropCheckedPrefix(stringStart: Int) throws(DataError) -> Int {
        var cut = scratch.count
        // Back over up to three continuation bytes, and their lead byte: that character may
        // go on in the next bytes.
        var back = 0
        while back < 3, cut > 0, scratch[cut - 1] & 0xC0 == 0x80 { cut -= 1; back += 1 }
        if cut > 0, scratch[cut - 1] >= 0xC0 { cut -= 1 }
        let valid = scratch.withUnsafeBufferPointer { String(validating: UnsafeBufferPointer(rebasing: $0[..<cut]), as: UTF8.self) != nil }
        guard valid else { throw syntax("invalid UTF-8 in string", at: stringStart) }
        scratch.removeFirst(cut)
        return cut
    }

    /// Reads four hex digits at the cursor.
    private mutating func readHex4(_ escapeStart: Int) throws(DataError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let c = try peek() else { throw syntax("invalid \\u escape", at: escapeStart) }
            guard let digit = JSONEscape.hexDigit(c) else { throw syntax("invalid \\u escape", at: escapeStart) }
            value = value * 16 + UInt32(digit)
            i += 1
        }
        return value
    }

    private func syntax(_ what: String, at position: Int? = nil) -> DataError {
        DataError(message: "Invalid JSON at byte \(position ?? offset): \(what).")
    }
}

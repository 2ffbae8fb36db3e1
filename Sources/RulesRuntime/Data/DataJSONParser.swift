/// The iterative strict-JSON parser behind ``DataInputReader``.
///
/// Open arrays and objects live on an explicit stack instead of the call stack, so nesting is
/// bounded by ``DataLimits/maxReaderNesting`` and never by the thread's stack size.
struct DataJSONParser: ~Copyable {
    /// One open array or object.
    private struct Frame {
        var isArray: Bool
        var members: [(String, DataInput)] = []
        /// Inside a `".sv"`, `".value"` or `".priority"` member: keys there are not database keys
        /// (not validated, no depth), and the enclosing wrapper checks the shape.
        var special: Bool
        /// Whether this container's key in its parent was pushed onto `path`.
        var pushedKey: Bool
        /// The key of the member being read.
        var memberKey = ""
        /// Whether `memberKey` is `".sv"`, `".value"` or `".priority"`.
        var memberSpecial = false
        /// Whether `memberKey` adds a level to the path.
        var memberCounts = false
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var i = 0
    private var stack: [Frame] = []
    /// The location of the innermost open container: the write location plus the keys that
    /// count as levels.
    private var path: [String]

    init(bytes: UnsafeBufferPointer<UInt8>, location: [String]) {
        self.bytes = bytes
        self.path = location
    }

    // MARK: - Driver

    mutating func parse() throws(DataError) -> DataInput {
        outer: while true {
            skipWhitespace()
            guard i < bytes.count else { throw syntax("expected a value") }
            var completed: DataInput
            switch bytes[i] {
            case UInt8(ascii: "{"):
                try push(isArray: false)
                i += 1
                skipWhitespace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
                    i += 1
                    completed = try pop()
                } else {
                    try readMemberKey()
                    continue outer
                }
            case UInt8(ascii: "["):
                try push(isArray: true)
                i += 1
                skipWhitespace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
                    i += 1
                    completed = try pop()
                } else {
                    try beginElement()
                    continue outer
                }
            case UInt8(ascii: "\""):
                let s = try readString()
                let bytesCount = s.utf8.count
                if bytesCount > DataLimits.maxStringBytes {
                    let keys = valuePath()
                    throw DataError(message: "String at \(DataText.shownPath(keys)) is too long: \(bytesCount) bytes (the limit is \(DataLimits.maxStringBytes)).", path: DataPath(keys: keys))
                }
                completed = .primitive(.string(s))
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                completed = .primitive(.number(try readNumber()))
            case UInt8(ascii: "t"):
                try expectWord("true")
                completed = .primitive(.bool(true))
            case UInt8(ascii: "f"):
                try expectWord("false")
                completed = .primitive(.bool(false))
            case UInt8(ascii: "n"):
                try expectWord("null")
                completed = .null
            default:
                throw syntax("expected a value")
            }
            // Hand finished values to their containers, closing containers as they end.
            while true {
                guard !stack.isEmpty else {
                    skipWhitespace()
                    if i != bytes.count { throw syntax("unexpected text after the value") }
                    return completed
                }
                let top = stack.count - 1
                stack[top].members.append((stack[top].memberKey, completed))
                let isArray = stack[top].isArray
                skipWhitespace()
                guard i < bytes.count else {
                    throw syntax(isArray ? "expected ',' or ']' after an array element" : "expected ',' or '}' after an object member")
                }
                let c = bytes[i]
                if c == UInt8(ascii: ",") {
                    i += 1
                    skipWhitespace()
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

    private mutating func pop() throws(DataError) -> DataInput {
        let frame = stack.removeLast()
        let location = path
        if frame.pushedKey { path.removeLast() }
        if frame.isArray { return .object(frame.members) }
        return try Self.interpretObject(frame.members, at: location)
    }

    /// Reads `"key" :` in an object and checks the key.
    private mutating func readMemberKey() throws(DataError) {
        guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw syntax("expected a string key") }
        let key = try readString()
        skipWhitespace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw syntax("expected ':' after the key") }
        i += 1
        let top = stack.count - 1
        let special = key == ".sv" || key == ".value" || key == ".priority"
        stack[top].memberKey = key
        stack[top].memberSpecial = special
        stack[top].memberCounts = !stack[top].special && !special
        if stack[top].memberCounts {
            try DataInput.check(key: key, at: path + [key])
        }
    }

    /// Starts the next array element, keyed by its index.
    private mutating func beginElement() throws(DataError) {
        let top = stack.count - 1
        let key = String(stack[top].members.count)
        stack[top].memberKey = key
        stack[top].memberSpecial = false
        stack[top].memberCounts = !stack[top].special
        if stack[top].memberCounts {
            try DataInput.check(key: key, at: path + [key])
        }
    }

    /// The location of the value being read (for messages).
    private func valuePath() -> [String] {
        if let top = stack.last, top.memberCounts { return path + [top.memberKey] }
        return path
    }

    /// Turns a closed object into a value: a server value, a leaf in export format, an object
    /// with a priority, or a plain object.
    static func interpretObject(_ members: [(String, DataInput)], at keys: [String]) throws(DataError) -> DataInput {
        var serverValue: DataInput?
        var value: DataInput?
        var priority: DataInput?
        var others: [(String, DataInput)] = []
        for (key, member) in members {
            switch key {
            case ".sv": serverValue = member
            case ".value": value = member
            case ".priority": priority = member
            default: others.append((key, member))
            }
        }
        if serverValue == nil, value == nil, priority == nil { return .object(members) }
        switch try interpretSpecial(serverValue: serverValue, value: value, priority: priority, firstOther: others.first?.0, at: keys) {
        case .value(let replacement):
            return replacement
        case .object(let priority):
            guard let priority, priority != .null else { return .object(others) }
            return .withPriority(.object(others), priority: priority)
        }
    }

    /// What an object with `".sv"`, `".value"` or `".priority"` members stands for.
    enum SpecialObject {
        /// The object is this value instead: a server value, or a leaf in export format (maybe
        /// with a priority).
        case value(DataInput)
        /// The object is its other members, with this priority (nil or `.null`: none).
        case object(priority: DataInput?)
    }

    /// Checks the special members of an object at `keys` (the last of each wins) and says what
    /// the object stands for. `firstOther` is the first member key that is not special, if any.
    static func interpretSpecial(
        serverValue: DataInput?, value: DataInput?, priority: DataInput?, firstOther: String?, at keys: [String]
    ) throws(DataError) -> SpecialObject {
        let shown = DataText.shownPath(keys)
        if let serverValue {
            if let other = firstOther ?? (value != nil ? ".value" : nil) ?? (priority != nil ? ".priority" : nil) {
                throw DataError(message: "Invalid server value at \(shown): \".sv\" can't be combined with other members (found \(DataText.shownKey(other))).", path: DataPath(keys: keys))
            }
            switch serverValue {
            case .primitive(.string("timestamp")):
                return .value(.serverValue(.timestamp))
            case .object(let m):
                let n = DataInput.normalized(m)
                if n.count == 1, n[0].0 == "increment", case .primitive(.number(let amount)) = n[0].1 {
                    return .value(.serverValue(.increment(amount)))
                }
            default:
                break
            }
            let text = DataText.truncated(serverValue.description, limit: DataText.shownPathCharacters)
            throw DataError(message: "Unsupported server value {\".sv\":\(text)} at \(shown): expected {\".sv\": \"timestamp\"} or {\".sv\": {\"increment\": <number>}}.", path: DataPath(keys: keys))
        }
        if let value {
            if let other = firstOther {
                throw DataError(message: "Invalid value at \(shown): \".value\" can only be combined with \".priority\" (found \(DataText.shownKey(other))).", path: DataPath(keys: keys))
            }
            switch value {
            case .null, .primitive, .serverValue: break
            default:
                let text = DataText.truncated(value.description, limit: DataText.shownPathCharacters)
                throw DataError(message: "Invalid value at \(shown): \".value\" must be a string, number, boolean, null or server value, not \(text).", path: DataPath(keys: keys))
            }
            guard let priority else { return .value(value) }
            try DataInput.checkPriority(priority, at: keys)
            return .value(priority == .null ? value : .withPriority(value, priority: priority))
        }
        if let priority {
            try DataInput.checkPriority(priority, at: keys)
            return .object(priority: priority)
        }
        return .object(priority: nil)
    }

    // MARK: - Scalars

    private mutating func skipWhitespace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x0A, 0x0D, 0x09: i += 1
            default: return
            }
        }
    }

    private mutating func expectWord(_ word: StaticString) throws(DataError) {
        let start = i
        let count = word.utf8CodeUnitCount
        let matches = word.withUTF8Buffer { w -> Bool in
            guard start + count <= bytes.count else { return false }
            for k in 0..<count where bytes[start + k] != w[k] { return false }
            return true
        }
        guard matches else { throw syntax("expected a value") }
        i += count
    }

    /// Reads a number by the JSON grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func readNumber() throws(DataError) -> Double {
        let start = i
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard i < bytes.count, isDigit(bytes[i]) else { throw syntax("invalid number", at: start) }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
            if i < bytes.count, isDigit(bytes[i]) { throw syntax("invalid number (leading zero)", at: start) }
        } else {
            while i < bytes.count, isDigit(bytes[i]) { i += 1 }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard i < bytes.count, isDigit(bytes[i]) else { throw syntax("invalid number (expected a digit after '.')", at: start) }
            while i < bytes.count, isDigit(bytes[i]) { i += 1 }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard i < bytes.count, isDigit(bytes[i]) else { throw syntax("invalid number (expected a digit in the exponent)", at: start) }
            while i < bytes.count, isDigit(bytes[i]) { i += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
        // Double(String) rounds correctly; it gives ±infinity for out-of-range exponents.
        guard let value = Double(text), value.isFinite else {
            let keys = valuePath()
            throw DataError(message: "Number \(DataText.truncated(text)) at \(DataText.shownPath(keys)) is out of range (numbers must be finite doubles).", path: DataPath(keys: keys))
        }
        return value
    }

    private func isDigit(_ c: UInt8) -> Bool {
        c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")
    }

    /// Reads a string literal starting at its opening quote.
    private mutating func readString() throws(DataError) -> String {
        let start = i
        i += 1
        // Fast path: no escapes.
        var j = i
        while j < bytes.count {
            let c = bytes[j]
            if c == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[i..<j])
                guard let s = String(validating: slice, as: UTF8.self) else {
                    throw syntax("invalid UTF-8 in string", at: start)
                }
                i = j + 1
                return s
            }
            if c == UInt8(ascii: "\\") || c < 0x20 { break }
            j += 1
        }
        var buffer: [UInt8] = []
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i..<j]))
        i = j
        while true {
            guard i < bytes.count else { throw syntax("unterminated string", at: start) }
            let c = bytes[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                guard let s = String(validating: buffer, as: UTF8.self) else {
                    throw syntax("invalid UTF-8 in string", at: start)
                }
                return s
            }
            if c < 0x20 {
                throw syntax("control character in string (it must be escaped)")
            }
            if c != UInt8(ascii: "\\") {
                buffer.append(c)
                i += 1
                continue
            }
            guard i + 1 < bytes.count else { throw syntax("unterminated string", at: start) }
            let e = bytes[i + 1]
            if let byte = JSONEscape.simple(e) {
                buffer.append(byte)
            } else if e == UInt8(ascii: "u") {
                let escapeStart = i
                i += 2
                var scalar = try readHex4(escapeStart)
                if JSONEscape.isHighSurrogate(scalar) {
                    // A high surrogate must be followed by an escaped low surrogate.
                    guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                        throw syntax("invalid \\u escape (unpaired surrogate)", at: escapeStart)
                    }
                    i += 2
                    let low = try readHex4(escapeStart)
                    guard JSONEscape.isLowSurrogate(low) else {
                        throw syntax("invalid \\u escape (unpaired surrogate)", at: escapeStart)
                    }
                    scalar = JSONEscape.combine(high: scalar, low: low)
                } else if JSONEscape.isLowSurrogate(scalar) {
                    throw syntax("invalid \\u escape (unpaired surrogate)", at: escapeStart)
                }
                guard let u = Unicode.Scalar(scalar) else { throw syntax("invalid \\u escape", at: escapeStart) }
                UTF8.encode(u) { buffer.append($0) }
                continue
            } else {
                throw syntax("invalid escape sequence")
            }
            i += 2
        }
    }

    /// Reads four hex digits at `i`.
    private mutating func readHex4(_ escapeStart: Int) throws(DataError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw syntax("invalid \\u escape", at: escapeStart) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[i]
            guard let digit = JSONEscape.hexDigit(c) else { throw syntax("invalid \\u escape", at: escapeStart) }
            value = value * 16 + UInt32(digit)
            i += 1
        }
        return value
    }

    private func syntax(_ what: String, at offset: Int? = nil) -> DataError {
        DataError(message: "Invalid JSON at byte \(offset ?? i): \(what).")
    }
}

extension DataInput {
    /// Checks that this value may be written at `path`: valid keys
    /// (``DataPath/validate(key:at:)``), no node deeper than ``DataLimits/maxPathLevels`` levels,
    /// strings of at most ``DataLimits/maxStringBytes`` bytes, finite numbers and increments, and
    /// priorities that are strings, numbers, `null` or a timestamp.
    ///
    /// ``DataInputReader`` applies the same checks while reading; this is for values built in
    /// Swift.
    package func validate(at path: DataPath) throws(DataError) {
        var keys = path.keys
        try validate(keys: &keys)
    }

    private func validate(keys: inout [String]) throws(DataError) {
        switch self {
        case .null:
            return
        case .primitive(let p):
            try Self.check(p, at: keys)
        case .serverValue(.timestamp):
            return
        case .serverValue(.increment(let n)):
            if !n.isFinite {
                throw DataError(message: "Invalid increment at \(DataText.shownPath(keys)): the amount must be a finite number.", path: DataPath(keys: keys))
            }
        case .object(let members):
            for (key, value) in members {
                keys.append(key)
                defer { keys.removeLast() }
                try Self.check(key: key, at: keys)
                try value.validate(keys: &keys)
            }
        case .withPriority(let value, let priority):
            try Self.checkPriority(priority, at: keys)
            try value.validate(keys: &keys)
        }
    }

    /// Checks a key and the depth of the path ending with it.
    static func check(key: String, at keys: [String]) throws(DataError) {
        do {
            try DataPath.validate(key: key, at: keys)
            try DataPath.checkDepth(keys)
        } catch {
            throw DataError(message: error.message, path: DataPath(keys: keys))
        }
    }

    /// Checks a leaf value's size and finiteness.
    static func check(_ p: Primitive, at keys: [String]) throws(DataError) {
        switch p {
        case .string(let s):
            let bytes = s.utf8.count
            if bytes > DataLimits.maxStringBytes {
                throw DataError(message: "String at \(DataText.shownPath(keys)) is too long: \(bytes) bytes (the limit is \(DataLimits.maxStringBytes)).", path: DataPath(keys: keys))
            }
        case .number(let d):
            if !d.isFinite {
                throw DataError(message: "Number at \(DataText.shownPath(keys)) is not finite: \(d) (numbers must be finite).", path: DataPath(keys: keys))
            }
        case .bool:
            return
        }
    }

    /// Checks that a value may be a priority.
    static func checkPriority(_ priority: DataInput, at keys: [String]) throws(DataError) {
        switch priority {
        case .null, .serverValue(.timestamp), .primitive(.string), .primitive(.number):
            if case .primitive(let p) = priority { try check(p, at: keys) }
        default:
            throw DataError(message: "Invalid priority at \(DataText.shownPath(keys)): a priority must be a string, a number, null or {\".sv\": \"timestamp\"}, not \(DataText.truncated(priority.description, limit: DataText.shownPathCharacters)).", path: DataPath(keys: keys))
        }
    }
}

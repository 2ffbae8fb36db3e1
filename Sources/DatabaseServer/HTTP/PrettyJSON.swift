/// Reformats compact JSON in the style the production server uses for `print=pretty` and for
/// every error body: objects one member a line with a two-space indent and ` : ` between key
/// and value, arrays on one line as `[ 1, 2 ]`, empty ones as `{ }` and `[ ]`, and a final
/// newline. (`{"error":"Permission denied"}` becomes the 36-byte `{\n  "error" : "Permission denied"\n}\n`.)
enum PrettyJSON {
    /// The pretty form of compact JSON text (as the server's exporter writes it: no spaces
    /// outside strings).
    static func format(_ compact: String) -> String {
        let bytes = Array(compact.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        var index = 0
        var depth = 0
        // For each open container: is it an object, and has it had a member yet?
        var stack: [(object: Bool, first: Bool)] = []

        func newline() {
            out.append(UInt8(ascii: "\n"))
            for _ in 0..<depth { out.append(contentsOf: [32, 32]) }
        }
        func beforeValue() {
            guard var top = stack.last else { return }
            if top.object { return }  // the key handled the separator
            if !top.first { out.append(contentsOf: Array(", ".utf8)) }
            top.first = false
            stack[stack.count - 1] = top
        }

        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"):
                beforeValue()
                if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "}") {
                    out.append(contentsOf: Array("{ }".utf8))
                    index += 2
                    continue
                }
                out.append(byte)
                depth += 1
                stack.append((true, true))
            case UInt8(ascii: "}"):
                depth -= 1
                stack.removeLast()
                newline()
                out.append(byte)
            case UInt8(ascii: "["):
                beforeValue()
                if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "]") {
                    out.append(contentsOf: Array("[ ]".utf8))
                    index += 2
                    continue
                }
                out.append(contentsOf: Array("[ ".utf8))
                stack.append((false, true))
            case UInt8(ascii: "]"):
                stack.removeLast()
                out.append(contentsOf: Array(" ]".utf8))
            case UInt8(ascii: ","), UInt8(ascii: ":"):
                break  // separators are written with the next member or value
            case UInt8(ascii: "\""):
                var end = index + 1
                while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                    end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
                }
                let string = bytes[index...min(end, bytes.count - 1)]
                if var top = stack.last, top.object, end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: ":") {
                    // A key: start its line.
                    if !top.first { out.append(UInt8(ascii: ",")) }
                    top.first = false
                    stack[stack.count - 1] = top
                    newline()
                    out.append(contentsOf: string)
                    out.append(contentsOf: Array(" : ".utf8))
                } else {
                    beforeValue()
                    out.append(contentsOf: string)
                }
                index = end + 1
                continue
            default:
                // A number, true, false or null.
                beforeValue()
                var end = index
                while end < bytes.count, !",:]}".utf8.contains(bytes[end]) { end += 1 }
                out.append(contentsOf: bytes[index..<end])
                index = end
                continue
            }
            index += 1
        }
        out.append(UInt8(ascii: "\n"))
        return String(decoding: out, as: UTF8.self)
    }
}

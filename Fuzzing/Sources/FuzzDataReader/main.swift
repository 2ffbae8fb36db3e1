import DatabaseRules
import FuzzSupport

/// The readers of what clients send: the first line is a path (``DataPath/init(validating:)``),
/// the rest a JSON value (``DataInputReader``). An accepted value is resolved into a tree,
/// exported, and read back: the round trip must give the same tree.
func fuzzDataReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzBytes.array(data, size)
    let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
    let pathText = String(decoding: bytes[..<newline], as: UTF8.self)
    let body = newline < bytes.count ? Array(bytes[(newline + 1)...]) : []
    let location = (try? DataPath(validating: pathText)) ?? .root
    _ = AuthValue(jsonText: String(decoding: body, as: UTF8.self))
    let input: DataInput
    do {
        input = try DataInputReader.read(bytes: body, at: location)
    } catch {
        FuzzCheck.that(!error.message.isEmpty, "a data error without a message")
        return 0
    }
    // What the reader accepts, validation accepts.
    do { try input.validate(at: location) } catch {
        FuzzCheck.fail("read but invalid at \(location): \(error.message)")
    }
    _ = input.description
    guard let node = input.resolved(now: 1_700_000_000_000, existing: nil) else { return 0 }
    let text = node.exportJSON()
    do {
        let again = try DataNode.fromJSON(text)
        FuzzCheck.that(again.map { $0.isEqual(to: node) } ?? false, "export does not read back: \(text)")
    } catch {
        FuzzCheck.fail("exported JSON rejected: \(error.message) in \(text)")
    }
    return 0
}

FuzzDriver.run(fuzzDataReader)

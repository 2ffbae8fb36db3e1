import Testing
import RulesLanguageServer

@Suite struct MessageFramerTests {
    static let bodies = [#"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#, #"{"text":"é 😀"}"#, "{}"]

    /// The stream of the three bodies, framed.
    static var stream: [UInt8] { bodies.flatMap { MessageFramer.frame($0) } }

    @Test(arguments: [1, 2, 3, 7, 64, 4096])
    func readsMessagesFedInChunks(chunk: Int) throws {
        var framer = MessageFramer()
        var out: [String] = []
        var i = 0
        let bytes = Self.stream
        while i < bytes.count {
            framer.append(bytes[i..<min(i + chunk, bytes.count)])
            i += chunk
            while let body = try framer.next() { out.append(String(decoding: body, as: UTF8.self)) }
        }
        #expect(out == Self.bodies)
    }

    @Test func countsTheLengthInBytesNotCharacters() {
        #expect(MessageFramer.frame("é") == Array("Content-Length: 2\r\n\r\né".utf8))
    }

    @Test func acceptsOtherHeadersInAnyCase() throws {
        var framer = MessageFramer()
        framer.append(Array("content-type: application/vscode-jsonrpc; charset=utf-8\r\nCONTENT-LENGTH:  2 \r\n\r\n{}".utf8))
        #expect(try framer.next() == Array("{}".utf8))
        #expect(try framer.next() == nil)
    }

    @Test(arguments: [
        ("Content-Type: x\r\n\r\n{}", "a message without a Content-Length header"),
        ("Content-Length: ten\r\n\r\n", "Content-Length is not a number: 'ten'"),
        ("Content-Length: -1\r\n\r\n", "Content-Length is not a number: '-1'"),
        ("nonsense\r\n\r\n", "a header line without ':': 'nonsense'"),
        ("Content-Length: 99999999999\r\n\r\n", "Content-Length 99999999999 is over the limit of 67108864 bytes"),
    ])
    func reportsBadHeaders(input: String, message: String) {
        var framer = MessageFramer()
        framer.append(Array(input.utf8))
        #expect(throws: MessageFramer.FramingError(message)) { try framer.next() }
    }

    @Test func refusesAnEndlessHeader() {
        var framer = MessageFramer()
        framer.append([UInt8](repeating: UInt8(ascii: "a"), count: MessageFramer.maxHeaderBytes + 1))
        #expect(throws: MessageFramer.FramingError.self) { try framer.next() }
    }
}

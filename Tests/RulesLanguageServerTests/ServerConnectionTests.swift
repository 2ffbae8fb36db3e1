import Foundation
import Synchronization
import RulesLanguageServer
import RulesSyntax
import Testing

/// The connection over real pipes: framed messages in, framed answers out, in order.
@Suite struct ServerConnectionTests {
    final class Reader: @unchecked Sendable {
        var framer = MessageFramer()
        let fd: Int32
        init(_ fd: Int32) { self.fd = fd }

        /// The next message, parsed.
        func next() throws -> JSONNode? {
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                if let body = try framer.next() { return RelaxedJSONReader.read(SourceFile(path: "m", bytes: body)).root }
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n <= 0 { return nil }
                framer.append(chunk[0..<n])
            }
        }
    }

    static func send(_ fd: Int32, _ message: JSONText) {
        let bytes = MessageFramer.frame(message.rendered(indent: 0))
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    @Test func servesASessionOverPipesAndExitsWithZero() throws {
        var toServer: [Int32] = [0, 0], fromServer: [Int32] = [0, 0]
        #expect(pipe(&toServer) == 0 && pipe(&fromServer) == 0)
        let connection = ServerConnection(server: LanguageServer(version: "test"), input: toServer[0], output: fromServer[1])
        let status = Mutex<Int32?>(nil)
        let thread = Thread { status.withLock { $0 = connection.run() } }
        thread.start()
        let reader = Reader(fromServer[0])
        let uri = "file:///a.rules.json"
        Self.send(toServer[1], .object([("jsonrpc", .string("2.0")), ("id", .int(1)), ("method", .string("initialize")), ("params", .object([]))]))
        #expect(try reader.next()?["id"]?.intValue == 1)
        Self.send(toServer[1], .object([("jsonrpc", .string("2.0")), ("method", .string("textDocument/didOpen")), ("params", .object([
            ("textDocument", .object([("uri", .string(uri)), ("version", .int(1)), ("text", .string("{\"rules\": {\".read\": \"nope\"}}"))])),
        ]))]))
        let published = try #require(try reader.next())
        #expect(published["method"]?.stringValue == "textDocument/publishDiagnostics")
        #expect(published.at("params.diagnostics.0.code")?.stringValue == "unknown-variable")
        Self.send(toServer[1], .object([("jsonrpc", .string("2.0")), ("id", .string("s")), ("method", .string("shutdown"))]))
        #expect(try reader.next()?["id"]?.stringValue == "s")
        Self.send(toServer[1], .object([("jsonrpc", .string("2.0")), ("method", .string("exit"))]))
        let deadline = Date().addingTimeInterval(10)
        while status.withLock({ $0 }) == nil && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(status.withLock { $0 } == 0)
        for fd in toServer + fromServer { close(fd) }
    }
}

extension JSONNode {
    var stringValue: String? { string?.value }
    var intValue: Int? { int }
}

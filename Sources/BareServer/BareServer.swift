import Hummingbird
import Logging

/// A bare Hummingbird server with one JSON route and no rules: the baseline the server
/// benchmarks compare `rules serve` with (`Benchmarks/server.py`). Usage: `bare-server PORT`.
@main
struct BareServer {
    static func main() async throws {
        let port = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 9001
        let router = Router()
        router.get("/**") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: #"{"title":"Hello"}"#)))
        }
        router.put("/**") { request, _ in
            let body = try await request.body.collect(upTo: 1 << 20)
            return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: body))
        }
        var logger = Logger(label: "bare-server")
        logger.logLevel = .critical
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)), logger: logger)
        try await app.runService()
    }
}

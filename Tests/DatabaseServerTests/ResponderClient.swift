import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOEmbedded
import Synchronization

@testable import DatabaseServer

/// Requests handed straight to a ``RESTResponder`` in this process, with no socket: each one a
/// Hummingbird `Request` with its whole body, answered with the status, headers and whole body
/// the door wrote. (For what only a socket shows, such as `Host` handling and connection limits,
/// the tests use `StartedServer`.)
struct ResponderClient: Sendable {
    let responder: RESTResponder

    /// An answer: its status, headers and body.
    struct Answer: Sendable {
        let status: HTTPResponse.Status
        let headers: HTTPFields
        let body: ByteBuffer
    }

    /// Runs `body` with a client of `responder`.
    static func run<T>(_ responder: RESTResponder, _ body: (ResponderClient) async throws -> T) async throws -> T {
        try await body(ResponderClient(responder: responder))
    }

    /// Sends one request and returns its answer.
    @discardableResult
    func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil) async throws -> Answer {
        try await execute(uri: uri, method: method, headers: headers, body: body) { $0 }
    }

    /// Sends one request and hands its answer to `check`.
    @discardableResult
    func execute<T>(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil,
                    _ check: (Answer) async throws -> T) async throws -> T {
        var headers = headers
        if let body { headers[.contentLength] = String(body.readableBytes) }
        let request = Request(
            head: HTTPRequest(method: method, scheme: "http", authority: "localhost", path: uri, headerFields: headers),
            body: RequestBody(buffer: body ?? ByteBuffer()))
        let context = ServerRequestContext(source: ApplicationRequestContextSource(channel: NIOAsyncTestingChannel(), logger: Logger(label: "test")))
        let response: Response
        do {
            response = try await responder.respond(to: request, context: context)
        } catch {
            response = Response(status: .internalServerError)
        }
        let collected = Collected()
        try await response.body.write(Collector(into: collected))
        return try await check(Answer(status: response.status, headers: response.headers, body: collected.buffer.withLock { $0 }))
    }

    /// A response body as it is written.
    final class Collected: Sendable {
        let buffer = Mutex(ByteBuffer())
    }

    /// Writes a response body into a ``Collected`` (the body consumes its writer).
    struct Collector: ResponseBodyWriter {
        let into: Collected
        mutating func write(_ buffer: ByteBuffer) async throws {
            into.buffer.withLock { collected in
                var buffer = buffer
                collected.writeBuffer(&buffer)
            }
        }
        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}

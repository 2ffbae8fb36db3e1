import DatabaseRules
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Streaming listens (`Accept: text/event-stream`): `put`/`patch` events, keep-alives, `cancel` and `auth_revoked`.
extension RESTResponder {
    /// A streaming read: the location's value, then its changes, as server-sent events. In the
    /// export format (`export`), values carry their priorities (the page's data view). A client
    /// that lets more than `maxQueuedBytes` wait is cut off: its connection is closed.
    func stream(
        _ path: DataPath, options: RESTOptions, identity: Identity, namespace: Namespace, now: Double, channel: any Channel,
        export: Bool = false, capture: DecisionCapture? = nil
    ) async throws(ServerError) -> Response {
        let name = namespace.name, console = log.console
        let (sink, events) = EventStreamSink.make(capacity: limits.maxQueuedEvents, bytes: limits.maxQueuedBytes, shared: pending) {
            // Cut off: the queued events are dropped with the connection.
            console.say("stream \(name)\(path): closing the connection: the client reads too slowly")
            channel.close(promise: nil)
        }
        let (id, initial) = try await namespace.listen(path, query: options.query, as: identity, sink: sink, now: now, capture: capture)
        let initialJSON = initial?.exportJSON(includePriority: export, arrays: !export) ?? "null"
        let keepAlive = limits.keepAliveSeconds
        let continuation = sink.continuation, budget = sink.budget
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream; charset=utf-8"
        headers[.cacheControl] = "no-cache"
        headers[.accessControlAllowOrigin] = "*"
        let body = ResponseBody { writer in
            let ticker = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(keepAlive))
                    if Task.isCancelled { break }
                    continuation.yield(.keepAlive)
                }
            }
            defer {
                ticker.cancel()
                namespace.unlisten(id)
                continuation.finish()
            }
            try await writer.write(ByteBuffer(string: Self.sse("put", #"{"path":"/","data":"# + initialJSON + "}")))
            for await item in events {
                if budget.overflowed { throw SlowClient() }
                // An event counts until its write is taken by the connection (which waits while
                // the client does not read).
                defer { if case .event(_, let bytes) = item { budget.release(bytes) } }
                switch item {
                case .keepAlive:
                    try await writer.write(ByteBuffer(string: Self.sse("keep-alive", "null")))
                case .event(.put(let path, let value), _):
                    try await Self.writeEvent("put", path: path, value: value, export: export, to: &writer)
                case .event(.patch(let path, let value), _):
                    try await Self.writeEvent("patch", path: path, value: value, export: export, to: &writer)
                case .event(.cancel, _):
                    try await writer.write(ByteBuffer(string: Self.sse("cancel", "null")))
                case .event(.authRevoked, _):
                    try await writer.write(ByteBuffer(string: Self.sse("auth_revoked", "credential is no longer valid")))
                }
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    /// Ends a streaming response whose client could not keep up (its connection is closed).
    struct SlowClient: Error {}

    /// Writes a `put` or `patch` event: its own head and tail around the value's bytes, which
    /// every listener shares.
    static func writeEvent(_ event: String, path: String, value: RenderedValue, export: Bool, to writer: inout any ResponseBodyWriter) async throws {
        try await writer.write(ByteBuffer(string: "event: \(event)\ndata: " + #"{"path":"# + JSONText.quote(path) + #","data":"#))
        try await writer.write(value.bytes(export: export))
        try await writer.write(ByteBuffer(string: "}\n\n"))
    }

    static func sse(_ event: String, _ data: String) -> String {
        "event: \(event)\ndata: \(data)\n\n"
    }
}

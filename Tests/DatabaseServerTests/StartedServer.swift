import Foundation
import Synchronization

@testable import DatabaseServer

/// A ``RulesServer`` listening on a free loopback port for the length of a test.
struct StartedServer {
    let server: RulesServer
    let port: Int
    private let task: Task<Void, any Error>

    /// Starts a server (open rules unless `rules` is given) and waits until it listens.
    static func start(rules: String? = nil, configure: (inout ServerConfiguration) -> Void = { _ in }) async throws -> StartedServer {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.hostGiven = true
        configuration.coverage = false
        configuration.logFormat = .quiet
        if let rules {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("edge-\(UUID().uuidString).rules.json").path
            try rules.write(toFile: path, atomically: true, encoding: .utf8)
            configuration.rulesFile = path
            configuration.rulesPollSeconds = 3600
        }
        configure(&configuration)
        let server = try RulesServer(configuration: configuration)
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let task = Task {
            defer { continuation.finish() }
            try await server.run { continuation.yield($0) }
        }
        var port = 0
        for await p in ports {
            port = p
            break
        }
        return StartedServer(server: server, port: port, task: task)
    }

    /// Stops it.
    func stop() async {
        task.cancel()
        _ = await task.result
    }

    /// One request on its own connection, with `Connection: close`. The blocking socket I/O
    /// runs on a thread of its own, never on the cooperative threads the server in this process
    /// needs to answer it.
    func request(_ method: String = "GET", _ target: String, host: String? = nil, headers: [String: String] = [:], body: String? = nil) async throws -> RawResponse {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if let body { text += "Content-Length: \(body.utf8.count)\r\n" }
        text += "\r\n" + (body ?? "")
        let port = port, request = text
        let answer: String = try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try LoopbackClient.exchange(port: port, request) })
            }
        }
        return RawResponse(answer)
    }
}

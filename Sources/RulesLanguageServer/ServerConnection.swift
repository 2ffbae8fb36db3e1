import Foundation
import RulesSyntax
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a ``LanguageServer`` over two file descriptors (standard input and output for `rules lsp`).
///
/// A reader thread frames incoming messages and queues them, noting each `$/cancelRequest` at
/// once; the calling thread answers the queue in order, and publishes diagnostics whenever the
/// queue runs dry; the access model's findings (``ModelJob``) are computed on a thread of their
/// own, one document at a time, and published when ready.
package final class ServerConnection: @unchecked Sendable {
    private let input: Int32
    private let output: Int32
    private let condition = NSCondition()
    private var queue: [[UInt8]] = []
    private var ended = false
    private var framingError: String?
    private var server: LanguageServer
    private let cancellations: CancellationSet
    /// Whether a ``ModelJob`` runs (one at a time), and the one that finished, to publish.
    private var modelRunning = false
    private var modelDone: (job: ModelJob, findings: [CheckedDiagnostic])?

    package init(server: LanguageServer, input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        self.server = server
        self.cancellations = server.cancellations
        self.input = input
        self.output = output
    }

    /// Serves until `exit` or the end of input; returns the exit status (0 after `shutdown`).
    package func run() -> Int32 {
        let reader = Thread { [self] in self.readLoop() }
        reader.stackSize = 1 << 20
        reader.start()
        while true {
            condition.lock()
            if queue.isEmpty && !ended && modelDone == nil {
                condition.unlock()
                write(server.pendingDiagnostics())
                startModelJob()
                condition.lock()
                while queue.isEmpty && !ended && modelDone == nil { condition.wait() }
            }
            if let done = modelDone {
                modelDone = nil
                condition.unlock()
                write(server.accept(done.job, findings: done.findings))
                continue
            }
            if queue.isEmpty {
                let problem = framingError
                condition.unlock()
                if let problem { FileHandle.standardError.write(Data("rules lsp: unreadable input: \(problem)\n".utf8)) }
                return server.exitCode ?? 1
            }
            let body = queue.removeFirst()
            condition.unlock()
            write(server.handle(body))
            if let code = server.exitCode { return code }
        }
    }

    /// Starts the next ``ModelJob`` on a thread of its own, unless one runs: the model's search
    /// and solver never hold up the answers to the editor's requests.
    private func startModelJob() {
        condition.lock()
        defer { condition.unlock() }
        guard !modelRunning, let job = server.nextModelJob() else { return }
        modelRunning = true
        let worker = Thread { [self] in
            let findings = job.run()
            condition.lock()
            modelDone = (job, findings)
            modelRunning = false
            condition.signal()
            condition.unlock()
        }
        worker.stackSize = 8 << 20
        worker.start()
    }

    private func readLoop() {
        var framer = MessageFramer()
        var chunk = [UInt8](repeating: 0, count: 65536)
        let cancel = Array("$/cancelRequest".utf8)
        reading: while true {
            let n = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            framer.append(chunk[0..<n])
            while true {
                let body: [UInt8]?
                do {
                    body = try framer.next()
                } catch {
                    condition.lock()
                    framingError = error.description
                    condition.unlock()
                    break reading
                }
                guard let body else { break }
                if body.count < 512, body.firstRange(of: cancel) != nil,
                    let message = RelaxedJSONReader.read(SourceFile(path: "message", bytes: body), options: .protocolMessage).root,
                    message["method"]?.stringValue == "$/cancelRequest", let key = CancellationSet.key(message.at("params.id"))
                {
                    cancellations.cancel(key)
                    continue
                }
                condition.lock()
                queue.append(body)
                condition.signal()
                condition.unlock()
            }
        }
        condition.lock()
        ended = true
        condition.signal()
        condition.unlock()
    }

    private func write(_ messages: [JSONText]) {
        for m in messages {
            let bytes = MessageFramer.frame(m.rendered(indent: 0))
            var sent = 0
            while sent < bytes.count {
                let n = bytes[sent...].withUnsafeBytes { systemWrite(output, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return }
                sent += n
            }
        }
    }
}

#if canImport(Glibc)
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
private let systemWrite = Darwin.write
#endif

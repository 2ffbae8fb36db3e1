import Foundation

/// What every request of every transport goes through around the database core, in one place:
/// the rules decision it causes is captured (so the page can explain it later), its time is
/// measured, and its outcome (allowed; denied, with the whole explanation the server keeps for
/// itself; or an error) is recorded once in the request log. A transport parses its protocol
/// into a call on a ``Namespace`` inside ``run(_:logged:status:_:)`` and renders what comes back.
struct RequestPipeline: Sendable {
    /// Where requests are recorded.
    let log: RequestLog

    /// A failure of a transport's own (not a ``ServerError``) with what the log says of it.
    protocol Failure: Error {
        /// The line the log keeps.
        var logReason: String { get }
        /// The verdict the log records: `error`, or `stale` for a
        /// compare-and-set that found the data changed (the protocol working: the client retries).
        var verdict: RequestRecord.Verdict { get }
    }

    /// Runs one request. `record` says what it is (the transport may fill it in as it learns
    /// more, e.g. the identity once the credentials are read); `status` gives the status the
    /// client was answered for a success (HTTP status, or 0 for WebSocket); a ``ServerError`` is
    /// answered with `failureStatus`. Not `logged`: the page's own polling.
    func run<T>(
        _ record: RequestRecord, capture: DecisionCapture, logged: @escaping (RequestRecord) -> Bool = { _ in true }, status: (T) -> Int,
        failureStatus: (ServerError) -> Int, _ body: (inout RequestRecord) async throws -> T
    ) async throws -> T {
        var record = record
        let started = ContinuousClock.now
        defer {
            let elapsed = ContinuousClock.now - started
            record.milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
            record.decision = capture.decision
            if logged(record) { log.record(record) }
        }
        do {
            let result = try await body(&record)
            record.status = status(result)
            return result
        } catch let error as ServerError {
            record.verdict = error.kind == .permissionDenied ? .denied : .error
            record.reason = error.logReason
            record.status = failureStatus(error)
            throw error
        } catch let failure as any Failure {
            record.verdict = failure.verdict
            record.reason = failure.logReason
            throw failure
        } catch {
            record.verdict = .error
            record.reason = "\(error)"
            throw error
        }
    }
}

extension RequestPipeline.Failure {
    /// A transport's failure is an error unless it says otherwise.
    var verdict: RequestRecord.Verdict { .error }
}

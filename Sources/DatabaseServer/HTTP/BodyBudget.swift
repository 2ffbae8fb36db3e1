import Synchronization

/// The bytes of request bodies the server holds at once, across every connection
/// (``ServerLimits/maxBodyBytesInFlight``). A request reserves its body's size (its
/// `Content-Length`, or piece by piece as the body arrives) before the body is read; when what
/// is left is not enough it is refused with 503 and `Retry-After`, and its body is not buffered.
/// The reservation is given back when the request's response is made.
package typealias BodyBudget = ByteTotal

extension ByteTotal {
    /// The reservations of one request, given back together by ``Lease/end()``.
    final class Lease: Sendable {
        let budget: BodyBudget
        private let held = Mutex(0)

        init(_ budget: BodyBudget) { self.budget = budget }

        /// Reserves `bytes` more for this request, or throws the 503 the client gets.
        func reserve(_ bytes: Int) throws(ServerError) {
            guard budget.reserve(bytes) else {
                throw ServerError(
                    .unavailable,
                    "The server is receiving too many request bodies at once (the limit is \(budget.total) bytes in flight); retry shortly.",
                    explanation: "request body of \(bytes) bytes refused: \(budget.inUse) of \(budget.total) bytes of bodies in flight")
            }
            held.withLock { $0 += bytes }
        }

        /// Gives back `bytes` of what this holder reserved.
        func release(_ bytes: Int) {
            let given = held.withLock { value in
                let given = min(bytes, value)
                value -= given
                return given
            }
            if given > 0 { budget.release(given) }
        }

        /// Gives back everything this request reserved; returns how much that was.
        @discardableResult
        func end() -> Int {
            let bytes = held.withLock { value in
                defer { value = 0 }
                return value
            }
            if bytes > 0 { budget.release(bytes) }
            return bytes
        }
    }
}

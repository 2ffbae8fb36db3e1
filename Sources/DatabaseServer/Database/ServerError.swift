/// An error a client caused, with the production text and the status each transport answers.
package struct ServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of error, which decides the HTTP status and the WebSocket status.
    package enum Kind: Sendable, Hashable {
        /// The request is malformed (400, `invalid_...`).
        case badRequest
        /// The rules deny it, or the credentials are unusable (401, `permission_denied`).
        case permissionDenied
        /// Nothing is served there (404).
        case notFound
        /// The method is not one the REST API has (405).
        case methodNotAllowed
        /// A conditional write's ETag did not match (412).
        case preconditionFailed
        /// The request is too large (413).
        case tooLarge
        /// A server limit was reached (429).
        case overloaded
        /// The server cannot store writes (durable storage failed) (503, `unavailable`).
        case unavailable
    }

    /// The kind.
    package let kind: Kind
    /// The text clients see in `{"error": "..."}`.
    package let message: String
    /// Why, in one line, as the client is told (`X-Rules-Explanation`, the WebSocket `sd`
    /// message): the deciding rule of a denial, with values the client may not read redacted.
    package var explanation: String?
    /// Why, in one line, for the server's own log when it says more than ``explanation`` (the
    /// unredacted explanation of a denial); nil when the two are the same.
    package var logExplanation: String?

    /// What the server's log says of the error: the whole explanation, or the message.
    package var logReason: String { logExplanation ?? explanation ?? message }

    /// Creates an error.
    package init(_ kind: Kind, _ message: String, explanation: String? = nil) {
        self.kind = kind
        self.message = message
        self.explanation = explanation
    }

    /// The HTTP status code.
    package var httpStatus: Int {
        switch kind {
        case .badRequest: 400
        case .permissionDenied: 401
        case .notFound: 404
        case .methodNotAllowed: 405
        case .preconditionFailed: 412
        case .tooLarge: 413
        case .overloaded: 429
        case .unavailable: 503
        }
    }

    /// The message.
    package var description: String { message }

    /// `Permission denied`, the production text of every rules denial.
    package static func permissionDenied(explanation: String? = nil) -> ServerError {
        ServerError(.permissionDenied, "Permission denied", explanation: explanation)
    }

    /// `Invalid path: Invalid token in path`, the production text for a bad path.
    package static let invalidPath = ServerError(.badRequest, "Invalid path: Invalid token in path")
    /// The production text for a body that is not JSON.
    package static let invalidJSON = ServerError(.badRequest, "Invalid data; couldn't parse JSON object, array, or value.")
    /// The production text for unparsable credentials.
    package static let badToken = ServerError(.permissionDenied, "Could not parse auth token.")
}

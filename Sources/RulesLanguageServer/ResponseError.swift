import RulesSyntax

/// A JSON-RPC error answer: a code and a message.
package struct ResponseError: Error, Sendable, Equatable {
    package var code: Int
    package var message: String

    package init(_ code: Int, _ message: String) {
        self.code = code
        self.message = message
    }

    static let parseError = -32700
    static let invalidRequest = -32600
    static let methodNotFound = -32601
    static let invalidParams = -32602
    static let serverNotInitialized = -32002
    static let requestCancelled = -32800

    var json: JSONText { .object([("code", .int(code)), ("message", .string(message))]) }
}

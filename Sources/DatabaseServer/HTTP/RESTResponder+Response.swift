import DatabaseRules
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Answers: JSON bodies, common and CORS headers, errors with their explanation header, the preflight.
extension RESTResponder {
    static let methodOverride = HTTPField.Name("X-HTTP-Method-Override")!
    static let firebaseETag = HTTPField.Name("X-Firebase-ETag")!
    static let ifMatch = HTTPField.Name("if-match")!
    static let ifNoneMatch = HTTPField.Name("if-none-match")!
    static let explanationHeader = HTTPField.Name("X-Rules-Explanation")!

    static func commonHeaders(etag: String? = nil) -> HTTPFields {
        var headers = HTTPFields()
        headers[.cacheControl] = "no-cache"
        headers[.accessControlAllowOrigin] = "*"
        if let etag { headers[.eTag] = etag }
        return headers
    }

    static func bodyText(_ text: String) -> ResponseBody {
        ResponseBody(byteBuffer: ByteBuffer(string: text))
    }

    static func json(_ text: String, status: HTTPResponse.Status = .ok, headers extra: HTTPFields = HTTPFields()) -> Response {
        var headers = commonHeaders()
        headers[.contentType] = "application/json; charset=utf-8"
        headers.append(contentsOf: extra)
        return Response(status: status, headers: headers, body: bodyText(text))
    }

    static func json(_ text: String, headers: HTTPFields) -> Response { json(text, status: .ok, headers: headers) }

    static func silent(_ extra: HTTPFields) -> Response {
        var headers = commonHeaders()
        headers.append(contentsOf: extra)
        return Response(status: .noContent, headers: headers)
    }

    static func errorResponse(_ error: ServerError) -> Response {
        var headers = HTTPFields()
        if let explanation = error.explanation {
            headers[explanationHeader] = String(explanation.unicodeScalars.map { $0.value < 0x20 || $0.value > 0x7E ? "?" : Character($0) }.prefix(2000))
        }
        if error.kind == .unavailable || error.kind == .overloaded { headers[.retryAfter] = "1" }
        return json(PrettyJSON.format(#"{"error":"# + JSONText.quote(error.message) + "}"), status: HTTPResponse.Status(code: error.httpStatus), headers: headers)
    }

    static func preflight() -> Response {
        var headers = commonHeaders()
        headers[.accessControlAllowMethods] = "GET, PUT, POST, PATCH, DELETE, OPTIONS"
        headers[.accessControlAllowHeaders] = "Authorization, Content-Type, X-Firebase-ETag, if-match, if-none-match, X-HTTP-Method-Override"
        headers[.accessControlExposeHeaders] = "ETag, X-Rules-Explanation"
        return Response(status: .noContent, headers: headers)
    }
}

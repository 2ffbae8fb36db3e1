import DatabaseRules
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Request bodies: read within the limits and the in-flight budget, parsed as data.
extension RESTResponder {
    /// A request's body, at most `limit` bytes (else 413). Within the server, the body's bytes
    /// are first reserved from the total in flight (``BodyBudget``): its `Content-Length` at
    /// once, or each piece as it arrives; when the budget is spent the request gets 503 and the
    /// body is not buffered.
    static func bodyBytes(_ request: Request, limit: Int, lease: BodyBudget.Lease) async throws(ServerError) -> [UInt8] {
        let tooLarge = ServerError(.tooLarge, "Request body too large: the limit is \(limit) bytes.")
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }) {
            guard declared <= limit else { throw tooLarge }
            try lease.reserve(declared)
            do {
                let buffer = try await request.body.collect(upTo: declared)
                return Array(buffer.readableBytesView)
            } catch {
                throw tooLarge
            }
        }
        var bytes: [UInt8] = []
        do {
            for try await piece in request.body {
                guard bytes.count + piece.readableBytes <= limit else { throw tooLarge }
                try lease.reserve(piece.readableBytes)
                bytes.append(contentsOf: piece.readableBytesView)
            }
        } catch let error as ServerError {
            throw error
        } catch {
            throw tooLarge
        }
        return bytes
    }

    static func body(_ request: Request, at path: DataPath, limit: Int, lease: BodyBudget.Lease) async throws(ServerError) -> DataInput {
        try parse(try await bodyBytes(request, limit: limit, lease: lease), at: path)
    }

    static func parse(_ bytes: [UInt8], at path: DataPath) throws(ServerError) -> DataInput {
        if bytes.isEmpty { throw ServerError(.badRequest, "Error: No data supplied.") }
        do {
            return try DataInputReader.read(bytes: bytes, at: path)
        } catch {
            if error.path == nil {
                throw ServerError(.badRequest, "Invalid data; couldn't parse JSON object, array, or value.", explanation: error.message)
            }
            throw ServerError(.badRequest, "Invalid data: \(error.message)")
        }
    }
}

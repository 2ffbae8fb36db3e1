import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A raw HTTP/1.1 client on a loopback socket, for tests that must send what real clients
/// send (any `Host`, any header, a half-sent head) to a started server.
struct LoopbackClient {
    let fd: Int32

    /// Connects to 127.0.0.1:`port`.
    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure("socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            _ = Glibc.close(fd)
            throw Failure("connect")
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ what: String) { description = "\(what) failed: errno \(errno)" }
    }

    /// Sends bytes (stopping quietly if the server closed the connection).
    func send(_ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            sent += n
        }
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    /// Stops sending (the server sees the end of the request).
    func finishSending() { shutdown(fd, Int32(SHUT_WR)) }

    /// Reads until the server closes the connection (or the read times out).
    func readAll() -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            bytes.append(contentsOf: buffer[..<n])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads until the answer holds `marker` (or the connection ends).
    func read(until marker: String) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !String(decoding: bytes, as: UTF8.self).contains(marker) {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            bytes.append(contentsOf: buffer[..<n])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    func close() { _ = Glibc.close(fd) }

    /// One request on a new connection: the whole answer (the request asks to close).
    static func exchange(port: Int, _ request: String) throws -> String {
        let client = try LoopbackClient(port: port)
        defer { client.close() }
        client.send(request)
        return client.readAll()
    }
}

/// An answer's status code and headers (names lowercased).
struct RawResponse {
    let status: Int
    let headers: [String: String]
    let body: String

    init(_ text: String) {
        let parts = text.components(separatedBy: "\r\n\r\n")
        let lines = (parts.first ?? "").components(separatedBy: "\r\n")
        status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        self.headers = headers
        body = parts.dropFirst().joined(separator: "\r\n\r\n")
    }
}

import Foundation

/// Reads a file or a stream up to a limit, so that an endless or huge input (`- </dev/zero`, a
/// multi-gigabyte file) costs at most the limit in memory and time, never a crash or a hang.
enum BoundedInput {
    /// What was read.
    struct Read {
        /// The bytes read: all of them, or the first `limit` when there were more.
        var bytes: [UInt8]
        /// Whether the input holds more than `limit` bytes.
        var overLimit: Bool
        /// The input's size when it is known (a regular file), else nil.
        var size: Int?
    }

    /// Why an input cannot be read.
    struct Failure: Error {
        var reason: String
    }

    /// Reads at most `limit` bytes of the file at `path` (noting whether there are more).
    static func read(path: String, limit: Int) throws(Failure) -> Read {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw Failure(reason: errno == ENOENT ? "no such file" : "cannot read the file")
        }
        defer { close(fd) }
        var info = stat()
        let isRegular = fstat(fd, &info) == 0 && (UInt32(info.st_mode) & UInt32(S_IFMT)) == UInt32(S_IFREG)
        let regularSize = isRegular ? Int(info.st_size) : nil
        return try read(descriptor: fd, limit: limit, size: regularSize)
    }

    /// Reads at most `limit` bytes of an open descriptor (standard input: 0).
    static func read(descriptor fd: Int32, limit: Int, size: Int? = nil) throws(Failure) -> Read {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(limit + 1, size.map { $0 + 1 } ?? 64 * 1024))
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        // One byte past the limit tells whether there is more, without reading the rest.
        while bytes.count <= limit {
            let wanted = min(chunk.count, limit + 1 - bytes.count)
            let n = chunk.withUnsafeMutableBytes { readDescriptor(fd, $0.baseAddress, wanted) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(reason: "cannot read the file")
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[..<n])
        }
        let overLimit = bytes.count > limit
        if overLimit { bytes.removeLast(bytes.count - limit) }
        return Read(bytes: bytes, overLimit: overLimit, size: size)
    }
}

/// `read(2)` (named apart from ``BoundedInput/read(descriptor:limit:size:)``).
private func readDescriptor(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}

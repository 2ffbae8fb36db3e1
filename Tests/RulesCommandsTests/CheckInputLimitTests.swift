import Foundation
import RulesTestSupport
import Testing

@testable import RulesCommands
@testable import RulesCompiler
@testable import RulesSyntax

/// `rules check` reads at most the rules-file limit (10 MB) of any input, a pipe or a file:
/// more is the `rules-file-too-large` error, and the rest is never read.
@Suite struct CheckInputLimitTests {
    static let limit = RulesFileLimits.maxBytes

    @Test func aPipeLargerThanTheLimitIsTooLargeAndNotReadToTheEnd() throws {
        let pipe = Pipe()
        let total = Self.limit + 1024 * 1024
        let handle = pipe.fileHandleForWriting
        let writer = Thread {
            let chunk = Data(repeating: UInt8(ascii: " "), count: 64 * 1024)
            var sent = 0
            while sent < total {
                handle.write(chunk)
                sent += chunk.count
            }
            try? handle.close()
        }
        writer.start()
        let result = CheckCommand.check(descriptor: pipe.fileHandleForReading.fileDescriptor, named: "<stdin>", lints: nil)
        // The checker stopped at the limit; what it left in the pipe is still there to drain.
        var left = 0
        while true {
            let data = pipe.fileHandleForReading.availableData
            if data.isEmpty { break }
            left += data.count
        }
        #expect(left == total - Self.limit - 1)
        #expect(result.readError == nil)
        #expect(result.diagnostics.map(\.code) == [.rulesFileTooLarge])
        #expect(result.diagnostics.first?.message == "The rules file is too large (more than \(Self.limit) bytes; the limit is \(Self.limit)).")
        #expect(result.diagnostics.first?.severity == .error)
    }

    @Test func anEndlessDeviceIsTooLarge() {
        let result = CheckCommand.check("/dev/zero", lints: nil)
        #expect(result.diagnostics.map(\.code) == [.rulesFileTooLarge])
        #expect(result.diagnostics.first?.message.contains("more than \(Self.limit) bytes") == true)
    }

    @Test func aFileLargerThanTheLimitIsTooLargeWithItsSize() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("big.rules.json").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(Self.limit + 5))
        try handle.close()
        let result = CheckCommand.check(path, lints: nil)
        #expect(result.diagnostics.map(\.code) == [.rulesFileTooLarge])
        #expect(result.diagnostics.first?.message == "The rules file is too large (\(Self.limit + 5) bytes; the limit is \(Self.limit)).")
    }

    @Test func inputsWithinTheLimitAreCheckedAsBefore() throws {
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data(#"{"rules": {".read": "auth != nul"}}"#.utf8))
        try pipe.fileHandleForWriting.close()
        let result = CheckCommand.check(descriptor: pipe.fileHandleForReading.fileDescriptor, named: "<stdin>", lints: nil)
        #expect(result.readError == nil)
        #expect(result.diagnostics.contains { $0.code == "unknown-variable" })
        let hundred = try Self.pipe(bytes: 100), hundredAndOne = try Self.pipe(bytes: 101)
        let exact = try BoundedInput.read(descriptor: hundred.fileHandleForReading.fileDescriptor, limit: 100)
        #expect(exact.bytes.count == 100 && !exact.overLimit)
        let over = try BoundedInput.read(descriptor: hundredAndOne.fileHandleForReading.fileDescriptor, limit: 100)
        #expect(over.bytes.count == 100 && over.overLimit)
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        #expect(CheckCommand.check(dir.file("missing.json").path, lints: nil).readError == "no such file")
        #expect(CheckCommand.check(dir.path, lints: nil).readError == "cannot read the file")
    }

    /// A pipe that holds `bytes` bytes, its writing end closed.
    static func pipe(bytes: Int) throws -> Pipe {
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data(repeating: 0x20, count: bytes))
        try pipe.fileHandleForWriting.close()
        return pipe
    }

    @Test(RulesBinary.required)
    func binaryReportsStandardInputOverTheLimit() throws {
        // One byte over: the whole input is in the pipe before the checker can stop reading.
        let run = try RulesBinary.run(["check", "-", "--color", "never"], input: String(repeating: " ", count: Self.limit + 1))
        #expect(run.status == 1)
        #expect(run.output.contains("error: The rules file is too large (more than \(Self.limit) bytes; the limit is \(Self.limit)). [rules-file-too-large]"), "\(run.output)")
    }
}

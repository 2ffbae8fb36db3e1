import Synchronization
import Testing

@testable import DatabaseServer
@testable import RulesCommands

/// What `rules serve --import` prints as it goes, on a clock of the test's own: nothing for a
/// file read within a second, then a line at most every second, and a last line with the leaves.
@Suite struct ImportProgressPrinterTests {
    /// The lines a printer writes for these reports.
    static func lines(_ reports: [ImportProgress]) -> [String] {
        let written = Mutex<[String]>([])
        let printer = ImportProgressPrinter(quietSeconds: 1, intervalSeconds: 1) { line in written.withLock { $0.append(line) } }
        for report in reports { printer.report(report) }
        return written.withLock { $0 }
    }

    static func reading(_ bytes: Int, at seconds: Double, file: String = "demo.json") -> ImportProgress {
        ImportProgress(file: file, bytesRead: bytes, totalBytes: 300_000_000, seconds: seconds, leaves: nil)
    }

    static func done(at seconds: Double, file: String = "demo.json") -> ImportProgress {
        ImportProgress(file: file, bytesRead: 300_000_000, totalBytes: 300_000_000, seconds: seconds, leaves: 4_200_000)
    }

    @Test func aQuickImportPrintsNothing() {
        #expect(Self.lines([Self.reading(100_000_000, at: 0.3), Self.reading(300_000_000, at: 0.9), Self.done(at: 0.95)]).isEmpty)
    }

    @Test func aLongImportPrintsAtMostALineASecondAndTheLeavesAtTheEnd() {
        let lines = Self.lines([
            Self.reading(10_000_000, at: 0.5), Self.reading(60_000_000, at: 1.2), Self.reading(90_000_000, at: 1.7),
            Self.reading(120_000_000, at: 2.3), Self.done(at: 6.1),
        ])
        #expect(lines == [
            "rules serve: importing demo.json: 60 MB of 300 MB (20 %)\n",
            "rules serve: importing demo.json: 120 MB of 300 MB (40 %)\n",
            "rules serve: imported demo.json: 300 MB, 4200000 leaves in 6.1 s\n",
        ])
    }

    @Test func aFileThatEndsPastTheQuietTimeIsReportedDoneEvenWithoutProgress() {
        #expect(Self.lines([Self.reading(5_000_000, at: 0.2), Self.done(at: 1.4)])
            == ["rules serve: imported demo.json: 300 MB, 4200000 leaves in 1.4 s\n"])
    }

    @Test func smallSizesHaveADecimal() {
        #expect(ImportProgressPrinter.size(2_345_678) == "2.3 MB")
        #expect(ImportProgressPrinter.size(15_600_000) == "16 MB")
    }
}

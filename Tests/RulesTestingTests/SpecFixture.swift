import RulesTestSupport
import Foundation
import RulesTesting

/// Writes spec and rules files into a fresh temporary directory and runs `rules test` on them.
enum SpecFixture {
    /// A fixed clock for runs, so results never depend on the wall clock.
    static let now: Double = 1_700_000_000_000

    /// A new empty directory (removed with the test process's temporary files).
    static func directory() throws -> URL {
        try TestTemporaryFiles.directory(prefix: "rules-testing")
    }

    /// Writes files (name → text) into a new directory and returns it.
    static func write(_ files: [String: String]) throws -> URL {
        let dir = try directory()
        for (name, text) in files {
            let url = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return dir
    }

    /// Writes the files and runs the command on `paths` (relative to the directory; all files
    /// when empty), with times hidden and the fixed clock.
    static func run(_ files: [String: String], paths: [String] = [], configure: (inout TestCLIOptions, URL) -> Void = { _, _ in }) throws -> (output: TestCLIOutput, dir: URL) {
        let dir = try write(files)
        let targets = paths.isEmpty ? [dir.path] : paths.map { dir.appendingPathComponent($0).path }
        var options = TestCLIOptions(paths: targets)
        options.showTimes = false
        options.startTime = now
        configure(&options, dir)
        return (TestCLI.run(options), dir)
    }

    /// Loads one spec file's text (YAML unless the name ends in `.json`).
    static func load(_ text: String, name: String = "spec.test.yaml", extra: [String: String] = [:]) throws -> TestSpec {
        var files = extra
        files[name] = text
        let dir = try write(files)
        var loader = TestSpecLoader()
        return try loader.load(path: dir.appendingPathComponent(name).path)
    }
}

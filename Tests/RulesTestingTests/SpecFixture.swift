import RulesTestSupport
import Foundation
import RulesTesting

/// Writes spec and rules files into a fresh temporary directory and runs `rules test` on them;
/// every directory made here is removed by the test that asked for it.
enum SpecFixture {
    /// A fixed clock for runs, so results never depend on the wall clock.
    static let now: Double = 1_700_000_000_000

    /// Writes files (name → text) into a new temporary directory and returns it: remove it with
    /// `defer { dir.remove() }`.
    static func write(_ files: [String: String]) throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory(prefix: "rules-testing")
        do {
            try dir.write(files)
        } catch {
            dir.remove()
            throw error
        }
        return dir
    }

    /// Writes the files and runs the command on `paths` (relative to the directory; all files
    /// when empty), with times hidden and the fixed clock. The directory is kept for the caller
    /// to read what the run wrote: remove it with `defer { dir.remove() }`.
    static func run(_ files: [String: String], paths: [String] = [], configure: (inout TestCLIOptions, URL) -> Void = { _, _ in }) throws -> (output: TestCLIOutput, dir: TemporaryDirectory) {
        let dir = try write(files)
        let targets = paths.isEmpty ? [dir.path] : paths.map { dir.file($0).path }
        var options = TestCLIOptions(paths: targets)
        options.showTimes = false
        options.startTime = now
        configure(&options, dir.url)
        return (TestCLI.run(options), dir)
    }

    /// Like `run`, for a test that needs only the output: the directory is removed before it returns.
    static func output(_ files: [String: String], paths: [String] = [], configure: (inout TestCLIOptions, URL) -> Void = { _, _ in }) throws -> TestCLIOutput {
        let (output, dir) = try run(files, paths: paths, configure: configure)
        dir.remove()
        return output
    }

    /// Loads one spec file's text (YAML unless the name ends in `.json`).
    static func load(_ text: String, name: String = "spec.test.yaml", extra: [String: String] = [:]) throws -> TestSpec {
        var files = extra
        files[name] = text
        let dir = try write(files)
        defer { dir.remove() }
        var loader = TestSpecLoader()
        return try loader.load(path: dir.file(name).path)
    }
}

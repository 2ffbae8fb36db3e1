import ArgumentParser

/// `--watch` and `--watch-runs`, as `rules check` and `rules test` take them.
package struct WatchOptions: ParsableArguments {
    @Flag(help: "Run again on every save of a file the run read, showing what changed since the last run (Ctrl-C stops).")
    package var watch = false

    @Option(name: .customLong("watch-runs"), help: ArgumentHelp("With --watch, stop after this many runs.", valueName: "n"))
    package var watchRuns: Int?

    package init() {}

    package func validate() throws {
        if watchRuns != nil && !watch { throw ValidationError("--watch-runs needs --watch.") }
        if let watchRuns, watchRuns < 1 { throw ValidationError("--watch-runs must be 1 or more.") }
    }

    /// The loop that watches `paths`, for `--watch-runs` runs at most.
    func loop(paths: [String]) -> WatchLoop { WatchLoop(paths: paths, runs: watchRuns) }
}

/// `--config` and `--no-config`: which project configuration (`.database-rules.yaml`) applies.
package struct ConfigOptions: ParsableArguments {
    @Option(name: .customLong("config"), help: ArgumentHelp("Read the project configuration from this file instead of searching for .database-rules.yaml.", valueName: "file"))
    package var configPath: String?

    @Flag(name: .customLong("no-config"), help: "Do not read a project configuration file.")
    package var noConfig = false

    package init() {}

    package func validate() throws {
        if configPath != nil && noConfig { throw ValidationError("--config and --no-config cannot be used together.") }
    }

    /// The configuration in use: `--config`, else the one found upward from the working
    /// directory, unless `--no-config`; nil when there is none. Throws when it does not read.
    func load() throws -> ProjectConfiguration? {
        if noConfig { return nil }
        guard let path = configPath ?? ProjectConfiguration.discover() else { return nil }
        return try ProjectConfiguration.load(path)
    }
}

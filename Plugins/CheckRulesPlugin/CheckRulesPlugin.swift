import Foundation
import PackagePlugin

/// `swift package check-rules [ARGUMENTS...]`: runs `rules check` on the rules of the package it is
/// run in, from the package's directory.
///
/// With no path among the arguments, what is checked is found the way `rules check` finds it: the
/// project configuration (`.database-rules.yaml`) or `firebase.json` when the package directory has
/// one, else every `*rules.json` / `*rules.jsonc` file under the package directory (`.build` and
/// other dot-directories skipped). Every argument is passed to `rules check` as it is: options
/// (`--strict`, `--format sarif`, `--output-file rules.sarif`, ...) and paths alike.
///
/// The `rules` it runs is the one named by the environment variable `CHECK_RULES_TOOL` when that is
/// set (for example the binary of a release archive, or one already built), else this package's
/// `rules` product, built by SwiftPM in the calling package's build directory (the first time takes
/// minutes; later runs are incremental).
@main
struct CheckRulesPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try rulesTool(packageManager: packageManager)
        let directory = context.package.directoryURL
        let fileManager = FileManager.default
        var checkArguments = ["check"] + arguments
        if !Self.namesAPath(arguments) {
            let hasProjectFile = [".database-rules.yaml", "firebase.json"].contains {
                fileManager.fileExists(atPath: directory.appendingPathComponent($0).path)
            }
            if !hasProjectFile { checkArguments.append(".") }
        }

        let process = Process()
        process.executableURL = tool
        process.arguments = checkArguments
        process.currentDirectoryURL = directory
        try process.run()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let how = process.terminationReason == .exit ? "exit status \(process.terminationStatus)" : "signal \(process.terminationStatus)"
            Diagnostics.error("rules check found problems in \(context.package.displayName) (\(how))")
            throw CheckRulesError.checkFailed(status: process.terminationStatus)
        }
    }

    /// Whether the arguments name a file or directory (or `-`) to check: a word that is not an
    /// option and not an option's value.
    static func namesAPath(_ arguments: [String]) -> Bool {
        // `rules check`'s options that take a value.
        let withValue: Set<String> = [
            "--stdin-filename", "--max-warnings", "--output-file", "--report", "--format", "--color",
            "--disable", "--enable", "--baseline", "--config", "--source-root", "--witness-spec", "--docs-url",
        ]
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let word = arguments[index]
            if word == "--" { return index + 1 < arguments.endIndex }
            if word == "-" || !word.hasPrefix("-") { return true }
            if withValue.contains(word) { index += 1 }
            index += 1
        }
        return false
    }

    /// The `rules` executable: `CHECK_RULES_TOOL`, else this package's product, built now.
    func rulesTool(packageManager: PackageManager) throws -> URL {
        if let named = ProcessInfo.processInfo.environment["CHECK_RULES_TOOL"], !named.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: named) else {
                throw CheckRulesError.toolMissing(named)
            }
            return URL(fileURLWithPath: named)
        }
        Diagnostics.remark("Building the rules tool (the first time takes a few minutes; set CHECK_RULES_TOOL to use one already built)")
        // The build's log is shown as it goes (echoLogs), so a first build's progress can be followed.
        let result = try packageManager.build(.product("rules"), parameters: .init(configuration: .debug, logging: .concise, echoLogs: true))
        guard result.succeeded else { throw CheckRulesError.buildFailed }
        guard let built = result.builtArtifacts.first(where: { $0.kind == .executable && $0.url.lastPathComponent == "rules" }) else {
            throw CheckRulesError.buildFailed
        }
        return built.url
    }
}

enum CheckRulesError: Error, CustomStringConvertible {
    case toolMissing(String)
    case buildFailed
    case checkFailed(status: Int32)

    var description: String {
        switch self {
        case .toolMissing(let path):
            "CHECK_RULES_TOOL names \(path), which is not an executable file"
        case .buildFailed:
            "building the rules tool failed (its log is above)"
        case .checkFailed(let status):
            "rules check exited with status \(status)"
        }
    }
}

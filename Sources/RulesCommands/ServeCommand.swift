import ArgumentParser
import DatabaseServer
import Foundation

/// `rules serve`: a local Realtime Database server (a drop-in for the emulator) whose every
/// request is decided by the rules engine.
public struct ServeCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run a local Realtime Database server that decides every request with the rules.",
        discussion: """
            Without RULES_FILE, the rules are read from database.rules in ./firebase.json; \
            without either, every read and write is allowed (with a warning). The rules apply to \
            every namespace (?ns=NAME) unless a client uploads its own through \
            PUT /.settings/rules.json. The file is reloaded when it changes; rules that do not \
            compile are reported and the previous ones stay in force.
            Point clients at it with FIREBASE_DATABASE_EMULATOR_HOST=127.0.0.1:PORT.
            """
    )

    @Argument(help: "The rules file (default: database.rules in ./firebase.json).")
    public var rulesFile: String?

    @Option(help: "The port to listen on (0 picks a free port).")
    public var port: Int = 9000

    @Option(help: "The address to listen on (default 127.0.0.1 and ::1).")
    public var host: String?

    @Option(help: "The project id: requests without ?ns= use the namespace <project>-default-rtdb.")
    public var project: String?

    @Option(help: "Keep the data in this directory (durable storage).")
    public var data: String?

    @Option(name: .customLong("import"), help: "Load an emulator export (DIR/database_export/<ns>.json) at start.")
    public var importDirectory: String?

    @Option(name: .customLong("export-on-exit"), help: "Write an emulator export to this directory on exit.")
    public var exportOnExit: String?

    @Option(help: "Request log on standard error: text (denials and errors, with why), json (every request, one object a line) or quiet.")
    public var log: String = "text"

    @Option(name: .customLong("keep-alive"), help: "Seconds between keep-alive events on idle streaming (text/event-stream) responses.")
    public var keepAlive: Double = 30

    @Flag(inversion: .prefixedNo, help: "Send WebSocket clients the explanation of each denial as a security debug message (the JavaScript SDK prints it as FIREBASE: ... in the console).")
    public var explainDenials = true

    @Flag(inversion: .prefixedNo, help: "Count rule coverage for /.inspect/coverage.json (decided again in the background, off the request path).")
    public var coverage = true

    public init() {}

    public func run() async throws {
        if data != nil {
            Self.fail("--data is not available in this version: the server keeps its data in memory (use --import and --export-on-exit to carry it between runs).")
        }
        guard let format = RequestLogFormatOption(rawValue: log)?.format else {
            Self.fail("--log must be text, json or quiet; got '\(log)'")
        }
        guard (0...65535).contains(port) else { Self.fail("--port must be between 0 and 65535; got \(port)") }
        var configuration = ServerConfiguration()
        configuration.port = port
        if let host {
            configuration.host = host
            configuration.hostGiven = true
        }
        configuration.logFormat = format
        guard keepAlive >= 0.1, keepAlive <= 3600 else { Self.fail("--keep-alive must be between 0.1 and 3600 seconds; got \(keepAlive)") }
        configuration.limits.keepAliveSeconds = keepAlive
        configuration.coverage = coverage
        configuration.explainDenials = explainDenials
        if let project { configuration.defaultNamespace = "\(project)-default-rtdb" }
        var warning: String?
        if let rulesFile {
            configuration.rulesFile = rulesFile
        } else {
            switch FirebaseJSON.rulesFile(in: FileManager.default.currentDirectoryPath) {
            case .found(let path): configuration.rulesFile = path
            case .invalid(let message): Self.fail(message)
            case .absent:
                warning = "warning: no rules file given and no database.rules in ./firebase.json: every read and write is allowed."
            }
        }
        let server: RulesServer
        do {
            server = try RulesServer(configuration: configuration)
        } catch {
            Self.fail(error.description)
        }
        var imported: [String] = []
        if let importDirectory {
            do {
                imported = try server.importExport(from: importDirectory)
            } catch {
                Self.fail("--import: \(error)")
            }
        }
        let rulesText = configuration.rulesFile.map { "\($0), for every namespace (reloaded when it changes)" } ?? "open rules (everything allowed)"
        let namespace = configuration.defaultNamespace
        let host = configuration.host, hostGiven = configuration.hostGiven, startWarning = warning, importedNames = imported
        try await server.run { port in
            var banner = """
                rules serve: listening on http://\(host.contains(":") ? "[\(host)]" : host):\(port)\(hostGiven ? "" : " and http://[::1]:\(port)")
                  rules:             \(rulesText)
                  default namespace: \(namespace) (requests without ?ns=)
                  clients:           FIREBASE_DATABASE_EMULATOR_HOST=127.0.0.1:\(port)
                  denials:           logged here with the deciding rule; also in each response's X-Rules-Explanation header
                  page:              http://\(host.contains(":") ? "[\(host)]" : host):\(port)/ shows the data, the requests and why each was denied

                """
            if let startWarning { banner += startWarning + "\n" }
            if !importedNames.isEmpty { banner += "  imported:          \(importedNames.joined(separator: ", "))\n" }
            FileHandle.standardError.write(Data(banner.utf8))
        }
        if let exportOnExit {
            do {
                try server.export(to: exportOnExit, include: imported)
                FileHandle.standardError.write(Data("rules serve: exported to \(exportOnExit)/database_export\n".utf8))
            } catch {
                Self.fail("--export-on-exit: \(error)")
            }
        }
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("rules serve: error: \(message)\n".utf8))
        Foundation.exit(2)
    }
}

/// The values of `--log`.
enum RequestLogFormatOption: String {
    case text, json, quiet

    var format: RequestLog.Format {
        switch self {
        case .text: .text
        case .json: .json
        case .quiet: .quiet
        }
    }
}

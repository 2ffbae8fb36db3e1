import ArgumentParser
import DatabaseServer
import Foundation

/// `rules serve`: a local Realtime Database server (a drop-in for the emulator) whose every
/// request is decided by the rules engine.
package struct ServeCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
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
    package var rulesFile: String?

    @Option(help: "The port to listen on (0 picks a free port).")
    package var port: Int = 9000

    @Option(help: "The address to listen on (default 127.0.0.1 and ::1).")
    package var host: String?

    @Option(name: .customLong("allow-host"), help: ArgumentHelp(
        "A host name the server answers besides localhost and IP addresses (repeatable): requests whose Host header names another host are refused, against DNS rebinding.",
        valueName: "name"))
    package var allowHost: [String] = []

    @Option(help: "The project id: requests without ?ns= use the namespace <project>-default-rtdb.")
    package var project: String?

    @Option(help: ArgumentHelp(
        "Keep the data in this directory (durable storage): every write is on disk before it is acknowledged, and a restart restores every namespace and its uploaded rules.",
        valueName: "dir"))
    package var data: String?

    @Option(name: .customLong("import"), help: "Load an emulator export (DIR/database_export/<ns>.json) at start; a long import shows its progress.")
    package var importDirectory: String?

    @Option(name: .customLong("export-on-exit"), help: ArgumentHelp("Write an emulator export to this directory when the server stops (SIGINT or SIGTERM).", valueName: "dir"))
    package var exportOnExit: String?

    @Option(name: .customLong("export"), help: ArgumentHelp("Write an emulator export of the data (--data, --import) to this directory and exit without serving.", valueName: "dir"))
    package var exportNow: String?

    @Option(help: "Request log on standard error: text (denials and errors, with why), json (every request, one object a line) or quiet.")
    package var log: String = "text"

    @Option(name: .customLong("keep-alive"), help: "Seconds between keep-alive events on idle streaming (text/event-stream) responses.")
    package var keepAlive: Double = 30

    @Option(name: .customLong("idle-timeout"), help: ArgumentHelp("Seconds an HTTP connection may stay open with no request in progress.", valueName: "seconds"))
    package var idleTimeout: Double = 120

    @Option(name: .customLong("header-timeout"), help: ArgumentHelp("Seconds a connection may take to send a whole request head (from connecting, or from the first byte of a later request).", valueName: "seconds"))
    package var headerTimeout: Double = 10

    @Option(name: .customLong("long-poll-hold"), help: ArgumentHelp("Seconds a long-polling request (/.lp) is held open when there is nothing to send.", valueName: "seconds"))
    package var longPollHold: Double = 20

    @Option(name: .customLong("long-poll-idle"), help: ArgumentHelp("Seconds without a request after which a long-polling client is taken to be gone (its onDisconnect operations run).", valueName: "seconds"))
    package var longPollIdle: Double = 30

    @Option(name: .customLong("max-connections"), help: "Connections open at once; when full, the oldest connection with no request in progress is closed to make room.")
    package var maxConnections: Int = 4096

    @Option(name: .customLong("limit"), help: ArgumentHelp(
        "Set any of the server's limits, NAME=VALUE (repeatable): sizes in bytes, counts, seconds; every limit, its default and what a client sees past it are in docs/limits.md.",
        valueName: "name=value"))
    package var limit: [String] = []

    @Flag(inversion: .prefixedNo, help: "Send WebSocket clients the explanation of each denial as a security debug message (the JavaScript SDK prints it as FIREBASE: ... in the console).")
    package var explainDenials = true

    @Flag(inversion: .prefixedNo, help: "Count rule coverage for /.inspect/coverage.json (decided again in the background, off the request path).")
    package var coverage = true

    package init() {}

    package func run() async throws {
        guard let format = RequestLogFormatOption(rawValue: log)?.format else {
            throw Self.failure("--log must be text, json or quiet; got '\(log)'")
        }
        guard (0...65535).contains(port) else { throw Self.failure("--port must be between 0 and 65535; got \(port)") }
        var configuration = ServerConfiguration()
        configuration.port = port
        if let host {
            configuration.host = host
            configuration.hostGiven = true
        }
        for name in allowHost {
            guard !name.isEmpty, !name.contains(":"), !name.contains("/"), !name.contains(" ") else {
                throw Self.failure("--allow-host takes a host name without a port, such as myhost.local; got '\(name)'")
            }
        }
        configuration.allowedHosts = allowHost
        configuration.logFormat = format
        configuration.dataDirectory = data
        guard keepAlive >= 0.1, keepAlive <= 3600 else { throw Self.failure("--keep-alive must be between 0.1 and 3600 seconds; got \(keepAlive)") }
        configuration.limits.keepAliveSeconds = keepAlive
        guard idleTimeout >= 0.1, idleTimeout <= 86400 else { throw Self.failure("--idle-timeout must be between 0.1 and 86400 seconds; got \(idleTimeout)") }
        configuration.limits.idleTimeoutSeconds = idleTimeout
        guard headerTimeout >= 0.1, headerTimeout <= 3600 else { throw Self.failure("--header-timeout must be between 0.1 and 3600 seconds; got \(headerTimeout)") }
        configuration.limits.headerTimeoutSeconds = headerTimeout
        guard longPollHold >= 0.05, longPollHold <= 24 else { throw Self.failure("--long-poll-hold must be between 0.05 and 24 seconds (the SDK polls again after 25); got \(longPollHold)") }
        configuration.limits.longPollHoldSeconds = longPollHold
        guard longPollIdle >= 1, longPollIdle <= 3600, longPollIdle > longPollHold else {
            throw Self.failure("--long-poll-idle must be between 1 and 3600 seconds and longer than --long-poll-hold; got \(longPollIdle)")
        }
        configuration.limits.longPollIdleSeconds = longPollIdle
        guard maxConnections >= 1 else { throw Self.failure("--max-connections must be at least 1; got \(maxConnections)") }
        configuration.limits.maxConnections = maxConnections
        for assignment in limit {
            do { try configuration.limits.set(assignment) } catch { throw Self.failure(error.message) }
        }
        configuration.coverage = coverage
        configuration.explainDenials = explainDenials
        if let project { configuration.defaultNamespace = "\(project)-default-rtdb" }
        guard NamespaceName.isValid(configuration.defaultNamespace) else {
            throw Self.failure("--project: \(configuration.defaultNamespace) is not a namespace name: \(NamespaceName.rule)")
        }
        var warning: String?
        if let rulesFile {
            configuration.rulesFile = rulesFile
        } else {
            switch FirebaseJSON.rulesFile(in: FileManager.default.currentDirectoryPath) {
            case .found(let path): configuration.rulesFile = path
            case .invalid(let message): throw Self.failure(message)
            case .missing, .absent:
                warning = "warning: no rules file given and no database.rules in ./firebase.json: every read and write is allowed."
            }
        }
        let server: RulesServer
        do {
            server = try RulesServer(configuration: configuration)
        } catch {
            throw Self.failure(String(describing: error))
        }
        for warning in server.storageWarnings {
            FileHandle.standardError.write(Data("rules serve: warning: \(warning)\n".utf8))
        }
        var imported: [String] = []
        if let importDirectory {
            do {
                imported = try await server.importExport(from: importDirectory, progress: ImportProgressPrinter().report)
            } catch {
                throw Self.failure("--import: \(error)")
            }
        }
        if let exportNow {
            do {
                try server.export(to: exportNow, include: imported)
                FileHandle.standardError.write(Data("rules serve: exported to \(exportNow)/database_export\n".utf8))
                return
            } catch {
                throw Self.failure("--export: \(error)")
            }
        }
        // Namespaces restored from --data with rules uploaded to them run those, not the server's.
        let uploaded = server.registry.all.filter { $0.rules.origin == .uploaded }.map(\.name).sorted()
        let others = uploaded.isEmpty ? "every namespace" : "every other namespace"
        var rulesLine = configuration.rulesFile.map { "\($0), for \(others) (reloaded when it changes)" }
            ?? (uploaded.isEmpty ? "open rules (everything allowed)" : "open rules (everything allowed) for \(others)")
        if !uploaded.isEmpty {
            rulesLine += "\n  uploaded rules:    " + uploaded.joined(separator: ", ")
                + " (uploaded through /.settings/rules.json, restored from --data)"
        }
        let rulesText = rulesLine
        let namespace = configuration.defaultNamespace
        let host = configuration.host, hostGiven = configuration.hostGiven, startWarning = warning, importedNames = imported, dataDirectory = data
        let allowedHosts = allowHost
        do {
            try await server.run { port in
                var banner = """
                    rules serve: listening on http://\(host.contains(":") ? "[\(host)]" : host):\(port)\(hostGiven ? "" : " and http://[::1]:\(port)")
                      rules:             \(rulesText)
                      default namespace: \(namespace) (requests without ?ns=)
                      clients:           FIREBASE_DATABASE_EMULATOR_HOST=127.0.0.1:\(port)
                      denials:           logged here with the deciding rule; also in each response's X-Rules-Explanation header
                      page:              http://\(host.contains(":") ? "[\(host)]" : host):\(port)/ shows the data, the requests and why each was denied

                    """
                for line in AdministratorNotice(host: host, port: port, allowedHosts: allowedHosts).lines { banner += line + "\n" }
                if let startWarning { banner += startWarning + "\n" }
                if let dataDirectory { banner += "  data:              \(dataDirectory) (durable: each write is on disk before it is acknowledged)\n" }
                if !importedNames.isEmpty { banner += "  imported:          \(importedNames.joined(separator: ", "))\n" }
                FileHandle.standardError.write(Data(banner.utf8))
            }
        } catch let error as RulesServer.ListenError {
            FileHandle.standardError.write(Data("rules serve: \(error)\n".utf8))
            throw ExitCode(1)
        }
        if let exportOnExit {
            do {
                try server.export(to: exportOnExit, include: imported)
                FileHandle.standardError.write(Data("rules serve: exported to \(exportOnExit)/database_export\n".utf8))
            } catch {
                throw Self.failure("--export-on-exit: \(error)")
            }
        }
    }

    /// Says what stops the server on standard error; the exit status (2) to throw.
    static func failure(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("rules serve: error: \(message)\n".utf8))
        return ExitCode(2)
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

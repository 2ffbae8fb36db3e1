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

    // Limits with flags of their own: other spellings of `--limit NAME=VALUE`, with its checks
    // (``ServerLimits/settings``); unset, the limit keeps its default.

    @Option(name: .customLong("keep-alive"), help: ServeCommand.limitHelp("keep-alive", "Seconds between keep-alive events on idle streaming (text/event-stream) responses."))
    package var keepAlive: String?

    @Option(name: .customLong("idle-timeout"), help: ServeCommand.limitHelp("idle-timeout", "Seconds an HTTP connection may stay open with no request in progress."))
    package var idleTimeout: String?

    @Option(name: .customLong("header-timeout"), help: ServeCommand.limitHelp("header-timeout", "Seconds a connection may take to send a whole request head (from connecting, or from the first byte of a later request)."))
    package var headerTimeout: String?

    @Option(name: .customLong("long-poll-hold"), help: ServeCommand.limitHelp("long-poll-hold", "Seconds a long-polling request (/.lp) is held open when there is nothing to send."))
    package var longPollHold: String?

    @Option(name: .customLong("long-poll-idle"), help: ServeCommand.limitHelp("long-poll-idle", "Seconds without a request after which a long-polling client is taken to be gone (its onDisconnect operations run)."))
    package var longPollIdle: String?

    @Option(name: .customLong("max-connections"), help: ServeCommand.limitHelp("max-connections", "Connections open at once; when full, the oldest connection with no request in progress is closed to make room."))
    package var maxConnections: String?

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
        let (configuration, warning) = try serverConfiguration()
        let server: RulesServer
        do {
            server = try RulesServer(configuration: configuration)
        } catch {
            throw Self.failure(String(describing: error))
        }
        for warning in server.storageWarnings {
            FileHandle.standardError.write(Data("rules serve: warning: \(warning)\n".utf8))
        }
        let imported = try await importData(into: server)
        if let exportNow {
            try export(server, to: exportNow, include: imported, option: "--export")
            return
        }
        try await serve(server, configuration: configuration, warning: warning, imported: imported)
        if let exportOnExit { try export(server, to: exportOnExit, include: imported, option: "--export-on-exit") }
    }

    /// The server's configuration from the options, and the warning to show when no rules file
    /// was found.
    func serverConfiguration() throws -> (ServerConfiguration, warning: String?) {
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
        configuration.limits = try limits()
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
        return (configuration, warning)
    }

    /// The limits: the defaults, then each limit's own flag, then each `--limit`, every one
    /// through the same checks, and then the checks of limits together.
    func limits() throws -> ServerLimits {
        var limits = ServerLimits()
        let flags = [
            ("keep-alive", keepAlive), ("idle-timeout", idleTimeout), ("header-timeout", headerTimeout),
            ("long-poll-hold", longPollHold), ("long-poll-idle", longPollIdle), ("max-connections", maxConnections),
        ]
        do {
            for case let (name, value?) in flags { try limits.set(name, flag: value) }
            for assignment in limit { try limits.set(assignment) }
            try limits.check()
        } catch {
            throw Self.failure(error.message)
        }
        return limits
    }

    /// Loads `--import`, if given; the names of the namespaces it loaded.
    private func importData(into server: RulesServer) async throws -> [String] {
        guard let importDirectory else { return [] }
        do {
            return try await server.importExport(from: importDirectory, progress: ImportProgressPrinter().report)
        } catch {
            throw Self.failure("--import: \(error)")
        }
    }

    /// Writes an emulator export (`--export`, `--export-on-exit`).
    private func export(_ server: RulesServer, to directory: String, include imported: [String], option: String) throws {
        do {
            try server.export(to: directory, include: imported)
            FileHandle.standardError.write(Data("rules serve: exported to \(directory)/database_export\n".utf8))
        } catch {
            throw Self.failure("\(option): \(error)")
        }
    }

    /// Serves until SIGINT or SIGTERM, with the banner on standard error once it listens.
    private func serve(_ server: RulesServer, configuration: ServerConfiguration, warning: String?, imported: [String]) async throws {
        let banner = ServeBanner(
            rulesLine: Self.rulesLine(configuration.rulesFile, uploaded: server.registry.all.filter { $0.rules.origin == .uploaded }.map(\.name).sorted()),
            namespace: configuration.defaultNamespace, host: configuration.host, hostGiven: configuration.hostGiven,
            allowedHosts: allowHost, warning: warning, dataDirectory: data, imported: imported)
        do {
            try await server.run { port in FileHandle.standardError.write(Data(banner.text(port: port).utf8)) }
        } catch let error as RulesServer.ListenError {
            FileHandle.standardError.write(Data("rules serve: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }

    /// The banner's rules line: the file, or the open rules, and the namespaces restored from
    /// `--data` with rules uploaded to them (they run those, not the server's).
    static func rulesLine(_ rulesFile: String?, uploaded: [String]) -> String {
        let others = uploaded.isEmpty ? "every namespace" : "every other namespace"
        var line = rulesFile.map { "\($0), for \(others) (reloaded when it changes)" }
            ?? (uploaded.isEmpty ? "open rules (everything allowed)" : "open rules (everything allowed) for \(others)")
        if !uploaded.isEmpty {
            line += "\n  uploaded rules:    " + uploaded.joined(separator: ", ")
                + " (uploaded through /.settings/rules.json, restored from --data)"
        }
        return line
    }

    /// The help of a limit's own flag: what it is, and its default.
    static func limitHelp(_ name: String, _ abstract: String) -> ArgumentHelp {
        let value = ServerLimits.setting(name).map { $0.value(in: ServerLimits()) } ?? "?"
        return ArgumentHelp("\(abstract) Default \(value); the same as --limit \(name)=VALUE.", valueName: name == "max-connections" ? "n" : "seconds")
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

/// What `rules serve` prints once it listens.
struct ServeBanner: Sendable {
    var rulesLine: String
    var namespace: String
    var host: String
    var hostGiven: Bool
    var allowedHosts: [String]
    var warning: String?
    var dataDirectory: String?
    var imported: [String]

    func text(port: Int) -> String {
        let address = host.contains(":") ? "[\(host)]" : host
        var banner = """
            rules serve: listening on http://\(address):\(port)\(hostGiven ? "" : " and http://[::1]:\(port)")
              rules:             \(rulesLine)
              default namespace: \(namespace) (requests without ?ns=)
              clients:           FIREBASE_DATABASE_EMULATOR_HOST=127.0.0.1:\(port)
              denials:           logged here with the deciding rule; also in each response's X-Rules-Explanation header
              page:              http://\(address):\(port)/ shows the data, the requests and why each was denied

            """
        for line in AdministratorNotice(host: host, port: port, allowedHosts: allowedHosts).lines { banner += line + "\n" }
        if let warning { banner += warning + "\n" }
        if let dataDirectory { banner += "  data:              \(dataDirectory) (durable: each write is on disk before it is acknowledged)\n" }
        if !imported.isEmpty { banner += "  imported:          \(imported.joined(separator: ", "))\n" }
        return banner
    }
}

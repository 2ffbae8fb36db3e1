import DatabaseRules
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// `rules serve`: a local Realtime Database server whose every request is decided by the rules
/// engine. One database (``NamespaceRegistry``) behind thin transports (REST and streaming).
public final class RulesServer: Sendable {
    /// The configuration it was started with.
    public let configuration: ServerConfiguration
    /// The namespaces.
    public let registry: NamespaceRegistry
    /// Recent requests.
    public let log: RequestLog
    /// Rule coverage since start (nil when off).
    public let coverage: CoverageRecorder?
    /// Durable storage (`--data`; nil: in memory).
    public let store: DurableStore?
    /// What opening durable storage had to say (uploaded rules that no longer compile).
    public let storageWarnings: [String]
    private let rulesStamp: Mutex<FileStamp?>

    /// Prepares a server: compiles the rules file (throwing its diagnostics, a ``RulesError``,
    /// when it does not compile) and, with a data directory, opens durable storage and restores
    /// what it holds (throwing a ``DurableStore/StoreError``). Nothing listens until
    /// ``run(onReady:)``.
    public init(configuration: ServerConfiguration) throws {
        MallocArenas.limitToCores()
        self.configuration = configuration
        let rules: NamespaceRules
        if let file = configuration.rulesFile {
            rules = try Self.load(file)
        } else {
            rules = .open
        }
        coverage = configuration.coverage ? CoverageRecorder() : nil
        if let directory = configuration.dataDirectory {
            let (store, contents) = try DurableStore.open(directory: directory, compactionBytes: configuration.limits.compactionBytes)
            self.store = store
            registry = NamespaceRegistry(defaultName: configuration.defaultNamespace, rules: rules, coverage: coverage, store: store)
            storageWarnings = registry.restore(contents)
        } else {
            store = nil
            storageWarnings = []
            registry = NamespaceRegistry(defaultName: configuration.defaultNamespace, rules: rules, coverage: coverage)
        }
        log = RequestLog(capacity: configuration.requestLogCapacity, format: configuration.logFormat)
        rulesStamp = Mutex(configuration.rulesFile.flatMap(FileStamp.init(path:)))
    }

    /// Loads an emulator export (`DIR/database_export/<namespace>.json`) into the namespaces,
    /// before the server listens. Returns the namespaces loaded.
    @discardableResult
    public func importExport(from directory: String) async throws -> [String] {
        let loaded = try EmulatorExport.read(directory)
        for (name, database) in loaded {
            registry.namespace(name).load(database)
        }
        try await store?.flush()
        return loaded.map(\.namespace)
    }

    /// Writes every namespace that holds data (and every one named in `include`) in the emulator's
    /// export layout.
    public func export(to directory: String, include: [String] = []) throws {
        let namespaces = registry.all.filter { $0.database.root != nil || include.contains($0.name) }
        try EmulatorExport.write(namespaces.map { ($0.name, $0.database) }, to: directory)
    }

    /// Compiles a rules file into namespace rules.
    static func load(_ path: String) throws(RulesError) -> NamespaceRules {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RulesError(file: nil, diagnostics: [], message: "\(path): cannot read the rules file")
        }
        let source = String(decoding: data, as: UTF8.self)
        let ruleset = try Ruleset(source: source, path: path)
        return NamespaceRules(ruleset: ruleset, source: source, origin: .file(path))
    }

    /// Listens until the task is cancelled or the process gets SIGINT or SIGTERM. `onReady`
    /// gets the port once connections are accepted.
    public func run(onReady: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
        let logger = {
            var logger = Logger(label: "rules-serve")
            logger.logLevel = .critical
            return logger
        }()
        let responder = RESTResponder(registry: registry, log: log, limits: configuration.limits)
        let ports = AsyncStream<Int>.makeStream()
        let server = httpServer()
        let connections = MaximumAvailableConnections(Self.connectionLimit(configuration.limits.maxConnections))
        let primary = Application(
            responder: responder,
            server: server,
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port), serverName: nil, backlog: Self.backlog,
                availableConnectionsDelegate: connections),
            onServerRunning: { channel in
                ports.continuation.yield(channel.localAddress?.port ?? 0)
                ports.continuation.finish()
            },
            logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                let serviceGroup = ServiceGroup(
                    configuration: ServiceGroupConfiguration(services: [.init(service: primary)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
                try await serviceGroup.run()
            }
            var port = 0
            for await p in ports.stream { port = p }
            if !configuration.hostGiven, configuration.host == "127.0.0.1", port > 0 {
                // Also ::1, for clients that resolve localhost to IPv6; ignored where it fails.
                let secondary = Application(
                    responder: responder,
                    server: server,
                    configuration: ApplicationConfiguration(
                        address: .hostname("::1", port: port), serverName: nil, backlog: Self.backlog,
                        availableConnectionsDelegate: connections),
                    logger: logger)
                group.addTask {
                    let serviceGroup = ServiceGroup(
                        configuration: ServiceGroupConfiguration(services: [.init(service: secondary)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
                    try? await serviceGroup.run()
                }
            }
            if configuration.rulesFile != nil {
                group.addTask { [self] in await watchRules() }
            }
            if let coverage {
                group.addTask { await coverage.run() }
            }
            onReady(port)
            try await group.next()
            coverage?.stop()
            group.cancelAll()
        }
        // Every write committed before the listeners stopped is on disk before the process ends.
        await store?.close()
    }

    /// The length of the kernel's queue of connections not yet accepted (the system's
    /// `net.core.somaxconn` caps it): long enough that a burst of connections waits instead of
    /// having its handshakes dropped.
    static let backlog = 4096

    /// The connections the server may hold: `wanted`, within the process's file descriptor
    /// limit (raised to its hard limit first, as servers do), keeping 128 descriptors for files.
    static func connectionLimit(_ wanted: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return wanted }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        let available = Int(clamping: limit.rlim_cur) - 128
        if wanted > available {
            say("rules serve: warning: --max-connections \(wanted) is over what the file descriptor limit allows; using \(max(available, 1))")
        }
        return max(1, min(wanted, available))
    }

    /// HTTP/1.1 with the upgrade to the SDKs' WebSocket protocol at `/.ws`.
    private func httpServer() -> HTTPServerBuilder {
        let registry = registry, log = log, limits = configuration.limits, explain = configuration.explainDenials
        let sessions = SessionCounter()
        let ws = WebSocketServerConfiguration(maxFrameSize: limits.maxWireFrameBytes, autoPing: .enabled(timePeriod: .seconds(30)))
        let idle = TimeAmount.milliseconds(Int64(limits.idleTimeoutSeconds * 1000))
        let http1 = HTTP1Channel.Configuration(
            additionalChannelHandlers: [MalformedRequestHandler()], idleTimeout: idle)
        let shouldUpgrade: @Sendable (HTTPRequest, any Channel, Logger) async throws -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>> = { request, channel, _ in
            guard let target = request.path, target == "/.ws" || target.hasPrefix("/.ws?") else { return .dontUpgrade }
            let parsed = try? RequestTarget(target)
            guard let name = try? registry.name(parsed?.parameter("ns")) else { return .dontUpgrade }
            let host = request.authority ?? "127.0.0.1"
            let session = "rules-serve-\(sessions.next())"
            let connection = WireConnection(
                namespace: registry.namespace(forReading: name), registry: registry, log: log, limits: limits, host: host, session: session, explainDenials: explain,
                channel: channel)
            return .upgrade([:]) { inbound, outbound, _ in
                await connection.run(inbound: inbound, outbound: outbound)
            }
        }
        return HTTPServerBuilder { responder in
            GuardedChildChannel(
                inner: HTTP1WebSocketUpgradeChannel(responder: responder, configuration: .init(http1: http1, ws: ws), shouldUpgrade: shouldUpgrade),
                timeout: idle)
        }
    }

    /// Polls the rules file; when it changes, compiles it and installs it, or keeps the old
    /// rules and prints the diagnostics.
    private func watchRules() async {
        guard let path = configuration.rulesFile else { return }
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(configuration.rulesPollSeconds))
            let stamp = FileStamp(path: path)
            let changed = rulesStamp.withLock { old -> Bool in
                if old == stamp { return false }
                old = stamp
                return true
            }
            guard changed, stamp != nil else { continue }
            reloadRules()
        }
    }

    /// Compiles the rules file again and installs it (namespaces on uploaded rules keep them).
    /// Returns the diagnostics text when it does not compile.
    @discardableResult
    public func reloadRules() -> String? {
        guard let path = configuration.rulesFile else { return nil }
        do {
            let rules = try Self.load(path)
            let switched = registry.replaceDefaultRules(rules)
            Self.say("rules reloaded from \(path)" + (switched.isEmpty ? "" : " (namespaces: \(switched.joined(separator: ", ")))"))
            return nil
        } catch {
            let text = error.description
            Self.say("rules in \(path) do not compile; the previous rules stay in force:\n\(text)")
            return text
        }
    }

    /// Writes a line to standard error.
    static func say(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}

/// Numbers WebSocket sessions.
final class SessionCounter: Sendable {
    private let count = Mutex(0)

    func next() -> Int {
        count.withLock { $0 += 1; return $0 }
    }
}

/// A file's modification time and size, to notice changes.
struct FileStamp: Equatable, Sendable {
    let modified: Date
    let size: Int

    init?(path: String) {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let modified = attributes[.modificationDate] as? Date,
              let size = attributes[.size] as? Int
        else { return nil }
        self.modified = modified
        self.size = size
    }
}

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
/// engine. One database (``NamespaceRegistry``) behind thin transports (REST and streaming,
/// WebSocket, long polling).
package final class RulesServer: Sendable {
    /// The configuration it was started with.
    package let configuration: ServerConfiguration
    /// The namespaces.
    package let registry: NamespaceRegistry
    /// Recent requests.
    package let log: RequestLog
    /// Rule coverage since start (nil when off).
    package let coverage: CoverageRecorder?
    /// Durable storage (`--data`; nil: in memory).
    package let store: DurableStore?
    /// What opening durable storage had to say (uploaded rules that no longer compile).
    package let storageWarnings: [String]
    /// The bytes of request bodies held at once, across connections.
    package let bodies: BodyBudget
    /// The bytes waiting for every slow reader together.
    let pending: QueueBudget.Shared
    /// The bytes of query listens and of onDisconnect operations every realtime session holds.
    let wireTotals: WireTotals
    /// Where the server's notices and its request log go (``ServerConfiguration/console``).
    let console: ServerConsole
    /// The long-polling sessions open.
    let longPolls: LongPollSessions
    /// Numbers the realtime sessions (WebSocket and long polling).
    private let sessionNumbers = SessionCounter()
    private let rulesStamp: Mutex<FileStamp?>

    /// Prepares a server: compiles the rules file (throwing its diagnostics, a ``RulesError``,
    /// when it does not compile) and, with a data directory, opens durable storage and restores
    /// what it holds (throwing a ``DurableStore/StoreError``). Nothing listens until
    /// ``run(onReady:)``.
    package init(configuration: ServerConfiguration) throws {
        MallocArenas.limitToCores()
        self.configuration = configuration
        let console = configuration.console
        self.console = console
        let rules: NamespaceRules
        if let file = configuration.rulesFile {
            rules = try Self.load(file)
        } else {
            rules = .open
        }
        coverage = configuration.coverage ? CoverageRecorder() : nil
        if let directory = configuration.dataDirectory {
            let (store, contents) = try DurableStore.open(directory: directory, compactionBytes: configuration.limits.compactionBytes, console: console)
            self.store = store
            registry = NamespaceRegistry(defaultName: configuration.defaultNamespace, rules: rules, coverage: coverage, store: store)
            storageWarnings = registry.restore(contents)
        } else {
            store = nil
            storageWarnings = []
            registry = NamespaceRegistry(defaultName: configuration.defaultNamespace, rules: rules, coverage: coverage)
        }
        log = RequestLog(capacity: configuration.requestLogCapacity, format: configuration.logFormat, console: console)
        rulesStamp = Mutex(configuration.rulesFile.flatMap(FileStamp.init(path:)))
        bodies = BodyBudget(total: max(configuration.limits.maxBodyBytesInFlight, configuration.limits.maxBodyBytes))
        longPolls = LongPollSessions(limits: configuration.limits, console: console, bodies: bodies)
        pending = QueueBudget.Shared(total: configuration.limits.maxQueuedBytesTotal)
        wireTotals = WireTotals(configuration.limits)
    }

    /// Loads an emulator export (`DIR/database_export/<namespace>.json`) into the namespaces,
    /// before the server listens. Returns the namespaces loaded.
    ///
    /// Every file is read before anything is loaded: one that cannot be read loads nothing. With
    /// durable storage, the namespaces' new data is queued for the disk together, so it is stored
    /// in one transaction: after a crash, storage holds either all of the import or none of it.
    /// `progress` hears how the reading goes (see ``EmulatorExport/read(_:chunkSize:progress:)``).
    @discardableResult
    package func importExport(from directory: String, progress: @escaping (ImportProgress) -> Void = { _ in }) async throws -> [String] {
        let loaded = try EmulatorExport.read(directory, progress: progress)
        let namespaces = loaded.map { (registry.namespace($0.namespace), $0.database) }
        if let store {
            _ = store.append(contentsOf: namespaces.map { namespace, database in
                .write(namespace: namespace.name, entries: [([], database.root)], root: database.root)
            })
        }
        for (namespace, database) in namespaces {
            namespace.load(database, stored: store != nil)
        }
        try await store?.flush()
        return loaded.map(\.namespace)
    }

    /// Writes every namespace that holds data (and every one named in `include`) in the emulator's
    /// export layout.
    package func export(to directory: String, include: [String] = []) throws {
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
    /// gets the port once connections are accepted. Throws ``ListenError`` when the address
    /// cannot be listened on (in use, not this machine's).
    ///
    /// One service group owns every long-lived task (the listeners, the rules watcher, the
    /// coverage worker) and the signal handlers. On SIGINT or SIGTERM, each listener stops
    /// accepting, closes its streams and WebSocket connections at once and idle connections,
    /// and lets requests in progress finish (within ``shutdownGraceMilliseconds``); then durable
    /// storage is flushed and closed.
    package func run(onReady: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
        let logger = {
            var logger = Logger(label: "rules-serve")
            logger.logLevel = .critical
            return logger
        }()
        let limits = configuration.limits
        let hosts = HostPolicy(allowedNames: configuration.allowedHosts)
        let responder = EdgeResponder(
            inner: RESTResponder(registry: registry, log: log, limits: limits, bodies: bodies, pending: pending, hosts: hosts),
            longPoll: LongPollResponder(
                registry: registry, log: log, limits: limits, explainDenials: configuration.explainDenials, sessions: longPolls, counter: sessionNumbers,
                pending: pending, hosts: hosts, totals: wireTotals),
            hosts: hosts)
        let ports = AsyncStream<Int>.makeStream()
        let connectionLimit = Self.connectionLimit(limits.maxConnections, console: console)
        let table = ConnectionTable(limit: connectionLimit, perClient: limits.maxLongLivedPerClient)
        let server = httpServer(table: table)
        let connections = MaximumAvailableConnections(connectionLimit)
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
        let longPolls = longPolls
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: primary),
            .init(service: BackgroundTask { await longPolls.run() }, successTerminationBehavior: .ignore),
        ]
        if configuration.rulesFile != nil {
            services.append(.init(service: BackgroundTask { [self] in await watchRules() }, successTerminationBehavior: .ignore))
        }
        if let coverage {
            services.append(.init(service: BackgroundTask { await coverage.run() }, successTerminationBehavior: .ignore))
        }
        var groupConfiguration = ServiceGroupConfiguration(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        groupConfiguration.maximumGracefulShutdownDuration = .milliseconds(Self.shutdownGraceMilliseconds)
        let group = ServiceGroup(configuration: groupConfiguration)
        let address = configuration.host.contains(":") ? "[\(configuration.host)]:\(configuration.port)" : "\(configuration.host):\(configuration.port)"
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                defer { ports.continuation.finish() }
                try await group.run()
            }
            var port: Int?
            for await p in ports.stream { port = p }
            guard let port else {
                // The listener failed before it listened: its error, said plainly.
                do {
                    try await tasks.next()
                } catch {
                    throw ListenError(address: address, underlying: error)
                }
                throw ListenError(address: address, underlying: nil)
            }
            if !configuration.hostGiven, configuration.host == "127.0.0.1", port > 0 {
                // Also ::1, for clients that resolve localhost to IPv6; ignored where it fails.
                let secondary = Application(
                    responder: responder,
                    server: server,
                    configuration: ApplicationConfiguration(
                        address: .hostname("::1", port: port), serverName: nil, backlog: Self.backlog,
                        availableConnectionsDelegate: connections),
                    logger: logger)
                await group.addServiceUnlessShutdown(.init(service: secondary, successTerminationBehavior: .ignore, failureTerminationBehavior: .ignore))
            }
            onReady(port)
            try await tasks.next()
        }
        coverage?.stop()
        // Every write committed before the listeners stopped is on disk before the process ends.
        await store?.close()
    }

    /// Milliseconds requests in progress get to finish after SIGINT or SIGTERM before their
    /// tasks are cancelled (streams and WebSocket connections are closed at once; a stream's
    /// task ends at the cancellation). Cancellation is cooperative: a write being committed is
    /// committed, and one whose body is still arriving is not acknowledged.
    static let shutdownGraceMilliseconds: Int64 = 1500

    /// The address could not be listened on.
    package struct ListenError: Error, CustomStringConvertible {
        /// `host:port`.
        package let address: String
        /// What the system said.
        package let underlying: (any Error)?

        /// `cannot listen on 127.0.0.1:9000: address already in use`.
        package var description: String {
            "cannot listen on \(address): \(reason)"
        }

        /// The system's reason, in lower case (`address already in use`).
        var reason: String {
            guard let underlying else { return "the listener stopped before it started" }
            if let io = underlying as? IOError {
                return String(cString: strerror(io.errnoCode)).lowercased()
            }
            return String(describing: underlying)
        }
    }

    /// The length of the kernel's queue of connections not yet accepted (the system's
    /// `net.core.somaxconn` caps it): long enough that a burst of connections waits instead of
    /// having its handshakes dropped.
    static let backlog = 4096

    /// The connections the server may hold: `wanted`, within the process's file descriptor
    /// limit (raised to its hard limit first, as servers do), keeping 128 descriptors for files.
    static func connectionLimit(_ wanted: Int, console: ServerConsole) -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return wanted }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        let available = Int(clamping: limit.rlim_cur) - 128
        if wanted > available {
            console.say("rules serve: warning: --max-connections \(wanted) is over what the file descriptor limit allows; using \(max(available, 1))")
        }
        return max(1, min(wanted, available))
    }

    /// HTTP/1.1 with the upgrade to the SDKs' WebSocket protocol at `/.ws`. The upgrade is
    /// refused (and the request answered 403 by ``EdgeResponder``) for a host that is not
    /// allowed; the connection's `Origin` is in force (``RequestOrigin/current``) while it is
    /// served, so `auth` with `owner` from another site's page is refused.
    private func httpServer(table: ConnectionTable) -> HTTPServerBuilder {
        let registry = registry, log = log, limits = configuration.limits, explain = configuration.explainDenials
        let sessions = sessionNumbers, longPolls = longPolls, bodies = bodies, pending = pending, totals = wireTotals
        let hosts = HostPolicy(allowedNames: configuration.allowedHosts)
        // Text frames that are not UTF-8 close the connection with 1007.
        let ws = WebSocketServerConfiguration(maxFrameSize: limits.maxWireFrameBytes, autoPing: .enabled(timePeriod: .seconds(30)), validateUTF8: true)
        let headTimeout = TimeAmount.milliseconds(Int64(limits.headerTimeoutSeconds * 1000))
        let idle = TimeAmount.milliseconds(Int64(limits.idleTimeoutSeconds * 1000))
        let http1 = HTTP1Channel.Configuration(
            additionalChannelHandlers: [MalformedRequestHandler()], idleTimeout: idle)
        let shouldUpgrade: @Sendable (HTTPRequest, any Channel, Logger) async throws -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>> = { request, channel, _ in
            guard let target = request.path, Route.of(path: target) == .webSocket else { return .dontUpgrade }
            guard hosts.allows(authority: request.authority) else {
                // Answered below the HTTP layer (a refused upgrade is otherwise a bare 400).
                let answer = ParserErrorHandler.rawAnswer(status: "403 Forbidden", json: EdgeResponder.hostRefusedJSON(request.authority ?? ""))
                channel.triggerUserOutboundEvent(ConnectionActivity.answerAndClose(answer), promise: nil)
                return .dontUpgrade
            }
            let browser = RequestOrigin(headers: request.headerFields, authority: request.authority, hosts: hosts)
            let parsed = try? RequestTarget(target)
            guard let name = try? registry.name(parsed?.parameter("ns")) else { return .dontUpgrade }
            let host = request.authority ?? "127.0.0.1"
            // A WebSocket connection holds a place of its client's share (refused: answered 503
            // below the HTTP layer), and is closed at once when the server shuts down.
            let client = ClientKey(origin: browser, peer: channel.remoteAddress)
            do {
                try await channel.triggerUserOutboundEvent(ConnectionActivity.requestStarted(longLived: true, client: client)).get()
            } catch {
                return .dontUpgrade
            }
            if let upgrading = parsed?.parameter("s") {
                // A long-polling client moving to WebSocket.
                let upgrade = LongPollUpgrade(session: longPolls.session(named: upgrading), limits: limits, host: host, bodies: bodies)
                return .upgrade([:]) { inbound, outbound, _ in
                    await upgrade.run(inbound: inbound, outbound: outbound)
                }
            }
            let session = WireSession(
                namespace: registry.namespace(forReading: name), registry: registry, log: log, limits: limits, host: host,
                session: "rules-serve-\(sessions.next())", explainDenials: explain, transport: .ws, origin: browser, pending: pending,
                totals: totals
            ) {
                // What waits is dropped with the connection (the writer may be blocked on it).
                channel.close(promise: nil)
            }
            let door = WebSocketDoor(session: session, limits: limits, bodies: bodies)
            return .upgrade([:]) { inbound, outbound, _ in
                await door.run(inbound: inbound, outbound: outbound)
            }
        }
        return HTTPServerBuilder { responder in
            GuardedChildChannel(
                inner: HTTP1WebSocketUpgradeChannel(responder: responder, configuration: .init(http1: http1, ws: ws), shouldUpgrade: shouldUpgrade),
                timeout: headTimeout, bodyTimeout: .milliseconds(Int64(limits.bodyTimeoutSeconds * 1000)), table: table)
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
    package func reloadRules() -> String? {
        guard let path = configuration.rulesFile else { return nil }
        do {
            let rules = try Self.load(path)
            let switched = registry.replaceDefaultRules(rules)
            console.say("rules reloaded from \(path)" + (switched.isEmpty ? "" : " (namespaces: \(switched.joined(separator: ", ")))"))
            return nil
        } catch {
            let text = error.description
            console.say("rules in \(path) do not compile; the previous rules stay in force:\n\(text)")
            return text
        }
    }

}

/// A task that runs until the server shuts down (then it is cancelled), as a service of its
/// group.
struct BackgroundTask: Service {
    let body: @Sendable () async -> Void

    init(_ body: @escaping @Sendable () async -> Void) { self.body = body }

    func run() async throws {
        await cancelWhenGracefulShutdown { await body() }
    }
}

/// Numbers realtime sessions.
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

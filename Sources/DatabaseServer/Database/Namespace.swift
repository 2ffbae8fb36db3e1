import DatabaseRules
import Foundation
import Synchronization

/// One database (an emulator namespace, `?ns=NAME`): its data, its rules and its listeners.
///
/// Reads take the current snapshot without waiting. Writes are decided and committed one at a
/// time under the namespace's lock, and the events they cause are handed to the listeners'
/// sinks, in commit order, before the lock is released. With durable storage, each committed
/// change is also queued for the disk under the lock (so the log has the commit order), and its
/// ``Durability`` says when it may be acknowledged.
public final class Namespace: Sendable {
    /// The namespace's name.
    public let name: String
    /// Where decisions are counted for the coverage report (nil: not counted).
    let coverage: CoverageRecorder?
    /// Where committed changes are stored (nil: in memory only).
    let store: DurableStore?
    private let state: Mutex<State>

    private struct State: ~Copyable {
        var database: Database
        var rules: NamespaceRules
        /// Listeners grouped by what they watch and who they are: a group is checked and its
        /// event computed once per write, however many clients are in it.
        var groups: [ListenerGroup: [Int: any EventSink]] = [:]
        /// The group of each listener.
        var groupOf: [Int: ListenerGroup] = [:]
        var nextListener = 1
    }

    /// A namespace holding `database`, decided by `rules`.
    public init(name: String, rules: NamespaceRules, database: Database = Database(), coverage: CoverageRecorder? = nil, store: DurableStore? = nil) {
        self.name = name
        self.coverage = coverage
        self.store = store
        state = Mutex(State(database: database, rules: rules))
    }

    /// The current data.
    public var database: Database { state.withLock { $0.database } }
    /// The current rules.
    public var rules: NamespaceRules { state.withLock { $0.rules } }
    /// The number of open listeners.
    public var listenerCount: Int { state.withLock { $0.groupOf.count } }

    // MARK: - Reads

    /// Reads a location (or a query on it) for `identity`: the rules' `.read` must allow it, and
    /// a query that orders by a child or by value needs the `.indexOn` for it.
    public func read(
        _ keys: [String], query: Query = Query(), as identity: Identity, now: Double, requireIndex: Bool = true
    ) throws(ServerError) -> (database: Database, node: DataNode?) {
        let (database, rules) = state.withLock { ($0.database, $0.rules) }
        try authorizeRead(keys, query: query, identity: identity, database: database, rules: rules, now: now, requireIndex: requireIndex)
        return (database, query.select(DataNode.node(database.root, at: DataPath(keys: keys))))
    }

    private func authorizeRead(
        _ keys: [String], query: Query, identity: Identity, database: Database, rules: NamespaceRules, now: Double, requireIndex: Bool = true
    ) throws(ServerError) {
        if let auth = identity.auth {
            let operation = DatabaseOperation.read(path: Self.path(keys), query: query.ruleParameters)
            let decision = rules.ruleset.decide(operation, on: database, auth: auth, now: now)
            countCoverage(rules, operation, database.root, auth, now)
            if !decision.allowed {
                let explained = rules.ruleset.decide(operation, on: database, auth: auth, now: now, explain: true)
                throw decision.isRejected
                    ? ServerError(.badRequest, decision.reason ?? "Invalid read")
                    : .permissionDenied(explanation: DenialReason.line(explained))
            }
        }
        if requireIndex, let index = query.requiredIndex, !rules.ruleset.indexOn(at: keys).contains(index) {
            throw ServerError(.badRequest, #"Index not defined, add ".indexOn": "\#(index)", for path "\#(Self.path(keys))", to the rules"#)
        }
    }

    private func countCoverage(_ rules: NamespaceRules, _ operation: DatabaseOperation, _ root: DataNode?, _ auth: AuthValue, _ now: Double) {
        DecisionCapture.current?.keep(RecordedDecision(rules: rules, operation: operation, root: root, auth: auth, now: now))
        coverage?.record(CoverageRecorder.Job(namespace: name, rules: rules.loaded, operation: operation, root: root, auth: auth, now: now))
    }

    // MARK: - Writes

    /// What a conditional write compares: the ETag (node hash, or `null_etag`) the caller last saw.
    public enum Condition: Sendable, Hashable {
        /// Write only if the location's ETag is this one.
        case ifMatch(String)
        /// Write only if the location's node hash is this one (`""` for no data): the SDKs'
        /// transactions.
        case ifHash(String)
    }

    /// The end of a write.
    public enum WriteOutcome: Sendable {
        /// Committed; the database after the write, and when the write may be acknowledged.
        case committed(Database, Durability)
        /// A condition did not hold; nothing was written. The current node and its ETag.
        case stale(DataNode?, etag: String)
    }

    /// Decides a write for `identity` and commits it when allowed (and when `condition`, if
    /// any, holds), then tells every listener what changed. A condition that does not hold is
    /// reported before the rules are asked (a transaction's stale attempt is retried, not
    /// denied); callers show the current value only to a caller who may read it.
    public func write(_ operation: DatabaseOperation, as identity: Identity, now: Double, condition: Condition? = nil) throws(ServerError) -> WriteOutcome {
        let shape = Self.shape(of: operation)
        if let failure = store?.failure { throw ServerError(.unavailable, failure) }
        return try state.withLock { (state: inout State) throws(ServerError) -> WriteOutcome in
            // A stale condition is answered first: the caller's value was computed from data that
            // has changed, so the rules (which may compare with that data) are not asked about it.
            if let condition, case .single(let keys) = shape {
                let current = DataNode.node(state.database.root, at: DataPath(keys: keys))
                switch condition {
                case .ifMatch(let expected):
                    let etag = NodeHash.etag(of: current)
                    if etag != expected { return .stale(current, etag: etag) }
                case .ifHash(let expected):
                    let hash = NodeHash.of(current)
                    if hash != expected { return .stale(current, etag: hash) }
                }
            }
            let rules = identity.auth == nil ? Ruleset.open : state.rules.ruleset
            let auth = identity.auth ?? .null
            let decision = rules.decide(operation, on: state.database, auth: auth, now: now)
            if identity.auth != nil { countCoverage(state.rules, operation, state.database.root, auth, now) }
            guard decision.allowed else {
                if decision.isRejected { throw ServerError(.badRequest, decision.reason ?? "Invalid write") }
                let explained = rules.decide(operation, on: state.database, auth: auth, now: now, explain: true)
                throw .permissionDenied(explanation: DenialReason.line(explained))
            }
            let old = state.database.root
            state.database.commit(decision)
            let durability = journal(shape, root: state.database.root, unchanged: old === state.database.root)
            Self.notify(&state, shape: shape, old: old, new: state.database.root, now: now)
            return .committed(state.database, durability)
        }
    }

    /// ``write(_:as:now:condition:)``, returning once a committed write is on disk (at once
    /// without durable storage): what a transport that answers each request on its own (REST)
    /// acknowledges after.
    public func writeDurably(_ operation: DatabaseOperation, as identity: Identity, now: Double, condition: Condition? = nil) async throws(ServerError) -> WriteOutcome {
        let outcome = try write(operation, as: identity, now: now, condition: condition)
        if case .committed(_, let durability) = outcome { try await durability.wait() }
        return outcome
    }

    /// Queues a committed write for the disk: the value each written location now holds.
    private func journal(_ shape: WriteShape, root: DataNode?, unchanged: Bool) -> Durability {
        guard let store, !unchanged else { return .immediate }
        let entries: [(keys: [String], node: DataNode?)]
        switch shape {
        case .single(let keys):
            entries = [(keys, DataNode.node(root, at: DataPath(keys: keys)))]
        case .update(let base, let written):
            entries = written.map { (base + $0.keys, DataNode.node(root, at: DataPath(keys: base + $0.keys))) }
        }
        return Durability(store: store, sequence: store.append(.write(namespace: name, entries: entries, root: root)))
    }

    /// Decides a write without committing it (an onDisconnect operation when it is registered).
    public func check(_ operation: DatabaseOperation, as identity: Identity, now: Double) throws(ServerError) {
        guard let auth = identity.auth else { return }
        let (database, rules) = state.withLock { ($0.database, $0.rules) }
        let decision = rules.ruleset.decide(operation, on: database, auth: auth, now: now)
        guard decision.allowed else {
            if decision.isRejected { throw ServerError(.badRequest, decision.reason ?? "Invalid write") }
            let explained = rules.ruleset.decide(operation, on: database, auth: auth, now: now, explain: true)
            throw .permissionDenied(explanation: DenialReason.line(explained))
        }
    }

    /// Replaces the rules (an upload, or the rules file changing on disk); listeners that may no
    /// longer read are cancelled.
    @discardableResult
    public func setRules(_ rules: NamespaceRules) -> Durability {
        state.withLock { state in
            state.rules = rules
            Self.recheckListeners(&state, now: Date().millisecondsSince1970)
            guard let store, rules.origin == .uploaded else { return .immediate }
            return Durability(store: store, sequence: store.append(.rules(namespace: name, source: rules.source)))
        }
    }

    /// Replaces the rules only if they still come from `origin` (a file reload does not undo an
    /// upload). Returns whether they were replaced.
    @discardableResult
    public func replaceRules(from origin: NamespaceRules.Origin, with rules: NamespaceRules) -> Bool {
        state.withLock { state in
            guard state.rules.origin == origin else { return false }
            state.rules = rules
            Self.recheckListeners(&state, now: Date().millisecondsSince1970)
            return true
        }
    }

    /// Replaces the whole data without rules or events (an import at startup). With durable
    /// storage the new data is stored too, unless it is what storage restored (`restored`).
    @discardableResult
    public func load(_ database: Database, restored: Bool = false) -> Durability {
        state.withLock { state in
            state.database = database
            guard let store, !restored else { return .immediate }
            return Durability(store: store, sequence: store.append(.write(namespace: name, entries: [([], database.root)], root: database.root)))
        }
    }

    // MARK: - Listeners

    /// Registers a listener after checking that `identity` may read there. Returns its id and
    /// the value it starts from (taken under the same lock, so no write falls in between).
    ///
    /// Without `requireIndex`, a query without its `.indexOn` is served anyway (the SDKs' listens,
    /// which the server answers with a `no_index` warning).
    public func listen(
        _ keys: [String], query: Query = Query(), as identity: Identity, sink: any EventSink, now: Double, requireIndex: Bool = true
    ) throws(ServerError) -> (id: Int, initial: DataNode?) {
        try state.withLock { (state: inout State) throws(ServerError) -> (id: Int, initial: DataNode?) in
            try authorizeRead(keys, query: query, identity: identity, database: state.database, rules: state.rules, now: now, requireIndex: requireIndex)
            let id = state.nextListener
            state.nextListener += 1
            let group = ListenerGroup(keys: keys, query: query, identity: identity)
            state.groups[group, default: [:]][id] = sink
            state.groupOf[id] = group
            return (id, query.select(DataNode.node(state.database.root, at: DataPath(keys: keys))))
        }
    }

    /// Whether the rules have the `.indexOn` a query needs at a location (always true for
    /// queries that need none).
    public func hasIndex(for query: Query, at keys: [String]) -> Bool {
        guard let index = query.requiredIndex else { return true }
        return rules.ruleset.indexOn(at: keys).contains(index)
    }

    /// Removes a listener (its client went away).
    public func unlisten(_ id: Int) {
        state.withLock { state in _ = Self.remove(id, from: &state) }
    }

    // MARK: - Events

    private static func shape(of operation: DatabaseOperation) -> WriteShape {
        switch operation {
        case .read(let path, _), .set(let path, _), .delete(let path):
            return .single(split(path))
        case .push(let path, _, let key):
            return .single(split(path) + [key])
        case .update(let path, let values):
            return .update(base: split(path), entries: values.map { ($0.0, split($0.0)) })
        }
    }

    /// Removes a listener; returns its sink.
    private static func remove(_ id: Int, from state: inout State) -> (any EventSink)? {
        guard let group = state.groupOf.removeValue(forKey: id) else { return nil }
        let sink = state.groups[group]?.removeValue(forKey: id)
        if state.groups[group]?.isEmpty == true { state.groups.removeValue(forKey: group) }
        return sink
    }

    private static func notify(_ state: inout State, shape: WriteShape, old: DataNode?, new: DataNode?, now: Double) {
        guard !state.groups.isEmpty else { return }
        recheckListeners(&state, now: now)
        var rendered: [[String]: RenderedValue] = [:]
        func json(_ keys: [String]) -> RenderedValue {
            if let value = rendered[keys] { return value }
            let value = RenderedValue(.node(DataNode.node(new, at: DataPath(keys: keys))))
            rendered[keys] = value
            return value
        }
        var overflowed: [Int] = []
        for (group, members) in state.groups {
            guard let event = event(for: group, shape: shape, old: old, new: new, json: json) else { continue }
            for (id, sink) in members where !sink.deliver(event) { overflowed.append(id) }
        }
        for id in overflowed {
            remove(id, from: &state)?.finish()
        }
    }

    /// Cancels every listener whose `.read` no longer holds (one decision per group).
    private static func recheckListeners(_ state: inout State, now: Double) {
        var cancelled: [ListenerGroup] = []
        for group in state.groups.keys {
            guard let auth = group.identity.auth else { continue }
            let operation = DatabaseOperation.read(path: path(group.keys), query: group.query.ruleParameters)
            if !state.rules.ruleset.decide(operation, on: state.database, auth: auth, now: now).allowed {
                cancelled.append(group)
            }
        }
        for group in cancelled {
            guard let members = state.groups.removeValue(forKey: group) else { continue }
            for (id, sink) in members {
                state.groupOf.removeValue(forKey: id)
                _ = sink.deliver(.cancel(reason: "Permission denied"))
                sink.finish()
            }
        }
    }

    /// The event a write causes for the listeners of a group, if they see a change.
    private static func event(for listener: ListenerGroup, shape: WriteShape, old: DataNode?, new: DataNode?, json: ([String]) -> RenderedValue) -> DatabaseEvent? {
        let l = listener.keys
        func node(_ root: DataNode?, _ keys: [String]) -> DataNode? { DataNode.node(root, at: DataPath(keys: keys)) }
        func same(_ keys: [String]) -> Bool { equal(node(old, keys), node(new, keys)) }
        func wholeLocation() -> DatabaseEvent? {
            if listener.query.filters {
                let before = listener.query.select(node(old, l)), after = listener.query.select(node(new, l))
                if equal(before, after) { return nil }
                return .put(path: "/", value: RenderedValue(.node(after)))
            }
            return same(l) ? nil : .put(path: "/", value: json(l))
        }
        if listener.query.filters { return wholeLocation() }
        switch shape {
        case .single(let w):
            if w.starts(with: l) {
                return same(w) ? nil : .put(path: path(Array(w[l.count...])), value: json(w))
            }
            return l.starts(with: w) ? wholeLocation() : nil
        case .update(let base, let entries):
            if base.starts(with: l) {
                let changed = entries.filter { !same(base + $0.keys) }
                if changed.isEmpty { return nil }
                let members = changed.map { ($0.key, node(new, base + $0.keys)) }
                return .patch(path: path(Array(base[l.count...])), value: RenderedValue(.members(members)))
            }
            guard l.starts(with: base) else { return nil }
            let full = entries.map { base + $0.keys }
            if full.contains(where: { l.starts(with: $0) }) { return wholeLocation() }
            let below = full.filter { $0.starts(with: l) && !same($0) }
            if below.isEmpty { return nil }
            let members = below.map { ($0[l.count...].joined(separator: "/"), node(new, $0)) }
            return .patch(path: "/", value: RenderedValue(.members(members)))
        }
    }

    private static func equal(_ a: DataNode?, _ b: DataNode?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let x?, let y?): x === y || x.isEqual(to: y)
        default: false
        }
    }

    // MARK: - Paths

    /// `/a/b` for keys, `/` for none.
    static func path(_ keys: some Collection<String>) -> String {
        keys.isEmpty ? "/" : "/" + keys.joined(separator: "/")
    }

    /// The keys of a slash-separated path (empty segments dropped).
    static func split(_ path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }
}

extension Date {
    /// Milliseconds since 1970, rounded down: the server time rules see as `now`.
    var millisecondsSince1970: Double { (timeIntervalSince1970 * 1000).rounded(.down) }
}

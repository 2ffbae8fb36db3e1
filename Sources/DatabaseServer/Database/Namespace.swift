import DatabaseRules
import Foundation
import Synchronization

/// One database (an emulator namespace, `?ns=NAME`): its data, its rules and its listeners.
///
/// Every request of every transport reaches the data through this type: reads, writes (with
/// their conditions and priorities), onDisconnect checks and listens. Rules are evaluated off
/// Swift's cooperative pool (``NamespaceExecutor``): writes one at a time on the namespace's
/// serial queue, reads on a shared concurrent queue, each on the snapshot current when it starts,
/// so a read never waits for a write and a slow namespace never stalls another. A cheap request
/// (a plain read; a small unconditional write, with no write queued and nobody listening) is
/// first decided on the thread that received it, within ``NamespaceRules/inlineSteps`` steps, and
/// goes to the queues only if that does not allow it. The namespace's
/// lock is held only to take a snapshot and to commit: a commit installs the new tree, queues it
/// for the disk (so the log has the commit order), and hands the events it causes to the
/// listeners' sinks, in commit order, before the lock is released. A commit whose snapshot is no
/// longer current (the rules changed meanwhile) is decided again.
package final class Namespace: Sendable {
    /// The namespace's name.
    package let name: String
    /// Where decisions are counted for the coverage report (nil: not counted).
    let coverage: CoverageRecorder?
    /// Where committed changes are stored (nil: in memory only).
    let store: DurableStore?
    private let state: Mutex<State>
    /// Where its decisions run.
    let executor: NamespaceExecutor

    private struct State: ~Copyable {
        var database: Database
        /// The indexes of `database`.
        var indexes = NamespaceIndexes()
        var rules: NamespaceRules
        /// Counts changes of the rules, so that a commit knows whether its decision is current.
        var rulesVersion = 0
        /// Listeners grouped by what they watch and who they are: a group is checked and its
        /// event computed once per write, however many clients are in it.
        var groups: [ListenerGroup: [Int: any EventSink]] = [:]
        /// The group of each listener.
        var groupOf: [Int: ListenerGroup] = [:]
        var nextListener = 1
        /// Query listener groups whose location a write changed since their window was last
        /// computed (see ``runQueryPass()``).
        var dirtyQueries: Set<ListenerGroup> = []
        /// The window each query listener group last sent (absent: not known, the next pass sends
        /// it whatever it is).
        var windows: [ListenerGroup: DataNode?] = [:]
        /// Whether a pass is queued or running.
        var queryPassScheduled = false
    }

    /// What a decision is made on: the data and the rules at one moment.
    private struct Snapshot: Sendable {
        let database: Database
        let indexes: NamespaceIndexes
        let rules: NamespaceRules
        let rulesVersion: Int
    }

    /// A namespace holding `database`, decided by `rules`.
    package init(name: String, rules: NamespaceRules, database: Database = Database(), coverage: CoverageRecorder? = nil, store: DurableStore? = nil) {
        self.name = name
        self.coverage = coverage
        self.store = store
        state = Mutex(State(database: database, rules: rules))
        executor = NamespaceExecutor(name: name)
    }

    /// The current data.
    package var database: Database { state.withLock { $0.database } }
    /// The current rules.
    package var rules: NamespaceRules { state.withLock { $0.rules } }
    /// The number of open listeners.
    package var listenerCount: Int { state.withLock { $0.groupOf.count } }

    private func snapshot() -> Snapshot {
        state.withLock { Snapshot(database: $0.database, indexes: $0.indexes, rules: $0.rules, rulesVersion: $0.rulesVersion) }
    }

    // MARK: - Reads

    /// Reads a location (or a query on it) for `identity`: the rules' `.read` must allow it, and
    /// a query that orders by a child or by value needs the `.indexOn` for it.
    package func read(
        _ path: DataPath, query: Query = Query(), as identity: Identity, now: Double, requireIndex: Bool = true, capture: DecisionCapture? = nil
    ) async throws(ServerError) -> (database: Database, node: DataNode?) {
        let keys = path.keys
        if query.isPlain, let read = readHere(keys, as: identity, now: now, capture: capture) { return read }
        await prepareIndex(for: query, at: keys)
        return try await executor.read {
            Result { () throws(ServerError) -> (database: Database, node: DataNode?) in
                let snapshot = self.snapshot()
                try self.authorizeRead(keys, query: query, identity: identity, snapshot: snapshot, now: now, requireIndex: requireIndex, capture: capture)
                return (snapshot.database, snapshot.indexes.select(query, at: keys, root: snapshot.database.root))
            }
        }.get()
    }

    /// A plain read (no query) decided on the thread that received it, when that is cheap: the
    /// rules allow it within ``NamespaceRules/inlineSteps`` steps. Nil otherwise: the caller
    /// takes the read queue, where the read is decided again with the whole budget (and a
    /// denial explained), so a request's cost on the cooperative pool stays bounded.
    private func readHere(_ keys: [String], as identity: Identity, now: Double, capture: DecisionCapture?) -> (database: Database, node: DataNode?)? {
        let snapshot = snapshot()
        if let auth = identity.auth {
            let operation = DatabaseOperation.read(path: Self.path(keys), query: Query().ruleParameters)
            guard snapshot.rules.decideHere(operation, on: snapshot.database.root, auth: auth, now: now).allowed else { return nil }
            countCoverage(snapshot.rules, operation, snapshot.database.root, auth, now, capture)
        }
        return (snapshot.database, snapshot.indexes.select(Query(), at: keys, root: snapshot.database.root))
    }

    /// Makes the index a query would use, when the rules declare it and it is not there yet: on
    /// the write queue, so that no write falls between the data it is made from and its
    /// installation.
    private func prepareIndex(for query: Query, at keys: [String]) async {
        guard let order = NamespaceIndexes.indexedOrder(of: query) else { return }
        let key = NamespaceIndexes.Key(location: keys, order: order)
        // Only a declared index that would be made (a large enough location, room for it) goes
        // to the write queue: other queries never wait behind writes.
        let needed = state.withLock { state in
            state.indexes.wouldMake(key, root: state.database.root) && Self.declares(state.rules, key)
        }
        guard needed else { return }
        await executor.write {
            let (root, rules) = self.state.withLock { ($0.database.root, $0.rules) }
            guard Self.declares(rules, key) else { return }
            // Made outside the lock: reads go on meanwhile, and no write can (this is the write
            // queue); a load that replaced the data makes it useless.
            guard let index = NamespaceIndexes.build(key, root: root) else { return }
            self.state.withLock { state in
                guard state.database.root === root else { return }
                state.indexes.install(index, for: key)
            }
        }
    }

    /// Whether the rules declare an index (its `.indexOn` at the location).
    private static func declares(_ rules: NamespaceRules, _ key: NamespaceIndexes.Key) -> Bool {
        guard let needed = Query(order: key.order).requiredIndex else { return false }
        return rules.ruleset.indexOn(at: key.location).contains(needed)
    }

    private func authorizeRead(
        _ keys: [String], query: Query, identity: Identity, snapshot: Snapshot, now: Double, requireIndex: Bool = true,
        capture: DecisionCapture?
    ) throws(ServerError) {
        if let auth = identity.auth {
            let operation = DatabaseOperation.read(path: Self.path(keys), query: query.ruleParameters)
            let decision = snapshot.rules.ruleset.decide(operation, on: snapshot.database, auth: auth, now: now)
            countCoverage(snapshot.rules, operation, snapshot.database.root, auth, now, capture)
            if !decision.allowed {
                if decision.isRejected { throw ServerError(.badRequest, decision.reason ?? "Invalid read") }
                throw Self.denial(operation, rules: snapshot.rules.ruleset, database: snapshot.database, auth: auth, now: now)
            }
        }
        if requireIndex, let index = query.requiredIndex, !snapshot.rules.ruleset.indexOn(at: keys).contains(index) {
            throw ServerError(.badRequest, #"Index not defined, add ".indexOn": "\#(index)", for path "\#(Self.path(keys))", to the rules"#)
        }
    }

    /// The denial of an operation, explained: the client is told only what it could read (values
    /// from locations its `.read` does not allow are redacted); the server's log and the page
    /// keep the whole explanation. Both come from one explained run of the engine.
    private static func denial(_ operation: DatabaseOperation, rules: Ruleset, database: Database, auth: AuthValue, now: Double) -> ServerError {
        let decision = rules.decide(operation, on: database, auth: auth, now: now, explain: true, redactUnreadable: true)
        var error = ServerError.permissionDenied(explanation: DenialLine.line(decision))
        error.logExplanation = DenialLine.line(decision, explanation: decision.unredactedExplanation)
        return error
    }

    private func countCoverage(_ rules: NamespaceRules, _ operation: DatabaseOperation, _ root: DataNode?, _ auth: AuthValue, _ now: Double, _ capture: DecisionCapture?) {
        // A large write is neither kept for the page nor queued for coverage: either would keep
        // its whole value (and deciding it again would cost its size again).
        guard capture != nil || coverage != nil else { return }
        let weight = OperationWeight.of(operation, cap: OperationWeight.recordedCap)
        guard weight <= OperationWeight.recordedCap else {
            coverage?.skip()
            return
        }
        capture?.keep(RecordedDecision(rules: rules, operation: operation, root: root, auth: auth, now: now))
        coverage?.record(CoverageRecorder.Job(namespace: name, rules: rules.loaded, operation: operation, root: root, auth: auth, now: now, weight: weight))
    }

    // MARK: - Writes

    /// What a conditional write compares: the ETag (node hash, or `null_etag`) the caller last saw.
    package enum Condition: Sendable, Hashable {
        /// Write only if the location's ETag is this one.
        case ifMatch(String)
        /// Write only if the location's node hash is this one (`""` for no data): the SDKs'
        /// transactions.
        case ifHash(String)
    }

    /// The end of a write.
    package enum WriteOutcome: Sendable {
        /// Committed; the database after the write, and when the write may be acknowledged.
        case committed(Database, Durability)
        /// A condition did not hold; nothing was written. The current node and its ETag.
        case stale(DataNode?, etag: String)
    }

    /// Decides a write for `identity` and commits it when allowed (and when `condition`, if
    /// any, holds), then tells every listener what changed.
    ///
    /// A conditional write is a compare-and-set, which must not tell a caller anything about data
    /// it may not read: its `.read` at the location is checked first (a denial then is the same
    /// whatever the hash), then the condition (a stale attempt is reported before the rules are
    /// asked, so that a transaction computed from old data is retried, not denied), then the
    /// rules.
    package func write(
        _ operation: DatabaseOperation, as identity: Identity, now: Double, condition: Condition? = nil, capture: DecisionCapture? = nil
    ) async throws(ServerError) -> WriteOutcome {
        if condition == nil, let outcome = writeHere(operation, as: identity, now: now, capture: capture) { return outcome }
        return try await write(as: identity, now: now, condition: condition, capture: capture) { _ throws(ServerError) in operation }
    }

    /// The written nodes up to which a write may be decided and committed on the thread that
    /// received it (see ``writeHere(_:as:now:capture:)``).
    static let inlineWeight = 1_000

    /// A write decided and committed on the thread that received it, when that is cheap and
    /// overtakes nothing: no write is on the namespace's queue, nobody listens (telling
    /// listeners costs a decision per group), the write carries at most ``inlineWeight`` nodes,
    /// and the rules allow it within ``NamespaceRules/inlineSteps`` steps. Nil otherwise, and
    /// when the data changed before the commit: the caller takes the write queue, where the
    /// write is decided again with the whole budget (and a denial or a rejection explained).
    private func writeHere(_ operation: DatabaseOperation, as identity: Identity, now: Double, capture: DecisionCapture?) -> WriteOutcome? {
        guard !executor.hasQueuedWrites, store?.failure == nil,
              OperationWeight.of(operation, cap: Self.inlineWeight) <= Self.inlineWeight else { return nil }
        guard let snapshot = state.withLock({ state -> Snapshot? in
            guard state.groups.isEmpty else { return nil }
            return Snapshot(database: state.database, indexes: state.indexes, rules: state.rules, rulesVersion: state.rulesVersion)
        }) else { return nil }
        let auth = identity.auth ?? .null
        let decision = identity.auth == nil
            ? NamespaceRules.openInlineEngine.decide(operation, on: snapshot.database.root, auth: auth, now: now)
            : snapshot.rules.decideHere(operation, on: snapshot.database.root, auth: auth, now: now)
        guard decision.allowed else { return nil }
        guard let outcome = commit(decision, shape: Self.shape(of: operation), on: snapshot, now: now, onlyWithoutListeners: true) else { return nil }
        if identity.auth != nil { countCoverage(snapshot.rules, operation, snapshot.database.root, auth, now, capture) }
        return outcome
    }

    /// Installs an allowed write's tree if `snapshot` is still current (nil when it is not, or,
    /// with `onlyWithoutListeners`, when somebody listens now): the indexes follow, the change
    /// is queued for the disk and the listeners are told, all under the lock.
    private func commit(_ decision: Decision, shape: WriteShape, on snapshot: Snapshot, now: Double,
                        onlyWithoutListeners: Bool = false) -> WriteOutcome? {
        let (outcome, pass) = state.withLock { (state: inout State) -> (WriteOutcome?, Bool) in
            guard Self.isCurrent(snapshot, state), !onlyWithoutListeners || state.groups.isEmpty else { return (nil, false) }
            let old = state.database.root
            let oldIndexes = state.indexes
            state.database.commit(decision)
            state.indexes.apply(shape, old: old, new: state.database.root)
            let durability = journal(shape, root: state.database.root, unchanged: old === state.database.root)
            Self.notify(&state, shape: shape, old: old, oldIndexes: oldIndexes, now: now)
            let pass = !state.dirtyQueries.isEmpty && !state.queryPassScheduled
            if pass { state.queryPassScheduled = true }
            return (.committed(state.database, durability), pass)
        }
        if pass { executor.listenerWork { self.runQueryPass() } }
        return outcome
    }

    /// Sends the query listeners the windows the writes since the last pass changed: on the
    /// namespace's listener queue, the windows selected outside the lock (a query without an
    /// index visits every child), then sent under it to the groups no later write has changed
    /// again (those are done by the next pass). Writes that come during a pass are gathered into
    /// the next one, so a write costs its query listeners at most one selection each, however many
    /// writes there are, and neither it, nor reads, nor another namespace wait for them.
    private func runQueryPass() {
        while true {
            let taken = state.withLock { (state: inout State) -> (Set<ListenerGroup>, DataNode?, NamespaceIndexes)? in
                guard !state.dirtyQueries.isEmpty else {
                    state.queryPassScheduled = false
                    return nil
                }
                defer { state.dirtyQueries = [] }
                return (state.dirtyQueries, state.database.root, state.indexes)
            }
            guard let (dirty, root, indexes) = taken else { return }
            let windows = dirty.map { ($0, indexes.select($0.query, at: $0.keys, root: root)) }
            state.withLock { (state: inout State) in
                var overflowed: [Int] = []
                for (group, after) in windows where !state.dirtyQueries.contains(group) {
                    guard let members = state.groups[group] else { continue }
                    if let before = state.windows[group], ListenerGroup.equal(before, after) { continue }
                    state.windows[group] = .some(after)
                    let event = DatabaseEvent.put(path: "/", value: RenderedValue(.node(after)))
                    for (id, sink) in members where !sink.deliver(event) { overflowed.append(id) }
                }
                for id in overflowed { Self.remove(id, from: &state)?.finish() }
            }
        }
    }

    /// Sets the priority of the node at `keys`, keeping its value: the read of the node and the
    /// write of it with its new priority are one step, so no write falls in between. The caller
    /// must be allowed to read the node (the rules then decide the set).
    package func setPriority(
        at path: DataPath, to priority: DataInput, as identity: Identity, now: Double, capture: DecisionCapture? = nil
    ) async throws(ServerError) -> WriteOutcome {
        try await write(as: identity, now: now, condition: nil, capture: capture) { (snapshot: Snapshot) throws(ServerError) -> DatabaseOperation in
            try self.authorizeRead(path.keys, query: Query(), identity: identity, snapshot: snapshot, now: now, capture: capture)
            guard let node = DataNode.node(snapshot.database.root, at: path) else {
                throw ServerError(.badRequest, "No data at \(path) to set a priority on")
            }
            return .set(path: path.description, value: DataInput.withPriority(DataInputConversion.input(node, priority: false), priority: priority))
        }
    }

    private func write(
        as identity: Identity, now: Double, condition: Condition?, capture: DecisionCapture?,
        operation make: @escaping @Sendable (Snapshot) throws(ServerError) -> DatabaseOperation
    ) async throws(ServerError) -> WriteOutcome {
        try await executor.write {
            Result { () throws(ServerError) -> WriteOutcome in
                try self.decideAndCommit(as: identity, now: now, condition: condition, capture: capture, operation: make)
            }
        }.get()
    }

    /// Runs on the write queue: decides on a snapshot, outside the lock, and commits under it.
    private func decideAndCommit(
        as identity: Identity, now: Double, condition: Condition?, capture: DecisionCapture?,
        operation make: (Snapshot) throws(ServerError) -> DatabaseOperation
    ) throws(ServerError) -> WriteOutcome {
        while true {
            if let failure = store?.failure { throw ServerError(.unavailable, failure) }
            let snapshot = snapshot()
            let operation = try make(snapshot)
            let shape = Self.shape(of: operation)
            if let condition, case .single(let keys) = shape {
                // No compare-and-set on what the caller may not read: a denial here is the same
                // whether its hash was right or wrong.
                try authorizeRead(keys, query: Query(), identity: identity, snapshot: snapshot, now: now, requireIndex: false, capture: capture)
                let current = DataNode.node(snapshot.database.root, at: DataPath(keys: keys))
                switch condition {
                case .ifMatch(let expected):
                    let etag = NodeHash.etag(of: current)
                    if etag != expected { return .stale(current, etag: etag) }
                case .ifHash(let expected):
                    let hash = NodeHash.of(current)
                    if hash != expected { return .stale(current, etag: hash) }
                }
            }
            let rules = identity.auth == nil ? Ruleset.open : snapshot.rules.ruleset
            let auth = identity.auth ?? .null
            let decision = rules.decide(operation, on: snapshot.database, auth: auth, now: now)
            if identity.auth != nil { countCoverage(snapshot.rules, operation, snapshot.database.root, auth, now, capture) }
            guard decision.allowed else {
                if decision.isRejected { throw ServerError(.badRequest, decision.reason ?? "Invalid write") }
                throw Self.denial(operation, rules: rules, database: snapshot.database, auth: auth, now: now)
            }
            if let committed = commit(decision, shape: shape, on: snapshot, now: now) { return committed }
        }
    }

    /// ``write(_:as:now:condition:)``, returning once a committed write is on disk (at once
    /// without durable storage): what a transport that answers each request on its own (REST)
    /// acknowledges after.
    package func writeDurably(
        _ operation: DatabaseOperation, as identity: Identity, now: Double, condition: Condition? = nil, capture: DecisionCapture? = nil
    ) async throws(ServerError) -> WriteOutcome {
        let outcome = try await write(operation, as: identity, now: now, condition: condition, capture: capture)
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
    package func check(_ operation: DatabaseOperation, as identity: Identity, now: Double) async throws(ServerError) {
        guard let auth = identity.auth else { return }
        try await executor.read {
            Result { () throws(ServerError) in
                let snapshot = self.snapshot()
                let decision = snapshot.rules.ruleset.decide(operation, on: snapshot.database, auth: auth, now: now)
                guard decision.allowed else {
                    if decision.isRejected { throw ServerError(.badRequest, decision.reason ?? "Invalid write") }
                    throw Self.denial(operation, rules: snapshot.rules.ruleset, database: snapshot.database, auth: auth, now: now)
                }
            }
        }.get()
    }

    /// Replaces the rules (an upload, or the rules file changing on disk); listeners that may no
    /// longer read are cancelled.
    @discardableResult
    package func setRules(_ rules: NamespaceRules) -> Durability {
        state.withLock { state in
            state.rules = rules
            state.rulesVersion += 1
            Self.dropUndeclaredIndexes(&state)
            Self.recheckListeners(&state, now: Date().millisecondsSince1970)
            guard let store, rules.origin == .uploaded else { return .immediate }
            return Durability(store: store, sequence: store.append(.rules(namespace: name, source: rules.source)))
        }
    }

    /// Replaces the rules only if they still come from `origin` (a file reload does not undo an
    /// upload). Returns whether they were replaced.
    @discardableResult
    package func replaceRules(from origin: NamespaceRules.Origin, with rules: NamespaceRules) -> Bool {
        state.withLock { state in
            guard state.rules.origin == origin else { return false }
            state.rules = rules
            state.rulesVersion += 1
            Self.dropUndeclaredIndexes(&state)
            Self.recheckListeners(&state, now: Date().millisecondsSince1970)
            return true
        }
    }

    /// Replaces the whole data without rules or events (an import at startup). With durable
    /// storage the new data is stored too, unless `stored` says the caller has queued it already
    /// (or it is what storage restored).
    @discardableResult
    package func load(_ database: Database, stored: Bool = false) -> Durability {
        state.withLock { state in
            state.database = database
            state.indexes = NamespaceIndexes()
            guard let store, !stored else { return .immediate }
            return Durability(store: store, sequence: store.append(.write(namespace: name, entries: [([], database.root)], root: database.root)))
        }
    }

    // MARK: - Listeners

    /// Registers a listener after checking that `identity` may read there. Returns its id and
    /// the value it starts from: the read is decided on a snapshot, and the listener registered
    /// only if that snapshot is still current (else decided again), so no write falls in between.
    ///
    /// Without `requireIndex`, a query without its `.indexOn` is served anyway (the SDKs' listens,
    /// which the server answers with a `no_index` warning). `initialEvent` makes the first event
    /// the sink gets from the starting value (nil: none), before any write's.
    package func listen(
        _ path: DataPath, query: Query = Query(), as identity: Identity, sink: any EventSink, now: Double, requireIndex: Bool = true,
        capture: DecisionCapture? = nil, initialEvent: @escaping @Sendable (DataNode?) -> DatabaseEvent? = { _ in nil }
    ) async throws(ServerError) -> (id: Int, initial: DataNode?) {
        let keys = path.keys
        await prepareIndex(for: query, at: keys)
        return try await executor.read {
            Result { () throws(ServerError) -> (id: Int, initial: DataNode?) in
                while true {
                    let snapshot = self.snapshot()
                    try self.authorizeRead(keys, query: query, identity: identity, snapshot: snapshot, now: now, requireIndex: requireIndex, capture: capture)
                    let registered = self.state.withLock { (state: inout State) -> (id: Int, initial: DataNode?)? in
                        guard Self.isCurrent(snapshot, state) else { return nil }
                        let id = state.nextListener
                        state.nextListener += 1
                        let group = ListenerGroup(keys: keys, query: query, identity: identity)
                        let isNew = state.groups[group] == nil
                        state.groups[group, default: [:]][id] = sink
                        state.groupOf[id] = group
                        let initial = state.indexes.select(query, at: keys, root: state.database.root)
                        if query.filters {
                            // A group whose window a pass is about to send again sends it to all.
                            if isNew { state.windows[group] = .some(initial) } else if state.dirtyQueries.contains(group) { state.windows.removeValue(forKey: group) }
                        }
                        if let event = initialEvent(initial) { _ = sink.deliver(event) }
                        return (id, initial)
                    }
                    if let registered { return registered }
                }
            }
        }.get()
    }

    /// Moves a listener to a new identity (a connection's `auth` changed, or a token was
    /// refreshed) without stopping it: it keeps its sink and misses no event. Returns false, and
    /// removes the listener, when the new identity may not read there (the caller tells its
    /// client the listen was cancelled).
    package func reidentify(_ id: Int, as identity: Identity, now: Double) async -> Bool {
        await executor.read {
            while true {
                let snapshot = self.snapshot()
                guard let group = self.state.withLock({ $0.groupOf[id] }) else { return false }
                if group.identity == identity { return true }
                let allowed: Bool
                do throws(ServerError) {
                    try self.authorizeRead(
                        group.keys, query: group.query, identity: identity, snapshot: snapshot, now: now, requireIndex: false, capture: nil)
                    allowed = true
                } catch {
                    allowed = false
                }
                let done = self.state.withLock { (state: inout State) -> Bool? in
                    guard Self.isCurrent(snapshot, state), state.groupOf[id] == group else { return nil }
                    guard let sink = Self.remove(id, from: &state) else { return false }
                    guard allowed else { return false }
                    let moved = ListenerGroup(keys: group.keys, query: group.query, identity: identity)
                    state.groups[moved, default: [:]][id] = sink
                    state.groupOf[id] = moved
                    return true
                }
                if let done { return done }
            }
        }
    }

    private static func isCurrent(_ snapshot: Snapshot, _ state: borrowing State) -> Bool {
        state.database.root === snapshot.database.root && state.rulesVersion == snapshot.rulesVersion
    }

    /// Removes a listener (its client went away).
    package func unlisten(_ id: Int) {
        state.withLock { state in _ = Self.remove(id, from: &state) }
    }

    // MARK: - Events

    /// Removes a listener; returns its sink.
    private static func remove(_ id: Int, from state: inout State) -> (any EventSink)? {
        guard let group = state.groupOf.removeValue(forKey: id) else { return nil }
        let sink = state.groups[group]?.removeValue(forKey: id)
        if state.groups[group]?.isEmpty == true { forget(group, in: &state) }
        return sink
    }

    /// Drops a listener group and what is kept for it.
    private static func forget(_ group: ListenerGroup, in state: inout State) {
        state.groups.removeValue(forKey: group)
        state.windows.removeValue(forKey: group)
        state.dirtyQueries.remove(group)
    }

    /// Drops the indexes the rules no longer declare.
    private static func dropUndeclaredIndexes(_ state: inout State) {
        let rules = state.rules
        state.indexes.retain { declares(rules, $0) }
    }

    private static func notify(_ state: inout State, shape: WriteShape, old: DataNode?, oldIndexes: NamespaceIndexes, now: Double) {
        guard !state.groups.isEmpty else { return }
        let new = state.database.root
        let newIndexes = state.indexes
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
            if group.query.filters {
                // Its window is selected by the next pass, off the lock; only when the write
                // reached its location (the tree shares what a write did not change).
                if DataNode.node(old, at: DataPath(keys: group.keys)) !== DataNode.node(new, at: DataPath(keys: group.keys)) {
                    state.dirtyQueries.insert(group)
                }
                continue
            }
            guard let event = group.event(shape: shape, old: (old, oldIndexes), new: (new, newIndexes), json: json) else { continue }
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
            guard let members = state.groups[group] else { continue }
            forget(group, in: &state)
            for (id, sink) in members {
                state.groupOf.removeValue(forKey: id)
                _ = sink.deliver(.cancel(reason: "Permission denied"))
                sink.finish()
            }
        }
    }
}

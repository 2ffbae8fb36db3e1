import DatabaseRules
import Synchronization

/// Every namespace of the server, with the server's rules (the rules file, or open rules when
/// there is none) until a client uploads its own.
///
/// A namespace is made by the first write to it (as the emulator does), within a cap on how
/// many there are (``maxNamespaces``); a read or a listen of a name that holds nothing does not
/// make one. It is served by a *visitor*: a namespace with no data and the server's rules that
/// is not registered (not listed, not exported, not counted). While a visitor is in use (a
/// listener holds it), every read and listen of that name gets the same one, and the first write
/// to the name registers that very namespace, so its listeners see the write.
///
/// Transports ask for a namespace by its checked name (``NamespaceName``):
/// ``namespace(forReading:)`` for reads and listens, ``namespace(forWriting:)`` for every write
/// (sets, updates, priority writes, rules uploads), each time they write.
package final class NamespaceRegistry: Sendable {
    /// The namespace a request without `ns` uses.
    package let defaultName: String
    /// Where decisions are counted for coverage (nil: coverage off).
    package let coverage: CoverageRecorder?
    /// Where committed changes are stored (nil: in memory only).
    package let store: DurableStore?
    /// The most namespaces a write may make: a write that would make one more is refused with
    /// ``ServerError/Kind/unavailable`` (503). Namespaces restored from durable storage or loaded
    /// from an import count, but are never refused.
    package let maxNamespaces: Int
    private let state: Mutex<State>
    private let pushKeys = Mutex(PushKey())

    /// The default of ``maxNamespaces``.
    package static let defaultMaxNamespaces = 1000

    private struct State {
        var namespaces: [String: Namespace] = [:]
        /// Unregistered namespaces handed to readers, while something holds them.
        var visitors: [String: Visitor] = [:]
        /// The visitor count at which the table is next swept of released ones.
        var nextSweep = 64
        var rules: NamespaceRules
    }

    private struct Visitor {
        weak var namespace: Namespace?
    }

    /// A registry whose new namespaces get `rules`, holding at most `maxNamespaces` made by writes.
    package init(
        defaultName: String, rules: NamespaceRules, coverage: CoverageRecorder? = nil, store: DurableStore? = nil,
        maxNamespaces: Int = NamespaceRegistry.defaultMaxNamespaces
    ) {
        self.defaultName = defaultName
        self.coverage = coverage
        self.store = store
        self.maxNamespaces = max(maxNamespaces, 1)
        state = Mutex(State(rules: rules))
    }

    /// The name a request asks for: `requested` (the `ns` parameter) checked, or the default
    /// namespace when it is nil or empty. Throws a 400 naming the rule for a name that is not a
    /// database name.
    package func name(_ requested: String?) throws(ServerError) -> NamespaceName {
        guard let requested, !requested.isEmpty else { return try NamespaceName(validating: defaultName) }
        return try NamespaceName(validating: requested)
    }

    /// The registered namespace with this name, if a write (or storage, or an import) made it.
    package func existing(_ name: NamespaceName) -> Namespace? {
        state.withLock { $0.namespaces[name.text] }
    }

    /// The namespace to read or listen to: the registered one, or else a visitor (no data, the
    /// server's rules, not registered). Never makes a namespace and is never refused.
    package func namespace(forReading name: NamespaceName) -> Namespace {
        state.withLock { state in
            if let registered = state.namespaces[name.text] { return registered }
            if let visitor = state.visitors[name.text]?.namespace { return visitor }
            let made = Namespace(name: name.text, rules: state.rules, coverage: coverage, store: store)
            state.visitors[name.text] = Visitor(namespace: made)
            if state.visitors.count >= state.nextSweep {
                state.visitors = state.visitors.filter { $0.value.namespace != nil }
                state.nextSweep = max(64, state.visitors.count * 2)
            }
            return made
        }
    }

    /// The namespace to write to: the registered one, or else registered now (the visitor its
    /// readers hold, or a new one). Throws 503 when the server already holds ``maxNamespaces``
    /// namespaces.
    package func namespace(forWriting name: NamespaceName) throws(ServerError) -> Namespace {
        let result: Result<Namespace, ServerError> = state.withLock { state in
            if let registered = state.namespaces[name.text] { return .success(registered) }
            guard state.namespaces.count < maxNamespaces else {
                return .failure(
                    ServerError(
                        .unavailable,
                        "Too many namespaces: this server holds \(state.namespaces.count), its limit; writes to a new namespace (\(name)) are refused. Write to an existing namespace, or restart the server (without --data, or with a new data directory)."
                    ))
            }
            let made = state.visitors.removeValue(forKey: name.text)?.namespace
                ?? Namespace(name: name.text, rules: state.rules, coverage: coverage, store: store)
            state.namespaces[name.text] = made
            return .success(made)
        }
        return try result.get()
    }

    /// The namespace with this name, registered now if it does not exist yet, whatever the name
    /// and however many there are: for the operator's own inputs (an import), not for requests.
    package func namespace(_ name: String) -> Namespace {
        state.withLock { state in
            if let existing = state.namespaces[name] { return existing }
            let made = state.visitors.removeValue(forKey: name)?.namespace
                ?? Namespace(name: name, rules: state.rules, coverage: coverage, store: store)
            state.namespaces[name] = made
            return made
        }
    }

    /// Makes the namespaces durable storage held, with their data and uploaded rules, before the
    /// server listens. Returns warnings: uploaded rules that no longer compile (the namespace gets
    /// the server's rules instead), and names that are not namespace names (kept by a version
    /// that did not check them).
    package func restore(_ contents: DurableStore.Contents) -> [String] {
        var warnings: [String] = []
        let names = Set(contents.namespaces.keys).union(contents.rules.keys)
        state.withLock { state in
            for name in names.sorted() {
                if !NamespaceName.isValid(name) {
                    warnings.append(
                        "namespace \(NamespaceName.shown(name)) in the data directory is not a namespace name (\(NamespaceName.rule)): requests cannot reach it and exports leave it out")
                }
                var rules = state.rules
                if let source = contents.rules[name] {
                    do {
                        rules = NamespaceRules(
                            ruleset: try Ruleset(source: source, path: NamespaceRules.uploadedPath(namespace: name)), source: source,
                            origin: .uploaded)
                    } catch {
                        warnings.append("the rules uploaded to namespace \(name) no longer compile; it uses the server's rules:\n\(error)")
                    }
                }
                state.namespaces[name] = Namespace(
                    name: name, rules: rules, database: contents.namespaces[name] ?? Database(), coverage: coverage, store: store)
            }
        }
        return warnings
    }

    /// The namespaces made so far, by name.
    package var all: [Namespace] {
        state.withLock { Array($0.namespaces.values) }.sorted { $0.name < $1.name }
    }

    /// The rules new namespaces get.
    package var defaultRules: NamespaceRules { state.withLock { $0.rules } }

    /// Installs new server rules (the rules file changed): new namespaces get them, and every
    /// namespace still on the previous server rules switches to them (uploaded rules stay).
    /// Returns the names of the namespaces that switched.
    @discardableResult
    package func replaceDefaultRules(_ rules: NamespaceRules) -> [String] {
        let (previous, namespaces, visitors) = state.withLock { state in
            let previous = state.rules.origin
            state.rules = rules
            return (previous, Array(state.namespaces.values), state.visitors.values.compactMap(\.namespace))
        }
        // Visitors in use switch too (they are on the server's rules), but are not reported.
        for visitor in visitors { _ = visitor.replaceRules(from: previous, with: rules) }
        return namespaces.filter { $0.replaceRules(from: previous, with: rules) }.map(\.name).sorted()
    }

    /// A new push key (20 characters, increasing within the server).
    package func nextPushKey(now: Double) -> String {
        pushKeys.withLock { $0.next(now: now) }
    }
}

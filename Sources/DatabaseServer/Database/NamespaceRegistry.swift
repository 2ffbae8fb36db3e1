import DatabaseRules
import Synchronization

/// Every namespace of the server, made on first use (as the emulator does) with the server's
/// rules: the rules file, or open rules when there is none.
public final class NamespaceRegistry: Sendable {
    /// The namespace a request without `ns` uses.
    public let defaultName: String
    /// Where decisions are counted for coverage (nil: coverage off).
    public let coverage: CoverageRecorder?
    /// Where committed changes are stored (nil: in memory only).
    public let store: DurableStore?
    private let state: Mutex<State>
    private let pushKeys = Mutex(PushKey())

    private struct State {
        var namespaces: [String: Namespace] = [:]
        var rules: NamespaceRules
    }

    /// A registry whose new namespaces get `rules`.
    public init(defaultName: String, rules: NamespaceRules, coverage: CoverageRecorder? = nil, store: DurableStore? = nil) {
        self.defaultName = defaultName
        self.coverage = coverage
        self.store = store
        state = Mutex(State(rules: rules))
    }

    /// The namespace with this name, made now if it does not exist yet.
    public func namespace(_ name: String) -> Namespace {
        state.withLock { state in
            if let existing = state.namespaces[name] { return existing }
            let made = Namespace(name: name, rules: state.rules, coverage: coverage, store: store)
            state.namespaces[name] = made
            return made
        }
    }

    /// Makes the namespaces durable storage held, with their data and uploaded rules, before the
    /// server listens. Returns warnings: uploaded rules that no longer compile (the namespace gets
    /// the server's rules instead).
    public func restore(_ contents: DurableStore.Contents) -> [String] {
        var warnings: [String] = []
        let names = Set(contents.namespaces.keys).union(contents.rules.keys)
        state.withLock { state in
            for name in names.sorted() {
                var rules = state.rules
                if let source = contents.rules[name] {
                    do {
                        rules = NamespaceRules(ruleset: try Ruleset(source: source, path: "database.rules.json"), source: source, origin: .uploaded)
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
    public var all: [Namespace] {
        state.withLock { Array($0.namespaces.values) }.sorted { $0.name < $1.name }
    }

    /// The rules new namespaces get.
    public var defaultRules: NamespaceRules { state.withLock { $0.rules } }

    /// Installs new server rules (the rules file changed): new namespaces get them, and every
    /// namespace still on the previous server rules switches to them (uploaded rules stay).
    /// Returns the names of the namespaces that switched.
    @discardableResult
    public func replaceDefaultRules(_ rules: NamespaceRules) -> [String] {
        let (previous, namespaces) = state.withLock { state in
            let previous = state.rules.origin
            state.rules = rules
            return (previous, Array(state.namespaces.values))
        }
        return namespaces.filter { $0.replaceRules(from: previous, with: rules) }.map(\.name).sorted()
    }

    /// A new push key (20 characters, increasing within the server).
    public func nextPushKey(now: Double) -> String {
        pushKeys.withLock { $0.next(now: now) }
    }
}

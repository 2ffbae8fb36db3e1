import DatabaseRules
import Testing

@testable import DatabaseServer

/// Reads and listens never make a namespace; writes make one, up to the registry's cap; a
/// listener of a name that did not exist yet sees the write that makes it.
@Suite struct NamespaceRegistryTests {
    static func name(_ text: String) -> NamespaceName { NamespaceName(text)! }
    static let anonymous = Identity.user(.null)

    @Test func readsOfNewNamesRegisterNothing() async throws {
        let registry = NamespaceRegistry(defaultName: "default", rules: .open, maxNamespaces: 3)
        for i in 0..<100 {
            let ns = registry.namespace(forReading: Self.name("probe-\(i)"))
            #expect(try await ns.read(DataPath(keys: []), as: Self.anonymous, now: 0).node == nil)
        }
        #expect(registry.all.isEmpty)
        #expect(registry.existing(Self.name("probe-0")) == nil)
        // Reads took none of the cap.
        for i in 0..<3 { _ = try registry.namespace(forWriting: Self.name("db-\(i)")) }
        #expect(registry.all.map(\.name) == ["db-0", "db-1", "db-2"])
    }

    @Test func aWriteOverTheCapIsRefusedAndExistingNamespacesStillWork() async throws {
        let registry = NamespaceRegistry(defaultName: "default", rules: .open, maxNamespaces: 2)
        let a = try registry.namespace(forWriting: Self.name("a"))
        _ = try await a.write(.set(path: "/x", value: 1), as: Self.anonymous, now: 0)
        _ = try registry.namespace(forWriting: Self.name("b"))
        do {
            _ = try registry.namespace(forWriting: Self.name("c"))
            Issue.record("a third namespace was made")
        } catch {
            #expect(error.kind == .unavailable)
            #expect(error.httpStatus == 503)
            #expect(error.message.hasPrefix("Too many namespaces: this server holds 2, its limit"))
            #expect(error.message.contains("(c)"))
        }
        #expect(try registry.namespace(forWriting: Self.name("a")) === a)
        #expect(registry.namespace(forReading: Self.name("a")) === a)
        #expect(registry.all.map(\.name) == ["a", "b"])
        // The operator's own inputs (an import) are not refused.
        _ = registry.namespace("imported")
        #expect(registry.all.count == 3)
    }

    @Test func aListenerOfANewNameSeesTheWriteThatMakesIt() async throws {
        let registry = NamespaceRegistry(defaultName: "default", rules: .open)
        let visitor = registry.namespace(forReading: Self.name("fresh"))
        let sink = RecordingSink()
        _ = try await visitor.listen(DataPath(keys: ["room"]), as: Self.anonymous, sink: sink, now: 0)
        // A second reader of the same name shares the visitor while it is held.
        #expect(registry.namespace(forReading: Self.name("fresh")) === visitor)
        #expect(registry.all.isEmpty)
        let written = try registry.namespace(forWriting: Self.name("fresh"))
        #expect(written === visitor)
        _ = try await written.write(.set(path: "/room", value: "hello"), as: Self.anonymous, now: 0)
        #expect(sink.received.count == 1)
        #expect(registry.all.map(\.name) == ["fresh"])
        #expect(registry.existing(Self.name("fresh")) === visitor)
    }

    @Test func aReleasedVisitorIsForgotten() async throws {
        let registry = NamespaceRegistry(defaultName: "default", rules: .open)
        weak var released: Namespace?
        do {
            let visitor = registry.namespace(forReading: Self.name("gone"))
            released = visitor
            #expect(released != nil)
        }
        #expect(released == nil, "the registry does not keep a visitor alive")
        for i in 0..<1000 { _ = registry.namespace(forReading: Self.name("n\(i)")) }
        #expect(registry.all.isEmpty)
    }

    @Test func visitorsInUseFollowTheServerRules() async throws {
        let registry = NamespaceRegistry(defaultName: "default", rules: .open)
        let visitor = registry.namespace(forReading: Self.name("v"))
        let closed = NamespaceRules(ruleset: try Ruleset(source: #"{"rules": {".read": false}}"#), source: "", origin: .file("r.json"))
        #expect(registry.replaceDefaultRules(closed).isEmpty, "visitors are not reported as namespaces")
        await #expect(throws: ServerError.self) { try await visitor.read(DataPath(keys: []), as: Self.anonymous, now: 0) }
        await #expect(throws: ServerError.self) { try await registry.namespace(forReading: Self.name("w")).read(DataPath(keys: []), as: Self.anonymous, now: 0) }
    }

    @Test func aStoredNameThatIsNotANamespaceNameIsKeptWithAWarning() async {
        var contents = DurableStore.Contents()
        contents.namespaces = ["good": Database(), "../x": Database()]
        let registry = NamespaceRegistry(defaultName: "default", rules: .open)
        let warnings = registry.restore(contents)
        #expect(warnings == [#"namespace "../x" in the data directory is not a namespace name (a database name has 1 to 63 lowercase letters (a-z), digits and hyphens, and does not start or end with a hyphen): requests cannot reach it and exports leave it out"#])
        #expect(registry.all.map(\.name) == ["../x", "good"])
    }
}

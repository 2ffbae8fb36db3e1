import Testing

@testable import DatabaseServer

/// The server's one table of paths: every door routes by it.
@Suite struct RouteTests {
    static let routes: [(path: String, route: Route)] = [
        ("/.ws?v=5&ns=demo", .webSocket), ("/.ws", .webSocket), ("/.ws/x", .page([".ws", "x"])),
        ("/.lp?start=t&cb=1", .longPoll), ("/.lp", .longPoll),
        ("/", .page([])), ("/favicon.ico", .page(["favicon.ico"])), ("/.inspect/page.js", .page([".inspect", "page.js"])),
        ("/.settings/rules.json", .rules), ("/.settings/other.json", .notFound),
        ("/.inspect/coverage.json?ns=demo", .inspect([".inspect", "coverage"])),
        ("/a/b/.priority.json", .priority(["a", "b"])), ("/.priority.json", .priority([])),
        ("/users/alice.json?auth=x", .data(["users", "alice"])), ("/.json", .data([])), ("/a%2Fb.json", .data(["a/b"])),
        ("/%zz.json", .notFound),
    ]

    @Test(arguments: routes) func everyPathHasOneRoute(_ path: String, _ route: Route) {
        #expect(Route.of(path: path) == route)
        // The edge's quick test agrees with the table.
        #expect(Route.isLongPoll(path: path) == (route == .longPoll))
    }
}

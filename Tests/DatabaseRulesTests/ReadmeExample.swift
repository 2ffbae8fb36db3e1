// The library example of README.md, compiled as part of the tests: ReadmeExampleTests checks
// that the README shows exactly the code between the two markers below.
import DatabaseRules

// README example begin
/// A service that keeps one app's data behind its rules. It is `Sendable`: share one instance
/// between every request handler and thread.
final class StarService: Sendable {
    let rules: Ruleset              // compiled once, immutable
    let database: SharedDatabase    // reads see snapshots; writes are decided and committed one at a time

    init(rulesFile: String, seed json: String) throws {
        rules = try Ruleset(contentsOfFile: rulesFile)
        database = SharedDatabase(try Database(json: json))
    }

    /// Stars a post: one atomic multi-path update, or the reason it was denied.
    func star(post: String, by uid: String, author: String) -> String? {
        let decision = database.apply(
            .update(path: "/", values: [
                ("posts/\(post)/stars/\(uid)", true),
                ("posts/\(post)/starCount", .increment(1)),
                ("user-posts/\(author)/\(post)/starCount", .increment(1)),
            ]),
            rules: rules, auth: .user(uid: uid), explain: true)
        return decision.allowed ? nil : decision.explanation?.text   // which path, which rule, where
    }

    /// The current value of a post's counter (`.null` when there is none).
    func starCount(of post: String) -> DataValue {
        database.current.value(at: "/posts/\(post)/starCount")
    }
}
// README example end

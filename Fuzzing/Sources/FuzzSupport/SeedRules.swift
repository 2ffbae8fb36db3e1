import DatabaseRules
import Foundation

/// The rules files the engine target decides against: the repository's examples and the
/// corpus in Tests/Data, located from this source file so that the fuzzer runs from any directory.
public enum SeedRules {
    /// The repository root, which holds `Fuzzing/Sources/FuzzSupport`.
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The files, relative to the repository.
    static let files = [
        "rules-examples/blog/database.rules.json",
        "Tests/Data/corpus/achievements/database.rules.json",
        "Tests/Data/corpus/firechat/rules.json",
        "Tests/Data/corpus/friendlypix/database-rules.json",
        "Tests/Data/corpus/react-most-wanted/database.rules.json",
        "Tests/Data/corpus/setwithfriends/database.rules.json",
        "Tests/Data/corpus/targaryen-integration/rules.json",
    ]

    /// Every seed file that exists and compiles, in the order above (the blog rules first).
    public static let compiled: [CompiledRuleset] = files.compactMap { relative in
        let path = repository.appendingPathComponent(relative).standardizedFileURL.path
        return try? Ruleset(contentsOfFile: path).compiled
    }
}

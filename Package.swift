// swift-tools-version: 6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "swift-database-rules",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "DatabaseRules", targets: ["DatabaseRules"]),
        // The lints and the access model (`Ruleset.lintFindings()`, `AccessModel`), for tools;
        // a server embedding the rules needs only DatabaseRules.
        .library(name: "RulesLint", targets: ["RulesLint"]),
        .executable(name: "rules", targets: ["rules"]),
        // `swift package check-rules` in a package that depends on this one.
        .plugin(name: "CheckRulesPlugin", targets: ["CheckRulesPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        // `swift package generate-documentation` (the DocC plugin; nothing is built with it otherwise).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        // The HTTP server of `rules serve`.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.34.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.14.0"),
        // Durable storage for `rules serve --data`: SQLite (the system library) through GRDB.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // PCRE2 from the system (Debian: libpcre2-dev).
        .systemLibrary(
            name: "CPCRE2",
            pkgConfig: "libpcre2-8",
            providers: [.apt(["libpcre2-dev"]), .brew(["pcre2"])]
        ),
        // Z3 from the system (Debian: libz3-dev), for the access model's solver only.
        .systemLibrary(
            name: "CZ3",
            pkgConfig: "z3",
            providers: [.apt(["libz3-dev"]), .brew(["z3"])]
        ),
        // Source files, locations, diagnostics, the relaxed JSON reader, the expression lexer and parser.
        .target(name: "RulesSyntax", swiftSettings: swiftSettings),
        // The rules document, scopes, static types, checks, regex subset, bytecode and disassembler.
        .target(name: "RulesCompiler", dependencies: ["RulesSyntax", "CPCRE2"], swiftSettings: swiftSettings),
        // Data tree, snapshots, the VM and the read/write/update engine.
        .target(name: "RulesRuntime", dependencies: ["RulesCompiler", "RulesSyntax", "CPCRE2"], swiftSettings: swiftSettings),
        // The small public API for servers.
        .target(
            name: "DatabaseRules",
            dependencies: ["RulesRuntime", "RulesCompiler", "RulesSyntax"],
            swiftSettings: swiftSettings
        ),
        // The rules language as satisfiability questions for Z3: a symbolic tree before and after an
        // operation, the cascade, and a model read back as concrete data (the access model's solver).
        .target(name: "RulesSolver", dependencies: ["CZ3", "RulesCompiler", "RulesSyntax"], swiftSettings: swiftSettings),
        // The lints (one type per lint, listed in one registry), the access model and its threat
        // classes, and the witness search that runs their counterexamples through the engine.
        .target(
            name: "RulesLint",
            dependencies: ["DatabaseRules", "RulesRuntime", "RulesCompiler", "RulesSyntax", "RulesSolver"],
            swiftSettings: swiftSettings
        ),
        // Rule coverage: which rules were evaluated, how, and the report; used by the test runner
        // and by the server.
        .target(name: "RulesCoverage", dependencies: ["RulesRuntime", "RulesCompiler", "RulesSyntax"], swiftSettings: swiftSettings),
        // The test runner: spec files (YAML, JSON), simulated users, steps, reporters.
        .target(
            name: "RulesTesting",
            dependencies: ["DatabaseRules", "RulesCoverage", "RulesRuntime", "RulesCompiler", "RulesSyntax", .product(name: "Yams", package: "Yams")],
            swiftSettings: swiftSettings
        ),
        // `rules serve`: namespaces, stores, listeners and event fan-out (the database), and the
        // transports that speak to clients (REST, streaming, the SDKs' WebSocket protocol).
        .target(
            name: "DatabaseServer",
            dependencies: [
                "DatabaseRules", "RulesCoverage",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            // The page (`rules serve`'s `/`), compiled into the binary.
            resources: [.embedInCode("Page/page.html"), .embedInCode("Page/page.js"), .embedInCode("Page/page.css")],
            swiftSettings: swiftSettings
        ),
        // Counts heap allocations for `rules bench` (malloc interposition; glibc only).
        .target(name: "CMallocCounter"),
        // `rules bench`: timing, the built-in suite and the hand-written Swift baseline.
        .target(
            name: "RulesBenchmark",
            dependencies: ["DatabaseRules", "RulesRuntime", "RulesCompiler", "RulesSyntax", "RulesTesting"],
            swiftSettings: swiftSettings
        ),
        // `rules lsp`: the language server (JSON-RPC over standard input and output) for editors.
        .target(
            name: "RulesLanguageServer",
            dependencies: ["RulesLint", "RulesCompiler", "RulesSyntax"],
            swiftSettings: swiftSettings
        ),
        // Subcommands and reporters (a library so that tests can run them in-process).
        .target(
            name: "RulesCommands",
            dependencies: [
                "DatabaseRules", "RulesRuntime", "RulesCompiler", "RulesSyntax", "RulesTesting", "RulesBenchmark",
                "DatabaseServer", "RulesLint", "RulesLanguageServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: swiftSettings
        ),
        // Test helpers: the repository's paths (its test data in Tests/Data) and temporary directories.
        .target(name: "RulesTestSupport", swiftSettings: swiftSettings),
        // A bare Hummingbird route, the baseline of the server benchmarks.
        .executableTarget(
            name: "BareServer",
            dependencies: [.product(name: "Hummingbird", package: "hummingbird"), .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings),
        // The benchmark suite without the server's dependencies, for profiling under valgrind.
        // It alone links the counting allocator (`rules` and the server keep the system's).
        .executableTarget(name: "rules-profile", dependencies: ["RulesBenchmark", "CMallocCounter"], swiftSettings: swiftSettings),
        .executableTarget(name: "rules", dependencies: ["RulesCommands", .product(name: "ArgumentParser", package: "swift-argument-parser")], swiftSettings: swiftSettings),
        // `swift package check-rules`: `rules check` on the rules of the package it runs in (the
        // `rules` named by CHECK_RULES_TOOL, else this package's, built on first use).
        .plugin(
            name: "CheckRulesPlugin",
            capability: .command(intent: .custom(verb: "check-rules", description: "Check the package's Firebase Realtime Database rules with `rules check`."))
        ),

        .testTarget(name: "RulesSyntaxTests", dependencies: ["RulesTestSupport", "RulesSyntax"], swiftSettings: swiftSettings),
        .testTarget(
            name: "RulesCompilerTests", dependencies: ["RulesTestSupport", "RulesCompiler", "RulesSyntax"], exclude: ["Golden"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "RulesRuntimeTests", dependencies: ["RulesTestSupport", "RulesRuntime", "RulesCompiler", "RulesSyntax"], exclude: ["Golden"],
            swiftSettings: swiftSettings),
        .testTarget(name: "DatabaseRulesTests", dependencies: ["RulesTestSupport", "DatabaseRules"], swiftSettings: swiftSettings),
        .testTarget(
            name: "RulesLintTests", dependencies: ["RulesTestSupport", "RulesLint", "RulesSolver", "DatabaseRules", "RulesCompiler", "RulesSyntax"],
            exclude: ["Golden"],
            swiftSettings: swiftSettings),
        .testTarget(name: "RulesTestingTests", dependencies: ["RulesTestSupport", "RulesTesting", "RulesCoverage"], swiftSettings: swiftSettings),
        .testTarget(
            name: "ReferenceTests", dependencies: ["RulesTestSupport", "RulesRuntime", "RulesCompiler", "RulesSyntax"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "RulesCommandsTests",
            dependencies: ["RulesTestSupport", "RulesCommands", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "DatabaseServerTests",
            dependencies: [
                "RulesTestSupport", "DatabaseServer", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"), .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"), .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "RulesLanguageServerTests", dependencies: ["RulesTestSupport", "RulesLanguageServer", "RulesCompiler", "RulesSyntax"],
            exclude: ["Golden"], swiftSettings: swiftSettings),
        .testTarget(name: "RulesBenchmarkTests", dependencies: ["RulesTestSupport", "RulesBenchmark", "CMallocCounter"], swiftSettings: swiftSettings),
    ],
    swiftLanguageModes: [.v6]
)

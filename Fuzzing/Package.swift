// swift-tools-version: 6.1
// libFuzzer targets for swift-database-rules. A separate package so that the normal build and CI
// never compile them; see README.md for how to build and run them (Fuzzing/run.sh).
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let rules = Target.Dependency.product(name: "DatabaseRules", package: "swift-database-rules")

let package = Package(
    name: "Fuzzing",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "swift-database-rules", path: ".."),
    ],
    targets: [
        // libFuzzer's driver entry point.
        .target(name: "CLibFuzzer"),
        // Decoding fuzz bytes into values, and the locations of the seed rules files.
        .target(name: "FuzzSupport", dependencies: [rules, "CLibFuzzer"], swiftSettings: swiftSettings),
        .executableTarget(name: "FuzzJSONReader", dependencies: [rules, "FuzzSupport"], swiftSettings: swiftSettings),
        .executableTarget(name: "FuzzRulesCompiler", dependencies: [rules, "FuzzSupport"], swiftSettings: swiftSettings),
        .executableTarget(name: "FuzzDataReader", dependencies: [rules, "FuzzSupport"], swiftSettings: swiftSettings),
        .executableTarget(name: "FuzzEngine", dependencies: [rules, "FuzzSupport"], swiftSettings: swiftSettings),
    ],
    swiftLanguageModes: [.v6]
)

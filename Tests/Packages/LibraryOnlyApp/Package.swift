// swift-tools-version: 6.1
// An app that depends on the library alone, by path, as a server author's would: it must build
// without the server's, the tool's or the test runner's dependencies (Tests/ClientTests/
// test_library_package.py builds it). `Forbidden` names types the library keeps to itself and
// must not compile.
import PackageDescription

let package = Package(
    name: "LibraryOnlyApp",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "swift-database-rules", path: "../../..")],
    targets: [
        .executableTarget(name: "App", dependencies: [.product(name: "DatabaseRules", package: "swift-database-rules")]),
        .executableTarget(name: "Forbidden", dependencies: [.product(name: "DatabaseRules", package: "swift-database-rules")]),
    ]
)

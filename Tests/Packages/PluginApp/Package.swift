// swift-tools-version: 6.1
// An app's package that depends on swift-database-rules by path for its command plugin:
// `swift package check-rules` checks the app's database.rules.json (Tests/ClientTests/
// test_check_rules_plugin.py copies this package, points the dependency at the repository and runs it).
import PackageDescription

let package = Package(
    name: "PluginApp",
    platforms: [.macOS(.v15), .iOS(.v17)],
    dependencies: [.package(name: "swift-database-rules", path: "../../..")],
    targets: [.target(name: "PluginApp")]
)

import Foundation
import RulesCompiler
import RulesLint
import RulesSyntax
import Yams

/// A project's settings for `rules check`: the file `.database-rules.yaml`, found in the working
/// directory or the nearest directory above it, up to the repository's root (the directory holding
/// `.git`); see `docs/configuration.md`.
///
/// ```yaml
/// rules: [database.rules.json]      # what to check when no path is given
/// lints:                            # per lint code: off, warning or error
///   public-read: off
///   authorization-in-validate: error
/// baseline: lint-baseline.json
/// documentation: https://example.com/rules-docs/   # base of SARIF's helpUri
/// ```
///
/// Paths are relative to the directory of the file. Options given on the command line win over
/// the file: paths over `rules`, `--baseline` over `baseline`, `--enable`/`--disable` over `lints`.
package struct ProjectConfiguration: Sendable, Equatable {
    /// The name looked for.
    package static let fileName = ".database-rules.yaml"

    /// The file, as found or given (relative to the working directory when found by the search).
    package var path: String
    /// The file's directory, as a path usable from the working directory (`.`, `..`, ...).
    package var directory: String
    /// Files or directories to check when no path is given, relative to the working directory.
    package var rules: [String]?
    /// Lint levels: `nil` severity turns the lint off.
    package var lints: [LintCode: LintLevel] = [:]
    /// The baseline file, relative to the working directory.
    package var baseline: String?
    /// The base address of the documentation (SARIF's `helpUri`).
    package var documentation: String?

    /// How a project wants a lint reported.
    package enum LintLevel: String, Sendable, Equatable, CaseIterable {
        case off, warning, error
    }

    /// The keys the file may hold.
    package static let keys = ["rules", "lints", "baseline", "documentation"]

    /// A malformed configuration: the message names the file, the line and column, and the fix.
    package struct LoadError: Error, CustomStringConvertible, Equatable {
        package let description: String
    }

    /// The configuration file at or above `workingDirectory`, as a path relative to it, or nil.
    package static func discover(from workingDirectory: String = FileManager.default.currentDirectoryPath) -> String? {
        var relative = ""
        for dir in LexicalPath.ancestors(of: LexicalPath.absolute(workingDirectory, workingDirectory: "/")) {
            if FileManager.default.fileExists(atPath: LexicalPath.child(fileName, of: dir)) { return relative + fileName }
            // The search ends at the repository's root: a checkout never picks up a file above it.
            if FileManager.default.fileExists(atPath: LexicalPath.child(".git", of: dir)) { return nil }
            relative += "../"
        }
        return nil
    }

    /// Reads and validates the file at `path`.
    package static func load(_ path: String) throws -> ProjectConfiguration {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LoadError(description: "\(path): cannot read the configuration file")
        }
        return try parse(String(decoding: data, as: UTF8.self), path: path)
    }

    /// Parses configuration text; `path` names the file in errors and anchors relative paths.
    package static func parse(_ text: String, path: String) throws -> ProjectConfiguration {
        let directory = (path as NSString).deletingLastPathComponent
        var out = ProjectConfiguration(path: path, directory: directory.isEmpty ? "." : directory)
        func fail(_ node: Node?, _ message: String) -> LoadError {
            let mark = node?.mark.map { "\($0.line):\($0.column): " } ?? ""
            return LoadError(description: "\(path):\(mark.isEmpty ? " " : mark)\(message)")
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            throw LoadError(description: "\(path): not valid YAML: \(error)")
        }
        guard let root else { return out }
        guard let mapping = root.mapping else { throw fail(root, "the configuration must be a mapping of \(keys.joined(separator: ", "))") }
        func resolve(_ entry: String) -> String {
            entry.hasPrefix("/") || out.directory == "." ? entry : out.directory + "/" + entry
        }
        func string(_ node: Node, _ what: String) throws -> String {
            guard let s = node.scalar?.string, !s.isEmpty else { throw fail(node, "\(what) must be a non-empty string") }
            return s
        }
        for (keyNode, value) in mapping {
            let key = keyNode.scalar?.string ?? ""
            switch key {
            case "rules":
                if value.scalar != nil {
                    out.rules = [resolve(try string(value, "rules"))]
                } else if let list = value.sequence {
                    out.rules = try list.map { resolve(try string($0, "each entry of rules")) }
                    if out.rules?.isEmpty == true { throw fail(value, "rules is empty: name at least one file or directory") }
                } else {
                    throw fail(value, "rules must be a file or directory, or a list of them")
                }
            case "lints":
                guard let levels = value.mapping else { throw fail(value, "lints must map lint codes to off, warning or error") }
                for (codeNode, levelNode) in levels {
                    let name = codeNode.scalar?.string ?? ""
                    guard let code = LintCode(rawValue: name) else {
                        throw fail(codeNode, "unknown lint code '\(name)'; the codes are: \(LintCode.allCases.map(\.rawValue).joined(separator: ", "))")
                    }
                    // YAML 1.1 reads a bare `off` as false; accept both spellings.
                    let raw = levelNode.scalar?.string ?? ""
                    guard let level = LintLevel(rawValue: raw == "false" ? "off" : raw) else {
                        throw fail(levelNode, "the level of \(name) must be off, warning or error (got '\(raw)')")
                    }
                    out.lints[code] = level
                }
            case "baseline":
                out.baseline = resolve(try string(value, "baseline"))
            case "documentation":
                out.documentation = try string(value, "documentation")
            default:
                throw fail(keyNode, "unknown key '\(key)'; the keys are: \(keys.joined(separator: ", "))")
            }
        }
        return out
    }

    /// The lint configuration: the defaults with this file's levels applied.
    package func lintConfiguration(base: LintConfiguration = .default) -> LintConfiguration {
        var c = base
        for (code, level) in lints {
            switch level {
            case .off: c.enabled.remove(code)
            case .warning:
                c.enabled.insert(code)
                c.severities[code] = nil
            case .error:
                c.enabled.insert(code)
                c.severities[code] = .error
            }
        }
        return c
    }
}

import ArgumentParser
import Foundation
import RulesLint
import RulesSyntax

/// `rules diff OLD NEW` / `rules diff --base REF FILE`: what a change to the rules opened or
/// closed, each difference with a witness the engine allows on one version and denies on the other.
package struct DiffCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show what a change to a rules file newly allows or denies, each change proven by a witness run on both versions.",
        discussion: """
            Exit status: 1 when anything is newly allowed (unless --allow-loosening), 0 otherwise; \
            2 when a version cannot be read (or git cannot give the --base version).
            """
    )

    package enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, markdown, sarif
    }

    @Argument(help: "OLD NEW, or with --base, the file in the working tree.")
    package var files: [String] = []

    @Option(help: "Compare the file in the working tree with the same file at this git commit (e.g. origin/main).")
    package var base: String?

    @Option(help: "Output format: text, json, markdown or sarif.")
    package var format: Format = .text

    @Flag(help: "Exit 0 even when something is newly allowed.")
    package var allowLoosening = false

    @Option(help: "Write each change as a `rules test` spec in this directory: it passes on the new version and fails on the old.")
    package var witnessSpec: String?

    @Option(help: "Write the report to this file instead of standard output.")
    package var outputFile: String?

    @OptionGroup(title: "Solver")
    package var solver: SolverOptions

    package init() {}

    package func validate() throws {
        if base == nil, files.count != 2 { throw ValidationError("give two files (OLD NEW), or one file with --base REF") }
        if base != nil, files.count != 1 { throw ValidationError("with --base, give the one file in the working tree") }
    }

    package func run() throws {
        let oldName: String
        let old: AccessInput
        let newPath: String
        if let base {
            newPath = files[0]
            oldName = "\(base):\(newPath)"
            old = try AccessInput.load(oldName, bytes: try Self.gitShow(base, newPath))
        } else {
            newPath = files[1]
            oldName = files[0]
            old = try AccessInput.load(files[0])
        }
        let new = try AccessInput.load(newPath)
        let diff = AccessDiff.compare(old: (old.rules, old.tree), new: (new.rules, new.tree), solver: solver.budget)
        let report = AccessDiffReport(diff: diff, oldName: oldName, newName: newPath)
        let text: String
        switch format {
        case .text: text = report.text()
        case .json: text = report.json().rendered() + "\n"
        case .markdown: text = report.markdown()
        case .sarif: text = report.sarif(newFile: new.file, uri: newPath, version: RulesTool.version).rendered() + "\n"
        }
        if let outputFile {
            do { try Data(text.utf8).write(to: URL(fileURLWithPath: outputFile)) } catch {
                FileHandle.standardError.write(Data("error: cannot write \(outputFile): \(error.localizedDescription)\n".utf8))
                throw ExitCode(2)
            }
        } else {
            print(text, terminator: "")
        }
        if let witnessSpec { try writeSpecs(diff, to: witnessSpec, rulesPath: newPath) }
        if diff.loosens && !allowLoosening { throw ExitCode(1) }
    }

    private func writeSpecs(_ diff: AccessDiff, to dir: String, rulesPath: String) throws {
        let fm = FileManager.default
        do { try fm.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
            FileHandle.standardError.write(Data("error: cannot create \(dir): \(error.localizedDescription)\n".utf8))
            throw ExitCode(2)
        }
        let cwd = fm.currentDirectoryPath
        let absoluteDir = LexicalPath.absolute(dir, workingDirectory: cwd)
        let rules = LexicalPath.absolute(rulesPath, workingDirectory: cwd)
        let relative = WitnessSpecWriter.relative(rules, from: absoluteDir)
        let base = rules.split(separator: "/").last.map(String.init) ?? "rules"
        for (i, c) in diff.changes.enumerated() {
            let name = "\(base).diff.\(i + 1).test.yaml"
            do {
                try Data(DiffSpec.render(c, rulesPath: relative).utf8).write(to: URL(fileURLWithPath: LexicalPath.child(name, of: absoluteDir)))
            } catch {
                FileHandle.standardError.write(Data("error: cannot write \(name): \(error.localizedDescription)\n".utf8))
                throw ExitCode(2)
            }
        }
    }

    /// The bytes of `path` at a git commit (`git show REF:./path`, run in the file's directory).
    static func gitShow(_ ref: String, _ path: String) throws -> [UInt8] {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", url.deletingLastPathComponent().path, "show", "\(ref):./\(url.lastPathComponent)"]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        do { try process.run() } catch {
            FileHandle.standardError.write(Data("error: cannot run git: \(error.localizedDescription)\n".utf8))
            throw ExitCode(2)
        }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let message = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            FileHandle.standardError.write(Data("error: git cannot give \(ref):\(path): \(String(decoding: message, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))\n".utf8))
            throw ExitCode(2)
        }
        return Array(data)
    }
}

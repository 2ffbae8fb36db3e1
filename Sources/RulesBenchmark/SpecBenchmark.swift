import DatabaseRules
import Foundation
import RulesCompiler
import RulesRuntime
import RulesSyntax
import RulesTesting

/// Times every step of every test of loaded specs, each from the state before the step: the
/// write is decided, its new tree built, but not applied. Steps replay as `rules test` runs
/// them (``TestReplay``: same clock, same push keys), so every step sees the state its test gives it.
package struct SpecBenchmark: Sendable {
    /// The timer for decisions.
    package var timer: BenchTimer
    /// The timer for compiling rules files.
    package var compileTimer: BenchTimer
    /// The clock for tests without `now` (ms); fixed so that runs repeat.
    package var startTime: Double

    /// Creates a benchmark.
    package init(timer: BenchTimer, compileTimer: BenchTimer, startTime: Double = 1_700_000_000_000) {
        self.timer = timer
        self.compileTimer = compileTimer
        self.startTime = startTime
    }

    /// Times the steps of `spec`; `progress` is called before each step with a label.
    package func operations(_ spec: TestSpec, progress: (String) -> Void = { _ in }) -> [OperationTiming] {
        var out: [OperationTiming] = []
        let engine = spec.rules.engine
        for test in spec.tests {
            var replay = TestReplay(test, in: spec, startTime: startTime)
            for (i, step) in test.steps.enumerated() {
                let (operation, now) = replay.operation(step)
                progress("\(spec.path): \(test.name), step \(i + 1)")
                let state = replay.root
                // Scratch storage reused across decisions, as a server keeps one per thread.
                var scratch = DecisionScratch()
                let stats = timer.measure { engine.decide(operation, on: state, auth: step.auth, now: now, scratch: &scratch) }
                let decision = engine.decide(operation, on: state, auth: step.auth, now: now)
                replay.apply(decision, of: operation)
                out.append(OperationTiming(
                    file: spec.path, test: test.name, step: i + 1, kind: operation.kindName,
                    summary: "\(step.operation.summary) as \(step.caller)", allowed: decision.allowed, stats: stats))
            }
        }
        return out
    }

    /// Times loading (reading from disk when the file exists), checking and compiling a rules
    /// source; the figure is in milliseconds.
    package func compile(_ source: SourceFile) -> FileTiming {
        let onDisk = FileManager.default.fileExists(atPath: source.path)
        let stats = compileTimer.measure { () -> Bool in
            var file = source
            if onDisk, let data = FileManager.default.contents(atPath: source.path) {
                file = SourceFile(path: source.path, bytes: [UInt8](data))
            }
            return RulesCompiler.compile(file).ruleset != nil
        }
        return FileTiming(file: source.path, compileMs: stats.median / 1e6, stats: stats)
    }

    /// Times `compile(_:)` for a file path; nil with a message when it cannot be read.
    package func compile(path: String) -> Result<FileTiming, BenchError> {
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(BenchError("\(path): cannot read the file"))
        }
        let file = SourceFile(path: path, bytes: [UInt8](data))
        if RulesCompiler.compile(file).ruleset == nil {
            return .failure(BenchError("\(path): the rules do not compile (run `rules check \(path)`)"))
        }
        return .success(compile(file))
    }
}

/// A benchmark input that cannot be used.
package struct BenchError: Error, Sendable, CustomStringConvertible {
    /// The message, starting with the file.
    package var message: String
    /// Creates an error.
    package init(_ message: String) { self.message = message }
    /// The message.
    package var description: String { message }
}

import DatabaseRules
import RulesRuntime

/// The state one test's steps run on, as `rules test` replays them: the test's clock, the tree
/// built from its data and seeds, and push keys from a fixed seed (the same on every run).
/// `rules bench` replays tests the same way, so every step sees the state its test gives it.
package struct TestReplay: Sendable {
    /// The test's clock (ms): its `now`, else the spec's, else the default.
    package let clock: Double
    /// The tree the next step is decided on.
    package private(set) var root: DataNode?
    private var pushKeys = PushKey(seed: 0)

    /// The state before the first step of `test`; `startTime` is the clock when neither the test
    /// nor the spec sets `now`.
    package init(_ test: TestCase, in spec: TestSpec, startTime: Double) {
        self.init(test, in: spec, startTime: startTime, specRoot: nil)
    }

    /// The same, with the tree of the spec's `data` already built for this test's clock
    /// (`specRoot`; nil: build it), so that the tests of a spec share one starting tree.
    package init(_ test: TestCase, in spec: TestSpec, startTime: Double, specRoot: DataNode??) {
        clock = Self.clock(test, in: spec, startTime: startTime)
        var root: DataNode?
        if test.data == nil, let specRoot {
            root = specRoot
        } else {
            root = (test.data ?? spec.data)?.resolved(now: clock, existing: nil)
        }
        for (path, value) in test.seed {
            let node = value.resolved(now: clock, existing: root?.descendant(path.keys))
            root = DataNode.replacing(root, at: path, with: node)
        }
        self.root = root
    }

    /// A test's clock: its `now`, else the spec's, else `startTime`.
    package static func clock(_ test: TestCase, in spec: TestSpec, startTime: Double) -> Double {
        test.now ?? spec.now ?? startTime
    }

    /// The step's time and engine operation (a push takes the next key).
    package mutating func operation(_ step: TestStep) -> (operation: DatabaseOperation, now: Double) {
        let now = step.now ?? clock
        let operation: DatabaseOperation =
            switch step.operation {
            case .read(let p, let q): .read(path: p, query: q)
            case .set(let p, let v): .set(path: p, value: v)
            case .update(let p, let vs): .update(path: p, values: vs)
            case .delete(let p): .delete(path: p)
            case .push(let p, let v): .push(path: p, value: v, key: pushKeys.next(now: now))
            }
        return (operation, now)
    }

    /// Moves to the state after `operation`: an allowed write's new tree.
    package mutating func apply(_ decision: Decision, of operation: DatabaseOperation) {
        if decision.allowed && operation.isWrite { root = decision.newRoot }
    }
}

import Synchronization

/// A one-shot event between tasks: ``wait()`` returns once ``fire()`` has been called (at
/// once, if it has been already).
final class SessionSignal: Sendable {
    private let state = Mutex<(fired: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// Whether it has fired.
    var fired: Bool { state.withLock { $0.fired } }

    /// Fires it (again: no effect).
    func fire() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            if state.fired { return [] }
            state.fired = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Waits until it fires.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.fired { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}

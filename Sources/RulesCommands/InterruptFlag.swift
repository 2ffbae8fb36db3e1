import Dispatch
import Foundation

/// Set when the process gets SIGINT (Ctrl-C), so that a watch loop can stop between runs
/// instead of dying in the middle of one.
final class InterruptFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var interrupted = false
    private let source: any DispatchSourceSignal

    init() {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { [weak self] in self?.set() }
        source.resume()
    }

    private func set() {
        lock.lock()
        interrupted = true
        lock.unlock()
    }

    /// True once SIGINT arrived.
    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return interrupted
    }
}

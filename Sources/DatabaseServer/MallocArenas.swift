import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The C allocator's arenas in the server process. glibc gives threads arenas of their own (up
/// to eight per core); decisions run on dispatch queues whose threads come and go, so a freed
/// megabyte in one arena is not reused by the next write in another, and memory grows with the
/// number of arenas rather than with the data. One arena per core keeps what the server holds
/// close to what it uses (measured by
/// `test_hostile.py::test_a_listener_that_reads_nothing_is_cut_off_and_memory_stays_bounded`).
enum MallocArenas {
    /// Gives the memory freed after a large request back to the system (`malloc_trim`), off
    /// the cooperative threads: without it the C allocator keeps a large request's peak as the
    /// process's size.
    static func giveBack() {
        #if canImport(Glibc)
        typealias Trim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        let trim = unsafeBitCast(symbol, to: Trim.self)
        // Now, and once more when what the request's tasks still held is freed too.
        DispatchQueue.global(qos: .utility).async { _ = trim(0) }
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .milliseconds(500)) { _ = trim(0) }
        #endif
    }

    /// Bytes of body after which a request's memory is given back when it ends.
    static let largeRequestBytes = 4 * 1024 * 1024

    /// Limits the arenas to one per core (at least two); call before the server's threads start.
    static func limitToCores() {
        #if canImport(Glibc)
        // `mallopt` and `M_ARENA_MAX` (-8) are declared in <malloc.h>, which the Glibc module
        // does not export: the function is looked up in the C library itself.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        _ = mallopt(-8, Int32(max(2, ProcessInfo.processInfo.activeProcessorCount)))
        // Fixed thresholds (M_MMAP_THRESHOLD -3, M_TRIM_THRESHOLD -1): glibc otherwise raises
        // both after a large block is freed (up to 32 MB), so that a large request's memory
        // stays with the process. Blocks of 256 KB or more are mapped and unmapped on their
        // own, and more than 1 MB free at the top of a heap is given back.
        _ = mallopt(-3, 256 * 1024)
        _ = mallopt(-1, 1024 * 1024)
        #endif
    }
}

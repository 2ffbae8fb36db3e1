/// How far the import of one namespace file has got: reported while the file is read (after each
/// chunk) and once more when its tree is built (``leaves`` set).
package struct ImportProgress: Sendable, Hashable {
    /// The file's name, such as `blog.json`.
    package var file: String
    /// The bytes read so far.
    package var bytesRead: Int
    /// The file's size when it was opened.
    package var totalBytes: Int
    /// The seconds since reading the file began.
    package var seconds: Double
    /// The number of leaves loaded, once the file is done; nil while it is read.
    package var leaves: Int?

    /// Whether the file is done.
    package var finished: Bool { leaves != nil }

    /// The seconds from `start` until now.
    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = start.duration(to: .now).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }
}

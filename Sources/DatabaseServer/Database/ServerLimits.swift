/// The bounds the server keeps, each documented in `docs/limits.md`.
public struct ServerLimits: Sendable, Hashable {
    /// The largest request body accepted (production's REST write limit is 256 MB); larger
    /// bodies are refused with 413 before they are read whole.
    public var maxBodyBytes: Int = 256 * 1024 * 1024
    /// Events a streaming listener may have waiting unsent; a client that lets more pile up is
    /// cut off (its stream is closed).
    public var maxQueuedEvents: Int = 10_000
    /// Seconds between `keep-alive` events on an idle stream.
    public var keepAliveSeconds: Double = 30

    /// The defaults.
    public init() {}
}

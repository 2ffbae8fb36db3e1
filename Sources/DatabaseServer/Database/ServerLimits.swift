/// The bounds the server keeps, each documented in `docs/limits.md`.
public struct ServerLimits: Sendable, Hashable {
    /// The largest request body accepted (production's REST write limit is 256 MB); larger
    /// bodies are refused with 413 before they are read whole.
    public var maxBodyBytes: Int = 256 * 1024 * 1024
    /// Events a streaming listener may have waiting unsent; a client that lets more pile up is
    /// cut off (its stream is closed).
    public var maxQueuedEvents: Int = 10_000
    /// The largest message a WebSocket client may send, after its pieces are joined; a larger one
    /// closes the connection.
    public var maxWireMessageBytes: Int = 16 * 1024 * 1024
    /// The largest single WebSocket message (one piece of the protocol's own framing; the SDKs
    /// send at most 16,384 UTF-16 units a piece).
    public var maxWireFrameBytes: Int = 1024 * 1024
    /// Seconds between `keep-alive` events on an idle stream.
    public var keepAliveSeconds: Double = 30

    /// The defaults.
    public init() {}
}

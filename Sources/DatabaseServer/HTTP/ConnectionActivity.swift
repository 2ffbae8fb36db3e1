/// What the HTTP layer of a connection (``MalformedRequestHandler``) tells its first handler
/// (``SilentClientHandler``), as an outbound user event: a request began or its response ended,
/// or the connection got an error answer and is to be drained, then closed.
enum ConnectionActivity: Sendable {
    /// A request head arrived. `longLived`: a stream (`Accept: text/event-stream`) or a
    /// WebSocket upgrade, closed at once when the server shuts down; `client` names who opens
    /// it (``ClientKey``), for the connections each client may hold. The event's promise fails
    /// when the client may not hold one more (the connection is then answered 503 and closed).
    case requestStarted(longLived: Bool, client: ClientKey? = nil)
    /// The request's body is being received: the connection is held by `client` until
    /// ``uploadEnded``, and the body must arrive whole within the server's body deadline.
    case uploadStarted(ClientKey)
    /// The request's body has arrived whole.
    case uploadEnded
    /// A response was sent whole.
    case responseEnded
    /// An error answer is being sent: read and drop what the client still sends (so it can read
    /// the answer instead of getting a reset), then close.
    case drainThenClose
    /// Answer with these bytes (a whole HTTP response) below the HTTP layer, drop whatever the
    /// layers above still write, then drain and close: for requests the HTTP layer cannot
    /// answer itself (a head the parser refused, a WebSocket upgrade to a refused host).
    case answerAndClose(String)
}

import Hummingbird
import NIOCore

/// The context of a REST request: Hummingbird's core context, and the connection it came on (a
/// streaming response whose client cannot keep up is cut off by closing it).
struct ServerRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The request's connection.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}

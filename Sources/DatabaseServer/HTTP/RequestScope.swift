import Hummingbird

/// What a door knows about the request it is handling, made once where the request comes in
/// and passed down explicitly: where it comes from (``RequestOrigin``: always present; a door
/// that knows nothing passes ``RequestOrigin/unknown``, which is refused the administrator) and
/// the share of the server's budget of bytes being received that its body is reserved from
/// (given back when the request is answered), and where the decision it causes is kept.
struct RequestScope: Sendable {
    /// The browser context the request shows.
    let origin: RequestOrigin
    /// The request body's reservation.
    let lease: BodyBudget.Lease
    /// Where the namespace keeps the decision the request causes, for the page.
    let capture = DecisionCapture()

    init(origin: RequestOrigin, lease: BodyBudget.Lease) {
        self.origin = origin
        self.lease = lease
    }

    /// The scope of an HTTP request to a server that answers `hosts`: its headers' origin, and
    /// a new lease on `bodies`.
    init(_ request: Request, bodies: BodyBudget, hosts: HostPolicy) {
        self.init(origin: RequestOrigin(request, hosts: hosts), lease: BodyBudget.Lease(bodies))
    }
}

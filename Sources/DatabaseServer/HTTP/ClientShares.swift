/// The shares of one kind of long-lived resource (connection places held by streams, WebSocket
/// connections and request bodies being received; long-polling sessions): a server-wide
/// ``total``, a ``reserve`` that only this machine's clients (``ClientKey/isLocal``) may use,
/// and a per-client share well under the total. Every client, local or not, holds at most
/// ``perClient``; clients that are not local hold together at most `total - reserve`, so that
/// whatever other sites' pages and other machines do, the developer's own pages and tools find
/// places. A client's share is counted apart for each ``Kind`` of place (a client that holds its
/// share of streams may still send a write), the total and the reserve for all kinds together.
/// A value type, kept under its owner's lock.
struct ClientShares: Sendable {
    /// What a place is held for.
    enum Kind: Sendable, Hashable {
        /// A stream, a WebSocket connection, a long-polling session.
        case longLived
        /// A request body being received.
        case upload
    }
    private struct Holder: Hashable {
        let client: ClientKey
        let kind: Kind
    }
    /// The places there are.
    let total: Int
    /// The places only this machine's clients may take: a quarter of the total.
    let reserve: Int
    /// The places one client may hold: the configured share, or an eighth of the total when
    /// none is configured.
    let perClient: Int
    private var byClient: [Holder: Int] = [:]
    /// Places held, by every client.
    private(set) var held = 0
    /// Places held by clients that are not this machine's.
    private(set) var heldByOthers = 0

    /// `perClient` 0: an eighth of the total.
    init(total: Int, perClient: Int) {
        self.total = max(1, total)
        reserve = max(1, self.total / 4)
        self.perClient = perClient > 0 ? min(perClient, self.total) : max(1, self.total / 8)
    }

    /// Why a place is refused.
    enum Refusal: Sendable {
        /// The client holds its share.
        case client
        /// Clients elsewhere hold every place but the reserve.
        case others
        /// Every place is held.
        case total
    }

    /// Why `client` may not take one more place, or nil when it may.
    func refusal(for client: ClientKey, kind: Kind = .longLived) -> Refusal? {
        if held >= total { return .total }
        if byClient[Holder(client: client, kind: kind), default: 0] >= perClient { return .client }
        if !client.isLocal, heldByOthers >= total - reserve { return .others }
        return nil
    }

    /// The places this machine's clients hold.
    var heldLocally: Int { held - heldByOthers }

    /// Counts one place for `client`.
    mutating func add(_ client: ClientKey, kind: Kind = .longLived) {
        byClient[Holder(client: client, kind: kind), default: 0] += 1
        held += 1
        if !client.isLocal { heldByOthers += 1 }
    }

    /// Gives back one place of `client`.
    mutating func remove(_ client: ClientKey, kind: Kind = .longLived) {
        let holder = Holder(client: client, kind: kind)
        guard let count = byClient[holder] else { return }
        if count <= 1 { byClient.removeValue(forKey: holder) } else { byClient[holder] = count - 1 }
        held -= 1
        if !client.isLocal { heldByOthers -= 1 }
    }

    /// The words a refused client is told (`resource`: what it asked for, plural).
    func message(_ refusal: Refusal, client: ClientKey, resource: String, setting: String) -> String {
        switch refusal {
        case .client:
            return "Too many \(resource) from this client (\(client.name)): the limit is \(perClient) of the server's \(total) (rules serve --limit \(setting)=N); close some and retry."
        case .others:
            return "The server's \(resource) for clients elsewhere are all taken (\(heldByOthers) of \(total); \(reserve) are kept for this machine's pages and tools); retry shortly."
        case .total:
            return "The server holds as many \(resource) as it may (\(total)); retry shortly."
        }
    }
}

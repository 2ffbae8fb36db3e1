@testable import DatabaseServer
import NIOCore
import NIOEmbedded
import Testing

/// The shares of long-lived resources: who a client is (``ClientKey``), what one client and
/// clients elsewhere may hold (``ClientShares``), and which connection the table closes when it
/// is full (``ConnectionTable``).
@Suite struct ClientSharesTests {
    static let loopback = try! SocketAddress(ipAddress: "127.0.0.1", port: 50000)
    static let lan = try! SocketAddress(ipAddress: "192.168.1.20", port: 50000)

    @Test func clientsAreKeyedByWhatAPageCannotMultiplyCheaply() {
        func key(_ origin: String?, fetchSite: String? = nil, peer: SocketAddress? = Self.loopback) -> ClientKey {
            ClientKey(origin: RequestOrigin(origin: origin, fetchSite: fetchSite, authority: "127.0.0.1:9000"), peer: peer)
        }
        // Subdomains of one site are one client; a country's second-level domain is kept.
        #expect(key("https://a.evil.example") == key("https://b.evil.example:8443"))
        #expect(key("https://a.evil.example").name == "site evil.example")
        #expect(key("https://x.shop.co.uk").name == "site shop.co.uk")
        #expect(!key("https://a.evil.example").isLocal)
        // This machine: tools, pages on loopback origins, the server's own page.
        #expect(key(nil) == .local)
        #expect(key("http://localhost:3000").isLocal)
        #expect(key("http://127.0.0.1:9000").isLocal)
        #expect(key(nil, fetchSite: "cross-site").isLocal == false)
        #expect(key("null").isLocal == false)
        // Another machine is its address, whatever its headers claim.
        #expect(key("http://localhost:3000", peer: Self.lan) == key(nil, peer: Self.lan))
        #expect(key(nil, peer: Self.lan).name == "address 192.168.1.20")
        #expect(!key(nil, peer: Self.lan).isLocal)
        #expect(ClientKey.isLoopbackAddress("::ffff:127.0.0.1") && ClientKey.isLoopbackAddress("::1"))
    }

    @Test func clientsElsewhereLeaveTheReserveAndEachHoldsItsShare() {
        var shares = ClientShares(total: 40, perClient: 0)
        #expect(shares.reserve == 10 && shares.perClient == 5)
        // Sites held under ever new names together stop short of the reserve.
        for i in 0..<30 { shares.add(ClientKey(name: "site s\(i)", isLocal: false)) }
        #expect(shares.refusal(for: ClientKey(name: "site new", isLocal: false)) == .others)
        // This machine's clients still get their places, each its share.
        for _ in 0..<5 {
            #expect(shares.refusal(for: .local) == nil)
            shares.add(.local)
        }
        #expect(shares.refusal(for: .local) == .client)
        #expect(shares.refusal(for: ClientKey(name: "this machine, origin http://localhost:3000", isLocal: true)) == nil)
        shares.remove(ClientKey(name: "site s0", isLocal: false))
        #expect(shares.refusal(for: ClientKey(name: "site new", isLocal: false)) == nil)
    }

    /// A full table closes the oldest idle connection, else the newest held by a client
    /// elsewhere, else the newest of this machine's beyond the reserve; never one in the reserve.
    @Test func aFullTableShedsTheNewestElsewhereAndNeverTheReserve() throws {
        let table = ConnectionTable(limit: 8, perClient: 0)  // a reserve of 2, a share of 1
        var channels: [EmbeddedChannel] = []
        func open() -> (Int, EmbeddedChannel) {
            let channel = EmbeddedChannel()
            _ = channel.connect(to: Self.loopback)
            channels.append(channel)
            return (table.add(channel), channel)
        }
        let (app, appChannel) = open()
        table.setIdle(app, false)
        #expect(table.hold(app, client: ClientKey(name: "this machine, origin http://localhost:3000", isLocal: true)) == nil)
        var elsewhere: [(Int, EmbeddedChannel)] = []
        for i in 0..<6 {
            let (id, channel) = open()
            table.setIdle(id, false)
            #expect(table.hold(id, client: ClientKey(name: "site s\(i)", isLocal: false)) == nil)
            elsewhere.append((id, channel))
        }
        // The eighth connection fills the table: the newest held elsewhere is closed.
        let (_, _) = open()
        #expect(table.shedCount == 1)
        #expect(!elsewhere.last!.1.isActive)
        #expect(appChannel.isActive)
        #expect(elsewhere.dropLast().allSatisfy { $0.1.isActive })
        // Only this machine's connections held: the one in the reserve stays.
        for (id, channel) in elsewhere.dropLast() {
            try channel.close().wait()
            table.remove(id)
        }
        for _ in 0..<10 { _ = open() }
        #expect(table.count == 7)
        #expect(appChannel.isActive)
    }

    /// The kept-alive connection of this machine's app is closed to make room only after
    /// silent connections, streams held elsewhere and this machine's beyond the reserve.
    @Test func anIdleConnectionOfThisMachineGoesLast() {
        let table = ConnectionTable(limit: 4, perClient: 0)
        func open() -> (Int, EmbeddedChannel) {
            let channel = EmbeddedChannel()
            _ = channel.connect(to: Self.loopback)
            return (table.add(channel), channel)
        }
        let (app, appChannel) = open()
        table.setIdle(app, false)
        table.setIdle(app, true, local: true)
        let (held, heldChannel) = open()
        table.setIdle(held, false)
        #expect(table.hold(held, client: ClientKey(name: "site a.example", isLocal: false)) == nil)
        let (_, silent) = open()
        let (busy, _) = open()  // fills the table: the silent connection goes first
        table.setIdle(busy, false)  // a short request being answered: never closed
        #expect(!silent.isActive && appChannel.isActive && heldChannel.isActive)
        _ = open()  // then the stream held elsewhere
        #expect(!heldChannel.isActive && appChannel.isActive)
    }
}

import DatabaseRules
import Testing

@testable import DatabaseServer

/// Query selection on the dinosaur data of the firebase-admin integration suite: the same key
/// lists that suite expects from the production server.
@Suite struct QueryTests {
    static let dinosaurs = try! Database(json: """
        {
          "bruhathkayosaurus": {"appeared": -70000000, "height": 25, "length": 44, "order": "saurischia", "vanished": -70000000, "weight": 135000, "ratings": {"pos": 1}},
          "earlosaurus": {"appeared": -70000000, "height": 1.3, "length": 1.5, "order": "saurischia", "vanished": -70000000, "weight": 135000, "ratings": {"pos": 2}},
          "linhenykus": {"appeared": -85000000, "height": 0.6, "length": 1, "order": "theropoda", "vanished": -75000000, "weight": 3, "ratings": {"pos": 3}},
          "pterodactyl": {"appeared": -150000000, "height": 0.6, "length": 0.8, "order": "pterosauria", "vanished": -148500000, "weight": 2, "ratings": {"pos": 4}},
          "stegosaurus": {"appeared": -155000000, "height": 4, "length": 9, "order": "ornithischia", "vanished": -150000000, "weight": 2500, "ratings": {"pos": 5}},
          "triceratops": {"appeared": -68000000, "height": 3, "length": 8, "order": "ornithischia", "vanished": -66000000, "weight": 11000, "ratings": {"pos": 6}}
        }
        """)

    static func keys(_ query: Query) -> [String] {
        let selected = query.select(dinosaurs.root)
        // Keys in the query's order, as a client sorts the result.
        var pairs: [(String, DataNode)] = []
        selected?.forEachChild { pairs.append(($0, $1)) }
        return pairs.sorted { a, b in
            let c = query.sortValue(key: a.0, child: a.1).compare(query.sortValue(key: b.0, child: b.1))
            return c != 0 ? c < 0 : KeyOrder.less(a.0, b.0)
        }.map(\.0)
    }

    static let height = Query.Order.child(["height"])

    @Test(arguments: [
        (Query(order: height, limitToFirst: 2), ["linhenykus", "pterodactyl"]),
        (Query(order: height, limitToLast: 2), ["stegosaurus", "bruhathkayosaurus"]),
        (Query(order: height, startAt: .value(.number(3.5))), ["stegosaurus", "bruhathkayosaurus"]),
        (Query(order: height, endAt: .value(.number(3.5))), ["linhenykus", "pterodactyl", "earlosaurus", "triceratops"]),
        (Query(order: height, equalTo: .value(.number(0.6))), ["linhenykus", "pterodactyl"]),
        (Query(order: .key, limitToFirst: 2), ["bruhathkayosaurus", "earlosaurus"]),
        (Query(order: .key, startAt: .value(.string("p")), endAt: .value(.string("t"))), ["pterodactyl", "stegosaurus"]),
        (Query(order: .child(["ratings", "pos"]), limitToLast: 2), ["stegosaurus", "triceratops"]),
        (Query(order: height, startAt: .null, limitToFirst: 1), ["linhenykus"]),
        (Query(order: .child(["missing"]), equalTo: .null, limitToFirst: 2), ["bruhathkayosaurus", "earlosaurus"]),
        (Query(order: height, limitToFirst: 0), []),
    ])
    func selectsTheUpstreamKeys(query: Query, expected: [String]) {
        #expect(Self.keys(query) == expected)
    }

    @Test func valueOrderPutsKindsInTheDatabaseOrder() throws {
        let scores = try Database(json: #"{"a":"x","b":true,"c":3,"d":{"k":1},"e":false,"f":-1}"#)
        let query = Query(order: .value, startAt: .value(.bool(true)), endAt: .value(.string("x")))
        var kept: [String] = []
        query.select(scores.root)?.forEachChild { key, _ in kept.append(key) }
        #expect(kept.sorted() == ["a", "b", "c", "f"])
    }

    @Test func rulesSeeTheQuery() {
        #expect(Query().ruleParameters == QueryParameters(orderByKey: true))
        let q = Query(order: .child(["owner"]), equalTo: .value(.string("bob")), limitToFirst: 3).ruleParameters
        #expect(q.orderByChild == "owner" && q.equalTo == .string("bob") && q.limitToFirst == 3 && !q.orderByKey)
        #expect(Query(order: .value).requiredIndex == ".value")
        #expect(Query(order: .child(["ratings", "pos"])).requiredIndex == "ratings/pos")
        #expect(Query(order: .key).requiredIndex == nil)
    }
}

import DatabaseRules
import Testing

/// The node hash against the vectors both the JavaScript SDK and an independent implementation
/// produce (the WebSocket protocol's compare-and-set and listen hashes).
@Suite struct NodeHashTests {
    static let vectors: [(json: String, hash: String)] = [
        ("true", "E5z61QM0lN/U2WsOnusszCTkR8M="),
        ("false", "aSSNoqcS4oQwJ2xxH20rvpp3zP0="),
        ("1", "YPVfR2bXt/lcDjiQZ8pOkAd3qkQ="),
        ("5", "w28swksk9+tXf5jEdS9R5oSFAv8="),
        ("6", "qb1N9GrUXfC3JyZPF8EXiNYcv4I="),
        ("16", "nyH99fMp636abiMb2qAtYMkgEwg="),
        ("500", "Ajg9bohDwTVmqR14o1bVJnneryM="),
        ("0", "7ysMph9WPitGP7poMnMHMVPtUlI="),
        ("1.5", "4MftviR9Z/2MQCMkjh2RNbvlLJc="),
        (#""Hello World""#, "B8HWXc7zXMjrsnJxPRj7wrNGqt4="),
        (#""hello""#, "z6sRbrNLwbHX5fdjpvsTtWgXUFc="),
        (#""é€""#, "UjvXlUguIgyLCf82OKXeed/yvRg="),
        (#"{"foo":"bar"}"#, "XnLeTeWQmzTHImTbSMDLg/qMrKY="),
        (#"{"title":"hello"}"#, "wOOrmFrjq2dwaCWmF6igMhn3O8I="),
        (#"{"a":{"b":true}}"#, "H/7p+HyqClAQiafu7qFbM/YMFrI="),
        (#"{"z":1,"a":"2","b":"true","c":false}"#, "8qk5vmuZGXWJx+77SGwjYRM0yPA="),
        (#"{"9":"b","10":"a","a":"c","-1":"d","01":"e"}"#, "mEveAah9jD+03o1pyDdHjkrC7/s="),
        ("[1,2,3]", "h6XOC3OcidJlNC1Velmi3gphgQk="),
        (#"{".priority":200,".value":"primitive"}"#, "R9u8hs9fhRzuQ2M/3BQ0uhxz5ys="),
        (#"{".priority":"high",".value":42}"#, "d/2FMFWchvDsa06RLXZhzvM9aQc="),
        (#"{".value":"v",".priority":5}"#, "Tv383fJW0ltIHHUn0jBZXDacXbE="),
        (#"{".priority":128.256,"someKey":"value"}"#, "WYR8kBGna+a7E5x75zvhPhzACOQ="),
        (#"{".priority":"high","someKey":"value"}"#, "/KquMIGoCuKO/ipoLoQzqnU0BcI="),
        (#"{"a":{".priority":2,"x":1},"b":{".priority":1,"x":1},"c":{"x":1}}"#, "DSB6lnm9DxlKM3IPNImZSMZ88Aw="),
        ("null", ""),
        ("{}", ""),
        (#"{"a":{},"b":null}"#, ""),
        (#"{".priority":1}"#, ""),
    ]

    @Test(arguments: vectors)
    func hashMatchesTheVector(json: String, hash: String) throws {
        let database = try Database(json: json)
        #expect(database.hash() == hash, "\(json)")
        #expect(NodeHash.etag(of: database.root) == (hash.isEmpty ? "null_etag" : hash))
    }

    @Test func equalDataHashesEquallyAndAnyChangeChangesIt() throws {
        let a = try Database(json: #"{"x":{"y":1,"z":"q"}}"#)
        let b = try Database(json: #"{"x":{"z":"q","y":1.0}}"#)
        #expect(a.hash() == b.hash())
        #expect(a.hash(at: "/x/y") == NodeHash.of(try #require(b.node(at: "x/y"))))
        let c = try Database(json: #"{"x":{"y":2,"z":"q"}}"#)
        #expect(a.hash() != c.hash())
        #expect(try Database(json: "-0").hash() != Database(json: "0").hash())
    }
}

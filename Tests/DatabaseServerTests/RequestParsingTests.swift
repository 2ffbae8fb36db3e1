import Testing

@testable import DatabaseServer

/// Request targets, query parameters and the pretty JSON style.
@Suite struct RequestParsingTests {
    @Test func segmentsArePercentDecodedOnceAndPlusStaysPlus() throws {
        let target = try RequestTarget("/users/a%20b/%C3%A9.json?endAt=%22a%20b+c%22&orderBy=%22%24key%22&ns=x#frag&ns=y")
        #expect(target.segments == ["users", "a b", "é"])
        #expect(target.isJSON)
        #expect(target.parameter("endAt") == #""a b+c""#)
        #expect(target.parameter("orderBy") == #""$key""#)
        #expect(target.parameters.count == 3)
        #expect(try RequestTarget("/users/jack/name/.json").segments == ["users", "jack", "name"])
        #expect(try RequestTarget("/.json").segments == [])
        #expect(try !RequestTarget("/users").isJSON)
    }

    @Test(arguments: ["/a%2Fb.json", "/a.b.json", "/%24x.json", "/a[1].json", "/%00.json", "/a#b/c.json"])
    func invalidSegmentsAreInvalidPaths(raw: String) {
        #expect(throws: ServerError.invalidPath) {
            let target = try RequestTarget(raw)
            guard target.isJSON else { throw ServerError.invalidPath }
            _ = try RESTResponder.validPath(target.segments[...])
        }
    }

    @Test func queryParametersAreChecked() throws {
        #expect(throws: ServerError(.badRequest, "orderBy must be defined when other query parameters are defined")) {
            try RESTOptions([("startAt", "1")])
        }
        #expect(throws: ServerError.self) { try RESTOptions([("print", "loud")]) }
        #expect(throws: ServerError.self) { try RESTOptions([("ns", "a"), ("ns", "b")]) }
        #expect(throws: ServerError.self) { try RESTOptions([("orderby", "\"$key\"")]) }
        #expect(throws: ServerError.self) { try RESTOptions([("orderBy", "\"$key\""), ("startAt", "1")]) }
        #expect(throws: ServerError.self) { try RESTOptions([("orderBy", "height")]) }
        let options = try RESTOptions([("orderBy", #""ratings/pos""#), ("startAt", "1e+20"), ("limitToFirst", "2")])
        #expect(options.query.order == .child(["ratings", "pos"]))
        #expect(options.query.startAt == .value(.number(1e20)))
        #expect(options.query.limitToFirst == 2)
    }

    @Test func prettyJSONMatchesTheProductionStyle() {
        let error = PrettyJSON.format(#"{"error":"Permission denied"}"#)
        #expect(error == "{\n  \"error\" : \"Permission denied\"\n}\n")
        #expect(error.utf8.count == 36)
        #expect(PrettyJSON.format(#"{"a":{"b":[1,{"c":"x,:y"}],"d":{}},"e":[]}"#) == """
            {
              "a" : {
                "b" : [ 1, {
                  "c" : "x,:y"
                } ],
                "d" : { }
              },
              "e" : [ ]
            }

            """)
        #expect(PrettyJSON.format("3") == "3\n")
        #expect(PrettyJSON.format(#""q\"uote""#) == "\"q\\\"uote\"\n")
    }
}

import Foundation
import Testing

@testable import DatabaseServer

/// Long polling's own encoding (protocol reference §2.3–§2.7): segments of web-safe base64 put
/// back together in order, and the script answers the SDK runs.
@Suite struct LongPollWireTests {
    /// The SDK's encoding: UTF-8, web-safe base64, `.` for padding.
    static func encode(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: ".")
    }

    static let decoded: [(encoded: String, text: String)] = [
        // The reference's example (§2.5).
        ("eyJ0IjoiZCIsImQiOnsiciI6MSwiYSI6InMiLCJiIjp7ImMiOnsic2RrLmpzLjEyLTE4LTAiOjF9fX19", #"{"t":"d","d":{"r":1,"a":"s","b":{"c":{"sdk.js.12-18-0":1}}}}"#),
        // `.` padding, one and two.
        ("e30.", "{}"), ("eyJhIjoxfQ..", #"{"a":1}"#),
        // The web-safe alphabet (`-` for `+`, `_` for `/`).
        (encode("ÿþ??>>"), "ÿþ??>>"), (encode("é✓ 😀"), "é✓ 😀"),
    ]

    @Test(arguments: decoded)
    func webSafeBase64Decodes(_ encoded: String, _ text: String) throws {
        #expect(try LongPollSegments.decode(encoded) == text)
    }

    static let undecodable: [(String, String)] = [
        ("!!!", "a segment is not web-safe base64"),
        (encode("\u{1}") .replacingOccurrences(of: "AQ", with: "_w"), "a message is not valid UTF-8"),
    ]

    @Test(arguments: undecodable)
    func badDataIsRefusedWithAReason(_ encoded: String, _ reason: String) {
        #expect(throws: LongPollSegments.Unusable.self) { try LongPollSegments.decode(encoded) }
        do { _ = try LongPollSegments.decode(encoded) } catch { #expect(error.reason == reason) }
    }

    @Test func segmentsComeBackTogetherInOrderWhateverOrderTheyArriveIn() throws {
        let first = Self.encode(#"{"n":1,"pad":"\#(String(repeating: "x", count: 3000))"}"#)
        let second = Self.encode(#"{"n":2}"#)
        let pieces = stride(from: 0, to: first.count, by: 1840).map { Substring(first.dropFirst($0).prefix(1840)) }
        #expect(pieces.count == 3)
        var segments = LongPollSegments(maxMessageBytes: 1 << 20)
        // Message 2 (segment 3) and the last piece of message 1 first: nothing is whole.
        #expect(try segments.add(segment: 3, total: 1, data: Substring(second)) == [])
        #expect(try segments.add(segment: 2, total: 3, data: pieces[2]) == [])
        #expect(try segments.add(segment: 0, total: 3, data: pieces[0]) == [])
        // A repeat is ignored.
        #expect(try segments.add(segment: 0, total: 3, data: pieces[0]) == [])
        let whole = try segments.add(segment: 1, total: 3, data: pieces[1]).map(LongPollSegments.decode)
        #expect(whole.count == 2 && whole[0].hasPrefix(#"{"n":1,"#) && whole[1] == #"{"n":2}"#)
        #expect(segments.next == 4)
        // Segments already taken are ignored too.
        #expect(try segments.add(segment: 1, total: 3, data: pieces[1]) == [])
    }

    static let outOfRange: [(segment: Int, total: Int, reason: String)] = [
        (-1, 1, "segment number seg=-1 is out of range"),
        (100_000, 1, "segment number seg=100000 is out of range"),
        (0, 0, "segment count ts=0 is out of range"),
        (0, 100_001, "segment count ts=100001 is out of range"),
    ]

    @Test(arguments: outOfRange)
    func segmentNumbersAndCountsAreBounded(_ segment: Int, _ total: Int, _ reason: String) {
        var segments = LongPollSegments(maxMessageBytes: 1 << 20)
        do {
            _ = try segments.add(segment: segment, total: total, data: "e30.")
            Issue.record("accepted seg=\(segment) ts=\(total)")
        } catch {
            #expect(error.reason == reason)
        }
    }

    @Test func dataWaitingForEarlierSegmentsIsBounded() throws {
        var segments = LongPollSegments(maxMessageBytes: 3000)  // 4,004 characters of base64
        let piece = Substring(String(repeating: "A", count: 1840))
        #expect(try segments.add(segment: 1, total: 3, data: piece) == [])
        #expect(try segments.add(segment: 2, total: 3, data: piece) == [])
        #expect(throws: LongPollSegments.Unusable.self) { try segments.add(segment: 3, total: 1, data: piece) }
    }

    @Test func theStartAnswerDefinesTheHelpersThenStartsThenHoldsTheHandshake() {
        let script = LongPollScript.start(callback: "12", id: "7300410", password: "E6B2KfbiQa", handshake: #"{"t":"c","d":{"t":"h","d":{}}}"#)
        #expect(script == """
            function pLPCommand(c,a1,a2,a3,a4){var f=parent.window["pLPCommand12"];if(f)f(c,a1,a2,a3,a4);}
            function pRTLPCB(pN,data){var f=parent.window["pRTLPCB12"];if(f)f(pN,data);}
            pLPCommand('start','7300410','E6B2KfbiQa');
            pRTLPCB(0,[{"t":"c","d":{"t":"h","d":{}}}]);

            """)
    }

    static let packets: [(number: Int, messages: [String], script: String)] = [
        (1, [], "pRTLPCB(1,[]);\n"),
        (2, ["{}", #"{"a":1}"#], #"pRTLPCB(2,[{},{"a":1}]);"# + "\n"),
        // Line and paragraph separators are escaped: the answer is script, not JSON.
        (3, ["\"\u{2028}\u{2029}\""], #"pRTLPCB(3,["\u2028\u2029"]);"# + "\n"),
    ]

    @Test(arguments: packets)
    func packetsAreNumberedCallsWithWholeMessages(_ number: Int, _ messages: [String], _ script: String) {
        #expect(LongPollScript.packet(number, messages) == script)
    }

    @Test func closeWithAndWithoutAPacketNumber() {
        #expect(LongPollScript.close() == "pLPCommand('close');\n")
        #expect(LongPollScript.close(afterPacket: 22) == "pLPCommand('close',22);\n")
        #expect(LongPollScript.comment("a */ b\nc") == "/* rules serve: a * / b?c */\n")
    }

    /// No reason can close the comment early: a `*/` followed by a combining mark is one
    /// character to Swift but `*/` to a script engine; a trailing `*` would meet the closing `/`.
    @Test(arguments: ["x */\u{301} alert(1) /*", "x *\u{301}/ y", "*/*/", "ends with *", "\u{2028}*/\u{2029}"])
    func aCommentCannotBeClosedEarly(_ reason: String) {
        let script = LongPollScript.comment(reason)
        let body = script.dropFirst(3).dropLast(3)
        #expect(!body.unicodeScalars.map(String.init).joined().contains("*/"))
        #expect(body.unicodeScalars.allSatisfy { $0.isASCII })
        #expect(script.hasSuffix(" */\n"))
    }

    @Test func theDisconnectFrameSaysDisconnOnPagehideWithAKeepaliveRequest() {
        let page = LongPollScript.disconnectFrame(id: "1", password: "pw", namespace: "demo")
        #expect(page.contains(#"fetch("/.lp?disconn=t&id=1&pw=pw&ns=demo",{keepalive:true,cache:"no-store"})"#))
        #expect(page.contains(#"addEventListener("pagehide",gone);"#))
    }

    @Test func idsAndPasswordsAreRandomAndOfTheirShape() {
        let ids = Set((0..<100).map { _ in LongPollSessions.randomID() })
        #expect(ids.count == 100 && ids.allSatisfy { $0.count == 16 && $0.allSatisfy(\.isNumber) })
        let passwords = Set((0..<100).map { _ in LongPollSessions.randomPassword() })
        #expect(passwords.count == 100 && passwords.allSatisfy { $0.count == 20 && $0.allSatisfy { $0.isLetter || $0.isNumber } })
    }

    /// A message of 100,000 segments arriving in order comes back whole. (Reassembly keeps a
    /// count of the segments present in a row: it used to look at every segment already there
    /// on each arrival, 5 × 10^9 look-ups for this message.)
    @Test func aMessageOfManySegmentsIsReassembled() throws {
        let count = 100_000
        let text = #"{"pad":""# + String(repeating: "y", count: count * 3 - 10) + #""}"#
        let encoded = Self.encode(text)
        let size = (encoded.utf8.count + count - 1) / count
        let pieces = stride(from: 0, to: encoded.utf8.count, by: size).map { Substring(encoded.dropFirst($0).prefix(size)) }
        var segments = LongPollSegments(maxMessageBytes: 1 << 22)
        var whole: [String] = []
        for (i, piece) in pieces.enumerated() { whole += try segments.add(segment: i, total: pieces.count, data: piece) }
        #expect(whole.count == 1)
        #expect(try LongPollSegments.decode(whole[0]) == text)
    }

    /// Segments waiting for earlier ones are reserved from the server's budget of bytes being
    /// received (shared with HTTP bodies and WebSocket messages): past it the session is refused
    /// with a reason, and what it held is given back.
    @Test func waitingSegmentsAreReservedFromTheServersBudget() throws {
        let budget = BodyBudget(total: 100)
        var segments = LongPollSegments(maxMessageBytes: 1 << 20, lease: BodyBudget.Lease(budget))
        _ = try segments.add(segment: 1, total: 3, data: Substring(String(repeating: "A", count: 60)))
        #expect(budget.inUse == 60)
        do {
            _ = try segments.add(segment: 2, total: 3, data: Substring(String(repeating: "A", count: 60)))
            Issue.record("the budget was not enforced")
        } catch {
            #expect(error.reason.contains("receiving too much at once"))
        }
        segments.discard()
        #expect(budget.inUse == 0)
    }
}

import Testing
@testable import RulesRuntime

@Suite struct DataPathTests {
    @Test(arguments: [
        ("/a/b", ["a", "b"]), ("a/b", ["a", "b"]), ("/a/b/", ["a", "b"]), ("a/b/", ["a", "b"]),
        ("/", []), ("", []), ("/users/-Nx1_z", ["users", "-Nx1_z"]), ("/héllo/ü", ["héllo", "ü"]),
    ])
    func validPaths(text: String, keys: [String]) throws {
        let path = try DataPath(validating: text)
        #expect(path.keys == keys)
    }

    @Test(arguments: [
        ("a//b", ##"Invalid path "a//b": it contains an empty key (paths can't have "//")."##),
        ("//", ##"Invalid path "//": it contains an empty key (paths can't have "//")."##),
        ("/users/a.b", ##"Invalid key "a.b" at /users/a.b: keys can't contain ".", "#", "$", "[", "]", "/" or ASCII control characters."##),
        ("/a$", ##"Invalid key "a$" at /a$: keys can't contain ".", "#", "$", "[", "]", "/" or ASCII control characters."##),
        ("/x/#", ##"Invalid key "#" at /x/#: keys can't contain ".", "#", "$", "[", "]", "/" or ASCII control characters."##),
        ("/[0]", ##"Invalid key "[0]" at /[0]: keys can't contain ".", "#", "$", "[", "]", "/" or ASCII control characters."##),
        ("/a\nb", ##"Invalid key "a\nb" at /a\nb: keys can't contain ".", "#", "$", "[", "]", "/" or ASCII control characters."##),
        ("/a\u{7F}", ##"Invalid key "a\u007f" at /a\u007f: keys can't contain ".", "#", "$", "[", "]", "/" or ASCII control characters."##),
    ])
    func invalidPaths(text: String, message: String) {
        #expect(throws: DataPathError(message: message)) { try DataPath(validating: text) }
    }

    @Test func keyLengthLimitIsInBytes() throws {
        // 768 bytes is fine; 769 is not. "é" is 2 bytes.
        _ = try DataPath(validating: "/" + String(repeating: "x", count: 768))
        _ = try DataPath(validating: "/" + String(repeating: "é", count: 384))
        #expect(throws: DataPathError(message: "Key \"\(String(repeating: "é", count: 40))…\" is too long: 770 bytes (the limit is 768).")) {
            try DataPath(validating: "/" + String(repeating: "é", count: 385))
        }
        #expect(throws: DataPathError(message: "Key \"\(String(repeating: "x", count: 40))…\" is too long: 900 bytes (the limit is 768).")) {
            try DataPath(validating: "/a/" + String(repeating: "x", count: 900))
        }
    }

    @Test func depthLimitIs31Levels() throws {
        let ok = (0..<31).map { "k\($0)" }
        #expect(try DataPath(validating: ok.joined(separator: "/")).count == 31)
        let deep = (0..<33).map { "k\($0)" }
        do {
            _ = try DataPath(validating: deep.joined(separator: "/"))
            Issue.record("expected an error")
        } catch {
            #expect(error.message.hasPrefix("Path /k0/k1/k2/"))
            #expect(error.message.hasSuffix(" is too deep: 33 levels (the limit is 31)."))
        }
    }

    @Test func operations() throws {
        let ab = try DataPath(validating: "/a/b")
        #expect(ab.description == "/a/b")
        #expect(DataPath.root.description == "/")
        #expect(ab.parent == DataPath(keys: ["a"]))
        #expect(ab.parent?.parent == .root)
        #expect(DataPath.root.parent == nil)
        #expect(ab.appending("c").keys == ["a", "b", "c"])
        #expect(ab.lastKey == "b")
        #expect(DataPath.root.isPrefix(of: ab))
        #expect(ab.isPrefix(of: ab))
        #expect(DataPath(keys: ["a"]).isPrefix(of: ab))
        #expect(!ab.isPrefix(of: DataPath(keys: ["a"])))
        #expect(!DataPath(keys: ["a"]).isPrefix(of: DataPath(keys: ["ab"])))
        #expect(!DataPath(keys: ["x"]).isPrefix(of: ab))
    }

    @Test func equalityIsByBytes() {
        #expect(DataPath(keys: ["\u{E9}"]) != DataPath(keys: ["e\u{301}"]))
        #expect(Set([DataPath(keys: ["\u{E9}"]), DataPath(keys: ["e\u{301}"])]).count == 2)
        #expect(DataPath(keys: ["a", "b"]) == DataPath(keys: ["a", "b"]))
    }
}

extension DataPathTests {
    /// The byte test behind every path split: exactly the control characters, 0x7F and
    /// `. $ # [ ] /` are refused; every other byte, and every byte of a multi-byte character,
    /// may appear in a key.
    @Test func forbiddenKeyBytesAreExactlyTheDocumentedOnes() {
        let named = Set(".$#[]/".utf8)
        for b in 0...255 {
            let byte = UInt8(b)
            let expected = byte < 0x20 || byte == 0x7F || named.contains(byte)
            #expect(DataPath.isForbiddenKeyByte(byte) == expected, "byte \(b)")
        }
    }
}

import Testing
import RulesRuntime

@Suite struct KeyOrderTests {
    @Test func sortsIntegersFirstThenBytes() {
        let keys = ["b", "a", "10", "2", "-1", "1.5", "2147483648", "-2147483648", "007"]
        #expect(keys.sorted(by: KeyOrder.less)
            == ["-2147483648", "-1", "2", "10", "007", "1.5", "2147483648", "a", "b"])
    }

    @Test(arguments: [
        ("0", Int32(0)), ("7", 7), ("-5", -5), ("2147483647", Int32.max), ("-2147483648", Int32.min),
    ])
    func canonicalIntegers(key: String, value: Int32) {
        #expect(KeyOrder.integerValue(key) == value)
    }

    @Test(arguments: ["007", "-0", "+1", "2147483648", "-2147483649", "1.0", "1e3", "", "-", " 1", "12345678901", "٣"])
    func notIntegers(key: String) {
        #expect(KeyOrder.integerValue(key) == nil)
    }

    @Test func comparesNumericallyNotTextually() {
        #expect(KeyOrder.less("9", "10"))
        #expect(!KeyOrder.less("10", "9"))
        #expect(KeyOrder.less("-10", "-9"))
        #expect(KeyOrder.compare("10", "10") == 0)
        #expect(KeyOrder.compare("a", "b") < 0)
        #expect(KeyOrder.compare("b", "a") > 0)
        // An integer key sorts before any string key, even one that starts with a lower byte.
        #expect(KeyOrder.less("99", "!"))
        #expect(KeyOrder.less("ab", "abc"))
    }

    @Test func stringsCompareByUTF8Bytes() {
        // U+FF5E (EF BD 9E) < U+1F600 (F0 9F 98 80) in bytes; in UTF-16 the surrogate D83D sorts first.
        #expect(KeyOrder.less("\u{FF5E}", "\u{1F600}"))
        // Upper case (0x5A) before lower case (0x61); no locale rules.
        #expect(KeyOrder.less("Z", "a"))
        // Canonically equivalent spellings are different keys.
        #expect(KeyOrder.compare("\u{E9}", "e\u{301}") != 0)
        #expect(KeyOrder.less("e\u{301}", "\u{E9}"))
    }
}

import RulesSyntax
import Testing
import RulesLanguageServer

@Suite struct PositionConverterTests {
    /// Byte offsets and their positions: `é` is 2 bytes and 1 UTF-16 unit, `中` 3 bytes and 1 unit,
    /// `😀` 4 bytes and 2 units.
    static let text = "aé中😀b\n\r\nx😀"

    @Test(arguments: [
        (0, 0, 0), (1, 0, 1), (3, 0, 2), (6, 0, 3), (10, 0, 5), (11, 0, 6),
        (12, 1, 0), (13, 1, 1), (14, 2, 0), (15, 2, 1), (19, 2, 3),
    ])
    func convertsOffsetsBothWays(offset: Int, line: Int, character: Int) {
        let c = PositionConverter(bytes: Array(Self.text.utf8))
        #expect(c.position(of: offset) == LSPPosition(line: line, character: character))
        #expect(c.offset(of: LSPPosition(line: line, character: character)) == offset)
    }

    @Test(arguments: [
        // Between the two units of 😀: the start of the character.
        (0, 4, 6),
        // Past the end of a line: its end; past the last line: the end of the text.
        (0, 99, 11), (2, 99, 19), (7, 0, 19), (-1, 0, 0),
    ])
    func clampsPositionsOutsideTheText(line: Int, character: Int, offset: Int) {
        let c = PositionConverter(bytes: Array(Self.text.utf8))
        #expect(c.offset(of: LSPPosition(line: line, character: character)) == offset)
    }

    @Test func mapsAnOffsetInsideACharacterToTheUnitsBeforeIt() {
        let c = PositionConverter(bytes: Array(Self.text.utf8))
        #expect(c.position(of: 7) == LSPPosition(line: 0, character: 3))
        #expect(c.position(of: 999) == LSPPosition(line: 2, character: 3))
    }

    @Test func agreesWithSwiftsUTF16CountsOnEveryCharacterBoundary() {
        let text = "{\"rules\": {\".read\": \"auth.uid == 'ünï😀'\"}}\n// 漢字 \u{1F469}\u{200D}\u{1F4BB}\n"
        let c = PositionConverter(bytes: Array(text.utf8))
        var lineStart = text.startIndex
        var line = 0
        for i in text.indices {
            let offset = text.utf8.distance(from: text.startIndex, to: i)
            let expected = LSPPosition(line: line, character: text.utf16.distance(from: lineStart, to: i))
            #expect(c.position(of: offset) == expected)
            #expect(c.offset(of: expected) == offset)
            if text[i] == "\n" {
                line += 1
                lineStart = text.index(after: i)
            }
        }
    }
}

@testable import RulesRuntime
import Testing

/// The one-pass array copies that a tree write makes: every position, with class elements
/// (reference counts must balance: a copy keeps each element alive, dropping it frees them).
@Suite struct ArrayCopyTests {
    final class Box { let n: Int; init(_ n: Int) { self.n = n } }

    @Test func removingAndInsertingAtEveryPosition() {
        for count in 1...5 {
            let base = (0..<count).map(Box.init)
            for i in 0..<count {
                #expect(base.removing(at: i).map(\.n) == (0..<count).filter { $0 != i })
            }
            for i in 0...count {
                var expected = Array(0..<count)
                expected.insert(99, at: i)
                #expect(base.inserting(Box(99), at: i).map(\.n) == expected)
                #expect(base.map(\.n).inserting(99, at: i) == expected)
            }
        }
        #expect([Box]().inserting(Box(1), at: 0).map(\.n) == [1])
        #expect(["a"].removing(at: 0).isEmpty)
    }

    @Test func copiesOwnTheirElements() {
        weak var dropped: Box?
        var copy: [Box] = []
        do {
            let original = [Box(1), Box(2), Box(3)]
            dropped = original[1]
            copy = original.removing(at: 0)
        }
        #expect(dropped != nil, "the copy keeps the element alive")
        #expect(copy.map(\.n) == [2, 3])
        copy = copy.removing(at: 0)
        #expect(dropped == nil, "the element is freed once no copy holds it")
    }
}

import Testing

@testable import RulesRuntime

/// `QueryParameters` keeps its fields in a box that a plain read does not have; it must behave
/// as the plain struct of fields it replaced.
@Suite struct QueryParametersTests {
    @Test func aPlainReadHasNoFieldsSet() {
        let plain = QueryParameters()
        #expect(plain.isPlain)
        #expect(plain == .none)
        #expect(!plain.orderByKey && plain.orderByChild == nil && plain.limitToFirst == nil)
    }

    @Test func fieldsReadBackAndAnyFieldMakesAQuery() {
        var q = QueryParameters()
        q.orderByChild = "a/b"
        #expect(!q.isPlain)
        #expect(q.orderByChild == "a/b")
        q.startAt = .string("x")
        q.limitToLast = 3
        #expect(q.startAt == .string("x") && q.limitToLast == 3 && q.orderByChild == "a/b")
        #expect(q == QueryParameters(orderByChild: "a/b", startAt: .string("x"), limitToLast: 3))
        // Back to every default: a plain read again.
        q.orderByChild = nil
        q.startAt = nil
        q.limitToLast = nil
        #expect(q.isPlain)
        #expect(q == .none)
    }

    @Test func copiesAreIndependent() {
        var a = QueryParameters(orderByKey: true)
        let b = a
        a.orderByKey = false
        a.orderByValue = true
        #expect(b.orderByKey && !b.orderByValue)
        #expect(!a.orderByKey && a.orderByValue)
    }

    @Test func equalQueriesHashAlike() {
        let a = QueryParameters(orderByValue: true, equalTo: .number(1))
        var b = QueryParameters()
        b.equalTo = .number(1)
        b.orderByValue = true
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(Set([a, b, .none]).count == 2)
    }

    /// The REST default (`orderByKey` alone) is a query like any other, however it was made.
    @Test func orderByKeyAloneIsAQuery() {
        let a = QueryParameters(orderByKey: true)
        var b = QueryParameters(orderByValue: true)
        b.orderByValue = false
        b.orderByKey = true
        #expect(!a.isPlain && !b.isPlain)
        #expect(a == b && a.hashValue == b.hashValue)
        var c = a
        c.limitToFirst = 5
        #expect(c.orderByKey && c.limitToFirst == 5 && a.limitToFirst == nil)
    }
}

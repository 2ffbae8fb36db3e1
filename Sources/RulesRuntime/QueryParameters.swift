/// The parameters of a read, as the `query` variable shows them (spec §4.3).
///
/// A plain read (`QueryParameters()`) has every field false or null. A REST `GET` without
/// `orderBy` reaches the rules as a query ordered by key: pass `QueryParameters(orderByKey: true)`.
public struct QueryParameters: Sendable, Hashable {
    public var orderByKey: Bool
    public var orderByPriority: Bool
    public var orderByValue: Bool
    /// The child path of `orderByChild`, e.g. `"owner"` or `"a/b"`.
    public var orderByChild: String?
    public var startAt: Primitive?
    public var endAt: Primitive?
    public var equalTo: Primitive?
    public var limitToFirst: Double?
    public var limitToLast: Double?

    /// Creates query parameters; the defaults describe a plain read.
    public init(
        orderByKey: Bool = false, orderByPriority: Bool = false, orderByValue: Bool = false, orderByChild: String? = nil,
        startAt: Primitive? = nil, endAt: Primitive? = nil, equalTo: Primitive? = nil,
        limitToFirst: Double? = nil, limitToLast: Double? = nil
    ) {
        self.orderByKey = orderByKey
        self.orderByPriority = orderByPriority
        self.orderByValue = orderByValue
        self.orderByChild = orderByChild
        self.startAt = startAt
        self.endAt = endAt
        self.equalTo = equalTo
        self.limitToFirst = limitToFirst
        self.limitToLast = limitToLast
    }

    /// A plain read.
    public static let none = QueryParameters()

    /// Whether this is a plain read (every field false or null), checked without copying.
    var isPlain: Bool {
        !orderByKey && !orderByPriority && !orderByValue && orderByChild == nil && startAt == nil && endAt == nil
            && equalTo == nil && limitToFirst == nil && limitToLast == nil
    }
}

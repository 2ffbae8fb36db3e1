/// The parameters of a read, as the `query` variable shows them (spec §4.3).
///
/// A plain read (`QueryParameters()`) has every field false or null. A REST `GET` without
/// `orderBy` reaches the rules as a query ordered by key: pass `QueryParameters(orderByKey: true)`.
///
/// The fields live in a shared, immutable box, absent for a plain read, so that the parameters
/// (and every ``DatabaseOperation``, which carries them) are one word: an operation is passed
/// and taken apart on every decision, and 130 bytes of query copied each time cost a plain
/// read more than its rule.
public struct QueryParameters: Sendable, Hashable {
    /// The fields of a query that is not plain.
    private struct Fields: Sendable, Hashable {
        var orderByKey = false
        var orderByPriority = false
        var orderByValue = false
        var orderByChild: String?
        var startAt: Primitive?
        var endAt: Primitive?
        var equalTo: Primitive?
        var limitToFirst: Double?
        var limitToLast: Double?
    }

    private final class Box: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    /// Nil for a plain read.
    private var box: Box?

    /// Creates query parameters; the defaults describe a plain read.
    public init(
        orderByKey: Bool = false, orderByPriority: Bool = false, orderByValue: Bool = false, orderByChild: String? = nil,
        startAt: Primitive? = nil, endAt: Primitive? = nil, equalTo: Primitive? = nil,
        limitToFirst: Double? = nil, limitToLast: Double? = nil
    ) {
        set(
            Fields(
                orderByKey: orderByKey, orderByPriority: orderByPriority, orderByValue: orderByValue,
                orderByChild: orderByChild, startAt: startAt, endAt: endAt, equalTo: equalTo,
                limitToFirst: limitToFirst, limitToLast: limitToLast))
    }

    /// A plain read.
    public static let none = QueryParameters()

    /// Whether this is a plain read (every field false or null).
    var isPlain: Bool { box == nil }

    private var fields: Fields { box?.fields ?? Fields() }

    /// The box of `orderByKey` alone: the query every REST read without `orderBy` makes, which
    /// so allocates nothing.
    private static let orderedByKey = Box(Fields(orderByKey: true))

    private mutating func set(_ fields: Fields) {
        if fields == Fields() {
            box = nil
        } else if fields == Self.orderedByKey.fields {
            box = Self.orderedByKey
        } else {
            box = Box(fields)
        }
    }

    private mutating func update(_ change: (inout Fields) -> Void) {
        var f = fields
        change(&f)
        set(f)
    }

    /// `orderByKey`: children ordered by key.
    public var orderByKey: Bool {
        get { fields.orderByKey }
        set { update { $0.orderByKey = newValue } }
    }
    /// `orderByPriority`: children ordered by priority.
    public var orderByPriority: Bool {
        get { fields.orderByPriority }
        set { update { $0.orderByPriority = newValue } }
    }
    /// `orderByValue`: children ordered by value.
    public var orderByValue: Bool {
        get { fields.orderByValue }
        set { update { $0.orderByValue = newValue } }
    }
    /// The child path of `orderByChild`, e.g. `"owner"` or `"a/b"`.
    public var orderByChild: String? {
        get { fields.orderByChild }
        set { update { $0.orderByChild = newValue } }
    }
    /// The `startAt` bound, if given.
    public var startAt: Primitive? {
        get { fields.startAt }
        set { update { $0.startAt = newValue } }
    }
    /// The `endAt` bound, if given.
    public var endAt: Primitive? {
        get { fields.endAt }
        set { update { $0.endAt = newValue } }
    }
    /// The `equalTo` value, if given.
    public var equalTo: Primitive? {
        get { fields.equalTo }
        set { update { $0.equalTo = newValue } }
    }
    /// The `limitToFirst` count, if given.
    public var limitToFirst: Double? {
        get { fields.limitToFirst }
        set { update { $0.limitToFirst = newValue } }
    }
    /// The `limitToLast` count, if given.
    public var limitToLast: Double? {
        get { fields.limitToLast }
        set { update { $0.limitToLast = newValue } }
    }

    public static func == (a: QueryParameters, b: QueryParameters) -> Bool {
        a.box === b.box || a.fields == b.fields
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(fields) }
}

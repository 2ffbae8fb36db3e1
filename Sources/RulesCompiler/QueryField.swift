/// A field of the `query` variable (spec §4.3).
package enum QueryField: String, Sendable, Hashable, CaseIterable {
    case orderByKey, orderByPriority, orderByValue, orderByChild
    case startAt, endAt, equalTo, limitToFirst, limitToLast

    /// The static type of the field.
    package var type: StaticType {
        switch self {
        case .orderByKey, .orderByPriority, .orderByValue: .boolean
        case .orderByChild: .string
        case .startAt, .endAt, .equalTo: .dynamicPrimitive
        case .limitToFirst, .limitToLast: .number
        }
    }
}

/// A method that rule expressions can call: the ten snapshot methods and the string methods.
package enum Method: String, Sendable, Hashable, CaseIterable {
    // RuleDataSnapshot (spec §5)
    case val, child, parent, hasChild, hasChildren, exists, getPriority, isNumber, isString, isBoolean
    // String (spec §6.1)
    case contains, beginsWith, endsWith, replace, toLowerCase, toUpperCase, matches

    /// The name as written in rules.
    package var name: String { rawValue }

    /// True for the methods of a snapshot.
    package var isSnapshotMethod: Bool {
        switch self {
        case .val, .child, .parent, .hasChild, .hasChildren, .exists, .getPriority, .isNumber, .isString, .isBoolean:
            true
        default:
            false
        }
    }

    /// The snapshot method with this name, if any.
    package static func snapshotMethod(named name: String) -> Method? {
        guard let m = Method(named: name), m.isSnapshotMethod else { return nil }
        return m
    }

    /// The string method with this name, if any.
    package static func stringMethod(named name: String) -> Method? {
        guard let m = Method(named: name), !m.isSnapshotMethod else { return nil }
        return m
    }

    /// The method with this name, if any: `Method(rawValue:)` without comparing the name with
    /// all seventeen (every call and member in a rules file is looked up).
    package init?(named name: String) {
        guard let first = name.utf8.first, first < 128 else { return nil }
        for m in Self.byFirstByte[Int(first)] where m.rawValue == name {
            self = m
            return
        }
        return nil
    }

    /// The methods by the first byte of their names.
    private static let byFirstByte: [[Method]] = {
        var table = [[Method]](repeating: [], count: 128)
        for m in allCases { table[Int(m.rawValue.utf8.first!)].append(m) }
        return table
    }()

    /// The static type of a call's result.
    package var resultType: StaticType {
        switch self {
        case .val, .getPriority: .dynamicPrimitive
        case .child, .parent: .snapshot
        case .hasChild, .hasChildren, .exists, .isNumber, .isString, .isBoolean: .boolean
        case .contains, .beginsWith, .endsWith, .matches: .boolean
        case .replace, .toLowerCase, .toUpperCase: .string
        }
    }

    /// The exact number of arguments (``hasChildren`` takes 0 or 1 and is checked on its own).
    package var arity: Int {
        switch self {
        case .val, .parent, .exists, .getPriority, .isNumber, .isString, .isBoolean, .toLowerCase, .toUpperCase, .hasChildren:
            0
        case .child, .hasChild, .contains, .beginsWith, .endsWith, .matches:
            1
        case .replace:
            2
        }
    }
}

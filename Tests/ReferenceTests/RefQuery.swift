import RulesTestSupport

/// The query of a read for the reference (spec §4.3); every field is a plain value.
struct RefQuery {
    var orderByKey: Bool = false
    var orderByPriority: Bool = false
    var orderByValue: Bool = false
    var orderByChild: String?
    var startAt: RefInput = RefInput.null
    var endAt: RefInput = RefInput.null
    var equalTo: RefInput = RefInput.null
    var limitToFirst: Double?
    var limitToLast: Double?

    /// The value of `query.name`.
    func field(_ name: String) -> RefValue {
        switch name {
        case "orderByKey": .bool(orderByKey)
        case "orderByPriority": .bool(orderByPriority)
        case "orderByValue": .bool(orderByValue)
        case "orderByChild": orderByChild.map { .string($0) } ?? .null
        case "startAt": ReferenceInterpreter.fromAuth(startAt)
        case "endAt": ReferenceInterpreter.fromAuth(endAt)
        case "equalTo": ReferenceInterpreter.fromAuth(equalTo)
        case "limitToFirst": limitToFirst.map { .number($0) } ?? .null
        case "limitToLast": limitToLast.map { .number($0) } ?? .null
        default: .null
        }
    }

    static func random(_ g: inout SplitMix64) -> RefQuery {
        var q = RefQuery()
        switch g.below(4) {
        case 0: q.orderByKey = true
        case 1: q.orderByValue = true
        case 2: q.orderByChild = g.pick(["a", "b/c", "owner"])
        default: q.orderByPriority = g.chance(0.3)
        }
        if g.chance(0.4) { q.startAt = DataGenerator.primitive(&g) }
        if g.chance(0.3) { q.endAt = DataGenerator.primitive(&g) }
        if g.chance(0.3) { q.equalTo = DataGenerator.primitive(&g) }
        if g.chance(0.4) { q.limitToFirst = Double(g.below(5)) }
        if g.chance(0.2) { q.limitToLast = Double(g.below(5)) }
        return q
    }

    /// The project's `QueryParameters` spelled in Swift.
    var swiftLiteral: String {
        var parts: [String] = []
        if orderByKey { parts.append("orderByKey: true") }
        if orderByPriority { parts.append("orderByPriority: true") }
        if orderByValue { parts.append("orderByValue: true") }
        if let c = orderByChild { parts.append("orderByChild: \(RefInput.quote(c))") }
        let bounds: [(String, RefInput)] = [("startAt", startAt), ("endAt", endAt), ("equalTo", equalTo)]
        for (name, v) in bounds {
            if case .null = v { continue }
            parts.append("\(name): \(Self.primitiveLiteral(v))")
        }
        if let n = limitToFirst { parts.append("limitToFirst: \(RefNumberText.js(n))") }
        if let n = limitToLast { parts.append("limitToLast: \(RefNumberText.js(n))") }
        return "QueryParameters(" + parts.joined(separator: ", ") + ")"
    }

    static func primitiveLiteral(_ v: RefInput) -> String {
        switch v {
        case .string(let s): ".string(\(RefInput.quote(s)))"
        case .number(let n): ".number(\(RefNumberText.js(n)))"
        case .bool(let b): ".bool(\(b))"
        default: "nil"
        }
    }
}

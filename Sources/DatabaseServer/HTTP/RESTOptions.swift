import DatabaseRules

/// The query parameters of a REST request, checked.
struct RESTOptions: Sendable {
    enum Print: Sendable { case compact, pretty, silent }

    /// The namespace named by `ns`, checked (nil: none given, or empty).
    var namespaceName: NamespaceName?
    /// The checked namespace name's text (nil: none given).
    var namespace: String? { namespaceName?.text }
    var credentials = Credentials()
    var print = Print.compact
    var shallow = false
    var export = false
    var strict = false
    var download: String?
    var query = Query()

    /// The parameters this server knows; any other is refused, so a misspelt one is not ignored.
    static let known: Set<String> = [
        "ns", "auth", "access_token", "auth_variable_override", "print", "shallow", "format", "download",
        "callback", "timeout", "writeSizeLimit", "disableTriggers", "orderBy", "startAt", "endAt", "equalTo",
        "limitToFirst", "limitToLast",
    ]

    init(_ parameters: [(name: String, value: String)]) throws(ServerError) {
        var seen = Set<String>()
        for (name, value) in parameters {
            guard Self.known.contains(name) else {
                throw ServerError(.badRequest, "Invalid query parameter '\(name)'. Known parameters: \(Self.known.sorted().joined(separator: ", ")).")
            }
            guard seen.insert(name).inserted else {
                throw ServerError(.badRequest, "Query parameter '\(name)' is given more than once.")
            }
            switch name {
            case "ns": namespaceName = value.isEmpty ? nil : try NamespaceName(validating: value)
            case "auth", "access_token": if credentials.token == nil || name == "auth" { credentials.token = value }
            case "auth_variable_override": credentials.authOverride = value
            case "print":
                switch value {
                case "pretty": print = .pretty
                case "silent": print = .silent
                default: throw ServerError(.badRequest, "Invalid print parameter '\(value)': use pretty or silent.")
                }
            case "shallow":
                guard value == "true" || value == "false" else { throw ServerError(.badRequest, "Invalid shallow parameter '\(value)': use true.") }
                shallow = value == "true"
            case "format":
                switch value {
                case "export": export = true
                case "strict": strict = true
                default: throw ServerError(.badRequest, "Invalid format parameter '\(value)': use export.")
                }
            case "download": download = value
            case "orderBy": query.order = try Self.order(value)
            case "startAt": query.startAt = try Self.bound(value, name)
            case "endAt": query.endAt = try Self.bound(value, name)
            case "equalTo": query.equalTo = try Self.bound(value, name)
            case "limitToFirst": query.limitToFirst = try Self.limit(value, name)
            case "limitToLast": query.limitToLast = try Self.limit(value, name)
            default: break  // accepted and ignored: callback, timeout, writeSizeLimit, disableTriggers
            }
        }
        // The emulator tools probe namespaces with shallow=true&limitToFirst=1 (accepted here,
        // and served as a plain shallow read).
        let probe = shallow && query.order == nil && query.limitToFirst == 1 && query.limitToLast == nil
            && query.startAt == nil && query.endAt == nil && query.equalTo == nil
        if query.order == nil, query.filters, !probe {
            throw ServerError(.badRequest, "orderBy must be defined when other query parameters are defined")
        }
        if query.limitToFirst != nil, query.limitToLast != nil {
            throw ServerError(.badRequest, "limitToFirst and limitToLast cannot both be defined")
        }
        if query.order == .key {
            for bound in [query.startAt, query.endAt, query.equalTo] {
                if let bound, case .value(.string) = bound { continue }
                if bound != nil { throw ServerError(.badRequest, #"orderBy "$key" needs string startAt, endAt and equalTo values"#) }
            }
        }
    }

    private static func order(_ text: String) throws(ServerError) -> Query.Order {
        guard case .string(let name)? = AuthValue(jsonText: text) else {
            throw ServerError(.badRequest, #"orderBy must be a JSON string, such as "$key" or "height" (with the quotes); got \#(text)"#)
        }
        switch name {
        case "$key": return .key
        case "$value": return .value
        case "$priority": return .priority
        default:
            let keys = name.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
            guard !keys.isEmpty, (try? DataPath(validating: name)) != nil else {
                throw ServerError(.badRequest, "orderBy \(text) is not a valid child path")
            }
            return .child(keys)
        }
    }

    private static func bound(_ text: String, _ name: String) throws(ServerError) -> Query.Bound {
        switch AuthValue(jsonText: text) {
        case .null?: return .null
        case .string(let s)?: return .value(.string(s))
        case .number(let d)?: return .value(.number(d))
        case .bool(let b)?: return .value(.bool(b))
        default:
            throw ServerError(.badRequest, "\(name) must be a JSON string, number, boolean or null (strings in quotes); got \(text)")
        }
    }

    private static func limit(_ text: String, _ name: String) throws(ServerError) -> Int {
        guard let n = Int(text), n >= 0 else {
            throw ServerError(.badRequest, "\(name) must be a whole number of 0 or more; got \(text)")
        }
        return n
    }
}

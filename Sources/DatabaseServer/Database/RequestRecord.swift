import DatabaseRules
import Foundation

/// One request as the server log and the request list show it.
package struct RequestRecord: Sendable {
    /// The transport: `rest`, `stream`, `ws` or `lp` (long polling).
    package var transport: Transport
    /// The method or action: `GET`, `PUT`, `listen`, …
    package var method: String
    /// The namespace.
    package var namespace: String
    /// The data path.
    package var path: String
    /// Who made it.
    package var identity: String
    /// `uid`, when the caller has one.
    package var uid: String?
    /// `allowed`, `denied`, `error`, or `stale` (a stale compare-and-set: a
    /// transaction's retry).
    package var verdict: Verdict
    /// The status answered (HTTP status, or 0 for WebSocket).
    package var status: Int
    /// Why it was denied or refused, in one line.
    package var reason: String?
    /// How long it took, in milliseconds.
    package var milliseconds: Double
    /// When it arrived.
    package var time: Date
    /// Its number in the request log (1 for the first request since start; 0 until logged).
    package var id = 0
    /// What the rules decided it on, to explain it later (nil when no rule was asked: an
    /// administrator, a malformed request, an inspection).
    package var decision: RecordedDecision? = nil

    /// The record as one JSON object (the `--log json` line).
    package var json: String {
        var members = [
            #""time":"# + quoted(ISO8601DateFormatter().string(from: time)),
            #""transport":"# + quoted(transport.rawValue),
            #""method":"# + quoted(method),
            #""ns":"# + quoted(namespace),
            #""path":"# + quoted(path),
            #""identity":"# + quoted(identity),
            #""uid":"# + (uid.map(quoted) ?? "null"),
            #""verdict":"# + quoted(verdict.rawValue),
            #""status":"# + String(status),
        ]
        members.append(#""rule":"# + (reason.map(quoted) ?? "null"))
        members.append(#""ms":"# + String(format: "%.3f", milliseconds))
        return "{" + members.joined(separator: ",") + "}"
    }

    /// The record as a line of text (and its reason on the lines after it, indented).
    ///
    /// Every field is written with its control characters escaped (``escaped(_:)``), so nothing
    /// a client sends (a namespace, a path, a token's uid, a value quoted in a reason) can end
    /// the line, start a line that looks like another record, or send the terminal an escape
    /// sequence. A reason of several lines (a rules file's diagnostics) keeps them, each indented.
    package var text: String {
        let fields = [method, namespace + path, identity].map(Self.escaped)
        let label = switch verdict {
        case .allowed: "   "
        case .denied: "DENY"
        case .stale: "RETRY"
        case .error: "ERR "
        }
        var line = "\(label) \(fields[0]) \(fields[1]) (\(fields[2])) \(status) \(String(format: "%.1f", milliseconds)) ms"
        if let reason {
            for part in reason.split(separator: "\n", omittingEmptySubsequences: false) {
                line += "\n     " + Self.escaped(String(part))
            }
        }
        return line
    }

    /// `text` with every control character written as an escape: `\n`, `\r`, `\t`, and `\u{XX}`
    /// for the other C0 and C1 controls, DEL and the Unicode line and paragraph separators (a
    /// backslash stays as it is: the escape keeps the log's lines whole, it is not meant to be
    /// read back).
    package static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if needsEscape(scalar) {
                    out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: true
        default: false
        }
    }

    private func quoted(_ s: String) -> String { JSONText.quote(s) }

    /// What became of a request.
    package enum Verdict: String, Sendable {
        /// Done as asked.
        case allowed
        /// The rules denied it.
        case denied
        /// A compare-and-set found the data changed (the protocol working: the client retries).
        case stale
        /// Anything else that went wrong.
        case error
    }

    /// The door a request came through.
    package enum Transport: String, Sendable {
        /// A REST request.
        case rest
        /// A streaming (`text/event-stream`) listen.
        case stream
        /// A realtime message on a WebSocket.
        case ws
        /// A realtime message over long polling.
        case lp
    }
}

extension RequestRecord {
    /// A request as it arrives: allowed until its outcome says otherwise (``RequestPipeline``
    /// fills in the verdict, status, reason, time taken and decision), made by its door from
    /// what it knows so far; the identity may be set later, once the credentials are read.
    package init(transport: Transport, method: String, namespace: String, path: String, identity: Identity? = nil, time: Date = Date()) {
        self.transport = transport
        self.method = method
        self.namespace = namespace
        self.path = path
        self.identity = identity?.description ?? "-"
        self.uid = identity?.uid
        self.verdict = .allowed
        self.status = transport == .rest || transport == .stream ? 200 : 0
        self.reason = nil
        self.milliseconds = 0
        self.time = time
    }

    /// The caller, once known.
    package mutating func identify(_ identity: Identity) {
        self.identity = identity.description
        self.uid = identity.uid
    }
}

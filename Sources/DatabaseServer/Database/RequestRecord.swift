import Foundation

/// One request as the server log and the request list show it.
public struct RequestRecord: Sendable {
    /// The transport: `rest`, `stream` or `ws`.
    public var transport: String
    /// The method or action: `GET`, `PUT`, `listen`, …
    public var method: String
    /// The namespace.
    public var namespace: String
    /// The data path.
    public var path: String
    /// Who made it.
    public var identity: String
    /// `uid`, when the caller has one.
    public var uid: String?
    /// `allowed`, `denied` or `error`.
    public var verdict: String
    /// The status answered (HTTP status, or 0 for WebSocket).
    public var status: Int
    /// Why it was denied or refused, in one line.
    public var reason: String?
    /// How long it took, in milliseconds.
    public var milliseconds: Double
    /// When it arrived.
    public var time: Date
    /// Its number in the request log (1 for the first request since start; 0 until logged).
    public var id = 0
    /// What the rules decided it on, to explain it later (nil when no rule was asked: an
    /// administrator, a malformed request, an inspection).
    public var decision: RecordedDecision? = nil

    /// The record as one JSON object (the `--log json` line).
    public var json: String {
        var members = [
            #""time":"# + quoted(ISO8601DateFormatter().string(from: time)),
            #""transport":"# + quoted(transport),
            #""method":"# + quoted(method),
            #""ns":"# + quoted(namespace),
            #""path":"# + quoted(path),
            #""identity":"# + quoted(identity),
            #""uid":"# + (uid.map(quoted) ?? "null"),
            #""verdict":"# + quoted(verdict),
            #""status":"# + String(status),
        ]
        members.append(#""rule":"# + (reason.map(quoted) ?? "null"))
        members.append(#""ms":"# + String(format: "%.3f", milliseconds))
        return "{" + members.joined(separator: ",") + "}"
    }

    /// The record as a line of text.
    public var text: String {
        var line = "\(verdict == "allowed" ? "   " : verdict == "denied" ? "DENY" : "ERR ") \(method) \(namespace)\(path) (\(identity)) \(status) \(String(format: "%.1f", milliseconds)) ms"
        if let reason { line += "\n     \(reason)" }
        return line
    }

    private func quoted(_ s: String) -> String { DataTextBridge.quoted(s) }
}

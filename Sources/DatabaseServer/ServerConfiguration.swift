/// How `rules serve` runs.
package struct ServerConfiguration: Sendable {
    /// The address to listen on. With the default (`127.0.0.1`), the server also listens on
    /// `::1` at the same port when the machine has IPv6.
    package var host: String = "127.0.0.1"
    /// Whether ``host`` was chosen by the user (then only that address is bound).
    package var hostGiven = false
    /// Host names answered besides `localhost` and IP addresses (`--allow-host`): a request
    /// whose `Host` is another name gets 403 (see ``HostPolicy``).
    package var allowedHosts: [String] = []
    /// The port; 0 picks a free one.
    package var port: Int = 9000
    /// The rules file every namespace is decided by (nil: open rules, with a warning).
    package var rulesFile: String?
    /// The directory of durable storage (`--data`); nil keeps the data in memory only.
    package var dataDirectory: String?
    /// The namespace of requests without `?ns=`.
    package var defaultNamespace: String = "default"
    /// How requests are logged.
    package var logFormat: RequestLog.Format = .text
    /// How many recent requests are kept for inspection.
    package var requestLogCapacity: Int = 1000
    /// Whether WebSocket clients get the explanation of each denial as `sd` (security debug)
    /// messages before the `permission_denied` answer (the JavaScript SDK prints them as
    /// `FIREBASE: ...` in the app's console).
    package var explainDenials = true
    /// Whether decisions are counted for `/.inspect/coverage.json`.
    package var coverage = true
    /// Resource bounds.
    package var limits = ServerLimits()
    /// Where the server's notices and request log are written (standard error).
    package var console: ServerConsole = .standardError
    /// Seconds between checks of the rules file for changes.
    package var rulesPollSeconds: Double = 0.5

    /// The defaults.
    package init() {}
}

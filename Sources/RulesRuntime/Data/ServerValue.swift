/// A server value sentinel (`{".sv": ...}` on the wire), replaced by the server before rules run.
public enum ServerValue: Sendable, Hashable {
    /// `{".sv": "timestamp"}`: the server's time of the request, in milliseconds since the epoch.
    case timestamp
    /// `{".sv": {"increment": n}}`: the stored number plus `n`, or `n` when the location holds no
    /// number.
    case increment(Double)
}

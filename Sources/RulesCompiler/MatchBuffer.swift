import CPCRE2

/// Match data that PCRE2 writes into during a match, owned by one task or evaluation at a time.
///
/// A compiled pattern is shared; match data is not. Being noncopyable, a buffer cannot be
/// shared by accident: create one per task (or per evaluation) and lend it to
/// ``CompiledRegex/matches(_:buffer:)``. One buffer serves every pattern, because a
/// `test()`-style match needs no capture offsets.
package struct MatchBuffer: ~Copyable, @unchecked Sendable {
    /// `pcre2_match_data_8 *`; `nil` only if the allocation failed, reported at match time.
    let data: OpaquePointer?

    /// Allocates match data with room for the overall match only.
    package init() {
        data = pcre2_match_data_create_8(1, nil)
    }

    deinit {
        if let data { pcre2_match_data_free_8(data) }
    }
}

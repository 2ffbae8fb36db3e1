/// A decision's reason for a denial, kept as the engine found it and written out as a sentence
/// only when ``text`` is read: a caller that keeps every decision's reason, but shows few of
/// them (`rules test` shows failed steps only), pays for the sentences it shows.
package struct DeferredReason: Sendable {
    let denial: DenialReason?

    /// The sentence, as ``Decision/reason`` gives it; nil for an allowed operation.
    package var text: String? { denial?.text }
}

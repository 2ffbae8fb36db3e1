import DatabaseRules
import NIOCore
import Synchronization

/// A value an event carries, rendered to JSON at most once per form however many listeners
/// receive it: plain (as REST and streaming show data: no priorities, integer-keyed objects as
/// arrays) or in the export format the SDKs' WebSocket protocol uses (priorities, objects).
package final class RenderedValue: Sendable, CustomStringConvertible {
    /// What is rendered: one node, or the members of a merge.
    enum Content: Sendable {
        case node(DataNode?)
        case members([(String, DataNode?)])
    }

    private let content: Content
    private let cache = Mutex<(plain: String?, export: String?)>((nil, nil))
    /// The bytes of each form, made once and shared by every streaming listener's write (a
    /// `ByteBuffer` is copied on write only: a listener that reads slowly holds a reference, not
    /// a copy).
    private let buffers = Mutex<(plain: ByteBuffer?, export: ByteBuffer?)>((nil, nil))

    init(_ content: Content) { self.content = content }

    /// A value that is already JSON text (the same in both forms).
    init(json: String) {
        content = .node(nil)
        cache.withLock { $0 = (json, json) }
    }

    /// Plain JSON: no priorities, arrays where the server reads them as arrays.
    package var plain: String {
        if let text = cache.withLock({ $0.plain }) { return text }
        let text = render(export: false)
        cache.withLock { $0.plain = text }
        return text
    }

    /// The export format: priorities as `.priority`, objects kept as objects.
    package var export: String {
        if let text = cache.withLock({ $0.export }) { return text }
        let text = render(export: true)
        cache.withLock { $0.export = text }
        return text
    }

    /// The plain form.
    package var description: String { plain }

    /// The bytes of the plain or export form, shared.
    func bytes(export: Bool) -> ByteBuffer {
        if let known = buffers.withLock({ export ? $0.export : $0.plain }) { return known }
        let made = ByteBuffer(string: export ? self.export : plain)
        return buffers.withLock { b in
            if export {
                if let other = b.export { return other }
                b.export = made
            } else {
                if let other = b.plain { return other }
                b.plain = made
            }
            return made
        }
    }

    private func render(export: Bool) -> String {
        func one(_ node: DataNode?) -> String {
            node?.exportJSON(includePriority: export, arrays: !export) ?? "null"
        }
        switch content {
        case .node(let node): return one(node)
        case .members(let members):
            return "{" + members.map { JSONText.quote($0.0) + ":" + one($0.1) }.joined(separator: ",") + "}"
        }
    }
}

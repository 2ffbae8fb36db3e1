import RulesRuntime

/// The rules of `rules-examples/blog` for posts, written by hand in Swift: the baseline the VM
/// is measured against. Each function takes what the engine takes (a path as text, the values
/// to write, the tree before the write), evaluates the same rules in the same order, and
/// builds the same new tree, but with every rule compiled to Swift by hand. Only the paths the
/// suite uses are covered (anything else is denied).
package enum NativeBlogRules {
    /// A read: `.read` is `auth != null` on users/$uid, posts/$postId and user-posts/$author.
    package static func read(_ path: String, root: DataNode?, auth: AuthValue) -> Bool {
        guard let keys = try? DataPath(validating: path).keys, keys.count >= 2 else { return false }
        switch keys[0] {
        case "users", "posts", "user-posts": return auth != .null
        default: return false
        }
    }

    /// `set /posts/$postId/title` (or `body`): the post's `.write` (create or delete only), then
    /// the field's `.write`, then `$postId/.validate` and the field's `.validate`. Permission
    /// is decided before the new tree is built, as a hand-written server would: a denied write
    /// builds nothing.
    package static func setPostField(_ path: String, value: DataInput, root: DataNode?, auth: AuthValue, now: Double) -> (allowed: Bool, newRoot: DataNode?) {
        guard let p = try? DataPath(validating: path) else { return (false, root) }
        let keys = p.keys
        guard keys.count == 3, keys[0] == "posts", keys[2] == "title" || keys[2] == "body" else { return (false, root) }
        guard (try? value.validate(at: p)) != nil else { return (false, root) }
        let oldPost = root?.child("posts")?.child(keys[1])
        let oldField = oldPost?.child(keys[2])
        let node = value.resolved(now: now, existing: oldField)
        let uid = uidOf(auth)
        var permitted = false
        var newRoot: DataNode?
        if auth != .null {
            if oldPost == nil {
                // A create: the post's .write reads the new post.
                newRoot = DataNode.replacing(root, at: p, with: node)
                permitted = postWrite(auth: auth, uid: uid, old: nil, new: newRoot?.child("posts")?.child(keys[1]))
            } else {
                // The post's .write allows only a delete of the whole post: the new post is gone
                // when nothing is written and the field was its only child.
                let newPostExists = node != nil || oldPost!.childCount > (oldField == nil ? 0 : 1)
                permitted = !newPostExists && uid != nil && string(oldPost?.child("uid")) == uid
            }
            if !permitted {
                permitted = uid != nil && string(oldPost?.child("uid")) == uid && node != nil
            }
        }
        guard permitted else { return (false, root) }
        if newRoot == nil { newRoot = DataNode.replacing(root, at: p, with: node) }
        guard let newPost = newRoot?.child("posts")?.child(keys[1]), postValidate(newPost) else { return (false, root) }
        if let node {
            if keys[2] == "title" {
                guard case .string(let s)? = node.value, s.utf16.count <= 200 else { return (false, root) }
            } else {
                guard case .string? = node.value else { return (false, root) }
            }
        }
        return (true, newRoot)
    }

    /// `update /` of `posts/$postId/stars/$uid: true` and `posts/$postId/starCount: increment(1)`.
    package static func star(_ values: [(String, DataInput)], root: DataNode?, auth: AuthValue, now: Double) -> (allowed: Bool, newRoot: DataNode?) {
        var entries: [([String], DataNode?)] = []
        entries.reserveCapacity(values.count)
        var newRoot = root
        for (path, value) in values {
            guard let p = try? DataPath(validating: path), (try? value.validate(at: p)) != nil else { return (false, root) }
            let node = value.resolved(now: now, existing: root?.descendant(p.keys))
            newRoot = DataNode.replacing(newRoot, at: p, with: node)
            entries.append((p.keys, node))
        }
        let uid = uidOf(auth)
        var postValidated = Set<String>()
        for (keys, node) in entries {
            guard keys.count >= 3, keys[0] == "posts" else { return (false, root) }
            let oldPost = root?.child("posts")?.child(keys[1])
            let newPost = newRoot?.child("posts")?.child(keys[1])
            var permitted = postWrite(auth: auth, uid: uid, old: oldPost, new: newPost)
            if keys.count == 4, keys[2] == "stars" {
                let starer = keys[3]
                let old = oldPost?.child("stars")?.child(starer)
                if !permitted {
                    let oldCount = number(oldPost?.child("starCount"))
                    let newCount = number(newPost?.child("starCount"))
                    permitted = auth != .null && uid == starer && oldPost?.child("uid") != nil && (
                        (old == nil && node?.value == .bool(true) && newCount != nil && newCount == (oldCount ?? 0) + 1)
                        || (old != nil && node == nil && newCount != nil && oldCount != nil && newCount == oldCount! - 1))
                }
                guard permitted else { return (false, root) }
                if let newPost, postValidated.insert(keys[1]).inserted, !postValidate(newPost) { return (false, root) }
                if let node, node.value != .bool(true) { return (false, root) }
            } else if keys.count == 3, keys[2] == "starCount" {
                if !permitted { permitted = auth != .null && node != nil && oldPost?.child("uid") != nil }
                guard permitted else { return (false, root) }
                if let newPost, postValidated.insert(keys[1]).inserted, !postValidate(newPost) { return (false, root) }
                if let node {
                    guard case .number(let n)? = node.value, n >= 0, let uid else { return (false, root) }
                    let oldCount = number(oldPost?.child("starCount"))
                    let created = oldPost == nil && n == 0
                    let starred = n == (oldCount ?? 0) + 1 && oldPost?.child("stars")?.child(uid) == nil
                        && newPost?.child("stars")?.child(uid)?.value == .bool(true)
                    let unstarred = oldCount != nil && n == oldCount! - 1 && oldPost?.child("stars")?.child(uid) != nil
                        && newPost?.child("stars")?.child(uid) == nil
                    guard created || starred || unstarred else { return (false, root) }
                }
            } else {
                return (false, root)
            }
        }
        return (true, newRoot)
    }

    // MARK: - The rules of posts/$postId

    /// `.write` of posts/$postId: create a whole post with a zero counter, or delete one.
    private static func postWrite(auth: AuthValue, uid: String?, old: DataNode?, new: DataNode?) -> Bool {
        guard auth != .null else { return false }
        if old == nil {
            return uid != nil && string(new?.child("uid")) == uid && number(new?.child("starCount")) == 0 && new?.child("stars") == nil
        }
        return new == nil && uid != nil && string(old?.child("uid")) == uid
    }

    /// `.validate` of posts/$postId.
    private static func postValidate(_ post: DataNode) -> Bool {
        post.child("uid") != nil && post.child("author") != nil && post.child("title") != nil
            && post.child("body") != nil && post.child("starCount") != nil
    }

    private static func uidOf(_ auth: AuthValue) -> String? {
        if case .string(let s) = auth["uid"] { return s }
        return nil
    }

    private static func string(_ node: DataNode?) -> String? {
        if case .string(let s)? = node?.value { return s }
        return nil
    }

    private static func number(_ node: DataNode?) -> Double? {
        if case .number(let n)? = node?.value { return n }
        return nil
    }
}

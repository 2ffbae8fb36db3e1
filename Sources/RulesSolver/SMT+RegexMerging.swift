import CZ3

/// Z3's string solver decides one regular membership of a string quickly, but two memberships of
/// the same string (`matches(/^[0-9]+$/) && contains('x')`) can run out of time where their
/// intersection is settled at once. So before a check, the memberships of each string in a
/// conjunction (and `contains`, `beginsWith`, `endsWith` with a constant, negated or not) become
/// one membership of the intersection of their languages. The formula means the same.
extension SMT {
    /// `constraints` with the memberships of each string in each conjunction merged.
    func mergingMemberships(_ constraints: [Term]) -> [Term] {
        var atoms: [Term] = []
        for c in constraints { flatten(c, into: &atoms) }
        return conjunction(atoms)
    }

    private func kind(_ t: Term) -> Z3_decl_kind? {
        guard Z3_is_app(ctx, t) else { return nil }
        return Z3_get_decl_kind(ctx, Z3_get_app_decl(ctx, Z3_to_app(ctx, t)))
    }

    private func arguments(_ t: Term) -> [Term] {
        let app = Z3_to_app(ctx, t)
        return (0..<Z3_get_app_num_args(ctx, app)).map { Z3_get_app_arg(ctx, app, $0) }
    }

    private func flatten(_ t: Term, into atoms: inout [Term]) {
        if kind(t) == Z3_OP_AND {
            for a in arguments(t) { flatten(a, into: &atoms) }
        } else {
            atoms.append(t)
        }
    }

    /// The atoms of a conjunction, each rewritten, with each string's memberships merged.
    private func conjunction(_ atoms: [Term]) -> [Term] {
        var others: [Term] = []
        var languages: [Term: [Term]] = [:]
        var order: [Term] = []
        for a in atoms {
            let r = rewrite(a)
            if let (s, language) = membership(r) {
                if languages[s] == nil { order.append(s) }
                languages[s, default: []].append(language)
            } else {
                others.append(r)
            }
        }
        for s in order {
            let l = languages[s]!
            others.append(inRegex(s, l.dropFirst().reduce(l[0]) { reIntersect($0, $1) }))
        }
        return others
    }

    /// The same formula with the conjunctions inside it merged.
    private func rewrite(_ t: Term) -> Term {
        switch kind(t) {
        case Z3_OP_AND?:
            var atoms: [Term] = []
            flatten(t, into: &atoms)
            return and(conjunction(atoms))
        case Z3_OP_OR?: return or(arguments(t).map(rewrite))
        case Z3_OP_NOT?: return not(rewrite(arguments(t)[0]))
        case Z3_OP_IMPLIES?:
            let a = arguments(t)
            return implies(rewrite(a[0]), rewrite(a[1]))
        case Z3_OP_ITE?:
            let a = arguments(t)
            guard Z3_get_sort_kind(ctx, Z3_get_sort(ctx, t)) == Z3_BOOL_SORT else { return t }
            return ite(rewrite(a[0]), rewrite(a[1]), rewrite(a[2]))
        default: return t
        }
    }

    /// A membership of a string in a language: `in_re`, `contains`/`prefixof`/`suffixof` with a
    /// constant, or the negation of one.
    private func membership(_ t: Term) -> (Term, Term)? {
        switch kind(t) {
        case Z3_OP_SEQ_IN_RE?:
            let a = arguments(t)
            return (a[0], a[1])
        case Z3_OP_SEQ_CONTAINS?:
            let a = arguments(t)
            guard Z3_is_string(ctx, a[1]) else { return nil }
            return (a[0], reConcat([reAll, Z3_mk_seq_to_re(ctx, a[1]), reAll]))
        case Z3_OP_SEQ_PREFIX?:
            let a = arguments(t)
            guard Z3_is_string(ctx, a[0]) else { return nil }
            return (a[1], reConcat([Z3_mk_seq_to_re(ctx, a[0]), reAll]))
        case Z3_OP_SEQ_SUFFIX?:
            let a = arguments(t)
            guard Z3_is_string(ctx, a[0]) else { return nil }
            return (a[1], reConcat([reAll, Z3_mk_seq_to_re(ctx, a[0])]))
        case Z3_OP_NOT?:
            guard let (s, l) = membership(arguments(t)[0]) else { return nil }
            return (s, reComplement(l))
        default:
            return nil
        }
    }
}

import RulesSyntax

/// The documentation of every lint, in the form ``DiagnosticCatalog`` uses; the catalog appends
/// these entries, so SARIF output and `docs/diagnostics.md` describe lints like any other code.
package enum LintCatalog {
    /// One entry per ``LintCode``, in declaration order.
    package static let entries: [DiagnosticCatalog.Entry] = LintCode.allCases.map { entry($0) }

    private static func entry(_ code: LintCode) -> DiagnosticCatalog.Entry {
        let (summary, help) = text(code)
        return DiagnosticCatalog.e(code.diagnosticCode, .warning, summary, help)
    }

    private static func text(_ code: LintCode) -> (String, String) {
        switch code {
        case .publicRead:
            return ("A .read that lets anyone, signed in or not, read a large subtree.",
                "The rule is true when auth is null, at the root, at depth 1 or over a $wildcard collection. Grants cascade and cannot be taken back below, so everything under it is public. Require auth != null or narrow the location.")
        case .publicWrite:
            return ("A .write that lets anyone, signed in or not, write a large subtree.",
                "The rule is true when auth is null, at the root, at depth 1 or over a $wildcard collection. Anyone can overwrite or delete everything under it, and no rule below can take the grant back. Require auth != null and an ownership check.")
        case .shadowedRule:
            return ("A .read or .write below an ancestor that already grants unconditionally.",
                "Access is allowed if any rule on the path is true, so once an ancestor's rule is always true, this rule can never change a verdict. Remove it, or make the ancestor conditional.")
        case .unreachableWildcard:
            return ("A $wildcard rule that can only hold for keys that literal siblings take.",
                "A key named by a literal sibling uses only the literal's rules, so the wildcard never sees it. A wildcard rule that requires its key to be one of those names is never true.")
        case .constantRule:
            return ("A rule expression whose value never depends on the data, auth or time.",
                "It folds to true or false, or always fails with a runtime error (which counts as false). Write true or false if that is meant; otherwise the expression does not say what was intended.")
        case .impossibleCondition:
            return ("A condition that can never be true.",
                "For example newData.isString() && newData.isNumber(), or a test that a $wildcard equals a key a literal sibling takes. The branch it guards is dead.")
        case .typeMismatchComparison:
            return ("An equality between values that never have the same type.",
                "== and != never convert types: $wildcards are strings, so $id == 5 is always false; auth.uid is a string or null, so auth.uid == 1 is always false. Compare with a value of the same type.")
        case .deleteGuardInValidate:
            return ("A .validate that tests whether newData exists.",
                ".validate never runs when the new value is null, so a .validate that requires newData.exists() (or newData.val() != null) does not stop deletes. Guard deletes in .write with newData.exists(). The allow-null idiom (!newData.exists() || ..., ... || newData.val() == null) is harmless and not reported.")
        case .unvalidatedWrite:
            return ("A writable location with no .validate on it or below it.",
                "Whoever may write here can store any value of any shape and size. Add a .validate for the expected type, and close objects with \"$other\": {\".validate\": false}.")
        case .rootInWrite:
            return ("root.child(...) in a write rule reaches into the data being written.",
                "root is the tree before the write. In .validate, a root path on or below the rule's location reads the old value of data the write is changing; in .write, it is reported when the old value is checked like a new one (isString(), hasChildren(), .length, ordering or arithmetic), while comparing an old owner with auth is fine. Use newData (climbing with newData.parent() if needed) for the new value, or data for the old one.")
        case .authorizationInValidate:
            return ("A .validate checks auth, under a .write that lets others delete.",
                ".validate never runs when the new value is null, so an ownership check there (auth.uid == newData.child('owner').val()) does not stop a delete: anyone the .write on the path admits can delete the location. Check ownership in .write, which runs for deletes too (compare with data for the old owner).")
        case .weakerAncestorGrant:
            return ("A .read or .write that an ancestor's conditional grant already implies.",
                "Grants cascade: when an ancestor's rule is true, everything below it is granted. If this rule can only be true when the ancestor's is (auth.uid == $uid under auth != null), it never decides anything, and the stricter check it seems to make protects nothing. Narrow the ancestor's rule or move it below.")
        case .selfGrantedPrivilege:
            return ("A grant that looks the caller up in data the caller can write.",
                "The rule grants when root.child(...).child(auth.uid)... holds (a role, an admin flag, a membership), and a .write lets each user write that location under their own uid. Any user sets the value, then passes the rule. Keep privileges where only administrators write, or forbid changing them in the user's own .write.")
        case .ownershipTakeover:
            return ("An owner check that compares only the new owner with the caller.",
                "newData.child('uid').val() === auth.uid says who the record will belong to, not who it belongs to: with no .write on the path reading the old value, anyone overwrites someone else's record by naming themselves its owner. Require the old owner in .write too: !data.exists() || data.child('uid').val() === auth.uid.")
        case .collectionWipe:
            return ("A principal may replace or delete a whole collection of other users' records.",
                "A .write at or above a collection that admits someone who owns nothing there (a signed-in stranger, or anyone) lets them delete the collection or replace it with their own records, everyone else's with it. Grant writes at each record ($wildcard), to its owner, and keep collection-level writes for administrators.")
        case .skippedCheck:
            return ("One branch of an || skips the check another branch makes.",
                "In A || B, B is evaluated only when A is false. When A is a type test (newData.isString()) and B the check on that type (newData.val().length <= 100), every value A accepts skips the check. Write A && B.")
        case .perUserDataReadable:
            return ("Per-user records that any signed-in stranger may read.",
                "The records are keyed by their owner's uid and only the owner may write them, yet a .read lets every signed-in user read everyone's. If the records are private, grant the read to auth.uid == $uid; if they are meant to be public, suppress the finding.")
        case .recordCheckAtCollection:
            return ("A record's field checked at the collection above the records.",
                "At a location whose children are $wildcard records, newData.child('field') is the record whose key is 'field', not the field of each record. Real writes fail the rule, and writing that phantom record makes it pass for every record. Move the rule into the $wildcard.")
        case .literalKeyBesideWildcard:
            return ("A literal key beside a $wildcard that names a field of its records.",
                "Rules at \"field\" beside \"$id\" apply to a record whose key is 'field', not to the field of each record; the records' rules read that field, so the rules were meant inside the $wildcard. As written they validate nothing.")
        case .unusedSuppression:
            return ("A lint suppression comment that hides nothing.",
                "No finding of the named lint starts where the rules-lint-disable comment reaches, so it can be removed (or the code it was meant for has changed). Only lints that run are considered.")
        case .queryWithoutIndex:
            return ("A query rule orders by a child that the location does not index.",
                "Add the child to .indexOn at this location (\".value\" for orderByValue); without an index the server cannot run the query and clients download and filter the whole list.")
        case .rulesSizeNearLimit:
            return ("The rules file is close to the server's size limit.",
                "The documented limit for a rules file is 256 KiB; this lint fires from 90% of it (235,930 bytes). Factor repeated expressions or move data-specific rules out before a deploy fails.")
        case .unknownLintCode:
            return ("A lint suppression comment names an unknown code.",
                "rules-lint-disable comments take lint codes from docs/lints.md, separated by commas. A misspelt code suppresses nothing.")
        }
    }
}

/// What an instruction of the fast code does with a boolean result, decided by ``BytecodeFuser``
/// from the instructions that follow it: push it (as the plain code always does), or also carry
/// out the `!`, the `&&`/`||` test or the `return` that comes next, so that the value does not
/// go through the stack.
///
/// The instructions carried out stay in the code after it; a continuation that jumps takes its
/// target from the jump it carries out. A result that is not a boolean is pushed, and the next
/// instruction runs as usual (and reports the error).
package enum Continuation: UInt8, Sendable, Hashable {
    /// Push the result.
    case push
    /// `not`: push the negated result.
    case not
    /// `jumpIfFalseOrPop` (`&&`): false jumps with the value kept, true drops it and goes on.
    case and
    /// `jumpIfTrueOrPop` (`||`): true jumps with the value kept, false drops it and goes on.
    case or
    /// `return`: the result ends the rule.
    case `return`
    /// `not; jumpIfFalseOrPop`
    case notAnd
    /// `not; jumpIfTrueOrPop`
    case notOr
    /// `not; return`
    case notReturn

    /// The continuation that carries out `negated` (a `not`) and then `next`, if `next` is a
    /// test or a `return` (`.push` or `.not` when nothing follows to carry out).
    static func carrying(negated: Bool, then next: Opcode?) -> Continuation {
        switch next {
        case .jumpIfFalseOrPop?: negated ? .notAnd : .and
        case .jumpIfTrueOrPop?: negated ? .notOr : .or
        case .return?: negated ? .notReturn : .return
        default: negated ? .not : .push
        }
    }
}

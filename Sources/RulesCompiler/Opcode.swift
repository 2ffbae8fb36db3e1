/// The instructions of the rules VM. A stack machine: each comment gives the operand and the
/// stack effect (`a b -> c` pops `b` then `a` and pushes `c`).
package enum Opcode: UInt8, Sendable, CaseIterable {
    /// `-> true`
    case pushTrue
    /// `-> false`
    case pushFalse
    /// `-> null`
    case pushNull
    /// operand: index into the number pool. `-> number`
    case pushNumber
    /// operand: index into the string pool. `-> string`
    case pushString
    /// `-> auth` (null when signed out)
    case loadAuth
    /// `-> root` snapshot of the tree before the operation
    case loadRoot
    /// `-> data` snapshot at the rule's location, before the operation
    case loadData
    /// `-> newData` snapshot at the rule's location, after the operation
    case loadNewData
    /// `-> now`
    case loadNow
    /// operand: wildcard slot. `-> key` bound by that wildcard
    case loadWildcard
    /// operand: ``QueryField`` index. `-> value` of that query field
    case loadQueryField
    /// operand: string index of the name. `value -> value.name` on an auth value (null through null)
    case property
    /// `value index -> value[index]` on an auth value
    case index
    /// `string -> number` (UTF-16 length)
    case stringLength
    /// `snapshot -> value`
    case val
    /// `snapshot -> value`
    case getPriority
    /// `snapshot -> bool`
    case exists
    /// `snapshot -> bool`
    case isNumber
    /// `snapshot -> bool`
    case isString
    /// `snapshot -> bool`
    case isBoolean
    /// `snapshot path -> snapshot`
    case child
    /// operand: string index of a constant path. `snapshot -> snapshot`
    case childConst
    /// `snapshot -> snapshot` (error at the root)
    case parent
    /// `snapshot path -> bool`
    case hasChild
    /// operand: string index of a constant path. `snapshot -> bool`
    case hasChildConst
    /// `snapshot -> bool`: has at least one child
    case hasAnyChildren
    /// operand: n. `snapshot name1 … nameN -> bool`: every named child exists
    case hasChildren
    /// `string s -> bool`
    case contains
    /// `string s -> bool`
    case beginsWith
    /// `string s -> bool`
    case endsWith
    /// `string a b -> string`: every occurrence of `a` replaced by `b`
    case replace
    /// `string -> string`
    case toLowerCase
    /// `string -> string`
    case toUpperCase
    /// operand: regex index. `string -> bool`
    case matches
    /// `a b -> a + b` (numbers add, strings concatenate)
    case add
    /// `a b -> a - b`
    case subtract
    /// `a b -> a * b`
    case multiply
    /// `a b -> a / b` (x / 0 is NaN)
    case divide
    /// `a b -> a % b`
    case remainder
    /// `a -> -a`
    case negate
    /// `bool -> !bool`
    case not
    /// `a b -> a == b` (strict)
    case equal
    /// `a b -> a != b` (strict)
    case notEqual
    /// `a b -> a < b`
    case less
    /// `a b -> a <= b`
    case lessOrEqual
    /// `a b -> a > b`
    case greater
    /// `a b -> a >= b`
    case greaterOrEqual
    /// operand: target. `bool -> bool` when false (jumps), `bool ->` when true (falls through). For `&&`.
    case jumpIfFalseOrPop
    /// operand: target. `bool -> bool` when true (jumps), `bool ->` when false. For `||`.
    case jumpIfTrueOrPop
    /// operand: target. `bool ->`, jumps when false. For `?:`.
    case jumpIfFalse
    /// operand: target. Jumps.
    case jump
    /// `bool ->` ends the rule with that result.
    case `return`

    // Fused instructions: only in the fast code (``CompiledRuleset/fastInstructions``), which
    // ``BytecodeFuser`` makes from the plain code. Each stands where the first instruction of
    // its sequence stands and does the work of the whole sequence; the instructions it absorbs
    // stay in place after it (a jump may still land on them), and the VM steps over them.

    /// `loadAuth; property name`. operand: string index of the name. `-> auth.name`, looked up
    /// once per decision.
    case authMember
    /// `loadAuth; pushNull; equal`. `-> bool`: signed out.
    case authIsNull
    /// `loadAuth; pushNull; notEqual`. `-> bool`: signed in.
    case authIsNotNull
    /// `loadData; Q` where Q is a snapshot query (`val`, `exists`, a type test, …: the next
    /// instruction). `-> value`
    case dataQuery
    /// `loadNewData; Q` as ``dataQuery``. `-> value`
    case newDataQuery
    /// `childConst path; Q` where Q is a snapshot query (the next instruction). operand: string
    /// index of the path. `snapshot -> value`
    case childConstQuery

    /// The name shown by the disassembler.
    package var mnemonic: String {
        switch self {
        case .return: "return"
        default: String(describing: self)
        }
    }

    /// True for the instructions only ``BytecodeFuser`` makes.
    package var isFused: Bool { rawValue >= Opcode.authMember.rawValue }

    /// How many instructions of the plain code a fused instruction stands for (1 for the others).
    package var fusedLength: Int {
        switch self {
        case .authMember, .dataQuery, .newDataQuery, .childConstQuery: 2
        case .authIsNull, .authIsNotNull: 3
        default: 1
        }
    }

    /// Whether this is a snapshot method that reads only its receiver's location and cannot fail
    /// on a snapshot: `val()`, `exists()`, the type tests, `hasChildren()` without names,
    /// `getPriority()`.
    package var isSnapshotQuery: Bool {
        switch self {
        case .val, .getPriority, .exists, .isNumber, .isString, .isBoolean, .hasAnyChildren: true
        default: false
        }
    }

    /// Whether the instruction may leave a boolean on the stack (every instruction but the jumps
    /// and `return`).
    package var mayPushBoolean: Bool {
        switch self {
        case .jumpIfFalseOrPop, .jumpIfTrueOrPop, .jumpIfFalse, .jump, .return: false
        default: true
        }
    }

    /// True when the operand is a jump target.
    package var isJump: Bool {
        switch self {
        case .jumpIfFalseOrPop, .jumpIfTrueOrPop, .jumpIfFalse, .jump: true
        default: false
        }
    }
}

/// One VM instruction: an opcode and one 32-bit operand, 8 bytes, no references, so the code of a
/// whole ruleset sits in one flat array.
public struct Instruction: Sendable, Hashable {
    /// What to do.
    public var opcode: Opcode
    /// Pool index, slot, count or jump target, depending on the opcode (0 when unused).
    public var operand: Int32

    /// Creates an instruction.
    public init(_ opcode: Opcode, _ operand: Int32 = 0) {
        self.opcode = opcode
        self.operand = operand
    }
}

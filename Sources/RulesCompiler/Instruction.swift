/// One VM instruction: an opcode, what the fast code does with a boolean result, and one 32-bit
/// operand; 8 bytes, no references, so the code of a whole ruleset sits in one flat array.
package struct Instruction: Sendable, Hashable {
    /// What to do.
    package var opcode: Opcode
    /// What follows a boolean result (always ``Continuation/push`` in the plain code; see
    /// ``BytecodeFuser``).
    package var then: Continuation
    /// Pool index, slot, count or jump target, depending on the opcode (0 when unused).
    package var operand: Int32

    /// Creates an instruction.
    package init(_ opcode: Opcode, _ operand: Int32 = 0, then: Continuation = .push) {
        self.opcode = opcode
        self.then = then
        self.operand = operand
    }
}

import OpenCombine

/// Nothing in the slot: every position goes through.
package struct NoOperation: SlotOperation {
    package let name = "none"
    package let key: Unicode.Scalar = "1"
    package let code = "position"
    package let words = "every position goes through"
    package let rxpy = "subject"

    package func applied(to inputs: SlotInputs, resuming: BallState?) -> AnyPublisher<SlotOutput, Never> {
        inputs.position.map(SlotOutput.position).eraseToAnyPublisher()
    }

    package func step(_ next: inout BallState, from state: BallState, by intent: Intent, handed: Bool) {
        if handed { next.slotted = .position(next.position) }
    }
}

extension SlotOperator {
    /// Nothing in the slot (``NoOperation``).
    package static let none = SlotOperator(NoOperation())
}

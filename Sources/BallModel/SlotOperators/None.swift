import OpenCombine

/// Nothing in the slot: every position goes through.
package struct NoOperation: SlotOperation {
    package let name = "none"
    package let key: Unicode.Scalar = "1"
    package let code = "position"
    package let words = "every position goes through"
    package let rxpy = "subject"

    package let takes: SlotValueKind? = nil

    package func applied(
        to upstream: AnyPublisher<SlotOutput, Never>, inputs: SlotInputs, resuming: SlotResume?
    ) -> AnyPublisher<SlotOutput, Never> { upstream }

    package func step(_ stage: inout SlotStage, _ step: SlotStep) -> SlotOutput? { step.handed }
}

extension SlotOperator {
    /// Nothing in the slot (``NoOperation``).
    package static let none = SlotOperator(NoOperation())
}

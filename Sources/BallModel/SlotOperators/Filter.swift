import OpenCombine

/// `filter`: only positions in the right half go through (``BallPosition/isInRightHalf``).
package struct FilterOperation: SlotOperation {
    package let name = "filter"
    package let key: Unicode.Scalar = "2"
    package let code = "position.filter { $0.isInRightHalf }"
    package let words = "only positions in the right half go through"
    package let rxpy = "upstream.pipe(ops.filter(in_right_half))"
    package let passesErrors = true
    package let benchIdle = (keys: "hhhh", after: "", settle: 0.3)

    package func applied(
        to upstream: AnyPublisher<SlotOutput, Never>, inputs: SlotInputs, resuming: SlotResume?
    ) -> AnyPublisher<SlotOutput, Never> { filtered(upstream) }

    package func passingErrors(
        _ upstream: AnyPublisher<SlotOutput, Error>, afresh: @escaping () -> AnyPublisher<SlotOutput, Error>,
        inputs: SlotInputs, resuming: SlotResume?
    ) -> AnyPublisher<SlotOutput, Error>? { filtered(upstream) }

    /// The right half's positions, an error (when what it is handed can fail) going through at once.
    private func filtered<Failure>(_ upstream: AnyPublisher<SlotOutput, Failure>) -> AnyPublisher<SlotOutput, Failure> {
        upstream.filter { $0.position?.isInRightHalf == true }.eraseToAnyPublisher()
    }

    package func step(_ stage: inout SlotStage, _ step: SlotStep) -> SlotOutput? {
        step.handed?.position?.isInRightHalf == true ? step.handed : nil
    }

    package func heldWords(_ moment: SlotMoment, seen position: BallPosition) -> (String, String?) {
        let cell = SlotMoment.cell(position)
        return (
            "nothing: \(cell) is left of column \(position.screen.columns / 2): filter lets only the right half through",
            "nothing: \(cell) filtered out"
        )
    }
}

extension SlotOperator {
    /// `filter` (``FilterOperation``).
    package static let filter = SlotOperator(FilterOperation())
}

import OpenCombine

/// `map`: each position goes through as its mirror image (``BallPosition/mirrored``), so the
/// ball takes the colour of the place opposite it.
package struct MapOperation: SlotOperation {
    package let name = "map"
    package let key: Unicode.Scalar = "3"
    package let code = "position.map { $0.mirrored }"
    package let words = "each position goes through mirrored, left for right"
    package let rxpy = "upstream.pipe(ops.map(mirrored))"
    package let passesErrors = true

    package func applied(
        to upstream: AnyPublisher<SlotOutput, Never>, inputs: SlotInputs, resuming: SlotResume?
    ) -> AnyPublisher<SlotOutput, Never> { mirrored(upstream) }

    package func passingErrors(
        _ upstream: AnyPublisher<SlotOutput, Error>, afresh: @escaping () -> AnyPublisher<SlotOutput, Error>,
        inputs: SlotInputs, resuming: SlotResume?
    ) -> AnyPublisher<SlotOutput, Error>? { mirrored(upstream) }

    /// Each position mirrored, an error (when what it is handed can fail) going through at once.
    private func mirrored<Failure>(_ upstream: AnyPublisher<SlotOutput, Failure>) -> AnyPublisher<SlotOutput, Failure> {
        upstream.map { $0.position.map { .position($0.mirrored) } ?? $0 }.eraseToAnyPublisher()
    }

    package func step(_ stage: inout SlotStage, _ step: SlotStep) -> SlotOutput? {
        step.handed?.position.map { .position($0.mirrored) }
    }

    package func passedWords(_ moment: SlotMoment, _ passed: SlotOutput) -> (String, String?)? {
        guard let position = passed.position else { return nil }
        return moment.handedWords(moment.mirroredMarble(position), name: name)
    }
}

extension SlotOperator {
    /// `map` (``MapOperation``).
    package static let map = SlotOperator(MapOperation())
}

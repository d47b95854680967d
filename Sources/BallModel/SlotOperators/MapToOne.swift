import OpenCombine

/// `map { _ in 1 }`: each value it is handed becomes a 1, the first half of the seed's counter
/// (`map`, then `scan(0) { $0 + $1 }`). `--operator map,scan` names it `map`: before a stage that takes
/// counts, `map` is this one.
package struct MapToOneOperation: SlotOperation {
    package let name = "mapToOne"
    package let key: Unicode.Scalar = "z"
    package let rxName = "map"
    package let code = "position.map { _ in 1 }"
    package let words = "each value becomes a 1 (scan after it counts them: map,scan)"
    package let rxpy = "upstream.pipe(ops.map(lambda _: 1))"
    package let passesErrors = true
    package let takes: SlotValueKind? = nil

    package func gives(_ input: SlotValueKind) -> SlotValueKind { .count }

    package func applied(
        to upstream: AnyPublisher<SlotOutput, Never>, inputs: SlotInputs, resuming: SlotResume?
    ) -> AnyPublisher<SlotOutput, Never> { ones(upstream) }

    package func passingErrors(
        _ upstream: AnyPublisher<SlotOutput, Error>, afresh: @escaping () -> AnyPublisher<SlotOutput, Error>,
        inputs: SlotInputs, resuming: SlotResume?
    ) -> AnyPublisher<SlotOutput, Error>? { ones(upstream) }

    /// A 1 for each value, an error (when what it is handed can fail) going through at once.
    private func ones<Failure>(_ upstream: AnyPublisher<SlotOutput, Failure>) -> AnyPublisher<SlotOutput, Failure> {
        upstream.map { _ in .count(1) }.eraseToAnyPublisher()
    }

    package func step(_ stage: inout SlotStage, _ step: SlotStep) -> SlotOutput? { step.handed.map { _ in .count(1) } }

    package func passedWords(_ moment: SlotMoment, _ passed: SlotOutput) -> (String, String?)? {
        ("1: map makes what it is handed a 1", "1")
    }
}

extension SlotOperator {
    /// `map { _ in 1 }` (``MapToOneOperation``).
    package static let mapToOne = SlotOperator(MapToOneOperation())
}

import OpenCombine

/// `scan(0) { $0 + $1 }`: adds up the counts it is handed and passes on the sum, the second half
/// of the seed's counter (`map { _ in 1 }` before it makes each value a 1): so what goes on is how
/// many values came since the pipe was built. Its code reads the same in RxSwift and Combine
/// (RxSwift's `scan(_:accumulator:)` labels the function, so Combine's `scan(0, +)` is not
/// RxSwift's). The ball takes the count's colour
/// (``SlotOutput/countColours``): the next with each move. Alone from the box, it comes with
/// its `map` (``SlotOperator/alone``).
package struct ScanOperation: SlotOperation {
    package let name = "scan"
    package let key: Unicode.Scalar = "9"
    package let code = "position.scan(0) { $0 + $1 }"
    package let words =
        "the counts added up: after map { _ in 1 }, the moves counted; the ball takes the count's colour"
    package let rxpy = "upstream.pipe(ops.scan(lambda count, one: count + one, 0))"
    package let passesErrors = true
    package let takes: SlotValueKind? = .count
    package let remembersPassed = true

    /// A chain built part-way goes on from the state's sum.
    package func applied(
        to upstream: AnyPublisher<SlotOutput, Never>, inputs: SlotInputs, resuming: SlotResume?
    ) -> AnyPublisher<SlotOutput, Never> { summed(upstream, resuming: resuming) }

    package func passingErrors(
        _ upstream: AnyPublisher<SlotOutput, Error>, afresh: @escaping () -> AnyPublisher<SlotOutput, Error>,
        inputs: SlotInputs, resuming: SlotResume?
    ) -> AnyPublisher<SlotOutput, Error>? {
        summed(upstream, resuming: resuming)
    }

    /// The running sum, an error (when what it is handed can fail) going through at once.
    private func summed<Failure>(
        _ upstream: AnyPublisher<SlotOutput, Failure>, resuming: SlotResume?
    ) -> AnyPublisher<SlotOutput, Failure> {
        let counted = resuming?.stage.passed?.count ?? 0
        return upstream.scan(counted) { $0 + ($1.count ?? 0) }.map(SlotOutput.count).eraseToAnyPublisher()
    }

    /// The sum so far and what it is handed.
    package func step(_ stage: inout SlotStage, _ step: SlotStep) -> SlotOutput? {
        guard let handed = step.handed?.count else { return nil }
        return .count((stage.passed?.count ?? 0) + handed)
    }

    package func passedWords(_ moment: SlotMoment, _ passed: SlotOutput) -> (String, String?)? {
        guard let count = passed.count else { return nil }
        if moment.chosen {
            return (
                "\(count): the pipe built, handed the position: map makes it a 1, and scan adds it to 0",
                "\(count), at once"
            )
        }
        return ("\(count): a new value: map makes it a 1, and scan adds it to \(count - 1)", "\(count), one more")
    }
}

extension SlotOperator {
    /// `scan(0) { $0 + $1 }` (``ScanOperation``).
    package static let scan = SlotOperator(ScanOperation())
}

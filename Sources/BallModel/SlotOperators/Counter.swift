import OpenCombine

/// The counter, `map` then `scan`: each position maps to a 1, and `scan` adds them up, so what
/// goes on is how many positions came since it went in (the one it is handed counts). The ball
/// takes the count's colour (``SlotOutput/countColours``): the next with each move.
package struct CounterOperation: SlotOperation {
    package let name = "counter"
    package let key: Unicode.Scalar = "9"
    package let code = "position.map { _ in 1 }.scan(0, +)"
    package let words = "the moves counted: each position a 1, added up; the ball takes the count's colour"
    package let rxpy = "subject.pipe(ops.map(lambda _: 1), ops.scan(lambda count, one: count + one, 0))"

    /// A chain built part-way resumes the count: its `scan` starts from what it had counted
    /// before the position the chain hands it (the count less one), as `background`'s `scan`
    /// resumes the state's colour.
    package func applied(to inputs: SlotInputs, resuming: BallState?) -> AnyPublisher<SlotOutput, Never> {
        let countedBefore = resuming?.slotted.count.map { $0 - 1 } ?? 0
        return inputs.position.map { _ in 1 }.scan(countedBefore, +).map(SlotOutput.count).eraseToAnyPublisher()
    }

    /// A count: 1 when chosen (for the position it is handed, a new scan), one more for each
    /// new position.
    package func step(_ next: inout BallState, from state: BallState, by intent: Intent, handed: Bool) {
        guard handed else { return }
        let counted = intent.choosesOperator ? 0 : state.slotted.count ?? 0
        next.slotted = .count(counted + 1)
    }

    package func passedWords(_ moment: SlotMoment, _ passed: SlotOutput) -> (String, String?)? {
        guard let count = passed.count else { return nil }
        if moment.chosen {
            return (
                "1: counter chosen, handed the position: map makes it a 1, and scan adds it to 0", "1, at once"
            )
        }
        return (
            "\(count): a new position: map makes it a 1, and scan adds it to \(count - 1)", "\(count), one more"
        )
    }
}

extension SlotOperator {
    /// The counter (``CounterOperation``).
    package static let counter = SlotOperator(CounterOperation())
}

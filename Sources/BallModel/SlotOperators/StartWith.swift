import OpenCombine

/// `startWith` (Combine's `prepend`): the middle of the screen first, then each new position;
/// `dropFirst()` skips the position the subject hands over, so what goes on when it is chosen
/// is the middle, and the ball takes the middle's colour until it moves.
package struct StartWithOperation: SlotOperation {
    package let name = "startWith"
    package let key: Unicode.Scalar = "a"
    package let code = "position.dropFirst().prepend(.centred(on: screen))"
    package let words = "the middle of the screen first, then each new position"
    package let rxpy = "subject.pipe(ops.skip(1), ops.start_with(centre_of(subject.value)))"

    /// A chain built part-way puts nothing first (it did when chosen).
    package func applied(to inputs: SlotInputs, resuming: BallState?) -> AnyPublisher<SlotOutput, Never> {
        let position = inputs.position
        if resuming != nil { return position.dropFirst().map(SlotOutput.position).eraseToAnyPublisher() }
        return position.dropFirst().prepend(.centred(on: position.value.screen)).map(SlotOutput.position)
            .eraseToAnyPublisher()
    }

    /// Chosen, the middle goes first (dropFirst skips the position handed over); then each new
    /// position.
    package func step(_ next: inout BallState, from state: BallState, by intent: Intent, handed: Bool) {
        guard handed else { return }
        next.slotted = .position(intent.choosesOperator ? .centred(on: next.position.screen) : next.position)
    }

    package func passedWords(_ moment: SlotMoment, _ passed: SlotOutput) -> (String, String?)? {
        guard let position = passed.position, moment.chosen else { return nil }
        let cell = SlotMoment.marble(position)
        return (
            "\(cell) (the middle): startWith chosen: prepend puts the middle first, and dropFirst skips the position handed over",
            "\(cell), the middle first"
        )
    }
}

extension SlotOperator {
    /// `startWith` (``StartWithOperation``).
    package static let startWith = SlotOperator(StartWithOperation())
}

import OpenCombine

/// `startWith` (Combine's `prepend`): the middle of the screen first, then each new position;
/// `dropFirst()` skips the position the subject hands over, so what goes on when it is chosen
/// is the middle, and the ball takes the middle's colour until it moves.
package struct StartWithOperation: SlotOperation {
    package let name = "startWith"
    package let key: Unicode.Scalar = "a"
    package let code = "position.skip(1).startWith(.centred(on: screen))"
    package let words = "the middle of the screen first, then each new position (Combine: prepend)"
    package let rxpy = "subject.pipe(ops.skip(1), start_with_now(centre_of(subject.value)))"

    package let startsPipe = true

    /// A chain built part-way puts nothing first (it did when chosen), and its position hands
    /// nothing as it subscribes: nothing to drop.
    package func applied(
        to upstream: AnyPublisher<SlotOutput, Never>, inputs: SlotInputs, resuming: SlotResume?
    ) -> AnyPublisher<SlotOutput, Never> {
        if resuming != nil { return upstream }
        return upstream.dropFirst().prepend(.position(.centred(on: inputs.position.value.screen))).eraseToAnyPublisher()
    }

    /// Chosen, the middle goes first (dropFirst skips the position handed over); then each new
    /// position. The middle is the screen's as the pipe was built, kept in the stage: `retry`
    /// subscribing anew gets the same value first, as RxSwift's `startWith(_:)` takes its value
    /// once, when the chain is made (a resize since then does not change it).
    package func step(_ stage: inout SlotStage, _ step: SlotStep) -> SlotOutput? {
        guard let handed = step.handed else { return nil }
        guard step.built else { return handed }
        if !step.resubscribed || stage.given == nil {
            stage.given = .position(.centred(on: step.next.position.screen))
        }
        return stage.given
    }

    package func passedWords(_ moment: SlotMoment, _ passed: SlotOutput) -> (String, String?)? {
        guard let position = passed.position, moment.chosen else { return nil }
        let cell = SlotMoment.marble(position)
        return (
            "\(cell) (the middle): startWith chosen: it puts the middle first, and skip(1) skips the position handed over",
            "\(cell), the middle first"
        )
    }
}

extension SlotOperator {
    /// `startWith` (``StartWithOperation``).
    package static let startWith = SlotOperator(StartWithOperation())
}

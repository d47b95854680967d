import OpenCombine

/// `catchAndReturn`: an error of a stage before it (`tryMap` in a corner) becomes one value, the
/// middle of the screen, and then the end: RxSwift's `catchAndReturn(centre)` (RxSwift 6; before,
/// `catchErrorJustReturn`), which Combine, and the slot, calls `replaceError(with:)`. As `catch`
/// with `.just`: nothing comes through the pipe again, but the chain after the slot lives on, the
/// ball in the middle's colour.
package struct CatchAndReturnOperation: RecoveringOperation {
    package let name = "catchAndReturn"
    /// Older replay files name it so, by Combine's name: read, never written.
    package let formerNames = ["replaceError"]
    package let key: Unicode.Scalar = "E"
    package let code = "position.catchAndReturn(.centred(on: screen))"
    /// The value returned is what the error lesson asks the learner to predict.
    package let unsaidCode = "position.catchAndReturn(…)"
    package let words = "an error before it becomes the middle, then the end (Combine: replaceError(with:))"
    package let rxpy = "upstream.pipe(ops.catch(reactivex.just(centre_of(subject.value))))"

    package let endsErrors = true

    /// OpenCombine's `replaceError(with:)`, the middle of the screen the ball is on as the pipe
    /// is built (its value is made then, as RxSwift's `catchAndReturn(centre)` takes it; `catch`'s
    /// closure makes its fallback at the error).
    package func passingErrors(
        _ upstream: AnyPublisher<SlotOutput, Error>, afresh: @escaping () -> AnyPublisher<SlotOutput, Error>,
        inputs: SlotInputs, resuming: SlotResume?
    ) -> AnyPublisher<SlotOutput, Error>? {
        let value = resuming?.stage.given ?? .position(.centred(on: inputs.position.value.screen))
        return upstream.replaceError(with: value).setFailureType(to: Error.self).eraseToAnyPublisher()
    }

    /// What it is handed goes through; built, it makes its value: the middle of the screen then.
    package func step(_ stage: inout SlotStage, _ step: SlotStep) -> SlotOutput? {
        if step.built { stage.given = .position(.centred(on: step.next.position.screen)) }
        return step.handed
    }

    /// The value it made as the pipe was built (the middle then), then the end.
    package func recovery(_ stage: inout SlotStage, from error: SlotError, _ step: SlotStep) -> SlotRecovery? {
        .fallback(stage.given ?? .position(.centred(on: step.next.position.screen)))
    }

    package func passedWords(_ moment: SlotMoment, _ passed: SlotOutput) -> (String, String?)? {
        guard let position = passed.position, let seen = moment.position ?? moment.statePosition, seen.isInCorner
        else { return nil }
        return (
            "\(SlotMoment.marble(position)): the stage before threw, and catchAndReturn passed the middle on instead and completed",
            "\(SlotMoment.marble(position)), replaced"
        )
    }
}

extension SlotOperator {
    /// `catchAndReturn` (``CatchAndReturnOperation``).
    package static let catchAndReturn = SlotOperator(CatchAndReturnOperation())
}

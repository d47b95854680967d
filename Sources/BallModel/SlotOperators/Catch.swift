import OpenCombine

/// `catch`: an error of a stage before it (`tryMap` in a corner) is replaced by a fallback,
/// `Just` the middle of the screen, which passes the middle on and completes: RxSwift's
/// `catch { _ in .just(centre) }`. The stages before it ended with the error, and the fallback
/// completes, so nothing comes through the pipe again; but the chain after the slot lives on (the
/// pipe's completion does not end `switchToLatest`), so the ball keeps the middle's colour until
/// another pipe is built, and the binding is not dead.
package struct CatchOperation: RecoveringOperation {
    package let name = "catch"
    package let key: Unicode.Scalar = "X"
    package let code = "position.catch { _ in .just(.centred(on: screen)) }"
    package let words = "an error before it becomes .just(the middle), which then completes (Combine: Just)"
    package let rxpy = "upstream.pipe(ops.catch(lambda error, source: reactivex.just(centre_of(subject.value))))"

    package let endsErrors = true

    /// OpenCombine's `catch`, its fallback `Just` the middle of the screen the ball is on then.
    package func passingErrors(
        _ upstream: AnyPublisher<SlotOutput, Error>, afresh: @escaping () -> AnyPublisher<SlotOutput, Error>,
        inputs: SlotInputs, resuming: SlotResume?
    ) -> AnyPublisher<SlotOutput, Error>? {
        let position = inputs.position
        return upstream.catch { _ in Just(SlotOutput.position(.centred(on: position.value.screen))) }
            .setFailureType(to: Error.self).eraseToAnyPublisher()
    }

    /// What it is handed goes through.
    package func step(_ stage: inout SlotStage, _ step: SlotStep) -> SlotOutput? { step.handed }

    /// The middle of the screen, then the end.
    package func recovery(_ stage: inout SlotStage, from error: SlotError, _ step: SlotStep) -> SlotRecovery? {
        .fallback(.position(.centred(on: step.next.position.screen)))
    }

    package func passedWords(_ moment: SlotMoment, _ passed: SlotOutput) -> (String, String?)? {
        guard let position = passed.position, let seen = moment.position ?? moment.statePosition, seen.isInCorner,
            position == .centred(on: seen.screen)
        else { return nil }
        return (
            "\(SlotMoment.marble(position)): the stage before threw, and catch's fallback .just(the middle) passed the middle on and completed",
            "\(SlotMoment.marble(position)), caught"
        )
    }
}

extension SlotOperator {
    /// `catch` (``CatchOperation``).
    package static let `catch` = SlotOperator(CatchOperation())
}

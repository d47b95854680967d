import OpenCombine

/// `retry(3)`: an error of a stage before it subscribes to those stages anew, up to three
/// subscriptions in all; the third's error goes on. RxSwift's `retry(3)` counts subscriptions
/// (3), as the learner reads it; Combine's `retry(2)`, which the slot runs, counts the retries
/// after the first (2): the same operator. The position is a Behavior subject, which hands a new
/// subscriber the position at once: with the ball still in the corner each retry throws again at
/// once, so all are spent in one move and the error goes on (retry cannot fix what is still wrong). Never an unbounded `retry()`: that would
/// resubscribe for ever, in one call.
package struct RetryOperation: RecoveringOperation {
    package let name = "retry"
    package let key: Unicode.Scalar = "R"
    package let code = "position.retry(\(RetryOperation.attempts))"
    package let words =
        "an error before it subscribes again: \(RetryOperation.attempts) subscriptions in all (Combine: retry(\(RetryOperation.attempts - 1)))"
    package let rxpy = "upstream.pipe(retry_now(3))"

    package let takes: SlotValueKind? = nil

    /// How many subscriptions it makes at most, the first included (RxSwift's count).
    package static let attempts = 3

    /// OpenCombine's `retry`, with the retries it has left; what it resubscribes to is the stages
    /// before it subscribed anew (`afresh`), as a chain built part-way resumes `upstream`.
    package func passingErrors(
        _ upstream: AnyPublisher<SlotOutput, Error>, afresh: @escaping () -> AnyPublisher<SlotOutput, Error>,
        inputs: SlotInputs, resuming: SlotResume?
    ) -> AnyPublisher<SlotOutput, Error>? {
        let left = Self.attempts - 1 - (resuming?.stage.retries ?? 0)
        guard left > 0 else { return upstream }
        // Made now, with the pipe: each subscription anew is to the same stages, values they
        // took as they were made included (startWith's middle), as RxSwift's retry resubscribes.
        let again = afresh()
        return upstream.catch { _ in again.retry(left - 1) }.eraseToAnyPublisher()
    }

    /// What it is handed goes through.
    package func step(_ stage: inout SlotStage, _ step: SlotStep) -> SlotOutput? { step.handed }

    /// Subscribes anew while it has subscriptions left; then the error goes on.
    package func recovery(_ stage: inout SlotStage, from error: SlotError, _ step: SlotStep) -> SlotRecovery? {
        guard stage.retries < Self.attempts - 1 else { return nil }
        stage.retries += 1
        return .resubscribe
    }
}

extension SlotOperator {
    /// `retry(3)` (``RetryOperation``).
    package static let retry = SlotOperator(RetryOperation())
}

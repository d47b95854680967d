import OpenCombine

/// `distinctUntilChanged` by the half the ball is in (Combine's `removeDuplicates(by:)`, which the
/// slot runs): a position goes through only when the ball is in the other half from the last one
/// that went through, so the colour changes only as the ball crosses the middle. The first it is
/// handed always goes through. (It compares with the last it let through, as RxSwift's does; "the same
/// half" is an equivalence, so comparing with the last it was handed, as Combine's does, is
/// the same.)
package struct DistinctUntilChangedOperation: SlotOperation {
    package let name = "distinctUntilChanged"
    package let key: Unicode.Scalar = "d"
    package let code = "position.distinctUntilChanged { $0.isInRightHalf == $1.isInRightHalf }"
    package let words =
        "a position goes through only when the ball has crossed to the other half (Combine: removeDuplicates)"
    package let rxpy = "upstream.pipe(ops.distinct_until_changed(in_right_half))"
    package let passesErrors = true

    package let remembersPassed = true

    /// A chain built part-way compares with the last it let through: handed that first, which
    /// goes no further.
    package func applied(
        to upstream: AnyPublisher<SlotOutput, Never>, inputs: SlotInputs, resuming: SlotResume?
    ) -> AnyPublisher<SlotOutput, Never> { distinct(upstream, resuming: resuming) }

    package func passingErrors(
        _ upstream: AnyPublisher<SlotOutput, Error>, afresh: @escaping () -> AnyPublisher<SlotOutput, Error>,
        inputs: SlotInputs, resuming: SlotResume?
    ) -> AnyPublisher<SlotOutput, Error>? {
        distinct(upstream, resuming: resuming)
    }

    /// What crossed the middle, an error (when what it is handed can fail) going through at once.
    private func distinct<Failure>(
        _ upstream: AnyPublisher<SlotOutput, Failure>, resuming: SlotResume?
    ) -> AnyPublisher<SlotOutput, Failure> {
        let compared = { (last: SlotOutput, new: SlotOutput) in
            last.position?.isInRightHalf == new.position?.isInRightHalf
        }
        guard let last = resuming?.stage.passed else {
            return upstream.removeDuplicates(by: compared).eraseToAnyPublisher()
        }
        return upstream.prepend(last).removeDuplicates(by: compared).dropFirst().eraseToAnyPublisher()
    }

    /// The first value it is handed goes through; then a new one goes through when it is in the
    /// other half from the last that did (``SlotStage/passed``).
    package func step(_ stage: inout SlotStage, _ step: SlotStep) -> SlotOutput? {
        guard let handed = step.handed else { return nil }
        guard let last = stage.passed?.position else { return handed }
        return last.isInRightHalf != handed.position?.isInRightHalf ? handed : nil
    }

    package func passedWords(_ moment: SlotMoment, _ passed: SlotOutput) -> (String, String?)? {
        guard let position = passed.position, !moment.chosen else { return nil }
        let (cell, half) = (SlotMoment.marble(position), position.isInRightHalf ? "right" : "left")
        return ("\(cell): the ball crossed into the \(half) half, so it differs from the last", "\(cell), now \(half)")
    }

    package func heldWords(_ moment: SlotMoment, seen position: BallPosition) -> (String, String?) {
        let (cell, half) = (SlotMoment.cell(position), position.isInRightHalf ? "right" : "left")
        return (
            "nothing: \(cell) is in the \(half) half, as the last that went through: distinctUntilChanged drops it",
            "nothing: \(cell), still \(half)"
        )
    }
}

extension SlotOperator {
    /// `distinctUntilChanged` by the half (``DistinctUntilChangedOperation``).
    package static let distinctUntilChanged = SlotOperator(DistinctUntilChangedOperation())
}

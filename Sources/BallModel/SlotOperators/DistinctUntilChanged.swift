import OpenCombine

/// `distinctUntilChanged` by the half the ball is in (Combine's `removeDuplicates(by:)`): a
/// position goes through only when the ball is in the other half from the last one that went
/// through, so the colour changes only as the ball crosses the middle. The first it is handed
/// always goes through. (It compares with the last it let through, as RxSwift's does; "the same
/// half" is an equivalence, so comparing with the last it was handed, as Combine's does, is
/// the same.)
package struct DistinctUntilChangedOperation: SlotOperation {
    package let name = "distinctUntilChanged"
    package let key: Unicode.Scalar = "d"
    package let code = "position.removeDuplicates { $0.isInRightHalf == $1.isInRightHalf }"
    package let words = "a position goes through only when the ball has crossed to the other half"
    package let rxpy = "subject.pipe(ops.distinct_until_changed(in_right_half))"

    package func applied(to inputs: SlotInputs, resuming: BallState?) -> AnyPublisher<SlotOutput, Never> {
        inputs.position.removeDuplicates { $0.isInRightHalf == $1.isInRightHalf }.map(SlotOutput.position)
            .eraseToAnyPublisher()
    }

    /// Chosen, the position it is handed goes through; then a new one goes through when it is
    /// in the other half from the last that did (``BallState/slotted``).
    package func step(_ next: inout BallState, from state: BallState, by intent: Intent, handed: Bool) {
        guard handed else { return }
        if intent.choosesOperator || state.slotted.position?.isInRightHalf != next.position.isInRightHalf {
            next.slotted = .position(next.position)
        }
    }

    /// Handed the last position it let through, then sent the position now (in the same half:
    /// it goes no further).
    package func warmUp(_ state: BallState) -> SlotWarmUp {
        guard let passed = state.slotted.position, passed != state.position else { return SlotWarmUp() }
        return SlotWarmUp([(state.time, passed), (state.time, state.position)])
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

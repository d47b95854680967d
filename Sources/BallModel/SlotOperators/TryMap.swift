import OpenCombine

/// `tryMap`: an operator that can fail, the program's name for RxSwift's `map` with a closure that
/// throws, `position.map { guard … else { throw … }; return $0 }`, as the learner reads it (Combine
/// names it `tryMap`, which the slot runs). Each position goes through as it is, but one in a corner
/// (``BallPosition/isInCorner``) throws ``SlotError/outOfBounds(_:)``: the error ends the stages
/// after it, and, unless one of them recovers (`catch`, `retry`, `catchAndReturn`), `slotted` and
/// everything after it, `ballColour` and `background`, so the colour stops following the ball for
/// good (the binding is dead: choosing another operator cannot bring it back, as the chain's
/// `switchToLatest` ended with the error too).
package struct TryMapOperation: SlotOperation {
    package let name = "tryMap"
    package let key: Unicode.Scalar = "y"
    package let code = "position.map { guard !$0.isInCorner else { throw SlotError.outOfBounds($0) }; return $0 }"
    package let words =
        "each position goes through, but one in a corner throws: out of bounds, the colour's stream ends (Combine: tryMap)"
    package let rxpy = "upstream.pipe(ops.map(out_of_bounds))"
    package let passesErrors = true

    package let canFail = true

    /// The values as they are: what ``running(on:inputs:resuming:)`` checks.
    package func applied(
        to upstream: AnyPublisher<SlotOutput, Never>, inputs: SlotInputs, resuming: SlotResume?
    ) -> AnyPublisher<SlotOutput, Never> { upstream }

    /// OpenCombine's `tryMap`, throwing for a position in a corner.
    package func running(
        on upstream: AnyPublisher<SlotOutput, Never>, inputs: SlotInputs, resuming: SlotResume?
    ) -> AnyPublisher<SlotOutput, Error> { throwing(upstream) }

    /// After a stage that can fail too: an error from before goes through at once.
    package func passingErrors(
        _ upstream: AnyPublisher<SlotOutput, Error>, afresh: @escaping () -> AnyPublisher<SlotOutput, Error>,
        inputs: SlotInputs, resuming: SlotResume?
    ) -> AnyPublisher<SlotOutput, Error>? { throwing(upstream) }

    /// OpenCombine's `tryMap` on `upstream`, throwing for a position in a corner.
    private func throwing<Failure>(_ upstream: AnyPublisher<SlotOutput, Failure>) -> AnyPublisher<SlotOutput, Error> {
        upstream.tryMap { value -> SlotOutput in
            if let position = value.position, position.isInCorner { throw SlotError.outOfBounds(position) }
            return value
        }
        .eraseToAnyPublisher()
    }

    /// Each position it is handed goes through, unless it is in a corner: then the chain fails.
    package func step(_ stage: inout SlotStage, _ step: SlotStep) -> SlotOutput? { step.handed }

    /// A position in a corner, handed: out of bounds.
    package func failure(_ step: SlotStep) -> SlotError? {
        guard let position = step.handed?.position, position.isInCorner else { return nil }
        return .outOfBounds(position)
    }

    package func heldWords(_ moment: SlotMoment, seen position: BallPosition) -> (String, String?) {
        let cell = SlotMoment.cell(position)
        return (
            "# \(cell) is in a corner: tryMap threw out of bounds, which ends slotted and everything after it",
            "# \(cell): out of bounds"
        )
    }
}

extension SlotOperator {
    /// `tryMap` (``TryMapOperation``).
    package static let tryMap = SlotOperator(TryMapOperation())
}

/// What an operator in the slot throws.
package enum SlotError: Error, Hashable, Sendable {
    /// `tryMap` was handed a position in a corner.
    case outOfBounds(BallPosition)

    /// What went wrong, without where: `out of bounds` (the status line shows the place).
    package var reason: String {
        switch self {
        case .outOfBounds: "out of bounds"
        }
    }

    /// The error in a few words: `out of bounds at 69,17`.
    package var words: String {
        switch self {
        case .outOfBounds(let position): "out of bounds at \(position.centre.column),\(position.centre.row)"
        }
    }
}

extension BallPosition {
    /// Whether the ball is in a corner of its screen: its centre as far as the disc can go both
    /// ways, so it touches two edges (a drag past a corner takes it there).
    package var isInCorner: Bool {
        guard let allowed = shape.allowedCentres(on: screen) else { return false }
        let (columns, rows) = allowed
        return (centre.column == columns.lowerBound || centre.column == columns.upperBound)
            && (centre.row == rows.lowerBound || centre.row == rows.upperBound)
    }
}

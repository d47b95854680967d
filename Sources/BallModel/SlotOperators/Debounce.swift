import OpenCombine

/// `debounce`: a position goes through once ``interval`` has passed with no new one, so the
/// ball keeps its colour while it moves and takes the new one when it stops: RxSwift's
/// `debounce(_:scheduler:)`. A quit completes the position: what it holds goes through at once,
/// then its completion. Combine's `debounce(for:scheduler:)` differs: it drops what it holds then.
package struct DebounceOperation: SlotOperation {
    package let name = "debounce"
    package let key: Unicode.Scalar = "4"
    package let code = "position.debounce(.milliseconds(300), scheduler: clock)"
    package let words =
        "a position goes through once 300 ms pass with no new one; at the end, the one held (Combine's drops it)"
    package let rxpy = "subject.pipe(ops.debounce(float(DEBOUNCE)))"
    package let benchIdle = (keys: "hhhh", after: "after its timer", settle: 0.8)
    /// How long it waits for quiet: 300 ms.
    package let interval: SessionTime.Stride? = .milliseconds(300)

    package func applied(to inputs: SlotInputs, resuming: BallState?) -> AnyPublisher<SlotOutput, Never> {
        inputs.position.debounce(.milliseconds(300), scheduler: inputs.clock).map(SlotOutput.position)
            .eraseToAnyPublisher()
    }

    package func step(_ next: inout BallState, from state: BallState, by intent: Intent, handed: Bool) {
        // The position's completion: what it holds goes through first (the position, as each
        // one it is handed is the latest).
        if intent.endsSession, next.heldSince != nil {
            next.heldSince = nil
            next.slotted = .position(next.position)
        }
        // Each position it is handed waits afresh, from the intent's time.
        if handed { next.heldSince = state.time }
    }

    /// Handed the position at the time it came (held since then); holding nothing, the timer
    /// that sets is dropped.
    package func warmUp(_ state: BallState) -> SlotWarmUp {
        SlotWarmUp([(state.heldSince ?? state.time, state.position)], dropsTimers: state.heldSince == nil)
    }

    package func passedWords(_ moment: SlotMoment, _ passed: SlotOutput) -> (String, String?)? {
        guard let position = passed.position, let passedAt = moment.passedAt else { return nil }
        if moment.intent?.endsSession == true {
            return (
                "\(SlotMoment.marble(position)) at the end: position completed, so debounce hands on what it held, then completes (Combine's debounce drops it)",
                "\(SlotMoment.marble(position)) held, handed on at the end"
            )
        }
        guard passedAt != moment.time else { return nil }
        let (cell, at) = (SlotMoment.marble(position), SlotMoment.seconds(passedAt))
        return ("\(cell) at \(at): debounce, 300 ms went by with no new position", "\(cell) at \(at), 300 ms quiet")
    }

    package func heldWords(_ moment: SlotMoment, seen position: BallPosition) -> (String, String?) {
        let cell = SlotMoment.cell(position)
        guard let time = moment.time, let next = moment.next, let nextTime = next.time else {
            return ("debounce: \(cell) waits for 300 ms with no new position", "waiting: \(cell)")
        }
        let gap = (nextTime.microseconds - time.microseconds) / 1_000
        return (
            "debounce: \(cell) waits for 300 ms with no new position; #\(next.index) came \(gap) ms later",
            "waiting: #\(next.index) \(gap) ms later"
        )
    }
}

extension SlotOperator {
    /// `debounce` (``DebounceOperation``).
    package static let debounce = SlotOperator(DebounceOperation())
}

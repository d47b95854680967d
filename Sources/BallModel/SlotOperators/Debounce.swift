import OpenCombine

/// `debounce`: a position goes through once ``interval`` has passed with no new one, so the
/// ball keeps its colour while it moves and takes the new one when it stops. A quit completes
/// the position: what it holds is dropped, as OpenCombine's drops it (Rx's hands it on first).
package struct DebounceOperation: SlotOperation {
    package let name = "debounce"
    package let key: Unicode.Scalar = "4"
    package let code = "position.debounce(for: .milliseconds(300), scheduler: clock)"
    package let words = "a position goes through once 300 ms pass with no new one"
    package let rxpy = "subject.pipe(ops.debounce(float(DEBOUNCE)))"
    package let benchIdle = (keys: "hhhh", after: "after its timer", settle: 0.8)
    /// How long it waits for quiet: 300 ms.
    package let interval: SessionTime.Stride? = .milliseconds(300)

    package func applied(to inputs: SlotInputs, resuming: BallState?) -> AnyPublisher<SlotOutput, Never> {
        inputs.position.debounce(for: .milliseconds(300), scheduler: inputs.clock).map(SlotOutput.position)
            .eraseToAnyPublisher()
    }

    package func step(_ next: inout BallState, from state: BallState, by intent: Intent, handed: Bool) {
        if intent == .quitRequested { next.heldSince = nil }
        // Each position it is handed waits afresh, from the intent's time.
        if handed { next.heldSince = state.time }
    }

    /// Handed the position at the time it came (held since then); holding nothing, the timer
    /// that sets is dropped.
    package func warmUp(_ state: BallState) -> SlotWarmUp {
        SlotWarmUp([(state.heldSince ?? state.time, state.position)], dropsTimers: state.heldSince == nil)
    }

    package func passedWords(_ moment: SlotMoment, _ passed: SlotOutput) -> (String, String?)? {
        guard let position = passed.position, let passedAt = moment.passedAt, passedAt != moment.time else {
            return nil
        }
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

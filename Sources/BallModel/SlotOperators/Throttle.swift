import OpenCombine

/// `throttle`: at most one position every ``interval``: the first at once, then, when its
/// window ends, the latest that came in it (`latest: true`). Subscribing, it asks `position`
/// for values before it is asked for any, so it drops the position it is handed then (Combine's
/// throttle; Rx's passes it on). A quit completes the position; what it holds still goes
/// through at the window's end (and it completes then).
package struct ThrottleOperation: SlotOperation {
    package let name = "throttle"
    package let key: Unicode.Scalar = "5"
    package let code = "position.throttle(for: .milliseconds(300), scheduler: clock, latest: true)"
    package let words = "at most one position each 300 ms: the first at once, then the latest"
    package let rxpy = "subject.pipe(throttle_latest(scheduler))"
    package let benchIdle = (keys: "hhhh", after: "after its window", settle: 0.8)
    /// How long its window lasts after it lets a position through: 300 ms.
    package let interval: SessionTime.Stride? = .milliseconds(300)

    package func applied(to inputs: SlotInputs, resuming: BallState?) -> AnyPublisher<SlotOutput, Never> {
        inputs.position.throttle(for: .milliseconds(300), scheduler: inputs.clock, latest: true)
            .map(SlotOutput.position).eraseToAnyPublisher()
    }

    /// A position lets through at once when its window is over (300 ms since the last it let
    /// through), and otherwise is held until the window ends (``BallState/windowStart``).
    package func step(_ next: inout BallState, from state: BallState, by intent: Intent, handed: Bool) {
        // Chosen, it drops the position it is handed; holding already, the held position is
        // the latest, which this one now is.
        guard handed, !intent.choosesOperator, next.heldSince == nil else { return }
        if let windowStart = next.windowStart, state.time < windowStart.advanced(by: .milliseconds(300)) {
            next.heldSince = windowStart
        } else {
            next.slotted = .position(next.position)
            next.windowStart = state.time
        }
    }

    /// What it held goes through, and a new window starts there.
    package func timerWentOff(_ next: inout BallState, at due: SessionTime) {
        next.heldSince = nil
        next.slotted = .position(next.position)
        next.windowStart = due
    }

    /// Once it has let a position through: it drops the one it is handed (as it does
    /// subscribing), then lets through what it last let through, at the time it did (its window
    /// starts there), then, if it holds one, is sent the position now (held until the window
    /// ends).
    package func warmUp(_ state: BallState) -> SlotWarmUp {
        guard let windowStart = state.windowStart, let passed = state.slotted.position else { return SlotWarmUp() }
        let held = [(windowStart, passed), (windowStart, passed)]
        return SlotWarmUp(state.heldSince == nil ? held : held + [(state.time, state.position)])
    }

    package func passedWords(_ moment: SlotMoment, _ passed: SlotOutput) -> (String, String?)? {
        guard let position = passed.position, let passedAt = moment.passedAt else { return nil }
        let cell = SlotMoment.marble(position)
        if passedAt != moment.time {
            let at = SlotMoment.seconds(passedAt)
            return (
                "\(cell) at \(at): throttle's window ended; the latest position goes through",
                "\(cell) at \(at), window over"
            )
        }
        let over =
            moment.lastPassedAt.map { "its window from \(SlotMoment.seconds($0)) was over" } ?? "it had no window open"
        return (
            "\(cell) through at once: \(over), so throttle lets it through and a 300 ms window starts",
            "\(cell) at once, window starts"
        )
    }

    package func heldWords(_ moment: SlotMoment, seen position: BallPosition) -> (String, String?) {
        let cell = SlotMoment.cell(position)
        if moment.chosen {
            return (
                "nothing: throttle, subscribing, asks position for values before it is asked for any, so it drops \(cell) (Rx's throttle would pass it on)",
                "nothing: \(cell) dropped subscribing"
            )
        }
        guard let windowStart = moment.lastPassedAt else {
            return ("throttle: \(cell) held until its window ends; then the latest goes through", "held: window open")
        }
        let end = SlotMoment.seconds(windowStart.advanced(by: .milliseconds(300)))
        return (
            "throttle: \(cell) held: its window from \(SlotMoment.seconds(windowStart)) ends at \(end); then the latest goes through",
            "held until \(end)"
        )
    }
}

extension SlotOperator {
    /// `throttle` (``ThrottleOperation``).
    package static let throttle = SlotOperator(ThrottleOperation())
}

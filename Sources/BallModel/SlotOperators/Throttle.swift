import OpenCombine

/// `throttle`: at most one position every ``interval``: the first at once (the position it is
/// handed as it is chosen included), then, when its window ends, the latest that came in it
/// (`latest: true`): RxSwift's `throttle(_:latest:scheduler:)`. A quit completes the position;
/// what it holds still goes through at the window's end (and it completes then). Combine's
/// `throttle(for:scheduler:latest:)` differs: subscribing, it drops the position it is handed.
package struct ThrottleOperation: SlotOperation {
    package let name = "throttle"
    package let key: Unicode.Scalar = "5"
    package let code = "position.throttle(.milliseconds(300), latest: true, scheduler: clock)"
    package let words =
        "at most one position each 300 ms: the first at once, then the latest (Combine's drops the first)"
    package let rxpy = "subject.pipe(throttle_latest(scheduler))"
    package let benchIdle = (keys: "hhhh", after: "after its window", settle: 0.8)
    /// How long its window lasts after it lets a position through: 300 ms.
    package let interval: SessionTime.Stride? = .milliseconds(300)

    package func applied(to inputs: SlotInputs, resuming: BallState?) -> AnyPublisher<SlotOutput, Never> {
        inputs.position.throttle(.milliseconds(300), latest: true, scheduler: inputs.clock)
            .map(SlotOutput.position).eraseToAnyPublisher()
    }

    /// A position lets through at once when its window is over (300 ms since the last it let
    /// through), and otherwise is held until the window ends (``BallState/windowStart``). One
    /// that comes at the instant the window ends goes through at once, and what was held is
    /// dropped: the input goes before the timer, and RxSwift's `ThrottleSink` sends a value that
    /// finds its window over at once, leaving the timer nothing to send.
    package func step(_ next: inout BallState, from state: BallState, by intent: Intent, handed: Bool) {
        guard handed else { return }
        if let windowStart = next.windowStart, state.time < windowStart.advanced(by: .milliseconds(300)) {
            // Holding already, the held position is the latest, which this one now is.
            next.heldSince = windowStart
        } else {
            next.heldSince = nil
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

    /// Once it has let a position through: handed, as it subscribes, what it last let through,
    /// at the time it did (it goes through, and its window starts there), then, if it holds
    /// one, sent the position now (held until the window ends); in a state at the window's very
    /// end, whose timer has not gone off yet, a microsecond before it (a position sent at the end
    /// would go through at once).
    package func warmUp(_ state: BallState) -> SlotWarmUp {
        guard let windowStart = state.windowStart, let passed = state.slotted.position else { return SlotWarmUp() }
        let sent = [(windowStart, passed)]
        let held = min(state.time, windowStart.advanced(by: .milliseconds(300) - .microseconds(1)))
        return SlotWarmUp(state.heldSince == nil ? sent : sent + [(held, state.position)])
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
        if moment.chosen {
            return (
                "\(cell) through at once: throttle, chosen, passes the position handed as it subscribes and a 300 ms window starts (Combine's throttle drops it)",
                "\(cell) at once, handed as chosen"
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

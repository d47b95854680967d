import OpenCombine

/// `throttle`: at most one position every interval (``timing``: 300 ms unless chosen): the
/// first at once (the position it is handed as it is chosen included), then, when its window ends, the latest that came in it
/// (`latest: true`): RxSwift's `throttle(_:latest:scheduler:)`. A quit completes the position;
/// what it holds still goes through at the window's end (and it completes then). Combine's
/// `throttle(for:scheduler:latest:)` differs: subscribing, it drops the position it is handed.
package struct ThrottleOperation: SlotOperation {
    package let name = "throttle"
    package let key: Unicode.Scalar = "5"
    package var code: String {
        "position.throttle(.milliseconds(\(window.milliseconds)), latest: true, scheduler: clock)"
    }
    /// RxSwift's default is `latest: true`, so this is the same operator, without the argument
    /// that hints at what lesson 13 asks (what throttle passes, and when).
    package var unsaidCode: String { "position.throttle(.milliseconds(\(window.milliseconds)), scheduler: clock)" }
    package var words: String {
        "at most one position each \(window.words): the first at once, then the latest (Combine's drops the first)"
    }
    /// (`INTERVAL`: the stage's own window, in frames of 1 ms, which the check gives each stage.)
    package let rxpy = "upstream.pipe(throttle_latest(scheduler, INTERVAL))"
    package var benchIdle: (keys: String, after: String, settle: Double) {
        (keys: "hhhh", after: "after its window", settle: 0.5 + Double(window.milliseconds) / 1_000)
    }
    /// How long its window lasts after it lets a position through.
    package let window: SlotInterval
    package var timing: SlotInterval? { window }

    /// Throttle with a window of `window`.
    package init(window: SlotInterval = .usual) { self.window = window }

    package func waiting(_ interval: SlotInterval) -> any SlotOperation { ThrottleOperation(window: interval) }

    package let takes: SlotValueKind? = nil

    /// A chain built part-way resumes its window, and what it holds in it.
    package func applied(
        to upstream: AnyPublisher<SlotOutput, Never>, inputs: SlotInputs, resuming: SlotResume?
    ) -> AnyPublisher<SlotOutput, Never> {
        let open = resuming.flatMap { resuming in
            resuming.stage.windowStart.map { start in
                (start: start, held: resuming.stage.heldSince == nil ? nil : resuming.latest)
            }
        }
        return upstream.throttle(window.stride, latest: true, scheduler: inputs.clock, resuming: open)
            .eraseToAnyPublisher()
    }

    /// A value goes through at once when its window is over (its interval since the last it
    /// let through), and otherwise is held until the window ends (``SlotStage/windowStart``). One
    /// that comes at the instant the window ends goes through at once, and what was held is
    /// dropped: the input goes before the timer, and RxSwift's `ThrottleSink` sends a value that
    /// finds its window over at once, leaving the timer nothing to send.
    package func step(_ stage: inout SlotStage, _ step: SlotStep) -> SlotOutput? {
        guard let handed = step.handed else { return nil }
        if let windowStart = stage.windowStart, step.time < windowStart.advanced(by: window.stride) {
            // Holding already, the held value is the latest, which this one now is; else its
            // timer is set now, for the window's end.
            if stage.heldSince == nil { stage.heldSince = step.time }
            return nil
        }
        stage.heldSince = nil
        stage.windowStart = step.time
        return handed
    }

    /// Its timer goes off when its window ends, if it holds a value.
    package func timer(_ stage: SlotStage) -> SessionTime? {
        guard stage.heldSince != nil else { return nil }
        return stage.windowStart?.advanced(by: window.stride)
    }

    /// What it held goes through, and a new window starts there.
    package func timerWentOff(_ stage: inout SlotStage, at due: SessionTime, latest: SlotOutput?) -> SlotOutput? {
        stage.heldSince = nil
        stage.windowStart = due
        return latest
    }

    /// Its completion waits for what it holds: it completes after its window ends.
    package func ends(_ stage: SlotStage, _ step: SlotStep) -> Bool { stage.heldSince == nil }

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
                "\(cell) through at once: throttle, chosen, passes the position handed as it subscribes and a \(window.words) window starts (Combine's throttle drops it)",
                "\(cell) at once, handed as chosen"
            )
        }
        let over =
            moment.lastPassedAt.map { "its window from \(SlotMoment.seconds($0)) was over" } ?? "it had no window open"
        return (
            "\(cell) through at once: \(over), so throttle lets it through and a \(window.words) window starts",
            "\(cell) at once, window starts"
        )
    }

    package func heldWords(_ moment: SlotMoment, seen position: BallPosition) -> (String, String?) {
        let cell = SlotMoment.cell(position)
        guard let windowStart = moment.lastPassedAt else {
            return ("throttle: \(cell) held until its window ends; then the latest goes through", "held: window open")
        }
        let end = SlotMoment.seconds(windowStart.advanced(by: window.stride))
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

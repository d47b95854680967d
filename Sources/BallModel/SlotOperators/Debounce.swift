import OpenCombine

/// `debounce`: a position goes through once its interval (``timing``: 300 ms unless chosen)
/// has passed with no new one, so the ball keeps its colour while it moves and takes the new one when it stops: RxSwift's
/// `debounce(_:scheduler:)`. A quit completes the position: what it holds goes through at once,
/// then its completion. Combine's `debounce(for:scheduler:)` differs: it drops what it holds then.
package struct DebounceOperation: SlotOperation {
    package let name = "debounce"
    package let key: Unicode.Scalar = "4"
    package var code: String { "position.debounce(.milliseconds(\(wait.milliseconds)), scheduler: clock)" }
    package var words: String {
        "a position goes through once \(wait.words) pass with no new one; at the end, the one held (Combine's drops it)"
    }
    /// (`INTERVAL`: the stage's own, in frames of 1 ms, which the check gives each stage.)
    package let rxpy = "upstream.pipe(ops.debounce(float(INTERVAL)))"
    package var benchIdle: (keys: String, after: String, settle: Double) {
        (keys: "hhhh", after: "after its timer", settle: 0.5 + Double(wait.milliseconds) / 1_000)
    }
    /// How long it waits for quiet.
    package let wait: SlotInterval
    package var timing: SlotInterval? { wait }

    /// Debounce waiting `wait` for quiet.
    package init(waiting wait: SlotInterval = .usual) { self.wait = wait }

    package func waiting(_ interval: SlotInterval) -> any SlotOperation { DebounceOperation(waiting: interval) }

    package let takes: SlotValueKind? = nil

    /// A chain built part-way holds what the state holds, its timer from when it came.
    package func applied(
        to upstream: AnyPublisher<SlotOutput, Never>, inputs: SlotInputs, resuming: SlotResume?
    ) -> AnyPublisher<SlotOutput, Never> {
        let held = resuming.flatMap { resuming in
            resuming.stage.heldSince.flatMap { since in resuming.latest.map { (value: $0, since: since) } }
        }
        return upstream.debounce(wait.stride, scheduler: inputs.clock, holding: held).eraseToAnyPublisher()
    }

    package func step(_ stage: inout SlotStage, _ step: SlotStep) -> SlotOutput? {
        // Each value it is handed waits afresh, from the step's time.
        if step.handed != nil { stage.heldSince = step.time }
        // What it is handed completed: what it holds goes through first (the latest it was handed).
        guard step.upstreamEnded, stage.heldSince != nil else { return nil }
        stage.heldSince = nil
        return step.latest
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
        return (
            "\(cell) at \(at): debounce, \(wait.words) went by with no new position",
            "\(cell) at \(at), \(wait.words) quiet"
        )
    }

    package func heldWords(_ moment: SlotMoment, seen position: BallPosition) -> (String, String?) {
        let cell = SlotMoment.cell(position)
        guard let time = moment.time, let next = moment.next, let nextTime = next.time else {
            return ("debounce: \(cell) waits for \(wait.words) with no new position", "waiting: \(cell)")
        }
        let gap = (nextTime.microseconds - time.microseconds) / 1_000
        return (
            "debounce: \(cell) waits for \(wait.words) with no new position; #\(next.index) came \(gap) ms later",
            "waiting: #\(next.index) \(gap) ms later"
        )
    }
}

extension SlotOperator {
    /// `debounce` (``DebounceOperation``).
    package static let debounce = SlotOperator(DebounceOperation())
}

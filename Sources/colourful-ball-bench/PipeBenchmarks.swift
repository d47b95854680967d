import BallModel
import BallRendering
import BallStreams

extension BenchmarkRun {
    // MARK: - A three-stage pipe

    /// The pipe the rows measure: three stages a drag reaches, one of them timed (`filter`, then
    /// `debounce` of what it lets through, then `map` of what that passes on).
    static let threeStages: SlotPipe = [.filter, .debounce, .map]
    /// What it is measured beside: one operator in the slot, as the operator slot's rows have it.
    static let oneStage: SlotPipe = [.filter]
    /// What the program draws once its first frame is up with the panel open: the last lane's
    /// label (the pipe's name leaves the status line no room for its "keys").
    static let panelReady = "background"

    /// A three-stage pipe in the slot, each row beside one operator in it: a drag step's bytes
    /// with the streams panel open (each stage has its lane there), input to screen; the same
    /// two with the panel on a time axis (`T`), beside it a column per intent; idle
    /// after a drag and keys once `debounce`'s timer has come and gone, and a million-intent
    /// recording with the pipe replayed headless (time virtual: the timer runs on the
    /// recording's times).
    func threeStagePipe() -> [Result] {
        let pipe = Self.threeStages
        var results = [pipeBytes(), pipeInputToScreen()] + pipeTimeBytes() + [pipeTimeInputToScreen()]
        results += idle(
            arguments: ["--operator", pipe.name, "--streams"],
            label: ", \(pipe.name) in the slot, streams panel open (after a drag and keys)",
            input: Array(FlatMapLatestOperation.drag.utf8), settle: 0.8, ready: Self.panelReady)
        results += streamedReplay(
            ["--headless"], name: "headless replay, \(pipe.name) in the slot", unit: "intents", target: 150_000,
            slot: pipe)
        return results
    }

    /// The median bytes of a drag step across the 80×24 screen with the streams panel open (the
    /// event view), the three-stage pipe in the slot, beside the same steps with one operator in
    /// it (``measuredDrag(slot:panel:lateLanes:pauses:)``, with its pauses: `debounce` passes its
    /// value on in each, and the colours change where they do).
    func pipeBytes() -> Result {
        var medians: [Double] = []
        for pipe in [Self.oneStage, Self.threeStages] {
            guard let steps = measuredDrag(slot: pipe, panel: PanelAxis(), pauses: true) else {
                return Result(
                    name: "three-stage pipe bytes", measured: "could not start ncurses", target: "", met: false)
            }
            medians.append(percentile(steps.map { Double($0.bytes) }, 0.5))
        }
        return Result(
            name:
                "drag step, 80×24, streams panel open, \(Self.threeStages.name) in the slot (\(Self.oneStage.name) alone: \(Int(medians[0])) B), median",
            measured: "\(Int(medians[1])) B", target: "≤ 1.5 × one operator", met: medians[1] <= 1.5 * medians[0])
    }

    /// Input to screen with the three-stage pipe in the slot, beside the same drag steps with one
    /// operator in it, step for step in the same run.
    func pipeInputToScreen() -> Result {
        let (one, three) = (Self.oneStage.name, Self.threeStages.name)
        // The panel closed: at 80×24 the three stage lanes lie over the ball in the middle, where
        // the drag presses. The status line names the pipe (and has no room for its "keys").
        guard
            let (alone, piped) = medianInputToScreen(
                jumping + ["--operator", one], jumping + ["--operator", three], ready: "filter")
        else {
            return Result(
                name: "input to screen, \(three) in the slot", measured: "could not start", target: "", met: false)
        }
        return Result(
            name:
                "input to screen, median, \(three) in the slot (\(one) alone, step for step in the same run: \(format(alone, decimals: 3)) ms)",
            measured: "\(format(piped, decimals: 3)) ms", target: "≤ one operator + 0.05 ms", met: piped <= alone + 0.05
        )
    }

    /// The median bytes of a drag step across the 80×24 screen with the streams panel open and
    /// the three-stage pipe in the slot (a lane each stage), on a time axis (`T`, 100 ms a
    /// column), beside the same steps with a column per intent: the steps and pauses of
    /// ``pipeBytes()``. And the time in-process from the intent to the frame presented (the
    /// binding's flush as play's: the panel made from the recorder, its settled spans kept,
    /// rendered, its changes written): where input to screen's difference comes from.
    func pipeTimeBytes() -> [Result] {
        var medians: [Double] = []
        var frameTimes: [Double] = []
        for axis in [PanelAxis(), PanelAxis(time: true)] {
            guard let steps = measuredDrag(slot: Self.threeStages, panel: axis, pauses: true) else {
                return [
                    Result(
                        name: "three-stage pipe bytes, time axis", measured: "could not start ncurses", target: "",
                        met: false)
                ]
            }
            medians.append(percentile(steps.map { Double($0.bytes) }, 0.5))
            frameTimes.append(percentile(steps.map { $0.seconds * 1000 }, 0.5))
        }
        return [
            Result(
                name:
                    "drag step, 80×24, streams on a time axis (T), \(Self.threeStages.name) in the slot (a column per intent: \(Int(medians[0])) B), median",
                measured: "\(Int(medians[1])) B", target: "≤ 1.3 × per intent", met: medians[1] <= 1.3 * medians[0]),
            Result(
                name:
                    "the same steps in-process, intent to frame presented, median (a column per intent: \(format(frameTimes[0], decimals: 3)) ms)",
                measured: "\(format(frameTimes[1], decimals: 3)) ms", target: "—", met: nil),
        ]
    }

    /// Input to screen with the three-stage pipe in the slot and the streams panel open on a
    /// time axis (`T`), beside the same drag steps with the panel a column per intent, step for
    /// step in the same run. The panel covers the middle of 80×24, so the drag presses the ball
    /// where it is drawn above the panel (row 4) and sweeps along it.
    func pipeTimeInputToScreen() -> Result {
        let three = Self.threeStages.name
        let command = jumping + ["--operator", three, "--streams"]
        guard
            let (events, time) = medianInputToScreen(command, command, keys: ["", "T"], ready: Self.panelReady, row: 4)
        else {
            return Result(
                name: "input to screen, \(three), time axis", measured: "could not start", target: "", met: false)
        }
        return Result(
            name:
                "input to screen, median, streams on a time axis (T), \(three) in the slot (a column per intent, step for step in the same run: \(format(events, decimals: 3)) ms)",
            measured: "\(format(time, decimals: 3)) ms", target: "≤ per intent + 0.05 ms", met: time <= events + 0.05)
    }
}

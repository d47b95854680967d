import BallModel
import BallRendering
import BallStreams

/// One step of a measured drag: what its frame cost and what it changed.
struct DragStep {
    /// The bytes the step's frame wrote to the terminal.
    let bytes: Int
    /// Seconds from sending the intent to its frame presented, in-process.
    let seconds: Double
    /// What the chain showed before the step, and after it.
    let before: Appearance
    let after: Appearance
}

extension BenchmarkRun {
    /// A drag of 600 steps across an 80×24 screen (``dragIntents(on:count:)``), drawn as play
    /// draws it: the session, a recorder subscribed from the start, and the screen's binding,
    /// which renders and presents into an xterm-256color ncurses screen writing to a file (the
    /// bytes counted), the streams panel's settled spans kept from frame to frame. Every
    /// in-process row of a drag step's bytes measures through this one set-up.
    ///
    /// `slot`: the pipe in the chain's slot. `panel`: the streams panel open on that axis (nil:
    /// closed), with `lateLanes`, all four late subscribers subscribed. A step each 16 ms (a drag
    /// at 60 Hz); with `pauses`, 350 ms before every twentieth (a timed operator's wait ends in
    /// it). Nil if ncurses cannot start.
    func measuredDrag(slot: SlotPipe = .none, panel: PanelAxis? = nil, lateLanes: Bool = false, pauses: Bool = false)
        -> [DragStep]?
    {
        let size = ScreenSize(columns: 80, rows: 24)
        guard let measuring = MeasuringScreen(size: size) else { return nil }
        let session = BallSession(screen: size)
        let binding = ScreenBinding(session.viewModel, to: measuring.screen)
        let recorder = StreamRecorder(session: session)
        binding.streams = recorder
        session.send(.operatorChosen(slot))
        if let panel {
            // The panel lies over the ball's area (opening it resizes nothing), whole where it
            // leaves some of the area in view, as play shows it.
            binding.send(.panelShown(content: .live, fits: StreamPanel.fits(over: size, slot: recorder.slotUsed)))
            binding.send(.panelAxisChanged(panel))
            if lateLanes { for kind in LateSubscriber.allCases { recorder.toggleLate(kind) } }
        }
        binding.flush()
        session.send(.pressed(at: size.centre))
        binding.flush()
        var steps: [DragStep] = []
        var time: Int64 = 0
        for (index, intent) in dragIntents(on: size, count: 600).enumerated() {
            time += pauses && index % 20 == 19 ? 350_000 : 16_000
            let before = session.viewModel.current
            let start = measuring.bytesWritten()
            let clock = ContinuousClock.now
            session.send(intent, at: SessionTime(microseconds: time))
            binding.flush(now: .microseconds(time))
            let seconds = (ContinuousClock.now - clock).seconds
            steps.append(
                DragStep(
                    bytes: measuring.bytesWritten() - start, seconds: seconds, before: before,
                    after: session.viewModel.current))
        }
        return steps
    }
}

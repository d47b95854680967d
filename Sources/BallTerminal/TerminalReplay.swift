import BallModel
import BallRendering
import BallReplay
import TerminalIO

// MARK: - Replaying in the terminal

/// Plays a recording in the terminal with its original timing: each event waits its turn
/// (divided by `speed`, each pause first capped at `maximumIdle`), goes through the same
/// session, and the binding draws it. The keys are the key map's replay keys (space pauses and
/// resumes; `q`, Esc or Ctrl-C stop; Ctrl-Z suspends, and the time stopped does not count).
public final class TerminalReplay {
    private let player: ReplayPlayer
    private let speed: Double
    private let maximumIdle: Double?
    private let streams: Bool

    /// A replay of `player`'s recording; `streams` opens the streams panel at the start.
    public init(player: ReplayPlayer, speed: Double, maximumIdle: Double?, streams: Bool = false) {
        self.player = player
        self.speed = speed
        self.maximumIdle = maximumIdle
        self.streams = streams
    }

    /// Plays to the end of the recording (or until the user stops it).
    public func run() throws {
        let recorded = player.session.state.position.screen
        let available = NcursesScreen.terminalSize()
        if let available, available.columns < recorded.columns || available.rows < recorded.rows {
            throw TerminalError(
                description:
                    "\(player.reader.file.visibleInMessage) was recorded in a terminal of \(recorded) and this one is \(available): make the window at least \(recorded), or replay it with --headless."
            )
        }
        let screen = try NcursesScreen()
        defer { screen.close() }
        let binding = ScreenBinding(player.session.viewModel, to: screen)
        binding.statusKeys = .replay
        binding.streams = StreamRecorder(session: player.session)
        let watch = try Watch(
            player: player, timing: ReplayTiming(speed: speed, maximumIdle: maximumIdle), screen: screen,
            binding: binding, recorded: recorded)
        if streams { watch.perform(.toggleStreams) }
        try TerminalRunLoop(screen: screen, binding: binding).run(watch)
    }
}

/// Replay mode for the run loop: the next event is due at a time; keys pause and stop.
private final class Watch: TerminalProgram {
    let keyMode = KeyMode.replay
    private let player: ReplayPlayer
    private var timing: ReplayTiming
    private var next: ReplayEvent?
    private var due: ContinuousClock.Instant
    private var paused = false
    /// The wait left for the next event when the replay was paused.
    private var remainingWhenPaused = Duration.zero
    private var stopped = false
    private let screen: NcursesScreen
    private let binding: ScreenBinding
    /// The recorded terminal's size: the ball's area, whatever this terminal's size.
    private let recorded: ScreenSize
    private var streamsOpen = false

    init(
        player: ReplayPlayer, timing: ReplayTiming, screen: NcursesScreen, binding: ScreenBinding,
        recorded: ScreenSize
    ) throws {
        self.player = player
        self.timing = timing
        self.screen = screen
        self.binding = binding
        self.recorded = recorded
        next = try player.nextEvent()
        due = .now + .seconds(self.timing.pause(before: next))
    }

    var isFinished: Bool { stopped || next == nil }

    var deadline: ContinuousClock.Instant? { paused ? nil : due }

    func deadlineReached() throws {
        guard let event = next else { return }
        player.apply(event)
        next = try player.nextEvent()
        due += .seconds(timing.pause(before: next))
    }

    func perform(_ action: KeyAction) {
        switch action {
        case .quit: stopped = true
        case .togglePause:
            paused.toggle()
            binding.statusKeys = paused ? .replayPaused : .replay
            if paused {
                remainingWhenPaused = max(.zero, ContinuousClock.now.duration(to: due))
            } else {
                due = .now + remainingWhenPaused
            }
        case .toggleStreams: toggleStreams()
        case .intent, .suspend, .showHelp, .subscribeLate: break
        }
    }

    /// The recorded terminal stays the ball's area; the panel takes rows beyond it.
    func resized(to size: ScreenSize) { layOutStreams() }

    private func toggleStreams() {
        streamsOpen.toggle()
        layOutStreams()
    }

    /// The streams panel in the rows below the recorded area: whole where they are enough,
    /// one line saying so where there is one, else a notice on the status line.
    private func layOutStreams() {
        let spare = screen.size.rows - recorded.rows
        binding.notice = nil
        guard streamsOpen else {
            binding.streamsPanel = nil
            return
        }
        if spare >= 1 {
            binding.streamsPanel = spare >= StreamPanel.rows
        } else {
            binding.streamsPanel = nil
            binding.notice = "streams need \(StreamPanel.rows) more rows"
        }
    }

    func hungUp() { stopped = true }

    func resumed(after duration: Duration) { due += duration }
}

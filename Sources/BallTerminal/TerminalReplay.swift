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

    /// A replay of `player`'s recording.
    public init(player: ReplayPlayer, speed: Double, maximumIdle: Double?) {
        self.player = player
        self.speed = speed
        self.maximumIdle = maximumIdle
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
        let watch = try Watch(
            player: player, timing: ReplayTiming(speed: speed, maximumIdle: maximumIdle),
            showPaused: { [unowned binding] in binding.statusKeys = $0 ? .replayPaused : .replay })
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
    /// Tells the status line whether the replay is paused.
    private let showPaused: (Bool) -> Void

    init(player: ReplayPlayer, timing: ReplayTiming, showPaused: @escaping (Bool) -> Void) throws {
        self.player = player
        self.timing = timing
        self.showPaused = showPaused
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
            showPaused(paused)
            if paused {
                remainingWhenPaused = max(.zero, ContinuousClock.now.duration(to: due))
            } else {
                due = .now + remainingWhenPaused
            }
        case .intent, .suspend, .showHelp: break
        }
    }

    func resized(to size: ScreenSize) {}  // The recorded terminal stays the ball's screen.

    func hungUp() { stopped = true }

    func resumed(after duration: Duration) { due += duration }
}

import BallCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: - Replaying in the terminal

/// Plays a recording in the terminal with its original timing: each event waits its turn
/// (divided by `speed`, each pause first capped at `maximumIdle`), goes through the same
/// session, and the binding draws it. Space pauses and resumes; `q`, Esc or Ctrl-C stop.
public final class TerminalReplay {
    private let player: ReplayPlayer
    private var timing: ReplayTiming

    /// A replay of `player`'s recording.
    public init(player: ReplayPlayer, speed: Double, maximumIdle: Double?) {
        self.player = player
        timing = ReplayTiming(speed: speed, maximumIdle: maximumIdle)
    }

    /// Plays to the end of the recording (or until the user stops it).
    public func run() throws {
        let recorded = player.session.state.position.screen
        let available = NcursesScreen.terminalSize()
        if let available, available.columns < recorded.columns || available.rows < recorded.rows {
            throw TerminalError(
                description:
                    "\(player.reader.file) was recorded in a terminal of \(recorded) and this one is \(available): make the window at least \(recorded), or replay it with --headless."
            )
        }
        let screen = try NcursesScreen()
        defer { screen.close() }
        let input = TerminalInput()
        let binding = ScreenBinding(player.session.viewModel, to: screen)
        binding.flush()

        var decoder = InputDecoder()
        var paused = false
        var next = try player.nextEvent()
        var due = now() + timing.pause(before: next)
        var remainingWhenPaused = 0.0
        while let event = next {
            let timeout: Int32 = paused ? -1 : Int32(clamping: Int(max(0, (due - now()) * 1000).rounded(.up)))
            guard let wakeup = input.wait(timeout: timeout) else {
                guard !paused, now() >= due - 0.0005 else { continue }
                player.apply(event)
                binding.flush()
                next = try player.nextEvent()
                due += timing.pause(before: next)
                continue
            }
            switch wakeup {
            case .input(let bytes):
                for terminalEvent in decoder.decode(bytes) + decoder.flushPendingEscape() {
                    if terminalEvent == .character("\u{1A}") {  // Ctrl-Z: the terminal's, as in play.
                        due = suspend(screen, binding, until: due)
                        continue
                    }
                    switch KeyBindings.intent(for: terminalEvent) {
                    case .quitRequested?: return
                    default:
                        if terminalEvent == .character(" ") {
                            paused.toggle()
                            if paused {
                                remainingWhenPaused = max(0, due - now())
                            } else {
                                due = now() + remainingWhenPaused
                            }
                        }
                    }
                }
            case .suspendRequested:
                due = suspend(screen, binding, until: due)
            case .resized:
                screen.resize(to: screen.size)
                binding.redraw()
            case .hangUp:
                return
            }
        }
    }

    /// Suspends to the shell and, continued, draws the screen again; the time stopped does
    /// not count against the next event's wait.
    private func suspend(_ screen: NcursesScreen, _ binding: ScreenBinding, until due: Double) -> Double {
        let remaining = due - now()
        screen.suspend()
        binding.redraw()
        return now() + remaining
    }

    private func now() -> Double { MonotonicClock.now() }
}

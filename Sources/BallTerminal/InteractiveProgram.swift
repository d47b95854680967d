import BallModel
import BallProgram
import BallRendering
import BallStreams

// MARK: - Play in the terminal

/// The colourful ball in the terminal: opens the ncurses terminal, makes the play program on
/// it, and runs the one run loop until the user quits.
package final class InteractiveProgram {
    /// Taps on the session and its streams before it starts (the recorder binds to its intents
    /// and to the streams' observations); `showNotice` puts a short notice on the status line
    /// (nil: none), drawn with the next frame. It returns what to do each time the loop has
    /// handled what woke it, before it draws (the trace writes its lines), or nil.
    package typealias SessionHook = (
        _ session: BallSession, _ streams: StreamRecorder, _ showNotice: @escaping (String?) -> Void
    ) throws -> (() -> Void)?

    private let hook: SessionHook?
    private let streams: Bool
    private let animated: Bool
    private let slot: SlotPipe

    /// A program; `hook` sees the session before the first intent; `animated`: jumps glide and
    /// colours fade; `streams` opens the streams panel at the start; `slot` is the operator put in
    /// the chain's slot first (an intent, so a recording replays it).
    package init(streams: Bool = false, animated: Bool = true, slot: SlotPipe = .none, hook: SessionHook? = nil) {
        self.animated = animated
        self.hook = hook
        self.streams = streams
        self.slot = slot
    }

    /// Runs until the user quits; the terminal is restored on return and on every other way out.
    package func run() throws {
        let terminal = try NcursesTerminal()
        defer { terminal.close() }
        let play = Play(screen: terminal, terminal: terminal.size, animated: animated)
        play.handledWake = try hook?(play.session, play.streams) { [unowned binding = play.binding] in
            binding.send(.noticePosted($0))
        }
        // After the hook: the recording keeps the operator's choice, and notes the panel's
        // opening (an observation, not an intent).
        if slot != .none { play.session.send(.operatorChosen(slot)) }
        if streams { play.toggleStreams() }
        try RunLoop(device: terminal, clock: SystemClock(), escapeWait: terminal.escapeWait).run(play)
    }

    /// Runs the tour from lesson `first` until the user quits; `completed` is told each lesson
    /// done; `animated`: jumps glide; `hook` sees the session before the first intent (the
    /// recorder). The terminal is restored on return and on every other way out.
    package static func learn(
        first: Int, done: Set<Int> = [], animated: Bool = true, hook: SessionHook? = nil,
        completed: @escaping (Int) -> String?
    ) throws {
        let terminal = try NcursesTerminal()
        defer { terminal.close() }
        let learn = Learn(screen: terminal, terminal: terminal.size, first: first, done: done, animated: animated)
        learn.play.handledWake = try hook?(learn.play.session, learn.play.streams) {
            [unowned binding = learn.binding] in binding.send(.noticePosted($0))
        }
        if hook != nil { learn.recordingStarted() }
        learn.completed = completed
        try RunLoop(device: terminal, clock: SystemClock(), escapeWait: terminal.escapeWait).run(learn)
    }
}

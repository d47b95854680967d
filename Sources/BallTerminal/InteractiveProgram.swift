import BallModel
import BallRendering
import TerminalIO

// MARK: - Play

/// The colourful ball in the terminal: the session's intents come from the key map in play
/// mode, its appearance is bound to the ncurses screen, and the one run loop joins the two.
package final class InteractiveProgram {
    /// Taps on the session before it starts (the recorder binds here); `showNotice` puts a
    /// short notice on the status line (nil: none), drawn with the next frame.
    package typealias SessionHook = (_ session: BallSession, _ showNotice: @escaping (String?) -> Void) throws -> Void

    private let hook: SessionHook?
    private let streams: Bool

    /// A program; `hook` sees the session before the first frame; `streams` opens the streams
    /// panel at the start.
    package init(streams: Bool = false, hook: SessionHook? = nil) {
        self.hook = hook
        self.streams = streams
    }

    /// Runs until the user quits; the terminal is restored on return and on every other way out.
    package func run() throws {
        let screen = try NcursesScreen()
        defer { screen.close() }
        let session = BallSession(screen: screen.size)
        let binding = ScreenBinding(session.viewModel, to: screen)
        binding.streams = StreamRecorder(session: session)
        try hook?(session) { [unowned binding] in binding.notice = $0 }
        let play = Play(session: session, screen: screen, binding: binding)
        if streams { play.perform(.toggleStreams) }
        try TerminalRunLoop(screen: screen, binding: binding).run(play)
    }
}

/// Play mode for the run loop: every action is an intent for the session.
private final class Play: TerminalProgram {
    let session: BallSession
    let keyMode = KeyMode.play
    let deadline: ContinuousClock.Instant? = nil
    private let screen: NcursesScreen
    private let binding: ScreenBinding
    private var streamsOpen = false

    init(session: BallSession, screen: NcursesScreen, binding: ScreenBinding) {
        self.session = session
        self.screen = screen
        self.binding = binding
    }

    var isFinished: Bool { session.isFinished }

    func deadlineReached() {}

    func perform(_ action: KeyAction) {
        switch action {
        case .intent(let intent): session.send(intent)
        case .toggleStreams:
            streamsOpen.toggle()
            resized(to: screen.size)
        default: break
        }
    }

    /// The ball's area is the terminal less the streams panel's rows, and it changes as a
    /// resize does, through the same intent: a recording made with the panel open replays
    /// exactly.
    func resized(to size: ScreenSize) {
        session.send(.resized(binding.playArea(in: size, streamsOpen: streamsOpen)))
    }

    func hungUp() { session.send(.quitRequested) }

    func resumed(after duration: Duration) {}
}

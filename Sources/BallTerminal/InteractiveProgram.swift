import BallModel
import BallRendering
import TerminalIO

// MARK: - Play

/// The colourful ball in the terminal: the session's intents come from the key map in play
/// mode, its appearance is bound to the ncurses screen, and the one run loop joins the two.
public final class InteractiveProgram {
    /// Taps on the session before it starts (the recorder binds here); `showNotice` puts a
    /// short notice on the status line (nil: none), drawn with the next frame.
    public typealias SessionHook = (_ session: BallSession, _ showNotice: @escaping (String?) -> Void) throws -> Void

    private let hook: SessionHook?

    /// A program; `hook` sees the session before the first frame.
    public init(hook: SessionHook? = nil) {
        self.hook = hook
    }

    /// Runs until the user quits; the terminal is restored on return and on every other way out.
    public func run() throws {
        let screen = try NcursesScreen()
        defer { screen.close() }
        let session = BallSession(screen: screen.size)
        let binding = ScreenBinding(session.viewModel, to: screen)
        try hook?(session) { [unowned binding] in binding.notice = $0 }
        try TerminalRunLoop(screen: screen, binding: binding).run(Play(session: session))
    }
}

/// Play mode for the run loop: every action is an intent for the session.
private final class Play: TerminalProgram {
    let session: BallSession
    let keyMode = KeyMode.play
    let deadline: ContinuousClock.Instant? = nil

    init(session: BallSession) {
        self.session = session
    }

    var isFinished: Bool { session.isFinished }

    func deadlineReached() {}

    func perform(_ action: KeyAction) {
        if case .intent(let intent) = action { session.send(intent) }
    }

    func resized(to size: ScreenSize) { session.send(.resized(size)) }

    func hungUp() { session.send(.quitRequested) }

    func resumed(after duration: Duration) {}
}

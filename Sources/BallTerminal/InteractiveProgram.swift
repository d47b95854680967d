import BallModel
import BallRendering
import TerminalIO

// MARK: - Play

/// The colourful ball in the terminal: the session's intents come from the key map in play
/// mode, its appearance is bound to the ncurses screen, and the one run loop joins the two.
public final class InteractiveProgram {
    /// Taps on the session before it starts (the recorder binds here).
    public typealias SessionHook = (BallSession) throws -> Void

    private let hook: SessionHook?
    private let notice: () -> String?

    /// A program; `hook` sees the session before the first frame; `notice` says what the
    /// status line should say besides the facts (asked after each burst of input).
    public init(hook: SessionHook? = nil, notice: @escaping () -> String? = { nil }) {
        self.hook = hook
        self.notice = notice
    }

    /// Runs until the user quits; the terminal is restored on return and on every other way out.
    public func run() throws {
        let screen = try NcursesScreen()
        defer { screen.close() }
        let session = BallSession(screen: screen.size)
        try hook?(session)
        let binding = ScreenBinding(session.viewModel, to: screen)
        try TerminalRunLoop(screen: screen, binding: binding).run(Play(session: session, notice: notice))
    }
}

/// Play mode for the run loop: every action is an intent for the session.
private final class Play: TerminalProgram {
    let session: BallSession
    let keyMode = KeyMode.play
    let deadline: ContinuousClock.Instant? = nil
    private let currentNotice: () -> String?

    init(session: BallSession, notice: @escaping () -> String?) {
        self.session = session
        currentNotice = notice
    }

    var notice: String? { currentNotice() }

    var isFinished: Bool { session.isFinished }

    func deadlineReached() {}

    func perform(_ action: KeyAction) {
        if case .intent(let intent) = action { session.send(intent) }
    }

    func resized(to size: ScreenSize) { session.send(.resized(size)) }

    func hungUp() { session.send(.quitRequested) }

    func resumed(after duration: Duration) {}
}

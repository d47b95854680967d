import OpenCombine

// MARK: - The session: intents in, position out

/// Runs the one-way loop: an intent goes through the pure step, the position subject
/// publishes the result, and everything derived follows.
///
/// The session is where intents enter; it publishes each one (with nothing derived) on
/// ``intents`` before applying it, so a recorder can tap them.
public final class BallSession {
    /// The derived state and the position subject.
    public let viewModel: BallViewModel
    /// The interaction state (position and grab).
    public private(set) var state: BallState
    /// Every intent, as it enters. The recorder subscribes here.
    public let intents = PassthroughSubject<Intent, Never>()
    /// Whether a quit was requested.
    public private(set) var isFinished = false

    /// A session with the ball in the middle of `screen`.
    public convenience init(screen: ScreenSize) {
        self.init(position: .centred(on: screen))
    }

    /// A session with the ball at `position` (clamped onto its screen).
    public init(position: BallPosition) {
        let state = BallState(position: BallPosition(centre: position.centre, screen: position.screen))
            .step(.resized(position.screen))
        self.state = state
        viewModel = BallViewModel(position: state.position)
    }

    /// Applies `intent`: publishes it, steps the state, and sends the new position when it changed.
    public func send(_ intent: Intent) {
        intents.send(intent)
        if intent == .quitRequested { isFinished = true }
        let next = state.step(intent)
        guard next != state else { return }
        state = next
        if next.position != viewModel.position.value { viewModel.position.send(next.position) }
    }
}

// MARK: - Screens

/// Where frames go: the ncurses screen writes them to the terminal, the headless screen
/// keeps them for tests.
public protocol Screen: AnyObject {
    /// Shows `frame`. `previous` is the frame shown before it (nil: draw everything); a
    /// screen may write only the cells that differ. Neither frame may be kept: the caller
    /// reuses their storage.
    func present(_ frame: Frame, previous: Frame?)
}

/// A screen that keeps what it was shown: for tests and headless runs.
public final class HeadlessScreen: Screen {
    /// The last frame presented, if any.
    public private(set) var frame: Frame?
    /// How many frames were presented.
    public private(set) var presentCount = 0

    /// An empty screen.
    public init() {}

    /// Keeps a copy of `frame`.
    public func present(_ frame: Frame, previous: Frame?) {
        self.frame = frame
        presentCount += 1
    }
}

// MARK: - Bindings

/// The subscriptions that draw: they are the only code that puts anything on a screen.
///
/// Each appearance the view-model derives is bound to the screen, but drawing waits for
/// ``flush()``: the run loop reads all pending input, then flushes once, so a burst of drag
/// events produces one frame, and a repeated position none.
public final class ScreenBinding {
    private let screen: Screen
    private var renderer = Renderer()
    /// Two frames, drawn into in turn: the one on screen and the next (no copying).
    private var frames = [Frame](repeating: Frame(size: ScreenSize(columns: 0, rows: 0), fill: .flatWhite), count: 2)
    private var shown: Int?
    private var pending: Appearance?
    private var cancellables = Set<AnyCancellable>()

    /// Binds `viewModel` to `screen`; the current appearance is pending at once.
    public init(_ viewModel: BallViewModel, to screen: Screen) {
        self.screen = screen
        // The view-model sends an appearance only when the position changed: no duplicates.
        viewModel.appearance.sink { [unowned self] appearance in
            self.pending = appearance
        }.store(in: &cancellables)
    }

    /// Whether an appearance is waiting to be drawn.
    public var needsFlush: Bool { pending != nil }

    /// Renders and presents the latest appearance, if one is waiting.
    public func flush() {
        guard let appearance = pending else { return }
        pending = nil
        let next = shown.map { 1 - $0 } ?? 0
        renderer.render(appearance, into: &frames[next])
        screen.present(frames[next], previous: shown.map { frames[$0] })
        shown = next
    }

    /// Presents the current frame again, whole (after the terminal lost its contents).
    public func redraw() {
        guard let shown else { return }
        screen.present(frames[shown], previous: nil)
    }
}

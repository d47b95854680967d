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
        let state = BallState(position: position).step(.resized(position.screen))
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

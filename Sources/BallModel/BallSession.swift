import ColourCore
import OpenCombine

// MARK: - The session: intents in, position out

/// Runs the one-way loop: an intent goes through the pure step, the position subject
/// publishes the result, and everything derived follows.
///
/// The session is where intents enter; it publishes each one (with nothing derived) on
/// ``intents`` before applying it, so a recorder can tap them. The position lives in one
/// place, the view-model's subject; the session keeps only the grab beside it, and sends the
/// subject a position only when a step changed it.
package final class BallSession {
    /// The derived state and the position subject.
    package let viewModel: BallViewModel
    /// Centre minus pointer while a drag is under way (the one fact the subject does not hold).
    package private(set) var grab: CellOffset?
    /// Every intent, as it enters. The recorder subscribes here.
    package let intents = PassthroughSubject<Intent, Never>()
    /// Whether a quit was requested.
    package private(set) var isFinished = false

    /// A session with the ball in the middle of `screen`.
    package convenience init(screen: ScreenSize) {
        self.init(position: .centred(on: screen))
    }

    /// A session with the ball at `position` (clamped onto its screen).
    package init(position: BallPosition) {
        viewModel = BallViewModel(position: BallState(position: position).step(.resized(position.screen)).position)
    }

    /// The interaction state now: the subject's position and the grab.
    package var state: BallState { BallState(position: viewModel.position.value, grab: grab) }

    /// Puts the session where a recording was after some intents: the position (published by
    /// the subject, its appearance following `background`) and the grab. Nothing is published
    /// on ``intents``: no intent happened. The replay player calls this to travel in time.
    package func restore(_ state: BallState, background: FlatColour) {
        grab = state.grab
        isFinished = false
        viewModel.restore(position: state.position, background: background)
    }

    /// Applies `intent`: publishes it, steps the state, and sends the new position when it changed.
    package func send(_ intent: Intent) {
        intents.send(intent)
        if intent == .quitRequested { isFinished = true }
        let current = viewModel.position.value
        let next = BallState(position: current, grab: grab).step(intent)
        grab = next.grab
        if next.position != current { viewModel.position.send(next.position) }
    }
}

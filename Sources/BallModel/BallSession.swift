import ColourCore
import OpenCombine

// MARK: - The session: intents in, position out

/// Runs the one-way loop: an intent is fitted to the ball's area, published, folded by the
/// reducer, and the position subject publishes the new position; the chain derives the rest.
///
/// The session is where intents enter; it publishes each one (fitted, with nothing derived) on
/// ``intents`` before applying it, so a recorder can tap them and can only write intents a
/// replay accepts. The position lives in one place, the view-model's subject; the session
/// keeps only the grab beside it, and sends the subject a position only when it changed.
package final class BallSession {
    /// The chain: the position subject and the colours derived from it.
    package let viewModel: BallViewModel
    /// Centre minus pointer while a drag is under way (the one fact the subject does not hold).
    package private(set) var grab: CellOffset?
    /// Every intent, as it enters. The recorder subscribes here.
    package let intents = PassthroughSubject<Intent, Never>()
    /// Whether a quit was requested.
    package private(set) var isFinished = false

    /// A session in `start`: its chain is built there (the start of play, or any point of a
    /// recording the player travels to).
    package init(start: BallState) {
        viewModel = BallViewModel(start: start)
        grab = start.grab
    }

    /// A session with the ball in the middle of `screen`, before any intent.
    package convenience init(screen: ScreenSize) {
        self.init(start: .start(on: screen))
    }

    /// The state now: the subject's position, the grab, and the screen's colour the chain derived.
    package var state: BallState {
        BallState(
            position: viewModel.position.value, grab: grab, background: viewModel.background.latest!,
            slot: viewModel.slot.value, slotted: viewModel.slotted.latest!)
    }

    /// Takes `intent`: fits it to the ball's area (dropped if it cannot happen there), publishes
    /// it, folds it with ``reduce(_:_:)``, and sends the subject the new position when it changed.
    /// A quit ends the streams: ``intents`` and the position subject complete, and the chain's
    /// colours complete after them. A finished session takes no more intents.
    package func send(_ intent: Intent) {
        guard !isFinished else { return }
        let current = state
        guard let intent = intent.fitted(to: current.position.screen) else { return }
        intents.send(intent)
        let next = reduce(current, intent)
        grab = next.grab
        if next.position != current.position { viewModel.position.send(next.position) }
        if case .operatorChosen(let chosen) = intent { viewModel.slot.send(chosen) }
        // What the slot passed on and the screen's colour are what the chain derived: the
        // reducer models the operator, the chain runs the real one.
        assert(viewModel.slotted.latest == next.slotted, "the slot's operator and the reducer disagree")
        assert(viewModel.background.latest == next.background, "the chain and the reducer disagree")
        if intent == .quitRequested {
            isFinished = true
            intents.send(completion: .finished)
            viewModel.position.send(completion: .finished)
            viewModel.slot.send(completion: .finished)
        }
    }
}

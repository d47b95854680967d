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
    /// Centre minus pointer while a drag is under way (a fact the subject does not hold).
    package private(set) var grab: CellOffset?
    /// What each stage of the slot's pipe remembers (the reducer's model of the real operators'
    /// memory, which they do not show; the session checks the two agree): what it holds and
    /// since when, `throttle`'s window, what it last passed on.
    private var stages: [SlotStage]
    /// How many inner subscriptions `flatMap` at the head of the slot's pipe holds (the reducer's
    /// model; the real ones are inside the operator, where nothing can count them but what they
    /// pass on).
    package var innerSubscriptions: Int { stages.first?.innerSubscriptions ?? 0 }
    /// How many inner subscriptions the head of the slot's pipe made since the pipe was built, those
    /// `retry` made as it subscribed anew included (``SlotStage/innersMade``): the last one's number.
    package var innersMade: Int { stages.first?.innersMade ?? 0 }
    /// The inner subscriptions at the head of the slot's pipe that live now, by number (from 1, in
    /// the order made since the pipe was built: a press each, and each `retry` made): `flatMap`'s
    /// every one its subscription holds (nothing cancels one); `flatMapLatest`'s latest, while the
    /// ball is grabbed (the release maps to `Empty()`, and `switchToLatest` disposes the inner it
    /// switched away from); none once an error reached the chain's end (it disposed of the pipe,
    /// and of its inner subscriptions with it).
    package var liveInners: Range<Int> {
        let (count, made) = (innerSubscriptions, innersMade)
        guard failure == nil else { return (made + 1)..<(made + 1) }
        guard viewModel.slot.value.stages.first == .flatMapLatest else { return (made - count + 1)..<(made + 1) }
        return grab != nil && count > 0 ? made..<(made + 1) : made..<made
    }
    /// Every intent, as it enters. The recorder subscribes here.
    package let intents = PassthroughSubject<Intent, Never>()
    /// Every intent, once the session took it (before a timer due at its instant runs): the
    /// recorder notes then until when the chain waits (``waitsUntil``), which an intent that
    /// moves nothing, as a release, leaves running.
    package let stepped = PassthroughSubject<Void, Never>()
    /// Whether a quit was requested.
    package private(set) var isFinished = false
    /// Told once, with the time, when a quit is requested after the session ended by
    /// `completionRequested` (`learn`'s `e`): the tour ran on after the end, and quit now. The
    /// recorder writes it as the recording's last line, where it ended.
    package let quitAfterCompletion = PassthroughSubject<SessionTime, Never>()
    /// Whether the session ended by `completionRequested` and no quit has come since.
    private var awaitsQuit = false

    /// A session in `start`: its chain is built there (the start of play, or any point of a
    /// recording the player travels to), its clock at the state's time. Each stage of the slot's
    /// pipe resumes the memory the state holds for it (``SlotResume``): what it holds, its timer,
    /// its sum; the position hands the resumed pipe nothing as it subscribes.
    package init(start: BallState) {
        let clock = SessionScheduler(now: start.time)
        viewModel = BallViewModel(start: start, clock: clock)
        grab = start.grab
        stages = start.stages
        assert(viewModel.slotted.latest == start.slotted, "the resumed pipe and the state disagree")
    }

    /// The time on the session's clock.
    package var now: SessionTime { viewModel.clock.now }

    /// The error that ended the chain after the slot, if one did: what `slotted` ended with.
    package var failure: SlotError? {
        guard case .failure(let error)? = viewModel.slotted.completion else { return nil }
        return error as? SlotError
    }

    /// When the chain next has something to do (a timed operator's timer), if anything: the
    /// reducer's model of it, which the session checks when it comes. (`debounce` and
    /// `throttle` cancel their timers when they are switched away from: none is left behind.)
    package var nextTimer: SessionTime? { viewModel.slot.value.nextTimer(stages)?.due }

    /// Until when the slot's timed stages wait, if they do: a timer, or `throttle`'s open
    /// window (``SlotOperator/waitsUntil(_:)``, the reducer's model).
    package var waitsUntil: SessionTime? { viewModel.slot.value.waitsUntil(stages) }

    /// Moves the session's clock on to `time` (never back): every timer of the chain due by
    /// then runs, earliest first. Nothing may come at `time` after it (an input at the instant
    /// of a timer goes first: ``reach(_:)``).
    package func advance(to time: SessionTime) { moveClock(to: time, including: true) }

    /// Moves the session's clock on to `time` (never back), for an input at `time`: every timer
    /// of the chain due before it runs; one due at `time` itself runs after the input
    /// (``send(_:)``), as RxSwift's virtual time scheduler runs an input scheduled before the
    /// timer (a test's input is scheduled as the test begins, a timer only when an input sets it).
    package func reach(_ time: SessionTime) { moveClock(to: time, including: false) }

    private func moveClock(to time: SessionTime, including: Bool) {
        guard let due = nextTimer, due < time || (including && due == time) else {
            // Nothing is due by then: only the clock moves.
            if including { viewModel.clock.advance(to: time) } else { viewModel.clock.reach(time) }
            return
        }
        let modelled = including ? state.advanced(to: time) : state.reached(time)
        if including { viewModel.clock.advance(to: time) } else { viewModel.clock.reach(time) }
        stages = modelled.stages
        assert(viewModel.slotted.latest == modelled.slotted, "the slot's timed operator and the reducer disagree")
    }

    /// Takes `intent` at `time`: the clock first reaches it, running what is due before it;
    /// a timer due at `time` itself runs after the intent.
    package func send(_ intent: Intent, at time: SessionTime) {
        reach(time)
        send(intent)
    }

    /// A session with the ball in the middle of `screen`, before any intent.
    package convenience init(screen: ScreenSize) {
        self.init(start: .start(on: screen))
    }

    /// The state now: the subject's position, the grab, and the screen's colour the chain derived.
    package var state: BallState {
        BallState(
            position: viewModel.position.value, grab: grab, background: viewModel.background.latest!,
            slot: viewModel.slot.value, mirror: viewModel.mirror.value, slotted: viewModel.slotted.latest!,
            stages: stages, failure: failure, time: now)
    }

    /// Takes `intent` now: fits it to the ball's area (dropped if it cannot happen there), publishes
    /// it, folds it with ``reduce(_:_:)``, and sends the subject the new position when it changed;
    /// then what the chain has due now runs (a timer due at this instant runs after the intent).
    /// A quit ends the streams: ``intents`` and the position subject complete, and the chain's
    /// colours complete after them. A finished session takes no more intents (a quit after the end
    /// by `completionRequested` is told on ``quitAfterCompletion``).
    package func send(_ intent: Intent) {
        guard !isFinished else {
            if intent == .quitRequested, awaitsQuit {
                awaitsQuit = false
                quitAfterCompletion.send(now)
            }
            return
        }
        let current = state
        guard let intent = intent.fitted(to: current.position.screen), current.slot.accepts(intent) else { return }
        intents.send(intent)
        let next = reduce(current, intent).advanced(to: current.time)
        grab = next.grab
        stages = next.stages
        if next.position != current.position {
            viewModel.position.send(next.position)
            // Then by what made it: the mouse or the keys (a resize is neither).
            switch intent.mover {
            case .mouse?: viewModel.mouse.send(next.position)
            case .keys?: viewModel.keys.send(next.position)
            case nil: break
            }
        }
        if intent.buildsPipe { viewModel.slot.send(next.slot) }
        if intent == .mirrorFlipped { viewModel.mirror.send(next.mirror) }
        // A press or release that changes whether the ball is grabbed, after the position it made.
        if next.isGrabbed != current.isGrabbed { viewModel.grabbed.send(next.isGrabbed) }
        if intent.endsSession {
            isFinished = true
            awaitsQuit = intent == .completionRequested
            intents.send(completion: .finished)
            viewModel.position.send(completion: .finished)
            viewModel.mirror.send(completion: .finished)
            viewModel.grabbed.send(completion: .finished)
            viewModel.mouse.send(completion: .finished)
            viewModel.keys.send(completion: .finished)
            viewModel.slot.send(completion: .finished)
        }
        stepped.send(())
        viewModel.clock.advance(to: now)
        // What the slot passed on and the screen's colour are what the chain derived: the
        // reducer models the operator, the chain runs the real one.
        assert(viewModel.slotted.latest == next.slotted, "the slot's operator and the reducer disagree")
        assert(viewModel.background.latest == next.background, "the chain and the reducer disagree")
        assert(failure == next.failure, "the chain's error and the reducer's disagree")
    }
}

import ColourCore
import OpenCombine

// MARK: - What the screen shows

/// Everything the screen shows, derived from the position: where the ball is, its colour and
/// the screen's colour.
package struct Appearance: Hashable, Sendable {
    /// Where the ball is.
    package var position: BallPosition
    /// The ball's flat colour.
    package var ball: FlatColour
    /// The screen's flat colour.
    package var background: FlatColour

    /// An appearance from its parts.
    package init(position: BallPosition, ball: FlatColour, background: FlatColour) {
        self.position = position
        self.ball = ball
        self.background = background
    }

    /// The ball centre in points, as the colour rule takes it.
    package var points: PointPosition { position.centre.points }
}

// MARK: - The view-model: the article's chain, as operators

/// The screen's colour once the ball turns `ball` on a screen of colour `screen`: the ball's
/// complement, or the screen's own colour when the complement is the ball's (the black band).
/// The chain's `scan` folds the ball's colours with it; the reducer uses it too.
package func screenColour(_ screen: FlatColour, _ ball: FlatColour) -> FlatColour {
    BallColourRule.background(forBall: ball, current: screen)
}

/// The colourful ball's view-model: one subject holds the position, and every colour is
/// derived from it by a chain of operators, as the article's `CircleViewModel` derives its
/// colour from `centerVariable` (docs/from-rxswift.md and ARCHITECTURE.md quote the three lines of
/// ``init(start:)``; a test checks that they are this file's):
///
/// - `position` is the article's `Variable<CGPoint?>`, a BehaviorSubject: a subscriber gets the
///   latest position at once, then every change.
/// - `slot` holds the operator the learner put between the position and the colour, and
///   `slotted` is what it passes on: the chain switches to each operator chosen
///   (`switchToLatest`), starting with the position the slot last passed on (`startingWith:`,
///   RxSwift's `startWith`).
///   With nothing in the slot, every position goes through.
/// - `mirror` is a second subject, a switch the learner flips: `combineLatest` and `sample` in
///   the slot read it with the position.
/// - `grabbed` says whether the mouse button is down on the ball (from a press to its
///   release): `flatMapLatest` in the slot, the classic Rx drag, switches on it.
/// - `mouse` and `keys` publish each new position by what made it: `merge` in the slot merges
///   them (a resize's clamp is in neither).
/// - `ballColour` is its `backgroundColorObservable`: the colour rule for each position
///   the slot passes on (or the colour of the counter's count), without repeats.
/// - `background` is what the article's subscription painted the screen with: the complement
///   of each new ball colour, unless it is the ball's own colour, when the screen keeps the
///   colour it had. That memory is a `scan` over the ball's colours.
///
/// Both colours are shared (`share(replay: 1)`), so every subscriber sees one run of the
/// operators (one `scan`'s memory) and a late subscriber gets the latest colour at once. The
/// chain is built from a starting state; travelling in time builds a new one at the state of
/// the place travelled to (``BallSession/init(start:)``).
package final class BallViewModel {
    /// The single source of truth: where the ball is (the article's `centerVariable`).
    package let position: CurrentValueSubject<BallPosition, Never>
    /// The pipe in the slot between the position and the colour (the session sends each one
    /// built: chosen, a stage added or taken out).
    package let slot: CurrentValueSubject<SlotPipe, Never>
    /// What each stage of the pipe passes on, first to last (the last's is ``slotted`` too): one
    /// subject a stage, sent from inside the pipe, for the streams' lanes (a side effect that
    /// subscribes to nothing, so looking changes nothing).
    package let stageOutputs: [PassthroughSubject<SlotOutput, Never>]
    /// Each stage's subscriptions, first to last, as they begin and end: subscribed, then
    /// completed (the session ended, or a recovery's pipe completed), failed (it threw) or
    /// cancelled (a pipe built, a stage after it failed). Subjects that never end themselves: the
    /// next pipe's stages are sent to them again.
    package let stageEvents: [PassthroughSubject<StageEvent, Never>]
    /// The inner subscriptions `flatMap` and `flatMapLatest` in the slot make to the position, as
    /// they begin, receive and end, each by a number of its own: tapped where the operator makes
    /// them (a side effect that subscribes to nothing).
    package let innerEvents: PassthroughSubject<(subscription: Int, event: InnerEvent), Never>
    /// The second subject: whether the mirror is on (the learner flips it; the session sends
    /// each flip). `combineLatest` and `sample` in the slot read it.
    package let mirror: CurrentValueSubject<Bool, Never>
    /// Whether the mouse button is down on the ball (the session sends each press and release
    /// that changes it). `flatMapLatest` in the slot reads it.
    package let grabbed: CurrentValueSubject<Bool, Never>
    /// Each new position the mouse made (a press, a drag, a release), as it is published.
    /// `merge` in the slot reads it, with ``keys``.
    package let mouse: PassthroughSubject<BallPosition, Never>
    /// Each new position the keys made (an arrow, a recentre), as it is published.
    package let keys: PassthroughSubject<BallPosition, Never>
    /// What the slot's operator passes on, which the colour follows: positions, or the
    /// counter's counts.
    /// Its failure is an `Error`: an operator that throws (`tryMap`) ends it, and everything
    /// after it.
    package let slotted: ReplaySubject<SlotOutput, Error>
    /// The ball's colour, each change once.
    package let ballColour: ReplaySubject<FlatColour, Error>
    /// The session's clock, which a timed operator in the slot (`debounce`) runs on.
    package let clock: SessionScheduler
    /// The screen's colour, each change once.
    package let background: ReplaySubject<FlatColour, Error>

    /// The chain for a session in `start`, its timers on `clock`: its position, and its screen's
    /// colour as the memory the `scan` starts from.
    package init(start: BallState, clock: SessionScheduler) {
        self.clock = clock
        // The chain:
        position = CurrentValueSubject(start.position)
        slot = CurrentValueSubject(start.slot)
        mirror = CurrentValueSubject(start.mirror)
        grabbed = CurrentValueSubject(start.isGrabbed)
        (mouse, keys) = (PassthroughSubject(), PassthroughSubject())
        let inputs = SlotInputs(
            position: position, mirror: mirror, grabbed: grabbed, mouse: mouse, keys: keys, clock: clock)
        let taps = StageTaps(count: SlotPipe.most)
        (stageOutputs, stageEvents) = (taps.outputs, taps.events)
        var resumed: BallState? = start  // (The first pipe applied resumes the state's memory.)
        slotted = slot.setFailureType(to: Error.self).map { [inputs] in
            defer { resumed = nil }
            return $0.applied(to: inputs, resuming: resumed, taps: taps)
        }.switchToLatest().share(replay: 1, startingWith: start.slotted)
        ballColour = slotted.map { $0.ballColour }.removeDuplicates().share(replay: 1)
        background = ballColour.scan(start.background, screenColour).removeDuplicates().share(replay: 1)
        // (end of the chain)
        innerEvents = inputs.inners.events
    }

    /// What the chain shows now: the subject's position and the latest colours derived from it.
    package var current: Appearance {
        // Both shares hold a value from the start: the subject hands its position at once.
        Appearance(position: position.value, ball: ballColour.latest!, background: background.latest!)
    }
}

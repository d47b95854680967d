import ColourCore

// MARK: - The state

/// Where the ball is: its centre cell, and the screen it is on (which its shape and
/// clamping depend on). This is what the position subject holds.
package struct BallPosition: Hashable, Sendable {
    /// The ball's centre.
    package var centre: Cell
    /// The ball's area: the terminal (the streams panel lies over it; opening it changes nothing here).
    package var screen: ScreenSize

    /// A position from its centre and screen.
    package init(centre: Cell, screen: ScreenSize) {
        self.centre = centre
        self.screen = screen
    }

    /// The ball in the middle of `screen`.
    package static func centred(on screen: ScreenSize) -> BallPosition {
        BallPosition(centre: screen.centre, screen: screen)
    }

    /// The ball's shape on this screen.
    package var shape: BallShape { BallShape(for: screen) }

    /// The ball's colour here: the colour rule for the centre, in points.
    package var ballColour: FlatColour { BallColourRule.ballColour(column: centre.column, row: centre.row) }
}

/// Everything a log of intents has made, as one value: where the ball is, whether it is
/// grabbed, and the screen's colour (which remembers: in the black band it keeps the colour it
/// had). ``reduce(_:_:)`` makes the next one; any point of a recording is the start with its
/// intents folded in.
///
/// A value, not a store: the session keeps the position in its subject, the grab beside it,
/// and the screen's colour is what the view-model's chain derives (the same rule as here).
package struct BallState: Hashable, Sendable {
    /// Where the ball is.
    package var position: BallPosition
    /// Centre minus pointer while the button is down; nil otherwise.
    package var grab: CellOffset?
    /// The screen's colour.
    package var background: FlatColour
    /// The operator in the chain's slot, between the position and the ball's colour.
    package var slot: SlotOperator
    /// Whether the mirror is on: the second subject, which `combineLatest` and `sample` in the
    /// slot read (``Intent/mirrorFlipped`` flips it). Off at the start.
    package var mirror: Bool
    /// What the slot last passed on: a position, whose colour the rule gives the ball, or the
    /// counter's count.
    package var slotted: SlotOutput
    /// Since when the operator in the slot holds a position back: for `debounce`, when the held
    /// position came (it goes through once its interval, 300 ms, passes with no new one); for `throttle`, when its window started (``windowStart``: the latest position goes
    /// through when the window ends); for `sample`, when the first position it has not passed
    /// on came (the latest goes through when the mirror flips); nil: nothing held.
    package var heldSince: SessionTime?
    /// When `throttle` in the slot last let a position through: its window of
    /// 300 ms runs from there, and a position that comes in it is held
    /// until it ends. Nil before it has let one through (and for the other operators).
    package var windowStart: SessionTime?
    /// How many inner subscriptions `flatMap` in the slot holds: one for each press since it went
    /// in (one more if it went in with the button down), each a subscription to the position that
    /// nothing cancels, so each new position goes through this many times. 0 for the others.
    package var innerSubscriptions: Int
    /// The error that ended the chain after the slot, if one did (`tryMap` in a corner): it ended
    /// `slotted`, `ballColour` and `background`, so nothing changes the colours again.
    package var failure: SlotError?
    /// The time on the session's clock: of the last intent, or of the last ``advanced(to:)``.
    package var time: SessionTime

    /// A state from its parts; `slotted` is `position` unless given.
    package init(
        position: BallPosition, grab: CellOffset? = nil, background: FlatColour, slot: SlotOperator = .none,
        mirror: Bool = false, slotted: SlotOutput? = nil, heldSince: SessionTime? = nil,
        windowStart: SessionTime? = nil, innerSubscriptions: Int = 0, failure: SlotError? = nil,
        time: SessionTime = .start
    ) {
        self.position = position
        self.grab = grab
        self.background = background
        self.slot = slot
        self.mirror = mirror
        self.slotted = slotted ?? .position(position)
        self.heldSince = heldSince
        self.windowStart = windowStart
        self.innerSubscriptions = innerSubscriptions
        self.failure = failure
        self.time = time
    }

    /// When the slot's operator next passes on what it holds, if it holds anything: the session's
    /// next timer.
    package var nextTimer: SessionTime? { slot.timer(heldSince: heldSince) }

    /// The state once the session's clock reads `time` (never earlier than ``time``): what the
    /// slot held goes through if its time came by then (`debounce`: 300 ms with no new position;
    /// `throttle`: the end of its window, which starts again there).
    /// Pure, like the reducer: time passing is the one thing that changes a state between intents.
    package func advanced(to time: SessionTime) -> BallState { moved(to: time, including: true) }

    /// The state once the session's clock reaches `time` for an input at `time`: as
    /// ``advanced(to:)``, but a timer due at `time` itself has not gone off yet (it goes off after
    /// the input: ``after(_:at:)``).
    package func reached(_ time: SessionTime) -> BallState { moved(to: time, including: false) }

    /// The state after `intent` at `time`, as a recording folds it: the clock reaches `time`,
    /// the reducer takes the intent, then a timer due at `time` goes off. At one instant an input
    /// goes before a timer, as RxSwift's virtual time scheduler runs an input scheduled as the
    /// test began before a timer an input set.
    package func after(_ intent: Intent, at time: SessionTime) -> BallState {
        reduce(reached(time), intent).advanced(to: time)
    }

    private func moved(to time: SessionTime, including: Bool) -> BallState {
        var next = self
        if let due = nextTimer, due < time || (including && due == time) {
            slot.operation.timerWentOff(&next, at: due)
            if next.slotted != slotted { next.background = screenColour(background, next.ballColour) }
        }
        next.time = max(self.time, time)
        return next
    }

    /// The screen's colour before the ball first colours it: the original's white view.
    package static let screenBeforeTheBall = FlatColour.flatWhite

    /// The state before any intent: the ball at `position` (kept whole on its screen, a screen
    /// of at most ``ScreenSize/largest``), not grabbed, on the white screen coloured as the rule
    /// says for the ball there.
    package static func start(at position: BallPosition) -> BallState {
        let placed = reduce(
            BallState(position: position, background: screenBeforeTheBall), .resized(position.screen.fittedToLargest))
        return BallState(position: placed.position, background: screenColour(screenBeforeTheBall, placed.ballColour))
    }

    /// The state before any intent with the ball in the middle of `screen`.
    package static func start(on screen: ScreenSize) -> BallState { start(at: .centred(on: screen)) }

    /// Whether a drag is under way.
    package var isGrabbed: Bool { grab != nil }

    /// The ball's colour: the rule's for the last position the slot passed on.
    package var ballColour: FlatColour { slotted.ballColour }

    /// What the screen shows in this state.
    package var appearance: Appearance { Appearance(position: position, ball: ballColour, background: background) }
}

// MARK: - The reducer

/// What `intent` does to `state`: Redux's reducer, the one function every path uses (play,
/// the headless replay, the replay index, time travel, skipping, the marble diagram). Pure: no
/// I/O, no clock, no subjects: the intent happens at the state's ``BallState/time`` (a recording
/// folds ``BallState/after(_:at:)``: the clock reaches the event's time, then this, then a timer
/// due at that instant).
///
/// - Pressing on the ball grabs it and keeps the offset between pointer and centre;
///   pressing elsewhere moves the centre to the pointer and grabs it there.
/// - Dragging moves the centre with the pointer (keeping the offset); releasing drops it.
/// - Arrows move by their distance; `recentred` goes back to the middle.
/// - A resize keeps the centre where it can and clamps it where it must.
/// - The ball always stays whole on screen, above the status line. While the screen is too
///   small for it, moves are ignored and the centre is kept for when the screen grows.
/// - Choosing an operator puts it in the chain's slot (what the one before held is dropped);
///   it is handed the current position at once, and each new one after; the ball's colour
///   follows what it passes on. What each operator passes on, holds and lets through when its
///   timer goes off at ``BallState/advanced(to:)`` is its own file's model
///   (``SlotOperation/step(_:from:by:handed:)``, under `SlotOperators/`).
/// - Flipping the mirror flips the second subject (which `combineLatest` and `sample` read).
/// - The screen takes the complement of the ball's colour, or keeps its colour when the
///   complement is the ball's own (the black band): the same rule the view-model's `scan`
///   applies to each new ball colour.
package func reduce(_ state: BallState, _ intent: Intent) -> BallState {
    let position = state.position
    var next = state
    switch intent {
    case .pressed(let cell):
        if position.shape.covers(cell, centredAt: position.centre) {
            next.grab = CellOffset(columns: position.centre.column - cell.column, rows: position.centre.row - cell.row)
        } else {
            next.grab = CellOffset(columns: 0, rows: 0)
            next.moveCentre(to: cell)
        }
    case .dragged(let cell):
        guard let grab = state.grab else { break }
        next.moveCentre(to: cell.offset(by: grab))
    case .released(let cell):
        if let grab = state.grab { next.moveCentre(to: cell.offset(by: grab)) }
        next.grab = nil
    case .arrowPressed(let direction, let distance):
        let (columns, rows) = direction.offset
        next.moveCentre(
            to: Cell(column: position.centre.column + columns * distance, row: position.centre.row + rows * distance))
    case .recentred:
        next.moveCentre(to: position.screen.centre)
    case .resized(let size):
        next.position.screen = size
        next.moveCentre(to: position.centre)
    case .quitRequested, .completionRequested: break
    case .operatorChosen(let chosen):
        next.slot = chosen
        next.heldSince = nil
        next.windowStart = nil
        next.innerSubscriptions = 0
    case .mirrorFlipped:
        next.mirror.toggle()
    }
    // After an error nothing reaches the colours: the chain's switchToLatest ended with it.
    guard state.failure == nil else { return next }
    // The operator in the slot sees the intent; it is handed each new position, and the current
    // one at once when it is chosen.
    next.slot.operation.step(
        &next, from: state, by: intent, handed: next.position != position || intent.choosesOperator)
    // (A colour that did not change leaves the screen its colour: no need to look.)
    if next.slotted != state.slotted { next.background = screenColour(state.background, next.ballColour) }
    return next
}

extension BallState {
    /// Moves the centre to `target`, clamped so the ball stays whole; no move while the
    /// screen is too small.
    fileprivate mutating func moveCentre(to target: Cell) {
        guard let allowed = position.shape.allowedCentres(on: position.screen) else { return }
        position.centre = Cell(
            column: min(max(target.column, allowed.columns.lowerBound), allowed.columns.upperBound),
            row: min(max(target.row, allowed.rows.lowerBound), allowed.rows.upperBound))
    }
}

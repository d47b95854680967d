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
    /// The pipe in the chain's slot, between the position and the ball's colour.
    package var slot: SlotPipe
    /// Whether the mirror is on: the second subject, which `combineLatest` and `sample` in the
    /// slot read (``Intent/mirrorFlipped`` flips it). Off at the start.
    package var mirror: Bool
    /// What the slot's pipe last passed on: a position, whose colour the rule gives the ball, or
    /// a count.
    package var slotted: SlotOutput
    /// What each stage of the pipe remembers, first to last (one for each of ``slot``'s stages).
    package var stages: [SlotStage]
    /// The error that ended the chain after the slot, if one did (`tryMap` in a corner): it ended
    /// `slotted`, `ballColour` and `background`, so nothing changes the colours again.
    package var failure: SlotError?
    /// The time on the session's clock: of the last intent, or of the last ``advanced(to:)``.
    package var time: SessionTime

    /// A state from its parts; `slotted` is `position` unless given. The stages' memory is
    /// `stages` when given; else `heldSince` and `windowStart` are the first stage's, and the last
    /// stage keeps `slotted` when its operator remembers what it passed on.
    package init(
        position: BallPosition, grab: CellOffset? = nil, background: FlatColour, slot: SlotPipe = .none,
        mirror: Bool = false, slotted: SlotOutput? = nil, heldSince: SessionTime? = nil,
        windowStart: SessionTime? = nil, innerSubscriptions: Int = 0, stages: [SlotStage]? = nil,
        failure: SlotError? = nil, time: SessionTime = .start
    ) {
        self.position = position
        self.grab = grab
        self.background = background
        self.slot = slot
        self.mirror = mirror
        let slotted = slotted ?? .position(position)
        self.slotted = slotted
        self.stages =
            stages
            ?? slot.stages.indices.map { index in
                SlotStage(
                    passed: index == slot.stages.count - 1 && slot.stages[index].operation.remembersPassed
                        ? slotted : nil,
                    heldSince: index == 0 ? heldSince : nil, windowStart: index == 0 ? windowStart : nil,
                    innerSubscriptions: index == 0 ? innerSubscriptions : 0)
            }
        self.failure = failure
        self.time = time
    }

    /// Since when the first stage holds a value back, if it does (``SlotStage/heldSince``).
    package var heldSince: SessionTime? { stages.first?.heldSince }
    /// When the first stage, `throttle`, last let a value through (``SlotStage/windowStart``).
    package var windowStart: SessionTime? { stages.first?.windowStart }
    /// How many inner subscriptions the first stage, `flatMap`, holds (``SlotStage/innerSubscriptions``).
    package var innerSubscriptions: Int { stages.first?.innerSubscriptions ?? 0 }

    /// When the slot's pipe next passes on what a stage holds, if one holds anything: the
    /// session's next timer.
    package var nextTimer: SessionTime? { slot.nextTimer(stages)?.due }

    /// Until when the slot's timed stages wait, if they do: a timer, or `throttle`'s open
    /// window (``SlotOperator/waitsUntil(_:)``).
    package var waitsUntil: SessionTime? { slot.waitsUntil(stages) }

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
        // Each timer due by then, earliest first: one a stage's timer sets goes off too.
        while let (due, stage) = next.slot.nextTimer(next.stages), due < time || (including && due == time) {
            next.slot.timerWentOff(&next, stage: stage, at: due)
            next.time = max(next.time, due)
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
///   (``SlotOperation/step(_:_:)``, under `SlotOperators/`), a stage at a time.
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
    case .operatorChosen, .stageAdded, .stageRemoved:
        // A new pipe, built afresh: each stage subscribes anew, holding nothing.
        next.slot = state.slot.after(intent)
        next.stages = Array(repeating: SlotStage(), count: next.slot.stages.count)
    case .mirrorFlipped:
        next.mirror.toggle()
    }
    // After an error nothing reaches the colours: the chain's switchToLatest ended with it.
    guard state.failure == nil else { return next }
    // The pipe in the slot sees the intent; its first stage is handed each new position, and the
    // current one at once when the pipe is built.
    next.slot.step(&next, from: state, by: intent)
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

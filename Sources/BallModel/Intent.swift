// MARK: - Intents: what happened, as values

/// One of the four arrow directions.
package enum Direction: String, Sendable, Hashable, CaseIterable, Codable {
    case up, down, left, right

    /// The cell step this direction takes.
    package var offset: (columns: Int, rows: Int) {
        switch self {
        case .up: (0, -1)
        case .down: (0, 1)
        case .left: (-1, 0)
        case .right: (1, 0)
        }
    }
}

/// Something the user (or the terminal) did, named for what happened. The terminal adapter
/// decodes input into intents; ``reduce(_:_:)`` turns each into the next state; the recorder
/// writes them down and the replayer feeds them back.
package enum Intent: Hashable, Sendable {
    /// The mouse button went down on `cell`.
    case pressed(at: Cell)
    /// The pointer moved to `cell` with the button down.
    case dragged(to: Cell)
    /// The mouse button came up on `cell`.
    case released(at: Cell)
    /// An arrow (or `h`/`j`/`k`/`l`) moved the ball `distance` cells.
    case arrowPressed(Direction, distance: Int)
    /// `c` or Home: back to the middle of the screen.
    case recentred
    /// The ball's area is now `size`: the terminal changed size (only the terminal makes one).
    case resized(ScreenSize)
    /// `q`, Esc or Ctrl-C.
    case quitRequested
    /// `e` in the tour's Completion lesson: position completes, and every subject with it, as
    /// at a quit, but the program runs on (late subscribers then meet the end).
    case completionRequested
    /// `f` and an operator's key (or `--operator` at the start): the slot now holds this pipe
    /// (one operator, or several: `filter,debounce`; none: emptied).
    case operatorChosen(SlotPipe)
    /// `f`, `+` and an operator's key: this operator added at the end of the slot's pipe (when it
    /// fits there: the session lets in only one that does).
    case stageAdded(SlotOperator)
    /// `f` and Backspace: the last stage of the slot's pipe taken out.
    case stageRemoved
    /// `i`: the mirror (the second subject, ``BallState/mirror``) flipped, on to off or off to on.
    case mirrorFlipped
}

// MARK: - What moves the ball

/// What the user moves the ball with.
package enum Mover: Hashable, Sendable {
    /// A press, a drag or a release.
    case mouse
    /// An arrow (or `h` `j` `k` `l`), or `c`.
    case keys
}

extension Intent {
    /// What the user moves the ball with in this intent, if it is one of theirs that moves it:
    /// the mouse or the keys; nil for the rest (a resize, which the window makes; a choice; a
    /// flip; a quit). The session publishes each new position on `mouse` or `keys` by it.
    package var mover: Mover? {
        switch self {
        case .pressed, .dragged, .released: .mouse
        case .arrowPressed, .recentred: .keys
        case .resized, .quitRequested, .completionRequested, .operatorChosen, .stageAdded, .stageRemoved,
            .mirrorFlipped:
            nil
        }
    }

    /// Whether the session ends at this intent: its subjects complete (a quit, or `e`).
    package var endsSession: Bool { self == .quitRequested || self == .completionRequested }
}

// MARK: - What a valid intent is

extension Intent {
    /// The longest arrow move an intent may make.
    package static let longestMove = 1_000

    /// This intent as it can happen in a ball's area of `area`, or nil when it cannot happen
    /// there at all. The one definition of a valid intent: the session fits every intent before
    /// it enters (so the recorder writes only fitted intents), and the replay reader accepts
    /// exactly those that fit as they are (``isValid(in:)``).
    ///
    /// - A press must be inside the area (a click on the streams panel or beyond is not the
    ///   ball's); a drag or a release outside it is taken at the nearest cell inside, so a drag
    ///   past the edge keeps the ball at the edge and a release anywhere lets it go.
    /// - An arrow moves 1 to ``longestMove`` cells (further is the longest move).
    /// - A size is 1 to ``ScreenSize/largest`` each way (larger is the largest).
    package func fitted(to area: ScreenSize) -> Intent? {
        switch self {
        case .pressed(let cell): return area.contains(cell) ? self : nil
        case .dragged(let cell): return area.nearestCell(to: cell).map { .dragged(to: $0) }
        case .released(let cell): return area.nearestCell(to: cell).map { .released(at: $0) }
        case .arrowPressed(let direction, let distance):
            guard distance >= 1 else { return nil }
            return .arrowPressed(direction, distance: min(distance, Self.longestMove))
        case .resized(let size): return .resized(size.fittedToLargest)
        case .recentred, .quitRequested, .completionRequested, .operatorChosen, .stageAdded, .stageRemoved,
            .mirrorFlipped:
            return self
        }
    }

    /// Whether this intent can happen as it is in a ball's area of `area`: what a replay file
    /// may hold.
    package func isValid(in area: ScreenSize) -> Bool { fitted(to: area) == self }
}

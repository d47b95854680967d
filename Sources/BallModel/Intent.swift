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
/// decodes input into intents; ``BallState/step(_:)`` turns each into the next state; the
/// recorder writes them down and the replayer feeds them back.
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
    /// The terminal is now `size`.
    case resized(ScreenSize)
    /// `q`, Esc or Ctrl-C.
    case quitRequested
}

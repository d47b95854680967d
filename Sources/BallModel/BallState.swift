// MARK: - State and the pure step

/// Where the ball is: its centre cell, and the screen it is on (which its shape and
/// clamping depend on). This is what the position subject holds.
package struct BallPosition: Hashable, Sendable {
    /// The ball's centre.
    package var centre: Cell
    /// The terminal the ball is on.
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
}

/// The whole interaction state: the position, and the grab while a drag is under way.
///
/// A value the step works on, not a store: the session keeps the position in its subject and
/// the grab beside it, and puts a state together for each step.
package struct BallState: Hashable, Sendable {
    /// Where the ball is.
    package var position: BallPosition
    /// Centre minus pointer while the button is down; nil otherwise.
    package var grab: CellOffset?

    /// A state with the ball at `position`, grabbed with `grab` (nil: not grabbed).
    package init(position: BallPosition, grab: CellOffset? = nil) {
        self.position = position
        self.grab = grab
    }

    /// Whether a drag is under way.
    package var isGrabbed: Bool { grab != nil }

    /// The next state after `intent`. Pure: no I/O, no time.
    ///
    /// - Pressing on the ball grabs it and keeps the offset between pointer and centre;
    ///   pressing elsewhere moves the centre to the pointer and grabs it there.
    /// - Dragging moves the centre with the pointer (keeping the offset); releasing drops it.
    /// - Arrows move by their distance; `recentred` goes back to the middle.
    /// - A resize keeps the centre where it can and clamps it where it must.
    /// - The ball always stays whole on screen, above the status line. While the screen is too
    ///   small for it, moves are ignored and the centre is kept for when the screen grows.
    package func step(_ intent: Intent) -> BallState {
        var next = self
        switch intent {
        case .pressed(let cell):
            if position.shape.covers(cell, centredAt: position.centre) {
                next.grab = CellOffset(
                    columns: position.centre.column - cell.column, rows: position.centre.row - cell.row)
            } else {
                next.grab = CellOffset(columns: 0, rows: 0)
                next.moveCentre(to: cell)
            }
        case .dragged(let cell):
            guard let grab else { break }
            next.moveCentre(to: cell.offset(by: grab))
        case .released(let cell):
            if let grab {
                next.moveCentre(to: cell.offset(by: grab))
            }
            next.grab = nil
        case .arrowPressed(let direction, let distance):
            let (columns, rows) = direction.offset
            next.moveCentre(
                to: Cell(
                    column: position.centre.column + columns * distance, row: position.centre.row + rows * distance))
        case .recentred:
            next.moveCentre(to: position.screen.centre)
        case .resized(let size):
            next.position.screen = size
            next.moveCentre(to: position.centre)
        case .quitRequested:
            break
        }
        return next
    }

    /// Moves the centre to `target`, clamped so the ball stays whole; no move while the
    /// screen is too small.
    private mutating func moveCentre(to target: Cell) {
        guard let allowed = position.shape.allowedCentres(on: position.screen) else { return }
        position.centre = Cell(
            column: min(max(target.column, allowed.columns.lowerBound), allowed.columns.upperBound),
            row: min(max(target.row, allowed.rows.lowerBound), allowed.rows.upperBound))
    }
}

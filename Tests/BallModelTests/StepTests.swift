import BallModel
import BallTestSupport
import Testing

/// The pure step: (state, intent) → next state.
@Suite("The pure step")
struct StepTests {
    let screen = ScreenSize(columns: 80, rows: 24)

    func state(at cell: Cell) -> BallState {
        BallState(position: BallPosition(centre: cell, screen: screen))
    }

    @Test("the ball at 80×24 is a 19×11-cell disc, 20 half-blocks across")
    func shape() {
        let shape = BallShape(for: screen)
        #expect(shape.diameter == 20)
        #expect(shape.halfWidth == 9)
        #expect(shape.halfHeight == 5)
        #expect(BallShape(for: ScreenSize(columns: 24, rows: 8)).diameter == 6)
        #expect(BallShape(for: ScreenSize(columns: 200, rows: 60)).diameter == 50)
        // Never taller than the area above the status line.
        let wideAndShort = BallShape(for: ScreenSize(columns: 200, rows: 10))
        #expect(2 * wideAndShort.halfHeight + 1 <= 9)
    }

    @Test("pressing on the ball grabs it and keeps the pointer's offset")
    func grabKeepsOffset() {
        let start = state(at: Cell(column: 40, row: 11))
        let grabbed = start.step(.pressed(at: Cell(column: 43, row: 12)))
        #expect(grabbed.position.centre == Cell(column: 40, row: 11))
        #expect(grabbed.grab == CellOffset(columns: -3, rows: -1))
        let dragged = grabbed.step(.dragged(to: Cell(column: 50, row: 14)))
        #expect(dragged.position.centre == Cell(column: 47, row: 13))
        let released = dragged.step(.released(at: Cell(column: 51, row: 14)))
        #expect(released.position.centre == Cell(column: 48, row: 13))
        #expect(released.grab == nil)
        // After the release, motion does nothing.
        #expect(released.step(.dragged(to: Cell(column: 10, row: 3))) == released)
    }

    @Test("pressing off the ball moves the centre to the pointer and grabs it there")
    func pressOffTheBall() {
        let start = state(at: Cell(column: 40, row: 11))
        let pressed = start.step(.pressed(at: Cell(column: 70, row: 18)))
        #expect(pressed.position.centre == Cell(column: 70, row: 17))  // Clamped above the status line.
        #expect(pressed.grab == CellOffset(columns: 0, rows: 0))
        #expect(pressed.step(.dragged(to: Cell(column: 60, row: 10))).position.centre == Cell(column: 60, row: 10))
    }

    @Test(
        "the ball stays whole at every edge, above the status line",
        arguments: [
            (Intent.arrowPressed(.left, distance: 100), Cell(column: 9, row: 11)),
            (.arrowPressed(.right, distance: 100), Cell(column: 70, row: 11)),
            (.arrowPressed(.up, distance: 100), Cell(column: 40, row: 5)),
            (.arrowPressed(.down, distance: 100), Cell(column: 40, row: 17)),
            (.pressed(at: Cell(column: 0, row: 0)), Cell(column: 9, row: 5)),
            (.pressed(at: Cell(column: 79, row: 23)), Cell(column: 70, row: 17)),
            (.pressed(at: Cell(column: -5, row: 500)), Cell(column: 9, row: 17)),
        ])
    func clamping(intent: Intent, expected: Cell) {
        let next = state(at: Cell(column: 40, row: 11)).step(intent)
        #expect(next.position.centre == expected)
        let shape = next.position.shape
        #expect(next.position.centre.column - shape.halfWidth >= 0)
        #expect(next.position.centre.column + shape.halfWidth <= 79)
        #expect(next.position.centre.row - shape.halfHeight >= 0)
        #expect(next.position.centre.row + shape.halfHeight <= 22)
    }

    @Test("arrows move 1, big steps 5; re-centring goes back to the middle")
    func arrows() {
        var current = state(at: Cell(column: 40, row: 11))
        current = current.step(.arrowPressed(.right, distance: 1))
        #expect(current.position.centre == Cell(column: 41, row: 11))
        current = current.step(.arrowPressed(.down, distance: 5))
        #expect(current.position.centre == Cell(column: 41, row: 16))
        current = current.step(.recentred)
        #expect(current.position.centre == Cell(column: 40, row: 11))
    }

    @Test("a resize re-clamps the ball, even while dragging")
    func resizeWhileDragging() {
        var current = state(at: Cell(column: 70, row: 17)).step(.pressed(at: Cell(column: 70, row: 17)))
        current = current.step(.resized(ScreenSize(columns: 40, rows: 12)))
        #expect(current.position.screen == ScreenSize(columns: 40, rows: 12))
        #expect(current.position.centre == Cell(column: 35, row: 8))
        #expect(current.isGrabbed)
        current = current.step(.dragged(to: Cell(column: 10, row: 5)))
        #expect(current.position.centre == Cell(column: 10, row: 5))
    }

    @Test("too small: moves are ignored and the centre waits for the screen to grow")
    func tooSmall() {
        var current = state(at: Cell(column: 40, row: 11)).step(.resized(ScreenSize(columns: 10, rows: 4)))
        #expect(current.position.centre == Cell(column: 40, row: 11))
        current = current.step(.arrowPressed(.left, distance: 1))
        #expect(current.position.centre == Cell(column: 40, row: 11))
        current = current.step(.resized(ScreenSize(columns: 50, rows: 20)))
        #expect(current.position.centre == Cell(column: 40, row: 11))
        current = current.step(.resized(ScreenSize(columns: 30, rows: 10)))
        #expect(current.position.centre == Cell(column: 26, row: 6))
    }

    @Test("quit changes nothing in the state")
    func quit() {
        let start = state(at: Cell(column: 40, row: 11))
        #expect(start.step(.quitRequested) == start)
    }
}

extension StepTests {
    @Test("the shape's half width and height are the widest and tallest of its spans, for every diameter")
    func shapeExtents() {
        for diameter in 1...400 {
            let shape = BallShape(diameter: diameter)
            var widest = 0
            var tallest = 0
            for rowOffset in -(diameter + 2)...(diameter + 2) {
                let span = shape.span(rowOffset: rowOffset)
                for half in [span.top, span.bottom] {
                    guard let half else { continue }
                    widest = max(widest, half.upperBound)
                    tallest = max(tallest, abs(rowOffset))
                    #expect(half.lowerBound == -half.upperBound)
                }
            }
            #expect(shape.halfWidth == widest, "diameter \(diameter)")
            #expect(shape.halfHeight == tallest, "diameter \(diameter)")
        }
    }
}

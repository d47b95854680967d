import BallModel
import BallTestSupport
import ColourCore
import Testing

/// The reducer: (state, intent) → next state, compared whole after every intent (position,
/// grab and the screen's colour), as TCA's TestStore does.
@Suite("The reducer")
struct ReducerTests {
    let screen = ScreenSize(columns: 80, rows: 24)

    /// The ball at `cell`, not grabbed, on a screen of `background`.
    func state(at cell: Cell, grab: CellOffset? = nil, background: FlatColour) -> BallState {
        BallState(position: BallPosition(centre: cell, screen: screen), grab: grab, background: background)
    }

    /// Folds each intent into `start` with the reducer and compares the whole state after it.
    func expectSteps(
        from start: BallState, _ steps: [(Intent, BallState)], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var current = start
        for (number, (intent, expected)) in steps.enumerated() {
            current = reduce(current, intent)
            #expect(current == expected, "after intent \(number + 1), \(intent)", sourceLocation: sourceLocation)
        }
    }

    @Test("the ball at 80×24 is a 19×11-cell disc, 20 half-blocks across")
    func shape() throws {
        let shape = BallShape(for: screen)
        #expect(shape.diameter == 20)
        #expect(shape.halfWidth == 9)
        #expect(shape.halfHeight == 5)
        #expect(BallShape(for: ScreenSize(columns: 24, rows: 8)).diameter == 6)
        #expect(BallShape(for: ScreenSize(columns: 200, rows: 60)).diameter == 50)
        // Never taller than the area above the status line; in a short area, room to move up
        // and down (a 6-column disc at the least).
        let wideAndShort = BallShape(for: ScreenSize(columns: 200, rows: 10))
        #expect(2 * wideAndShort.halfHeight + 1 <= 9)
        for rows in 8...30 {
            let size = ScreenSize(columns: 200, rows: rows)
            let centres = try #require(BallShape(for: size).allowedCentres(on: size)).rows
            #expect(centres.count > BallShape.verticalRoom, "\(rows) rows: \(centres)")
        }
    }

    @Test("the start: the ball in the middle, not grabbed, the white screen coloured by the rule")
    func start() {
        // 40,11 is 320 + 176 = 496 points, 241 mod 255: flatRed, whose complement is flatMint.
        #expect(BallState.start(on: screen) == state(at: Cell(column: 40, row: 11), background: .flatMint))
        // In the black band the screen keeps the original's white: 41,12 is 520 points, 10 mod 255.
        let black = BallState.start(at: BallPosition(centre: Cell(column: 43, row: 11), screen: screen))
        #expect(black == state(at: Cell(column: 43, row: 11), background: .flatWhite))
        // A start off the screen is kept whole on it.
        let corner = BallState.start(at: BallPosition(centre: Cell(column: 0, row: 0), screen: screen))
        #expect(corner.position.centre == Cell(column: 9, row: 5))
    }

    @Test("pressing on the ball grabs it and keeps the pointer's offset; the screen follows the ball")
    func grabKeepsOffset() {
        let start = state(at: Cell(column: 40, row: 11), background: .flatMint)
        let grab = CellOffset(columns: -3, rows: -1)
        expectSteps(
            from: start,
            [
                (
                    .pressed(at: Cell(column: 43, row: 12)),
                    state(at: Cell(column: 40, row: 11), grab: grab, background: .flatMint)
                ),
                // 47,13: 376 + 208 = 584, 74 mod 255: flatMaroonDark on flatTealDark.
                (
                    .dragged(to: Cell(column: 50, row: 14)),
                    state(at: Cell(column: 47, row: 13), grab: grab, background: .flatTealDark)
                ),
                (
                    .released(at: Cell(column: 51, row: 14)),
                    state(at: Cell(column: 48, row: 13), background: .flatTealDark)
                ),
                // After the release, motion does nothing.
                (
                    .dragged(to: Cell(column: 10, row: 3)),
                    state(at: Cell(column: 48, row: 13), background: .flatTealDark)
                ),
            ])
    }

    @Test("in the black band the screen keeps the colour it had")
    func blackBandKeepsTheScreen() {
        let start = state(at: Cell(column: 40, row: 11), background: .flatMint)
        expectSteps(
            from: start,
            [
                // 43,11: 344 + 176 = 520, 10 mod 255: flatBlackDark, its own complement.
                (.arrowPressed(.right, distance: 3), state(at: Cell(column: 43, row: 11), background: .flatMint)),
                (.arrowPressed(.down, distance: 5), state(at: Cell(column: 43, row: 16), background: .flatTealDark)),
                (.arrowPressed(.up, distance: 5), state(at: Cell(column: 43, row: 11), background: .flatTealDark)),
            ])
    }

    @Test("pressing off the ball moves the centre to the pointer and grabs it there")
    func pressOffTheBall() {
        let start = state(at: Cell(column: 40, row: 11), background: .flatMint)
        let grab = CellOffset(columns: 0, rows: 0)
        expectSteps(
            from: start,
            [
                // Clamped above the status line: 70,17 is 832 points, 67 mod 255: flatMaroonDark.
                (
                    .pressed(at: Cell(column: 70, row: 18)),
                    state(at: Cell(column: 70, row: 17), grab: grab, background: .flatTealDark)
                ),
                // 60,10: 640 points, 130 mod 255: flatMaroon on flatTeal.
                (
                    .dragged(to: Cell(column: 60, row: 10)),
                    state(at: Cell(column: 60, row: 10), grab: grab, background: .flatTeal)
                ),
            ])
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
        let next = reduce(state(at: Cell(column: 40, row: 11), background: .flatMint), intent)
        #expect(next.position.centre == expected)
        let shape = next.position.shape
        #expect(next.position.centre.column - shape.halfWidth >= 0)
        #expect(next.position.centre.column + shape.halfWidth <= 79)
        #expect(next.position.centre.row - shape.halfHeight >= 0)
        #expect(next.position.centre.row + shape.halfHeight <= 22)
    }

    @Test("arrows move 1, big steps 5; re-centring goes back to the middle")
    func arrows() {
        expectSteps(
            from: state(at: Cell(column: 40, row: 11), background: .flatMint),
            [
                (.arrowPressed(.right, distance: 1), state(at: Cell(column: 41, row: 11), background: .flatMint)),
                // 41,16: 328 + 256 = 584, 74 mod 255: flatMaroonDark on flatTealDark.
                (.arrowPressed(.down, distance: 5), state(at: Cell(column: 41, row: 16), background: .flatTealDark)),
                (.recentred, state(at: Cell(column: 40, row: 11), background: .flatMint)),
            ])
    }

    @Test("a resize re-clamps the ball, even while dragging")
    func resizeWhileDragging() {
        let small = ScreenSize(columns: 40, rows: 12)
        let grab = CellOffset(columns: 0, rows: 0)
        func onSmall(_ cell: Cell) -> BallState {
            // 35,8 and 10,5: 408 and 160 points, 153 and 160 mod 255: flatRedDark on flatGray.
            BallState(position: BallPosition(centre: cell, screen: small), grab: grab, background: .flatGray)
        }
        expectSteps(
            from: state(at: Cell(column: 70, row: 17), background: .flatTealDark),
            [
                (
                    .pressed(at: Cell(column: 70, row: 17)),
                    state(at: Cell(column: 70, row: 17), grab: grab, background: .flatTealDark)
                ),
                (.resized(small), onSmall(Cell(column: 35, row: 8))),
                (.dragged(to: Cell(column: 10, row: 5)), onSmall(Cell(column: 10, row: 5))),
            ])
    }

    @Test("too small: moves are ignored and the centre waits for the screen to grow")
    func tooSmall() {
        func on(_ columns: Int, _ rows: Int, _ cell: Cell, _ background: FlatColour) -> BallState {
            BallState(
                position: BallPosition(centre: cell, screen: ScreenSize(columns: columns, rows: rows)),
                background: background)
        }
        let centre = Cell(column: 40, row: 11)
        expectSteps(
            from: state(at: centre, background: .flatMint),
            [
                (.resized(ScreenSize(columns: 10, rows: 4)), on(10, 4, centre, .flatMint)),
                (.arrowPressed(.left, distance: 1), on(10, 4, centre, .flatMint)),
                (.resized(ScreenSize(columns: 50, rows: 20)), on(50, 20, centre, .flatMint)),
                // The 7-wide disc reaches one row either side of its centre (its third half-row
                // would be less than half inside), so the lowest centre is row 7. 26,7: 208 +
                // 112 = 320, 65 mod 255: flatMaroonDark on flatTealDark.
                (
                    .resized(ScreenSize(columns: 30, rows: 10)),
                    on(30, 10, Cell(column: 26, row: 7), .flatTealDark)
                ),
            ])
    }

    @Test("quit changes nothing in the state")
    func quit() {
        let start = state(at: Cell(column: 40, row: 11), grab: CellOffset(columns: 1, rows: 2), background: .flatMint)
        #expect(reduce(start, .quitRequested) == start)
    }
}

extension ReducerTests {
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

extension ReducerTests {
    @Test(
        "a pixel is lit when at least half of it is inside the circle: 16×16 samples, every diameter 6–200",
        .tags(.slow), .skippedInQuickRuns)
    func roundOutline() {
        // Written here from the rule, not from the shape's code: a pixel one cell wide and one
        // half-row tall, centred at column offset c and v half-rows from the centre line, is
        // lit when at least 128 of its 16×16 sample points lie within the radius. Pixels whose
        // sampled share is within 3/256 of a half are too close to call by sampling: counted,
        // not compared.
        var closeCalls = 0
        var spikes: [Int] = []
        for diameter in 6...200 {
            let shape = BallShape(diameter: diameter)
            let radius = Double(diameter) / 2
            var mismatches: [String] = []
            for rowOffset in -(shape.halfHeight + 1)...(shape.halfHeight + 1) {
                let span = shape.span(rowOffset: rowOffset)
                for (half, vertical) in [
                    (span.top, Double(2 * rowOffset) - 0.5), (span.bottom, Double(2 * rowOffset) + 0.5),
                ] {
                    for column in -(shape.halfWidth + 2)...(shape.halfWidth + 2) {
                        var inside = 0
                        for i in 0..<16 {
                            for j in 0..<16 {
                                let x = Double(column) - 0.5 + (Double(i) + 0.5) / 16
                                let y = vertical - 0.5 + (Double(j) + 0.5) / 16
                                if x * x + y * y <= radius * radius { inside += 1 }
                            }
                        }
                        if abs(inside - 128) <= 3 {
                            closeCalls += 1
                            continue
                        }
                        let lit = half?.contains(column) == true
                        if lit != (inside >= 128) {
                            mismatches.append("row \(rowOffset) v \(vertical) column \(column): \(inside)/256")
                        }
                    }
                }
            }
            #expect(mismatches.isEmpty, "diameter \(diameter): \(mismatches.prefix(4))")
            // No spike: the outermost lit half-rows are more than one pixel wide.
            let top = shape.span(rowOffset: -shape.halfHeight)
            let outermost = [top.top, top.bottom].compactMap { $0 }.first
            if let outermost, outermost.count < 2 { spikes.append(diameter) }
        }
        print("16×16 sampling: \(closeCalls) pixels too close to half to call")
        #expect(spikes.isEmpty, "diameters with a one-pixel top: \(spikes)")
    }
}

import BallModel
import BallProgram
import BallRendering
import BallTestSupport
import ColourCore
import TerminalIO
import Testing

/// The original's motion: a move glides over 0.1 s with UIKit's ease-in-out curve and the
/// colours fade, in the drawing only (the chain publishes the final values at once). Driven
/// through the real run loop with a manual clock: time passes only where the script says.
@Suite("The ball glides, as the original's did")
struct GlideTests {
    /// A driver that keeps every frame, animated.
    static func driver(depth: ColourDepth = .direct) -> Pilot<Play> {
        let driver = Pilot<Play>(depth: depth, animated: true)
        driver.terminal.keepsFrames = true
        return driver
    }

    /// Where the disc's centre is drawn in `frame`: the middle of its top and bottom rows, and of
    /// the widest row's cells in the ball's colour (found from the frame, not the program's
    /// motion).
    static func drawnCentre(_ frame: Frame, ball: FlatColour) -> Cell? {
        let rows = frame.discRows(ball: ball)
        guard let top = rows.first, let bottom = rows.last else { return nil }
        let row = (top + bottom) / 2
        let columns = (0..<frame.size.columns).filter { frame[$0, row].background == ball }
        guard let left = columns.first, let right = columns.last else { return nil }
        return Cell(column: (left + right) / 2, row: row)
    }

    @Test("UIKit's ease-in-out: 0 and 1 at the ends, ½ in the middle, symmetric, slow at both ends")
    func curve() {
        #expect(Glide.easeInOut(0) == 0 && abs(Glide.easeInOut(1) - 1) < 1e-9)
        #expect(abs(Glide.easeInOut(0.5) - 0.5) < 1e-9)
        for step in 1..<20 {
            let time = Double(step) / 20
            #expect(abs(Glide.easeInOut(time) + Glide.easeInOut(1 - time) - 1) < 1e-9)
            #expect(Glide.easeInOut(time) > Glide.easeInOut(time - 0.05))
        }
        // Core Animation's easeInEaseOut at a quarter: 0.1291 (bezier 0.42, 0, 0.58, 1).
        #expect(abs(Glide.easeInOut(0.25) - 0.1291) < 0.001)
        #expect(Glide.easeInOut(0.1) < 0.1 / 2, "slow at the start")
    }

    @Test(
        "a click 30 cells away: the chain has the new place at once; the drawing glides through the cells between over 0.1 s, at most 60 frames a second, then nothing wakes"
    )
    func jumpGlides() {
        let driver = Self.driver()
        let start = driver.appearance
        let target = Cell(column: 70, row: 11)
        driver.run([.bytes(TerminalBytes.press(target)), .bytes(TerminalBytes.release(target))])
        // The chain published the final place and colours at once.
        #expect(driver.appearance.position.centre == target)
        let first = driver.terminal.history.count
        #expect(first == 1, "the first frame of the response left at once, and only it")
        driver.run([.pass(.milliseconds(200))])
        let frames = Array(driver.terminal.history[(first - 1)...])
        let times = Array(driver.terminal.historyTimes[(first - 1)...])
        let final = driver.appearance
        // A fading frame's cells hold the final flat colours (shown as the fading ones).
        let centres = frames.map { Self.drawnCentre($0, ball: final.ball) }
        // From near the start to the target, never back, through cells between.
        let columns = centres.compactMap { $0?.column }
        #expect(columns.count == frames.count, "\(centres)")
        #expect(columns == columns.sorted(), "\(columns)")
        #expect(columns.last == target.column)
        #expect(columns.first! < start.position.centre.column + 10, "the first frame is near the start")
        #expect(Set(columns).count >= 5, "it goes through the cells between: \(columns)")
        // At most 60 frames a second, over the glide's tenth of a second.
        for (earlier, later) in zip(times, times.dropFirst()) {
            #expect(later - earlier >= Glide.frameInterval - .microseconds(1))
        }
        #expect(times.last! - times.first! <= Glide.duration)
        #expect(frames.count <= 7)
        // The last frame is the final one, drawn as without a glide; then the loop waits for ever.
        let still = Pilot<Play>()
        still.run([.bytes(TerminalBytes.press(target)), .bytes(TerminalBytes.release(target))])
        #expect(frames.last == still.frame)
        #expect(driver.terminal.waits.last == .some(nil), "\(driver.terminal.waits.suffix(3))")
    }

    @Test("in direct colour the ball's and the screen's colours fade: every frame its own RGB, from the old to the new")
    func coloursFade() {
        let driver = Self.driver()
        let before = driver.appearance
        let target = Cell(column: 70, row: 11)
        driver.run([.bytes(TerminalBytes.press(target)), .pass(.milliseconds(200))])
        let after = driver.appearance
        #expect(before.ball != after.ball && before.background != after.background, "a colour change")
        let fading = driver.terminal.history.compactMap(\.blends)
        #expect(fading.count >= 4, "\(fading.count)")
        // Each fading colour lies between the two, nearer the new one frame by frame.
        func fraction(_ colour: RGBColour, _ from: RGBColour, _ to: RGBColour) -> Double {
            let span = (to.red - from.red, to.green - from.green, to.blue - from.blue)
            let moved = (colour.red - from.red, colour.green - from.green, colour.blue - from.blue)
            let length = span.0 * span.0 + span.1 * span.1 + span.2 * span.2
            return (moved.0 * span.0 + moved.1 * span.1 + moved.2 * span.2) / length
        }
        let ballFractions = fading.map { fraction($0.ball, before.ball.rgb, after.ball.rgb) }
        let screenFractions = fading.map { fraction($0.screen, before.background.rgb, after.background.rgb) }
        #expect(ballFractions == ballFractions.sorted() && ballFractions.allSatisfy { $0 > 0 && $0 < 1 })
        #expect(screenFractions.allSatisfy { $0 > 0 && $0 < 1 })
        // What a terminal receives: the screen's cells in the fading RGB, as xterm's 24-bit form says.
        var rasteriser = Rasteriser(sequences: .xtermDirectColour())
        let middle = driver.terminal.history.first { $0.blends != nil }!
        let shown = TerminalEmulator.showing(middle, through: &rasteriser)
        let (red, green, blue) = middle.blends!.screen.channels
        #expect(shown.cells[0][0].background == TerminalEmulator.direct(red, green, blue))
        // The end: flat colours again, nothing fading.
        #expect(driver.terminal.history.last?.blends == nil)
    }

    @Test("at 256 colours a fade shows the palette's nearest entries; at 16 and 8 the colours switch at once")
    func fadesByDepth() {
        let palette = Self.driver(depth: .palette(.xterm256))
        palette.run([.bytes(TerminalBytes.press(Cell(column: 70, row: 11))), .pass(.milliseconds(200))])
        let fading = palette.terminal.history.first { $0.blends != nil }
        #expect(fading != nil)
        if let fading {
            var rasteriser = Rasteriser(sequences: .xterm(palette: .xterm256))
            let shown = TerminalEmulator.showing(fading, through: &rasteriser)
            #expect(shown.cells[0][0].background == TerminalPalette.nearestXterm256Index(to: fading.blends!.screen))
        }
        for depth in [ColourDepth.palette(.ansi16), .palette(.ansi8), .monochrome] {
            let few = Self.driver(depth: depth)
            few.run([.bytes(TerminalBytes.press(Cell(column: 70, row: 11))), .pass(.milliseconds(200))])
            #expect(few.terminal.history.allSatisfy { $0.blends == nil }, "\(depth)")
            #expect(few.terminal.history.count > 3, "\(depth): it still glides")
        }
    }

    @Test("a jump during a glide starts from where the ball is drawn: no frame jumps back or ahead")
    func retarget() {
        let driver = Self.driver()
        let away = Cell(column: 70, row: 11)
        driver.run([.bytes(TerminalBytes.press(away)), .bytes(TerminalBytes.release(away)), .pass(.milliseconds(40))])
        let drawn = Self.drawnCentre(driver.frame, ball: driver.appearance.ball)
        let before = driver.terminal.history.count
        // Now a click back to the left: the first frame after it is within a few cells of where
        // it was.
        let back = Cell(column: 20, row: 11)
        driver.run([.bytes(TerminalBytes.press(back)), .bytes(TerminalBytes.release(back)), .pass(.milliseconds(200))])
        let next = driver.terminal.history[before]
        let after = Self.drawnCentre(next, ball: driver.appearance.ball)
        #expect(drawn != nil && after != nil)
        if let drawn, let after { #expect(abs(after.column - drawn.column) <= 3, "\(drawn) then \(after)") }
        #expect(Self.drawnCentre(driver.frame, ball: driver.appearance.ball)?.column == 20)
    }

    @Test(
        "a drag step is drawn under the pointer in the first frame that answers it, colours and all, and nothing follows it; while a jump's glide is under way too"
    )
    func dragStepsAtOnce() {
        let driver = Self.driver()
        let still = Pilot<Play>()
        let centre = driver.appearance.position.centre
        for each in [driver, still] { each.run([.bytes(TerminalBytes.press(centre))]) }
        var colourChanges = 0
        // A sweep right and back, one cell a report, 20 ms apart (a glide would draw a frame
        // between two).
        let columns =
            Array(centre.column + 1...centre.column + 20) + Array((centre.column - 5..<centre.column + 20).reversed())
        for column in columns {
            let pointer = Cell(column: column, row: centre.row)
            let ballBefore = driver.appearance.ball
            let framesBefore = driver.terminal.history.count
            driver.run([.bytes(TerminalBytes.drag(pointer)), .pass(.milliseconds(20))])
            still.run([.bytes(TerminalBytes.drag(pointer))])
            if driver.appearance.ball != ballBefore { colourChanges += 1 }
            #expect(
                driver.terminal.history.count == framesBefore + 1, "one frame for step \(column), no glide after it")
            let first = driver.terminal.history[framesBefore]
            #expect(Self.drawnCentre(first, ball: driver.appearance.ball) == pointer, "step to \(column)")
            #expect(first == still.frame, "step to \(column): the frame --no-animation draws")
        }
        #expect(colourChanges >= 5, "the sweep changed colours on the way (\(colourChanges) times)")
        #expect(driver.terminal.waits.last == .some(nil), "nothing wakes after a step")
        // A click away glides; a drag during its glide puts the ball under the pointer at once.
        let away = Cell(column: 10, row: 11)
        let last = Cell(column: columns.last!, row: centre.row)
        driver.run([.bytes(TerminalBytes.release(last)), .bytes(TerminalBytes.press(away)), .pass(.milliseconds(30))])
        let gliding = Self.drawnCentre(driver.frame, ball: driver.appearance.ball)
        #expect(gliding != nil && gliding != away, "the click glides: \(String(describing: gliding))")
        let framesBefore = driver.terminal.history.count
        driver.run([.bytes(TerminalBytes.drag(Cell(column: 11, row: 11)))])
        #expect(
            Self.drawnCentre(driver.terminal.history[framesBefore], ball: driver.appearance.ball)
                == Cell(column: 11, row: 11))
    }

    @Test("a one-cell arrow is drawn where it went in the first frame that answers it; Shift, c and a click glide")
    func keysAtOnceJumpsGlide() {
        let driver = Self.driver()
        for direction in [Direction.right, .right, .down, .left, .up, .up] {
            let (columns, rows) = direction.offset
            let centre = driver.appearance.position.centre
            let framesBefore = driver.terminal.history.count
            driver.run([.bytes(TerminalBytes.arrow(direction)), .pass(.milliseconds(200))])
            let expected = Cell(column: centre.column + columns, row: centre.row + rows)
            #expect(driver.appearance.position.centre == expected)
            #expect(driver.terminal.history.count == framesBefore + 1, "\(direction): one frame")
            #expect(Self.drawnCentre(driver.terminal.history[framesBefore], ball: driver.appearance.ball) == expected)
        }
        let jumps: [(String, [UInt8])] = [
            ("Shift+Right", TerminalBytes.arrow(.right, shifted: true)),
            ("c", TerminalBytes.key("c")),
            ("Shift+Left", TerminalBytes.arrow(.left, shifted: true)),
            (
                "a click",
                TerminalBytes.press(Cell(column: 70, row: 5)) + TerminalBytes.release(Cell(column: 70, row: 5))
            ),
        ]
        for (name, bytes) in jumps {
            let framesBefore = driver.terminal.history.count
            driver.run([.bytes(bytes), .pass(.milliseconds(200))])
            let frames = driver.terminal.history[framesBefore...]
            let centres = frames.map { Self.drawnCentre($0, ball: driver.appearance.ball) }
            #expect(frames.count >= 3, "\(name) glides over several frames: \(centres)")
            #expect(centres.first != centres.last, "\(name): its first frame is on the way, \(centres)")
            #expect(centres.last == driver.appearance.position.centre, "\(name) ends where the chain put the ball")
        }
    }

    @Test("the recording and the streams are the same with the glide as without it")
    func presentationOnly() {
        let glides = Self.driver()
        let jumps = Pilot<Play>()
        for driver in [glides, jumps] {
            driver.drag(from: Cell(column: 40, row: 11), to: Cell(column: 60, row: 14))
            driver.press(.left, shifted: true)
            driver.run([.pass(.milliseconds(300))])
        }
        #expect(glides.streams.columns == jumps.streams.columns)
        #expect(glides.appearance == jumps.appearance)
        #expect(glides.frame == jumps.frame, "once the glide ends, the same frame")
    }
}

extension GlideTests {
    @Test(
        "every frame of glides, drawn over the one before by the rasteriser, leaves the terminal showing exactly the frame: at 256 colours and in direct colour",
        arguments: [ColourDepth.palette(.xterm256), .direct])
    func incrementalFrames(depth: ColourDepth) {
        let driver = Self.driver(depth: depth)
        // Clicks away (glides and fades, each starting before the last ends) and drag steps
        // between them (drawn at once while colours still fade).
        for column in [70, 60, 20, 30] {
            let cell = Cell(column: column, row: 11)
            driver.run([.bytes(TerminalBytes.press(cell)), .pass(.milliseconds(20))])
            for step in 1...3 {
                driver.run([.bytes(TerminalBytes.drag(Cell(column: column - step, row: 11))), .pass(.milliseconds(20))])
            }
            driver.run([.bytes(TerminalBytes.release(Cell(column: column - 3, row: 11))), .pass(.milliseconds(20))])
        }
        driver.run([.pass(.milliseconds(200))])
        let sequences: TerminalSequences =
            depth == .direct ? .xtermDirectColour() : .xterm(palette: .xterm256, backColourErase: true)
        var rasteriser = Rasteriser(sequences: sequences)
        var terminal = TerminalEmulator(columns: 80, rows: 24)
        var previous: Frame?
        for (index, frame) in driver.terminal.history.enumerated() {
            var bytes: [UInt8] = []
            rasteriser.draw(frame, over: previous, into: &bytes)
            terminal.receive(bytes)
            previous = frame
            if frame.blends == nil {
                let colours: TerminalEmulator.Colours = depth == .direct ? .direct : .palette(.xterm256)
                let differences = terminal.differences(from: frame, colours: colours)
                #expect(differences.isEmpty, "frame \(index): \(differences.prefix(4))")
            }
        }
        #expect(driver.terminal.history.contains { $0.blends != nil }, "colours faded on the way")
    }
}

import BallModel
import BallPlayer
import BallProgram
import BallRendering
import BallReplay
import BallTestSupport
import ColourCore
import Foundation
import TerminalIO
import Testing
import TextFormats

/// The run loop, driven in process: an in-memory terminal sends the bytes a terminal sends,
/// a manual clock moves only as the script says, and the frames are read back.
@Suite("The run loop, in process")
struct RunLoopTests {
    static let sample = SampleRecording.bytes

    /// The frame's rows as text.
    static func lines(_ frame: Frame) -> [String] {
        frame.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    // MARK: - A timer and an input at one instant

    @Test(
        "live play: a key read at the instant debounce's timer ran is stamped a microsecond after it, so the intents at their times, replayed, pass on the same values at the same times"
    )
    func timerThenInputReplaysTheSame() {
        let pilot = Pilot<Play>()
        let session = pilot.play.session
        var stamped: [(Intent, SessionTime)] = []
        var passed: [(SlotOutput, SessionTime)] = []
        let intents = session.intents.bind { stamped.append(($0, session.now)) }
        let slotted = session.viewModel.slotted.bind { passed.append(($0, session.now)) }
        defer {
            intents.cancel()
            slotted.cancel()
        }
        pilot.type("f")
        pilot.type("4")
        pilot.press(.right)
        let moved = stamped.last!.1
        pilot.pass(.milliseconds(300))
        // The timer ran at its time; the key read at that same instant on the manual clock
        // comes after it, and says so.
        #expect(passed.last?.1 == moved.advanced(by: .milliseconds(300)))
        pilot.press(.right)
        #expect(stamped.last!.1 == moved.advanced(by: .milliseconds(300) + .microseconds(1)))
        pilot.pass(.milliseconds(400))
        // The same intents at their times, as a replay takes them.
        let replay = BallSession(screen: ScreenSize(columns: 80, rows: 24))
        var again: [(SlotOutput, SessionTime)] = []
        let replayed = replay.viewModel.slotted.bind { again.append(($0, replay.now)) }
        defer { replayed.cancel() }
        for (intent, time) in stamped { replay.send(intent, at: time) }
        replay.advance(to: session.now)
        #expect(again.map(\.0) == passed.map(\.0))
        #expect(again.map(\.1) == passed.map(\.1))
        #expect(passed.count == 3, "the start, then each right 300 ms after it")
    }

    // MARK: - Help

    @Test(
        "? opens the keys over the ball; any key closes it and does nothing else, but q quits; a drag does not close it"
    )
    func help() {
        let driver = Pilot<Play>()
        let start = driver.appearance
        driver.type("?")
        #expect(Self.lines(driver.frame).contains { $0.contains("colourful-ball: keys") })
        // A drag report while the box is open: nothing moves, the box stays.
        driver.run([.bytes(TerminalBytes.drag(Cell(column: 10, row: 5)))])
        #expect(Self.lines(driver.frame).contains { $0.contains("colourful-ball: keys") })
        // Esc closes the box and does not quit; the arrow after it moves the ball.
        driver.input([0x1B])
        #expect(!driver.play.isFinished)
        #expect(!Self.lines(driver.frame).contains { $0.contains("colourful-ball: keys") })
        #expect(driver.appearance == start)
        driver.press(.right)
        #expect(driver.appearance.position.centre == Cell(column: 41, row: 11))
        // A click closes it too, and does not move the ball.
        driver.type("?")
        driver.run([.bytes(TerminalBytes.press(Cell(column: 5, row: 5)))])
        #expect(!Self.lines(driver.frame).contains { $0.contains("colourful-ball: keys") })
        #expect(driver.appearance.position.centre == Cell(column: 41, row: 11))
        // q quits from anywhere: with the box open too.
        driver.type("?")
        driver.type("q")
        #expect(driver.play.isFinished)
    }

    // MARK: - The operator slot

    /// The colours the disc is drawn in: the ball's, and the screen's around its edges.
    static func discColours(_ frame: Frame) -> Set<FlatColour> {
        var colours: Set<FlatColour> = []
        for row in 0..<(frame.size.rows - 1) {
            for column in 0..<frame.size.columns where frame[column, row].glyph == Glyph.lowerHalf {
                colours.insert(frame[column, row].foreground)
                colours.insert(frame[column, row].background)
            }
        }
        return colours
    }

    @Test(
        "f opens the operators; 2 puts filter in the chain: the drawn ball keeps its colour in the left half, the lane says .filter; then map: the mirror image's colour; then out"
    )
    func filterKey() {
        let driver = Pilot<Play>(animated: false)
        // 40,11: flatRed on flatMint; the middle column of 80 is 40, the right half's first.
        // f opens the box of operators over the ball: each with its digit and code, the one in marked.
        driver.type("f")
        let box = Self.lines(driver.frame).joined(separator: "\n")
        #expect(box.contains("Between position and ballColour"))
        #expect(box.contains("1 ◂  nothing: every position goes through"))
        #expect(box.contains("2    position.filter { $0.isInRightHalf }: only positions in the right half"))
        #expect(box.contains("4    position.debounce(.milliseconds(300), scheduler: clock): a position"))
        #expect(driver.session.state.slot == SlotPipe.none)
        // A key that is no operator's closes it and chooses nothing.
        driver.type("x")
        #expect(!Self.lines(driver.frame).joined().contains("Between position and ballColour"))
        #expect(driver.session.state.slot == SlotPipe.none)
        driver.type("f")
        driver.type("2")
        #expect(!Self.lines(driver.frame).joined().contains("Between position and ballColour"))
        #expect(driver.session.state.slot == [.filter])
        #expect(Self.lines(driver.frame).last?.hasPrefix(" \(Glyph.operatorChosen) filter  40,11") == true)
        for _ in 0..<10 { driver.press(.left) }
        // 30,11 would be flatRedDark on flatGray: the filter lets it not through.
        #expect(driver.appearance.position.centre == Cell(column: 30, row: 11))
        #expect(Self.discColours(driver.frame) == [.flatRed, .flatMint])
        #expect(Self.lines(driver.frame).last?.contains("\(Glyph.ball) flatRed #E84E3C") == true)
        driver.type("s")
        let panel = Self.lines(driver.frame)
        let labels = panel.compactMap { line in
            [" position ", " slotted ", " ballColour "].first { line.hasPrefix($0) }
        }
        // The slot's lane is labelled as the code names it, `slotted`; the row above names what
        // was in the slot as the page began (nothing), then filter where it went in.
        #expect(labels == [" position ", " slotted ", " ballColour "])
        #expect(
            panel.contains { $0.hasPrefix(" \(StreamPanel.segmentsLabel)      \(Glyph.segment).filter ") },
            "\(panel)")
        // (The view scrolled for the lanes, which the status line says until the next key.)
        #expect(driver.play.binding.model.notice?.hasPrefix("view scrolled") == true, "\(panel.last ?? "")")
        // Then map: 30,11 mirrored on 80 columns is 49,11, flatMaroonDark on flatTealDark.
        driver.type("f")
        #expect(
            Self.lines(driver.frame).last?.contains("lanes hide 13 rows \(Glyph.ghost) \(Glyph.operatorChosen) filter")
                == true)
        driver.type("3")
        #expect(driver.session.state.slot == [.map])
        #expect(Self.discColours(driver.frame) == [.flatMaroonDark, .flatTealDark])
        #expect(Self.lines(driver.frame).contains { $0.contains("\(Glyph.segment).map ") })
        #expect(Self.lines(driver.frame).last?.contains("\(Glyph.operatorChosen) map") == true)
        // Then debounce: handed 30,11 at once, it holds it for 300 ms on the loop's clock; the
        // ball keeps map's colours until then, and the loop sleeps until the timer is due.
        driver.type("f")
        driver.type("4")
        #expect(driver.session.state.slot == [.debounce])
        #expect(Self.discColours(driver.frame) == [.flatMaroonDark, .flatTealDark])
        #expect(Self.lines(driver.frame).contains { $0.contains("\(Glyph.segment).debounce ") })
        #expect(Self.lines(driver.frame).last?.contains("\(Glyph.operatorChosen) debounce") == true)
        #expect(driver.terminal.waits.last == .milliseconds(300))
        driver.run([.pass(.milliseconds(299))])
        #expect(Self.discColours(driver.frame) == [.flatMaroonDark, .flatTealDark])
        driver.run([.pass(.milliseconds(1))])
        #expect(Self.discColours(driver.frame) == [.flatRedDark, .flatGray])
        #expect(driver.session.state.heldSince == nil)
        // Nothing more is due: the loop waits for input alone (no wake-ups while idle).
        driver.run([.pass(.seconds(5))])
        #expect(driver.terminal.waits.last == .some(nil))
        // Out again: the plain position hands 30,11 over at once.
        driver.type("f")
        driver.type("1")
        #expect(driver.session.state.slot == SlotPipe.none)
        #expect(Self.discColours(driver.frame) == [.flatRedDark, .flatGray])
        #expect(Self.lines(driver.frame).contains { $0.contains("\(Glyph.segment)none ") })
        #expect(Self.lines(driver.frame).last?.contains("\(Glyph.operatorChosen)") == false)
    }

    @Test(
        "f then 5 puts throttle in: the position it is handed goes through at once, a burst in its window waits for the window's end, which the loop sleeps until"
    )
    func throttleKey() {
        let driver = Pilot<Play>(animated: false)  // 40,11: flatRed on flatMint.
        driver.type("f")
        #expect(
            Self.lines(driver.frame).joined(separator: "\n").contains(
                "5    position.throttle(.milliseconds(300), latest: true, scheduler: clock):"))
        driver.type("5")
        #expect(driver.session.state.slot == [.throttle])
        driver.type("s")
        #expect(Self.lines(driver.frame).contains { $0.contains("\(Glyph.segment).throttle ") })
        // Chosen, it passes the position it was handed (40,11) and opens a window, but holds
        // nothing: nothing is due, the loop waits for input.
        #expect(driver.session.state.slotted.position?.centre == Cell(column: 40, row: 11))
        #expect(driver.terminal.waits.last == .some(nil))
        // Ten moves right at once, in that window: held, 50,11 the latest.
        for _ in 0..<10 { driver.press(.right) }
        #expect(driver.appearance.position.centre == Cell(column: 50, row: 11))
        #expect(driver.session.state.slotted.position?.centre == Cell(column: 40, row: 11))
        #expect(Self.discColours(driver.frame) == [.flatRed, .flatMint])
        #expect(driver.terminal.waits.last == .milliseconds(300))
        driver.run([.pass(.milliseconds(299))])
        #expect(Self.discColours(driver.frame) == [.flatRed, .flatMint])
        driver.run([.pass(.milliseconds(1))])
        #expect(Self.discColours(driver.frame) == [.flatMaroonDark, .flatTealDark])
        // Its window starts again at the end, but nothing is held: no wake-ups while idle.
        driver.run([.pass(.seconds(5))])
        #expect(driver.terminal.waits.last == .some(nil))
        // A move long after the window: through at once.
        driver.press(.left)
        #expect(driver.session.state.slotted.position?.centre == Cell(column: 49, row: 11))
    }

    @Test(
        "f then 7 puts sample in and i flips the mirror: the colour changes only at a flip; 6 puts combineLatest in, and a flip alone mirrors the colour; the status line says the mirror's state"
    )
    func mirrorKeys() {
        let driver = Pilot<Play>(animated: false)  // 40,11: flatRed on flatMint.
        driver.type("f")
        let box = Self.lines(driver.frame).joined(separator: "\n")
        #expect(box.contains("6    Observable.combineLatest(position, mirror) { $1 ? $0.mirrored : $0 }"))
        #expect(box.contains("7    position.sample(mirror): the latest position, if new, each time mirror"))
        driver.type("7")
        #expect(driver.session.state.slot == [.sample])
        #expect(Self.lines(driver.frame).last?.contains("ƒ sample ¦ off") == true)
        // Ten moves right: the ball moves, its colour stays; nothing is due, so no wake-ups.
        for _ in 0..<10 { driver.press(.right) }
        #expect(driver.appearance.position.centre == Cell(column: 50, row: 11))
        #expect(Self.discColours(driver.frame) == [.flatRed, .flatMint])
        #expect(driver.terminal.waits.last == .some(nil))
        driver.run([.pass(.seconds(5))])
        #expect(Self.discColours(driver.frame) == [.flatRed, .flatMint])
        // The flip samples 50,11: flatMaroonDark on flatTealDark.
        driver.type("i")
        #expect(Self.discColours(driver.frame) == [.flatMaroonDark, .flatTealDark])
        #expect(Self.lines(driver.frame).last?.contains("ƒ sample ¦ on") == true)
        // combineLatest with the mirror on: 50,11 mirrored is 29,11, flatRedDark on flatGray at once.
        driver.type("f")
        driver.type("6")
        #expect(Self.discColours(driver.frame) == [.flatRedDark, .flatGray])
        // Off: 50,11 itself again, the ball still.
        driver.type("i")
        #expect(Self.discColours(driver.frame) == [.flatMaroonDark, .flatTealDark])
        #expect(Self.lines(driver.frame).last?.contains("ƒ combineLatest ¦ off") == true)
        #expect(driver.appearance.position.centre == Cell(column: 50, row: 11))
    }

    // MARK: - Esc

    @Test("a lone Esc quits once the loop's 25 ms wait has passed, and not before; Esc [ C is an arrow")
    func escape() {
        let driver = Pilot<Play>()
        driver.run([.bytes(TerminalBytes.escape), .pass(.milliseconds(24))])
        #expect(!driver.play.isFinished)
        #expect(driver.terminal.waits.last == .milliseconds(25))
        driver.run([.bytes(Array("[C".utf8))])
        #expect(!driver.play.isFinished)
        #expect(driver.appearance.position.centre == Cell(column: 41, row: 11))
        driver.run([.bytes(TerminalBytes.escape), .pass(.milliseconds(25))])
        #expect(driver.play.isFinished)
    }

    @Test("ESCDELAY sets the wait as ncurses reads it (milliseconds); nonsense leaves 25 ms")
    func escapeDelay() {
        #expect(RunLoop.escapeWait(escapeDelay: "300") == .milliseconds(300))
        #expect(RunLoop.escapeWait(escapeDelay: "0") == .zero)
        #expect(RunLoop.escapeWait(escapeDelay: "999999999") == .seconds(10))
        for nonsense in [nil, "", "-5", "fast", "1.5", "25ms"] {
            #expect(RunLoop.escapeWait(escapeDelay: nonsense) == .milliseconds(25), "\(String(describing: nonsense))")
        }
        let driver = Pilot<Play>(escapeWait: .milliseconds(300))
        driver.run([.bytes(TerminalBytes.escape), .pass(.milliseconds(299))])
        #expect(!driver.play.isFinished)
        #expect(driver.terminal.waits.last == .milliseconds(300))
        let later = Pilot<Play>(escapeWait: .milliseconds(300))
        later.run([.bytes(TerminalBytes.escape), .pass(.milliseconds(300))])
        #expect(later.play.isFinished)
    }

    @Test("Esc then a key in one read (GNU screen holds a lone Esc so) is Esc, then the key: it quits")
    func escapeThenKey() throws {
        for key in ["j", "x", "é", "\r"] {
            let driver = Pilot<Play>()
            driver.run([.bytes(TerminalBytes.escape + Array(key.utf8))])
            #expect(driver.play.isFinished, "Esc then \(key.debugDescription)")
        }
        // In the player, Esc then an arrow's letter is not the arrow: Esc leaves.
        let pilot = try Pilot<ReplayProgram>(Self.sample)
        pilot.run([.bytes(TerminalBytes.escape + Array("l".utf8))])
        #expect(pilot.watch.isFinished)
    }

    @Test("the terminal's answer about synchronized output reaches the device, and does nothing else")
    func modeReportReachesTheDevice() {
        let driver = Pilot<Play>()
        let before = driver.appearance
        let presented = driver.terminal.presentCount
        driver.run([.bytes(TerminalBytes.modeReport(2026, setting: 2))])
        #expect(driver.terminal.modeReports.map { [$0.mode, $0.setting] } == [[2026, 2]])
        #expect(driver.appearance == before)
        #expect(driver.terminal.presentCount == presented, "no frame for an answer")
        #expect(!driver.play.isFinished)
    }

    @Test("a terminal that draws ↔ two cells wide gets the panel in ASCII, lines and marbles")
    func wideGlyphsMakeASCIIMarbles() {
        let driver = Pilot<Play>()
        driver.toggleStreams()
        driver.press(.right)
        let unicode = driver.frame.text
        #expect(unicode.contains("^a─b") && !unicode.contains("a-b"))
        driver.terminal.wideGlyphsOnNextReport = [Glyph.resized]
        driver.run([.bytes(TerminalBytes.bytes(for: .cursorReported(row: 1, column: 3)))])
        #expect(driver.play.binding.model.asciiMarbles)
        let ascii = driver.frame.text
        #expect(ascii.contains("^a-b") && ascii.contains("^@-.") && ascii.contains("^-->"), "\n\(ascii)")
        #expect(!ascii.contains("○") && !ascii.contains("─"))
        // The status line keeps its swatches.
        #expect(ascii.split(separator: "\n").last?.contains("●") == true)
        // Nothing else changed: the ball is where the arrow put it.
        #expect(driver.appearance.position.centre == Cell(column: 41, row: 11))
    }

    @Test("a click on the streams panel inspects its column and moves nothing; a drag from the ball still clamps")
    func clickOnThePanel() {
        let driver = Pilot<Play>()
        driver.toggleStreams()
        for _ in 0..<4 { driver.press(.right) }
        let before = driver.session.state
        let columns = driver.streams.columns.count
        // The panel's rows lie over the ball's area, just above the status line.
        let top = 24 - StreamPanel.rows(slot: false) - 1
        let description = { Self.lines(driver.frame)[top + StreamPanel.rows(slot: false) - 1] }
        #expect(description().hasPrefix(" #4 → arrow right 1"))
        // Press on column 2 of the intents lane, drag along it to column 3, release.
        let row = top + 1
        driver.run([.bytes(TerminalBytes.press(Cell(column: StreamPanel.labelWidth + 2 * 2 + 1, row: row)))])
        #expect(description().hasPrefix(" #2 → arrow right 1"), "\(description())")
        driver.run([.bytes(TerminalBytes.drag(Cell(column: StreamPanel.labelWidth + 2 * 3 + 1, row: row)))])
        #expect(description().hasPrefix(" #3 → arrow right 1"), "\(description())")
        driver.run([.bytes(TerminalBytes.release(Cell(column: StreamPanel.labelWidth + 2 * 3 + 1, row: row)))])
        #expect(driver.session.state == before, "the ball stays")
        #expect(driver.streams.columns.count == columns, "no intent")
        // A drag that starts on the ball as drawn and goes over the panel moves the ball in its
        // area, under the panel: the view follows it, so it stays drawn whole above the panel.
        let drawnRows = { driver.frame.discRows(ball: driver.appearance.ball).filter { $0 < top } }
        driver.drag(from: Cell(column: 44, row: drawnRows().min()! + 2), to: Cell(column: 20, row: 20))
        #expect(driver.appearance.position.centre.column == 20)
        let lowest = BallShape(for: driver.appearance.position.screen).halfHeight
        #expect(driver.appearance.position.centre.row == 24 - 2 - lowest, "clamped at the area's bottom")
        #expect(drawnRows().max() == top - 1, "drawn just above the panel")
    }

    @Test(
        "opening the lanes scrolls the view, never the ball: the status line says so until the ball moves or the view is back"
    )
    func scrollIsNotAMove() throws {
        let driver = Pilot<Play>(screen: ScreenSize(columns: 80, rows: 24))
        let before = driver.play.session.state.position
        let columns = driver.play.streams.latestIndex
        func ballTop() -> Int? {
            let frame = driver.frame
            return (0..<frame.size.rows).first { row in
                (0..<frame.size.columns).contains {
                    frame[$0, row].background == driver.play.binding.model.appearance.ball
                }
            }
        }
        let top = try #require(ballTop())
        driver.toggleStreams()
        let scrolledTop = try #require(ballTop())
        // The ball in the middle of 80×24 goes under the lanes' rows: the view follows it up.
        #expect(scrolledTop < top, "the drawn ball went up")
        #expect(driver.play.session.state.position == before && driver.play.streams.latestIndex == columns)
        #expect(
            driver.play.binding.model.notice
                == "view scrolled \(top - scrolledTop) rows: the ball did not move")
        driver.toggleStreams()
        #expect(try #require(ballTop()) == top)
        #expect(driver.play.binding.model.notice == nil, "the view back where the ball's rows are its own")
        driver.toggleStreams()
        #expect(driver.play.binding.model.notice?.hasPrefix("view scrolled") == true)
        driver.play.binding.send(.pointerHovered(intent: nil, lane: nil))
        #expect(driver.play.binding.model.notice?.hasPrefix("view scrolled") == true, "not a key: the words stay")
        driver.press(.up)
        #expect(driver.play.binding.model.notice == nil, "a key: the words go")
    }

    @Test("b or p with the streams panel closed says what it did and where to see it; s takes that away")
    func lateSubscriberWithThePanelClosed() throws {
        let driver = Pilot<Play>()
        driver.type("b")
        #expect(driver.play.binding.model.notice == "late Behavior subscribed: s shows its lane")
        // The notice has a place of its own: whole, and what goes before it drops whole parts (no
        // colour cut mid-hex, as a notice drawn over the line would).
        let status = try #require(Self.lines(driver.frame).last)
        #expect(status.hasSuffix(" late Behavior subscribed: s shows its lane "), "\(status)")
        for hex in status.split(separator: "#").dropFirst() {
            #expect(hex.prefix(6).allSatisfy(\.isHexDigit) && hex.dropFirst(6).hasPrefix("  "), "\(status)")
        }
        driver.toggleStreams()
        // (The view scrolled the ball above the lanes: that notice takes the late one's place.)
        #expect(driver.play.binding.model.notice?.contains("s shows its lane") != true)
        #expect(
            Self.lines(driver.frame).contains { $0.hasPrefix(" late Behavior    ^a") }, "\(Self.lines(driver.frame))")
        // In a replay, the player's message says it.
        let pilot = try Pilot<ReplayProgram>(Self.sample)
        pilot.type("l")
        pilot.type("p")
        // (Paused, on the change line's row.)
        #expect(pilot.lines[pilot.lines.count - 3].contains("late Publish subscribed at #1;"), "\(pilot.lines)")
    }

    @Test(
        "? with the streams panel open lists the lanes' symbols after the keys, over its pages; closed, only the keys")
    func legendInHelp() {
        let driver = Pilot<Play>()
        func helpText() -> String {
            driver.type("?")
            var seen = ""
            for _ in 0..<driver.play.binding.helpPageCount {
                seen += driver.frame.text
                driver.type(" ")
            }
            if driver.play.binding.model.help != nil { driver.type("x") }
            return seen
        }
        let closed = helpText()
        #expect(closed.contains("show or hide the streams") && !closed.contains("in the lanes"))
        driver.toggleStreams()
        let open = helpText()
        for meaning in [
            "completed (a quit, or learn's e, completes position", "unsubscribed (the lane's key again; an inner",
            "flatMapLatest let go)",
        ] {
            #expect(open.contains(meaning), "\(meaning)")
        }
        #expect(open.contains("ø") && open.contains("○"))
        // Where the panel fell back to ASCII, the legend says its ASCII symbols.
        driver.terminal.wideGlyphsOnNextReport = [Glyph.resized]
        driver.run([.bytes(TerminalBytes.bytes(for: .cursorReported(row: 1, column: 3)))])
        let ascii = helpText()
        #expect(!ascii.contains("ø") && !ascii.contains("○"))
        #expect(ascii.contains("/  ") && ascii.contains("skipped in the player (x): the intent never entered"))
    }

    // MARK: - Idle

    @Test("idle, the loop waits for ever: no timeout, so no wake-up, with the panel open too")
    func idleWaitsForEver() {
        let driver = Pilot<Play>()
        driver.drag(from: Cell(column: 40, row: 11), to: Cell(column: 50, row: 11))
        #expect(driver.terminal.waits.allSatisfy { $0 == nil })
        driver.toggleStreams()
        driver.hover(at: Cell(column: 30, row: 20))
        #expect(driver.terminal.waits.allSatisfy { $0 == nil })
    }

    // MARK: - The streams panel's modes

    @Test("the streams panel turns pointer-motion reporting on, and off again when it closes")
    func panelModes() {
        let driver = Pilot<Play>()
        #expect(driver.terminal.modes == TerminalModes(pointerMotion: false))
        driver.toggleStreams()
        #expect(driver.terminal.modes == TerminalModes(pointerMotion: true))
        // Looking moves nothing: the ball's area is the terminal's, and no intent was made.
        #expect(driver.session.state.position.screen == ScreenSize(columns: 80, rows: 24))
        #expect(driver.streams.latestIndex == 0)
        driver.toggleStreams()
        #expect(driver.terminal.modes == TerminalModes(pointerMotion: false))
        #expect(
            driver.terminal.modeChanges == [TerminalModes(pointerMotion: true), TerminalModes(pointerMotion: false)])
        #expect(driver.session.state.position.screen == ScreenSize(columns: 80, rows: 24))
    }

    // MARK: - A replay's timing

    @Test("a replay plays each intent at its recorded time; Ctrl-Z's stop does not count; it stays at the end")
    func timedPlayback() throws {
        let pilot = try Pilot<ReplayProgram>(Self.sample, paused: false)
        let index = pilot.player.index
        // The sample's first intent is at 0.492334 s: not before.
        pilot.pass(.milliseconds(492))
        #expect(pilot.player.place == 0)
        pilot.pass(.microseconds(400))
        #expect(pilot.player.place == 1)
        // Stopped for ten seconds (Ctrl-Z, then fg): the replay goes on where it was.
        pilot.run([.suspend(for: .seconds(10))])
        #expect(pilot.terminal.suspensions == 1)
        let resumed = pilot.terminal.clock.now
        pilot.pass(.milliseconds(50))
        // 0.492334 + 0.05 s of the recording: every intent up to then, and none after.
        let expected = (1...index.count).filter { index.time(at: $0) <= 0.492334 + 0.05 }.count
        #expect(pilot.player.place == expected)
        #expect(pilot.terminal.clock.now - resumed == .milliseconds(50))
        pilot.pass(.seconds(5))
        #expect(pilot.player.place == index.count && pilot.player.paused)
        #expect(Self.lines(pilot.frame).last?.hasPrefix(" paused  intent 13/13") == true)
        // At the end, paused: the loop waits for ever.
        #expect(pilot.terminal.waits.last == .some(nil))
    }

    @Test("space pauses a replay: time passes, nothing plays; space again plays on from where it was")
    func pauseStopsTime() throws {
        let pilot = try Pilot<ReplayProgram>(Self.sample, paused: false)
        pilot.pass(.milliseconds(600))
        let place = pilot.player.place
        #expect(place > 0)
        pilot.type(" ")
        pilot.pass(.seconds(3))
        #expect(pilot.player.place == place && pilot.player.paused)
        pilot.type(" ")
        pilot.pass(.seconds(3))
        #expect(pilot.player.place == pilot.player.index.count)
    }
}

// MARK: - The pilot

/// Play, but its deadline throws once: what a replay does when reading its file fails.
private final class FailingOnce: TerminalProgram {
    struct Failure: Error {}
    let play: Play
    private var failed = false
    init(screen: MemoryTerminal) { play = Play(screen: screen, terminal: screen.size) }
    var keyMode: KeyMode { play.keyMode }
    var binding: ScreenBinding { play.binding }
    var isFinished: Bool { play.isFinished }
    var deadline: Duration? { failed ? play.deadline : .zero }
    func deadlineReached(now: Duration) throws {
        guard failed else {
            failed = true
            throw Failure()
        }
        play.deadlineReached(now: now)
    }
    func clockReached(_ now: Duration) { play.clockReached(now) }
    func perform(_ action: KeyAction, now: Duration) { play.perform(action, now: now) }
    func resized(to size: ScreenSize) { play.resized(to: size) }
    func hungUp() { play.hungUp() }
    func resumed(after duration: Duration) { play.resumed(after: duration) }
    func willFlush() { play.willFlush() }
}

extension RunLoopTests {
    @Test("an error the run loop throws is the test's failure, not dropped by the pilot; it drives on after it")
    func pilotRecordsTheLoopsError() {
        let terminal = MemoryTerminal(size: ScreenSize(columns: 80, rows: 24))
        let program = FailingOnce(screen: terminal)
        let pilot = Pilot(program, on: terminal)
        // Time passing reaches the deadline, which throws: the pilot records it.
        withKnownIssue {
            pilot.pass(.milliseconds(1))
        } matching: { issue in
            issue.error is FailingOnce.Failure
        }
        let start = program.play.session.state.position.centre
        pilot.press(.right)
        #expect(program.play.session.state.position.centre.column == start.column + 1)
    }

    @Test(
        "each row of the operators box says the code its key puts in: 9 the counter whole, X tryMap and catch; after |, the stage it adds"
    )
    func boxRowsSayWhatTheyPut() {
        /// The code the row for `key` begins with in the box open now, found by the code the key
        /// then put in (a code can hold `: `, so it is matched, not cut out of the row).
        func row(_ driver: Pilot<Play>, _ key: Unicode.Scalar) -> String? {
            driver.play.binding.model.help?.rows.first { $0.keys.first == Character(key) }?.does
        }
        // The counter's row, on the screen at 80 columns (the box's second page): the whole pipe.
        let counter = Pilot<Play>()
        for key: Unicode.Scalar in ["f", " "] { counter.type(key) }
        #expect(
            Self.lines(counter.frame).contains {
                $0.contains("9    position.map { _ in 1 }.scan(0) { $0 + $1 }: the counts")
            },
            "\(Self.lines(counter.frame).joined(separator: "\n"))")
        // Each key from the box over an empty slot, and after | over filter and over map: the
        // chain's pipe after the key is what its row said.
        for before: [Unicode.Scalar] in [[], ["f", "2"], ["f", "3"]] {
            for plain in SlotOperator.allCases where plain != .none {
                let driver = Pilot<Play>()
                for key in before { driver.type(key) }
                let old = driver.session.state.slot
                for key: Unicode.Scalar in before.isEmpty ? ["f"] : ["f", "|"] { driver.type(key) }
                guard let said = row(driver, plain.key) else {
                    // After |, only those that fit are offered.
                    #expect(!before.isEmpty, "\(plain.name) is in the box")
                    continue
                }
                driver.type(plain.key)
                let new = driver.session.state.slot
                #expect(new != old && driver.play.binding.model.help == nil, "\(before) \(plain.name) put in")
                // Adding, the stage after the pipe (its code goes on from the old pipe's), or the
                // whole pipe where a stage before changed (map becomes the counter's).
                let put =
                    before.isEmpty || !new.code.hasPrefix(old.code)
                    ? new.code : String(new.code.dropFirst(old.code.count))
                #expect(said.hasPrefix("\(put): "), "\(before) \(plain.name): the row says \(said), the key put \(put)")
            }
        }
    }

    @Test(
        "the operators box builds a pipe: | adds a stage after the last, Backspace takes it out, / empties it; what does not fit is said"
    )
    func pipeInTheBox() {
        let driver = Pilot<Play>()
        for key: Unicode.Scalar in ["f", "2", "f", "|"] { driver.type(key) }
        #expect(Self.lines(driver.frame).joined(separator: "\n").contains("Add a stage after .filter"))
        driver.type("4")
        #expect(driver.session.state.slot == [.filter, .debounce])
        // The box offers only those that fit after debounce: not scan (it takes counts), nor
        // throttle (one timed operator), nor merge (only a first stage).
        for key: Unicode.Scalar in ["f", "|"] { driver.type(key) }
        let offered = Self.lines(driver.frame).joined(separator: "\n")
        #expect(offered.contains(".map { $0.mirrored }") && offered.contains(".map { guard"), "\(offered)")
        #expect(!offered.contains(".scan(0) {") && !offered.contains("throttle(") && !offered.contains("merge("))
        // scan's key, though, refused: said whole on the status line, and nothing changes.
        driver.type("9")
        #expect(driver.session.state.slot == [.filter, .debounce])
        #expect(
            Self.lines(driver.frame).last?.contains("scan takes counts, not positions ") == true,
            "\(Self.lines(driver.frame))")
        // The next key takes it away.
        driver.type("h")
        #expect(driver.play.binding.model.notice == nil && Self.lines(driver.frame).last?.contains("scan") == false)
        // The pipe's keys outside the box say where they work.
        driver.type("|")
        #expect(driver.play.binding.model.notice == "| adds a stage in the operators box: f opens it")
        #expect(Self.lines(driver.frame).last?.contains("| adds a stage in the operators box: f opens it") == true)
        driver.type("l")
        #expect(driver.play.binding.model.notice == nil)
        for key: Unicode.Scalar in ["f", "\u{7F}"] { driver.type(key) }
        #expect(driver.session.state.slot == [.filter])
        for key: Unicode.Scalar in ["f", "/"] { driver.type(key) }
        #expect(driver.session.state.slot == .none)
        // Each was an intent: recorded, so a replay builds the same pipes.
        let built = driver.streams.columns.compactMap(\.intent).filter(\.buildsPipe)
        #expect(built == [.operatorChosen([.filter]), .stageAdded(.debounce), .stageRemoved, .operatorChosen(.none)])
    }

    @Test("every refusal the operators box can say fits 80 columns, for every operator and pipe of up to three")
    func boxRefusalsFit() {
        var said = 0
        for first in SlotOperator.allCases {
            for second in SlotOperator.allCases {
                let pipe = SlotPipe([first, second])
                guard pipe.problem == nil else { continue }
                for third in SlotOperator.allCases {
                    guard case .failure(let problem) = pipe.adding(third) else { continue }
                    #expect(problem.brief.count <= 78 && !problem.brief.contains(". "), "\(problem.brief)")
                    said += 1
                }
            }
        }
        #expect(said > 100)
        #expect(
            PipeProblem.tooMany(4).brief.count <= 78
                && PipeProblem.unknown(String(repeating: "x", count: 90)).brief.count <= 78)
    }
}

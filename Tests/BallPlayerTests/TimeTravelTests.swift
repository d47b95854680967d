import BallModel
import BallPlayer
import BallProgram
import BallRendering
import BallReplay
import BallStreams
import BallTestSupport
import ColourCore
import Foundation
import TerminalIO
import Testing
import TextFormats

/// A write that fails as a full disk does.
struct DiskFull: Error, CustomStringConvertible {
    var description: String { "the disk is full" }
}

@Suite("The time-travel player")
struct TimeTravelTests {
    static let sample = SampleRecording.bytes

    /// What playing `lines` (a replay file) forward through a fresh session shows after its
    /// first `count` events, until the next came: the whole state and the whole appearance.
    /// With `timersUntil`, the chain's timers went on only until then (a stop before a timer).
    static func forward(_ lines: some Sequence<String>, count: Int, timersUntil: SessionTime? = nil) throws -> (
        BallState, Appearance
    ) {
        let bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
        let player = try ReplayPlayer(reader: .inMemory(bytes, chunk: 4_096))
        for _ in 0..<count { try player.step() }
        // The chain's timers went on until the next intent came (it is read, not applied); one
        // due at its very instant goes off after it.
        if let timersUntil {
            player.session.advance(to: timersUntil)
        } else if let next = try player.nextEvent() {
            player.session.reach(SessionTime(seconds: next.time))
        }
        return (player.session.state, player.session.viewModel.current)
    }

    /// The state the player shows equals the edited log played forward to its place.
    static func expectExact(_ pilot: Pilot<ReplayProgram>, _ note: @autoclosure () -> String) throws {
        let player = pilot.player
        let applied = (0..<player.place).filter { !player.index.skipped.contains($0 + 1) }.count
        // Stopped before a timer of the chain (a step onto the intent), the place shows what the
        // chain did until the stop's time: the timer still to come before the next intent.
        if let reached = player.reached {
            let end = try #require(player.index.endTime(of: player.place), "\(note())")
            #expect(reached < end, "\(note())")
            #expect(player.session.nextTimer.map { $0 < end } == true, "\(note())")
        }
        let (state, appearance) = try forward(
            pilot.editedLines(), count: applied, timersUntil: player.paused ? player.reached : nil)
        // Paused, a place shows what the chain did until the next intent (or its stop); playing,
        // the chain's timers at the place are still to come, at their own times.
        if player.paused {
            #expect(player.session.state == state, "\(note())")
            #expect(player.session.viewModel.current == appearance, "\(note())")
        } else {
            let shown = player.index.endTime(of: player.place).map { player.session.state.reached($0) }
            #expect((shown ?? player.session.state) == state, "\(note())")
            #expect((shown ?? player.session.state).appearance == appearance, "\(note())")
        }
        // The whole terminal: the recorded area, the player's rows at the bottom, the status line last.
        #expect(pilot.frame.size == pilot.size, "\(note())")
        #expect(pilot.lines.last?.hasPrefix(" \(player.paused ? "paused" : "replay")  intent \(player.place)/") == true)
    }

    // MARK: - Exactness

    @Test(
        "random keys over random recordings: every stop shows the edited log played forward to that intent",
        .tags(.slow), .skippedInQuickRuns)
    func randomKeysAreExact() throws {
        var generator = SeededGenerator()
        let keys: [TerminalEvent] = [
            .arrow(.right, shifted: false), .arrow(.left, shifted: false), .arrow(.right, shifted: true),
            .arrow(.left, shifted: true), .character("l"), .character("h"), .character("L"), .character("H"),
            .home, .end, .character("]"), .character("["), .character("x"), .character("x"),
            .character("s"), .character("b"), .character("p"),
        ]
        for recording in 0..<25 {
            let pilot = try Pilot<ReplayProgram>(
                RandomRecording.bytes(count: 5 + generator.below(400), operators: true, using: &generator))
            var pressed: [TerminalEvent] = []
            for _ in 0..<60 {
                let key = keys[generator.below(keys.count)]
                pressed.append(key)
                pilot.press(key)
                try Self.expectExact(pilot, "recording \(recording), keys \(pressed), \(generator)")
            }
        }
    }

    /// A recording on an 80×24 terminal of `events`, each an intent at its time in seconds.
    static func recording(_ events: [(Intent, Double)]) -> [UInt8] {
        let header = ReplayFormat.headerLine(
            terminal: ScreenSize(columns: 80, rows: 24), program: "test", started: "2026-11-26T00:00:00Z")
        let lines = [header] + events.map { ReplayFormat.line(for: $0.0, at: $0.1) }
        return Array(lines.map { $0 + "\n" }.joined().utf8)
    }

    /// The colours the disc's half blocks are drawn in on an 80×24 player (the ball's, and the
    /// screen's at its edges).
    static func disc(_ pilot: Pilot<ReplayProgram>) -> Set<ColourCore.FlatColour> {
        var colours: Set<ColourCore.FlatColour> = []
        for row in 0..<20 {
            for column in 0..<80 where pilot.frame[column, row].glyph == Glyph.lowerHalf {
                colours.insert(pilot.frame[column, row].foreground)
            }
        }
        return colours
    }

    @Test(
        "playing a recording with debounce in the slot, the drawn ball takes its colour when the timer comes, 300 ms after the move, as it did live; stepped, a step after the move"
    )
    func debounceInPlayback() throws {
        let bytes = Self.recording([
            (.operatorChosen([.debounce]), 0.1),
            // 30,11: flatRedDark on flatGray, once it goes through at 0.5 s.
            (.arrowPressed(.left, distance: 10), 0.2),
            (.quitRequested, 2),
        ])
        let pilot = try Pilot<ReplayProgram>(bytes, paused: false)
        pilot.pass(.milliseconds(200))
        #expect(pilot.player.place == 2)
        #expect(pilot.player.session.state.position.centre == Cell(column: 30, row: 11))
        #expect(Self.disc(pilot) == [.flatRed, .flatMint])
        pilot.pass(.milliseconds(299))
        #expect(Self.disc(pilot) == [.flatRed, .flatMint])
        pilot.pass(.milliseconds(1))
        #expect(Self.disc(pilot) == [.flatRedDark, .flatGray])
        #expect(pilot.player.place == 2)
        // Stepped to instead (paused), the place shows the move with debounce's timer still to
        // come, as the live screen did; the next step is the timer, 300 ms on; then the next intent.
        let stepped = try Pilot<ReplayProgram>(bytes)
        stepped.press(.arrow(.right, shifted: false))
        stepped.press(.arrow(.right, shifted: false))
        #expect(stepped.player.place == 2)
        #expect(Self.disc(stepped) == [.flatRed, .flatMint])
        #expect(stepped.player.reached == SessionTime(seconds: 0.2))
        #expect(stepped.lines.last?.contains("t 0.20 s") == true, "\(stepped.lines.last ?? "")")
        try Self.expectExact(stepped, "at the move")
        stepped.press(.arrow(.right, shifted: false))
        #expect(stepped.player.place == 2)
        #expect(stepped.player.reached == nil)
        #expect(Self.disc(stepped) == [.flatRedDark, .flatGray])
        #expect(stepped.lines.contains { $0.hasPrefix(" #2 timer 0.50 s: 30,11 (same) · ● flatRed → flatRedDark") })
        try Self.expectExact(stepped, "after the timer")
        // Back: before the timer again, the chain built there with debounce holding the move.
        stepped.press(.arrow(.left, shifted: false))
        #expect(stepped.player.place == 2)
        #expect(Self.disc(stepped) == [.flatRed, .flatMint])
        #expect(stepped.lines.contains { $0.contains("#2 before timer 0.50 s") }, "\(stepped.lines)")
        try Self.expectExact(stepped, "back before the timer")
        stepped.press(.arrow(.right, shifted: false))
        stepped.press(.arrow(.right, shifted: false))
        #expect(stepped.player.place == 3)
        // A jump lands on the place whole: the timer gone off.
        let jumped = try Pilot<ReplayProgram>(bytes)
        jumped.press(.arrow(.right, shifted: true))
        jumped.press(.arrow(.left, shifted: false))
        #expect(jumped.player.place == 2)
        #expect(Self.disc(jumped) == [.flatRedDark, .flatGray])
        try Self.expectExact(jumped, "jumped back to the move")
    }

    @Test(
        "playing a recording with throttle in the slot, a move in its window takes its colour at the window's end; stepped back and forth, the rebuilt chain keeps the window"
    )
    func throttleInPlayback() throws {
        let bytes = Self.recording([
            // Chosen at 0.1, it passes 40,11, handed as it subscribes: a window to 0.4.
            (.operatorChosen([.throttle]), 0.1),
            // 50,11 at 0.5: the window over, through at once (flatMaroonDark on flatTealDark).
            (.arrowPressed(.right, distance: 10), 0.5),
            // 30,11 at 0.6, in the window from 0.5: flatRedDark on flatGray at 0.8.
            (.arrowPressed(.left, distance: 20), 0.6),
            (.quitRequested, 2),
        ])
        let pilot = try Pilot<ReplayProgram>(bytes, paused: false)
        pilot.pass(.milliseconds(500))
        #expect(pilot.player.place == 2)
        #expect(Self.disc(pilot) == [.flatMaroonDark, .flatTealDark])
        pilot.pass(.milliseconds(100))
        #expect(pilot.player.place == 3)
        #expect(pilot.player.session.state.position.centre == Cell(column: 30, row: 11))
        #expect(Self.disc(pilot) == [.flatMaroonDark, .flatTealDark])
        pilot.pass(.milliseconds(199))
        #expect(Self.disc(pilot) == [.flatMaroonDark, .flatTealDark])
        // (0.8 - 0.6 in doubles is a hair over 0.2 s: the window's end plays a hair after 0.8.)
        pilot.pass(.milliseconds(2))
        #expect(Self.disc(pilot) == [.flatRedDark, .flatGray])
        // Stepped (paused): place 3 shows the move held in the window, as the live screen did;
        // the next step is the window's end, what the chain did until the quit. Back to 2 (before
        // the window's end, then the place before), the chain is built again there with its
        // window from 0.5 (the session checks the real operator against the model at every
        // step), and forward again the same.
        let stepped = try Pilot<ReplayProgram>(bytes)
        for _ in 0..<3 { stepped.press(.arrow(.right, shifted: false)) }
        #expect(stepped.player.place == 3)
        #expect(Self.disc(stepped) == [.flatMaroonDark, .flatTealDark])
        #expect(stepped.player.session.state.windowStart == SessionTime(seconds: 0.5))
        stepped.press(.arrow(.right, shifted: false))
        #expect(stepped.player.place == 3)
        #expect(Self.disc(stepped) == [.flatRedDark, .flatGray])
        #expect(stepped.player.session.state.windowStart == SessionTime(seconds: 0.8))
        stepped.press(.arrow(.left, shifted: false))
        #expect(stepped.player.place == 3)
        #expect(Self.disc(stepped) == [.flatMaroonDark, .flatTealDark])
        stepped.press(.arrow(.left, shifted: false))
        #expect(stepped.player.place == 2)
        #expect(Self.disc(stepped) == [.flatMaroonDark, .flatTealDark])
        #expect(stepped.player.session.state.windowStart == SessionTime(seconds: 0.5))
        stepped.press(.arrow(.right, shifted: false))
        stepped.press(.arrow(.right, shifted: false))
        #expect(Self.disc(stepped) == [.flatRedDark, .flatGray])
        #expect(stepped.player.session.state.windowStart == SessionTime(seconds: 0.8))
    }

    @Test("a scrub on the timeline goes to the place its column stands for, exactly", .tags(.slow), .skippedInQuickRuns)
    func scrubIsExact() throws {
        var generator = SeededGenerator()
        let pilot = try Pilot<ReplayProgram>(RandomRecording.bytes(count: 3_000, using: &generator))
        let row = try #require(pilot.player.timelineRow)
        for _ in 0..<40 {
            let column = generator.below(pilot.frame.size.columns)
            // The timeline is as wide as the terminal.
            let width = pilot.size.columns
            pilot.press(.mousePressed(Cell(column: column, row: pilot.player.timelineRow ?? row)))
            #expect(Timeline.column(of: pilot.player.place, width: width, count: 3_000) == column, "\(generator)")
            try Self.expectExact(pilot, "column \(column), \(generator)")
        }
        // A press elsewhere does not move.
        let place = pilot.player.place
        pilot.press(.mousePressed(Cell(column: 3, row: 0)))
        #expect(pilot.player.place == place)
    }

    // MARK: - The sample, key by key

    @Test("the sample: →, ←, End, ], [ and Home each show exactly what they should, and say what changed")
    func sampleKeys() throws {
        let pilot = try Pilot<ReplayProgram>(Self.sample)
        let lines = String(decoding: Self.sample, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(pilot.player.place == 0)
        #expect(pilot.lines.last?.hasPrefix(" paused  intent 0/13  t 0.00 s  1×  40,11  ● flatRed") == true)
        pilot.press(.arrow(.right, shifted: false))
        pilot.press(.arrow(.right, shifted: false))
        #expect(pilot.player.place == 2)
        #expect(pilot.player.session.viewModel.current == (try Self.forward(lines, count: 2)).1)
        // The press at the centre grabbed it there; the drag to 41,12 moved it there: 328 + 192 =
        // 520 points, 10 mod 255, flatBlackDark, which keeps the screen's colour.
        #expect(
            pilot.player.change?.text
                == "#2 • dragged to 41,12: position 40,11 → 41,12 · ballColour flatRed → flatBlackDark · background (unchanged)"
        )
        // The panel describes intent 2 with the same words.
        let page = StreamsPage.panel(
            index: pilot.player.index, place: 2, width: 80, observations: [], books: LetterBooks())
        #expect(page.describe(page.columns.first { $0.index == 2 }).hasPrefix("#2 • dragged to 41,12 · "))
        pilot.press(.arrow(.left, shifted: false))
        #expect(pilot.player.place == 1)
        // A step back is a jump: it says where from and to.
        #expect(pilot.player.change?.text.hasPrefix("#2 → #1: position 41,12 → 40,11") == true)
        #expect(pilot.player.session.viewModel.current == (try Self.forward(lines, count: 1)).1)
        pilot.press(.end)
        #expect(pilot.player.place == 13)
        #expect(pilot.player.change?.text.hasPrefix("#1 → #13: position 40,11 → 51,7") == true)
        #expect(pilot.player.session.viewModel.current.position.centre == Cell(column: 51, row: 7))
        pilot.press(.home)
        #expect(pilot.player.place == 0)
        // ] goes to each change of the ball's colour in turn, and [ back.
        var colours = [pilot.player.session.viewModel.current.ball]
        var places: [Int] = []
        while true {
            let before = pilot.player.place
            pilot.type("]")
            guard pilot.player.place != before else { break }
            places.append(pilot.player.place)
            let ball = pilot.player.session.viewModel.current.ball
            #expect(ball != colours.last)
            #expect(try Self.forward(lines, count: pilot.player.place - 1).1.ball == colours.last)
            colours.append(ball)
        }
        #expect(places == pilot.player.index.colourChanges.map(\.intent))
        #expect(places.count >= 3)
        pilot.type("[")
        #expect(pilot.player.place == places[places.count - 2])
    }

    @Test("the change line says what a step changed, TCA-style")
    func changeLine() {
        let screen = ScreenSize(columns: 80, rows: 24)
        let before = Appearance.at(BallPosition(centre: Cell(column: 40, row: 11), screen: screen), after: nil)
        var after = before
        after.position.centre = Cell(column: 41, row: 11)
        #expect(
            ChangeLine("#5 •", before: before, after: after).text
                == "#5 •: position 40,11 → 41,11 · ballColour flatRed (unchanged) · background (unchanged)")
        after.ball = .flatBlue
        after.background = .flatOrange
        #expect(
            ChangeLine("#5 •", before: before, after: after).text
                == "#5 •: position 40,11 → 41,11 · ballColour flatRed → flatBlue · background flatMint → flatOrange")
    }

    // MARK: - Skipping and writing

    @Test("x skips the current intent: the ball and every later colour follow; x again takes it back")
    func skip() throws {
        let pilot = try Pilot<ReplayProgram>(Self.sample)
        for _ in 0..<4 { pilot.type("l") }
        let kept = pilot.player.session.viewModel.current
        let endBefore = pilot.player.index.state(at: 13).appearance
        pilot.type("x")
        #expect(pilot.player.index.skipped == [4])
        let lines = String(decoding: Self.sample, as: UTF8.self).split(separator: "\n").map(String.init)
        // Skipping the fourth is the state after the third.
        #expect(pilot.player.session.viewModel.current == (try Self.forward(lines, count: 3)).1)
        #expect(pilot.player.change?.text.hasPrefix("skip #4: position 45,12 → 43,12") == true)
        // The place is marked by its skip, in reverse video.
        let row = pilot.player.timelineRow!
        let column = try #require(pilot.lines[row].firstIndex(of: "ø")).utf16Offset(in: pilot.lines[row])
        #expect(!pilot.lines[row].contains("◘") && pilot.frame[column, row].reverse)
        pilot.press(.end)
        try Self.expectExact(pilot, "end after the skip")
        pilot.press(.home)
        for _ in 0..<4 { pilot.type("l") }
        pilot.type("x")
        #expect(pilot.player.index.skipped.isEmpty)
        #expect(pilot.player.session.viewModel.current == kept)
        #expect(pilot.player.index.state(at: 13).appearance == endBefore)
    }

    @Test("a resize cannot be skipped, and at the start there is nothing to skip: the status line says so")
    func skipRefused() throws {
        var lines = [ReplayFormat.headerLine(terminal: ScreenSize(columns: 60, rows: 20), program: "t", started: "s")]
        lines.append(ReplayFormat.line(for: .arrowPressed(.right, distance: 3), at: 0.1))
        lines.append(ReplayFormat.line(for: .resized(ScreenSize(columns: 70, rows: 22)), at: 0.2))
        let bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
        // The recorded 60×20, then the change line (empty until a move) and the timeline at the
        // bottom of the whole terminal, which at the end of the recording has just a row for the
        // timeline.
        let tight = try Pilot<ReplayProgram>(bytes)
        #expect(tight.size == ScreenSize(columns: 70, rows: 23))
        #expect(tight.frame.size == ScreenSize(columns: 70, rows: 23))
        #expect(tight.lines[20] == String(repeating: " ", count: 70))
        tight.press(.end)
        tight.type("x")
        #expect(tight.frame.size == ScreenSize(columns: 70, rows: 23))
        // Paused with a message: it has a row of its own above the timeline, whole.
        #expect(
            tight.lines[tight.lines.count - 3] == " a resize is the terminal's: it cannot be skipped".padding(70),
            "\(tight.lines)")
        // With a row to spare, the message has a row of its own above the timeline.
        let pilot = try Pilot<ReplayProgram>(bytes, screen: ScreenSize(columns: 70, rows: 24))
        pilot.type("x")
        #expect(pilot.lines[pilot.lines.count - 3] == " at the start: step forward to an intent to skip it".padding(70))
        pilot.press(.end)
        #expect(pilot.frame.size == ScreenSize(columns: 70, rows: 24))
        pilot.type("x")
        #expect(pilot.player.index.skipped.isEmpty)
        #expect(pilot.lines[pilot.lines.count - 3] == " a resize is the terminal's: it cannot be skipped".padding(70))
    }

    @Test("a recording with no intents: every key leaves it at 0/0, x and w say what they can")
    func emptyRecording() throws {
        let header = ReplayFormat.headerLine(terminal: ScreenSize(columns: 60, rows: 20), program: "t", started: "s")
        let pilot = try Pilot<ReplayProgram>(Array((header + "\n").utf8), spareRows: 2)
        #expect(!pilot.player.index.canSkip(0) && !pilot.player.index.canSkip(1))
        pilot.player.index.setSkipped(1, true)
        for key: TerminalEvent in [.end, .arrow(.right, shifted: false), .character("]"), .character("x"), .home] {
            pilot.press(key)
            #expect(pilot.player.place == 0)
        }
        #expect(pilot.player.index.skipped.isEmpty)
        #expect(pilot.lines.last?.hasPrefix(" paused  intent 0/0  t 0.00 s  1×") == true)
    }

    @Test("a part recorded larger than the terminal is not drawn cut: the frame says what size is needed")
    func partTooLarge() throws {
        var lines = [ReplayFormat.headerLine(terminal: ScreenSize(columns: 60, rows: 20), program: "t", started: "s")]
        lines.append(ReplayFormat.line(for: .arrowPressed(.right, distance: 3), at: 0.1))
        lines.append(ReplayFormat.line(for: .resized(ScreenSize(columns: 90, rows: 30)), at: 0.2))
        let pilot = try Pilot<ReplayProgram>(
            Array(lines.map { $0 + "\n" }.joined().utf8), screen: ScreenSize(columns: 80, rows: 24))
        pilot.type("l")
        #expect(pilot.frame.size == ScreenSize(columns: 80, rows: 24))
        #expect(!pilot.lines.joined().contains("terminal too small"))
        pilot.type("l")
        #expect(pilot.frame.size == ScreenSize(columns: 80, rows: 24))
        let text = pilot.lines.joined(separator: "\n")
        #expect(text.contains("terminal too small") && text.contains("(need 90×30,") && text.contains("have 80×24)"))
        // Back to a part that fits, it is drawn again.
        pilot.type("h")
        #expect(!pilot.lines.joined().contains("terminal too small"))
        #expect(pilot.lines.last?.hasPrefix(" paused  intent 1/2") == true)
    }

    @Test("w writes the edited log: it reads back and replays to the state the player shows at the end")
    func writeEdited() throws {
        var generator = SeededGenerator()
        // Two rows to spare: one for the timeline, one for messages.
        let pilot = try Pilot<ReplayProgram>(RandomRecording.bytes(count: 200, using: &generator), spareRows: 2)
        var written: [String] = []
        var writes = 0
        pilot.player.writeEdited = { index in
            written = []
            try index.copyEdited(from: .inMemory(pilot.recording)) {
                written.append(String(decoding: $0, as: UTF8.self))
            }
            writes += 1
            return "edited.jsonl"
        }
        for _ in 0..<3 {
            pilot.press(.arrow(.right, shifted: true))
            pilot.type("x")
        }
        pilot.type("w")
        #expect(pilot.lines.contains(" wrote edited.jsonl".padding(pilot.frame.size.columns)))
        #expect(written.count == 1 + 200 - pilot.player.index.skipped.count, "\(generator)")
        // The recording's own lines: the header, and each kept intent's line, as they were.
        let original = String(decoding: pilot.recording, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(written.first == original.first)
        #expect(written.allSatisfy { original.contains($0) })
        // Held down, w writes nothing more while nothing changed; a change, and it writes again.
        for _ in 0..<5 { pilot.type("w") }
        #expect(writes == 1)
        #expect(pilot.lines.contains(" already written as edited.jsonl".padding(pilot.frame.size.columns)))
        pilot.press(.end)
        let (state, appearance) = try Self.forward(written, count: written.count - 1)
        #expect(pilot.player.session.state == state, "\(generator)")
        #expect(pilot.player.session.viewModel.current == appearance, "\(generator)")
        // A failure to write is said, and nothing else changes.
        pilot.player.writeEdited = { _ in throw DiskFull() }
        pilot.type("x")
        pilot.type("w")
        #expect(pilot.lines.contains(" not written: the disk is full".padding(pilot.frame.size.columns)))
    }

    // MARK: - Speed, pause, the end

    @Test("+ and - double and halve the speed between ¼× and 16×; space at the end plays from the start")
    func speedAndEnd() throws {
        let pilot = try Pilot<ReplayProgram>(Self.sample, paused: false)
        for _ in 0..<6 { pilot.type("+") }
        #expect(pilot.player.playback.timing.speed == 16)
        #expect(pilot.lines.last?.contains("  16×") == true)
        for _ in 0..<9 { pilot.type("-") }
        #expect(pilot.player.playback.timing.speed == 0.25)
        #expect(pilot.lines.last?.contains("  0.25×") == true)
        // The first intent is due its recorded pause at a quarter of the speed after now.
        let first = try #require(pilot.player.playback.due) - pilot.terminal.clock.now
        #expect(abs(first.seconds - 0.492334 * 4) < 1e-6)
        pilot.pass(first - .milliseconds(1))
        #expect(pilot.player.place == 0)
        pilot.pass(.milliseconds(1))
        #expect(pilot.player.place == 1)
        pilot.pass(.seconds(60))
        #expect(pilot.player.place == 13 && pilot.player.paused)
        pilot.type(" ")
        #expect(pilot.player.place == 0 && !pilot.player.paused)
    }

    @Test("reading a part at a time: the part read plays, and the status line says it is reading")
    func partlyRead() throws {
        var generator = SeededGenerator()
        let bytes = RandomRecording.bytes(count: 5_000, using: &generator)
        let pilot = try Pilot<ReplayProgram>(bytes, screen: ScreenSize(columns: 120, rows: 50), readAll: false)
        let index = pilot.player.index
        try index.read(atMost: 100)
        pilot.refresh()
        #expect(pilot.lines.last?.contains("intent 0/100  reading") == true)
        pilot.press(.end)
        #expect(pilot.player.place == 100)
        try index.readAll()
        pilot.press(.end)
        #expect(pilot.player.place == 5_000)
        try Self.expectExact(pilot, "\(generator)")
    }

    // MARK: - The streams panel around the place

    /// The labels of the lane rows of the panel in `lines` (from the intents lane to the values line).
    static func laneLabels(_ lines: [String]) -> [String] {
        guard let first = lines.firstIndex(where: { $0.hasPrefix(" intents ") }),
            let last = lines[first...].firstIndex(where: { $0.hasPrefix(" values ") })
        else { return [] }
        return lines[first..<last].map {
            String($0.prefix(StreamPanel.labelWidth)).trimmingCharacters(in: .whitespaces)
        }
    }

    @Test(
        "a late subscriber cancelled and subscribed again at one place: the player draws both lanes, each as live drew it, the ended one in a row of its own above the newest's, as the exports order them"
    )
    func resubscribedAtOnePlace() throws {
        let recorded = try RecordedPlay()
        let live = recorded.pilot
        func behaviorRows(_ lines: [String]) -> [String] {
            lines.filter { $0.hasPrefix(" late Behavior") }.map {
                $0.replacingOccurrences(of: " +$", with: "", options: .regularExpression)
            }
        }
        live.toggleStreams()
        live.toggleLate(.behavior)
        live.press(.right)
        live.press(.right)
        live.toggleLate(.behavior)
        let cancelled = behaviorRows(live.lines)
        // Subscribed again with no intent between (the live panel's new lane replaces the ended
        // one: its page moves on).
        live.toggleLate(.behavior)
        live.press(.right)
        let again = behaviorRows(live.lines)
        #expect(
            cancelled == [" late Behavior    ^a─b─c─!"] && again == [" late Behavior            ^c─d"],
            "each b in a column of its own: \(cancelled) \(again)")
        let player = try recorded.player(screen: ScreenSize(columns: 80, rows: 24))
        player.press(.end)
        if Self.laneLabels(player.lines).isEmpty { player.type("s") }
        #expect(behaviorRows(player.lines) == cancelled + again, "\(player.lines.joined(separator: "\n"))")
    }

    @Test(
        "a page tight on rows keeps every lane the live panel drew at the place: another operator's inputs on the page give their rows up first"
    )
    func tightPageKeepsLiveLanes() throws {
        // merge (mouse, keys) and combineLatest (mirror) on the page, then flatMapLatest.filter.map
        // with three drags: three inner lanes under grabbed, two stage lanes.
        let recorded = try RecordedPlay()
        let live = recorded.pilot
        for intent: Intent in [
            .operatorChosen([.merge]), .arrowPressed(.left, distance: 1), .operatorChosen([.combineLatest]),
            .mirrorFlipped, .operatorChosen([.flatMapLatest]), .stageAdded(.filter), .stageAdded(.map),
        ] {
            live.send(intent)
        }
        for _ in 0..<3 {
            let centre = live.session.state.position.centre
            live.drag(from: centre, to: Cell(column: centre.column + 2, row: centre.row))
        }
        // Opened after the drags (the view follows the ball above the lanes): the same page.
        live.toggleStreams()
        let drawn = Self.laneLabels(live.lines)
        #expect(["inner 1", "inner 2", "inner 3"].allSatisfy(drawn.contains), "\(live.lines.joined(separator: "\n"))")
        let player = try recorded.player(screen: ScreenSize(columns: 80, rows: 24))
        player.press(.end)
        if Self.laneLabels(player.lines).isEmpty { player.type("s") }
        let replayed = Self.laneLabels(player.lines)
        #expect(
            drawn.allSatisfy(replayed.contains),
            "live:\n\(live.lines.joined(separator: "\n"))\nplayer:\n\(player.lines.joined(separator: "\n"))")
    }

    @Test(
        "the player's future is drawn in a faint grey that shows on the panel's bar, dark or light (the screen's colour picks it), and is not the present's"
    )
    func futureReadsOnEitherBar() throws {
        // Moves down and right across the colour bands: the screen takes light and dark colours,
        // so the panel's bar is dark under some, light under others.
        var events: [(Intent, Double)] = []
        for step in 0..<24 {
            events.append((.arrowPressed(step.isMultiple(of: 2) ? .right : .down, distance: 3), 0.1 * Double(step + 1)))
        }
        for depth in [ColourDepth.direct, .palette(.xterm256)] {
            let pilot = try Pilot<ReplayProgram>(Self.recording(events), depth: depth)
            pilot.type("s")
            pilot.press(.home)
            var bars: Set<ColourCore.FlatColour> = []
            for place in 0..<events.count {
                let row = try #require(pilot.lines.firstIndex { $0.hasPrefix(" intents ") }, "\(pilot.lines)")
                let text = pilot.frame[1, row]
                bars.insert(text.background)
                // The present's column, then the future's: each of its marks in another colour
                // than the present's, which shows on the bar as faint as the future is drawn.
                let first = StreamPanel.labelWidth + 2 * place + 2
                let future = (first..<(StreamPanel.labelWidth + 2 * (events.count + 1))).filter {
                    pilot.frame[$0, row].glyph != " "
                }
                #expect(!future.isEmpty, "place \(place): \(pilot.lines[row])")
                for column in future {
                    let cell = pilot.frame[column, row]
                    let context = "\(depth), place \(place), column \(column): \(cell.foreground) on \(cell.background)"
                    #expect(cell.foreground != text.foreground, "\(context)")
                    let (shown, bar) = (
                        try #require(depth.shown(cell.foreground)), try #require(depth.shown(cell.background))
                    )
                    #expect(shown.contrastRatio(with: bar) >= FutureLook.faintContrast, "\(context)")
                }
                pilot.press(.arrow(.right, shifted: false))
            }
            #expect(bars == [Renderer.statusBackground, Renderer.statusForeground], "\(depth): \(bars)")
        }
    }

    @Test(
        "a recording replays in a window of its own size: the timeline and the panel go over its bottom rows, the view follows the ball, the status line says how many rows are covered"
    )
    func replayInTheSameWindow() throws {
        // The sample was recorded at 80×24.
        let pilot = try Pilot<ReplayProgram>(Self.sample, screen: ScreenSize(columns: 80, rows: 24))
        pilot.press(.end)
        var lines = pilot.lines
        #expect(!lines.joined().contains("too small"))
        #expect(lines[22].contains("◘"), "the timeline, over the recording's last row: \(lines[22])")
        // Paused at the end by End: what it changed has a row, over the recording's next row.
        #expect(lines[21].hasPrefix(" #0 → #13: 40,11 → 51,7 · ● flatRed → flatBlackDark"), "\(lines[21])")
        #expect(lines[23].contains("intent 13/13") && lines[23].contains("2 rows hidden"), "\(lines[23])")
        pilot.type("s")
        lines = pilot.lines
        let panelTop = 24 - 1 - 1 - 1 - StreamPanel.rows(slot: false)
        #expect(lines[panelTop].hasPrefix(" streams"), "\(lines)")
        #expect(lines[23].contains("13 rows hidden"), "\(lines[23])")
        // The ball (at 51,7, its disc reaching row 12) is lifted to end above the panel: its
        // colour shows in the rows above, none below.
        let ball = pilot.player.session.viewModel.current.ball
        let rowsWithBall = pilot.frame.discRows(ball: ball)
        #expect(!rowsWithBall.isEmpty && rowsWithBall.max()! < panelTop, "\(rowsWithBall)")
        // Closed again: nothing covered but the change line's and the timeline's rows.
        pilot.type("s")
        #expect(pilot.lines[23].contains("2 rows hidden"))
        // Playing, the change line gives its row back.
        pilot.type(" ")
        #expect(pilot.lines[23].contains("1 row hidden"), "\(pilot.lines[23])")
    }

    @Test(
        "x at 80×24 in a window of the recording's size: it pauses, the change line says the skip, the timeline marks it ø"
    )
    func skipShown() throws {
        let pilot = try Pilot<ReplayProgram>(Self.sample, screen: ScreenSize(columns: 80, rows: 24))
        pilot.type(" ")  // Playing.
        pilot.press(.arrow(.right, shifted: false))
        pilot.press(.arrow(.right, shifted: false))
        pilot.type(" ")
        #expect(!pilot.player.paused)
        pilot.type("x")
        #expect(pilot.player.paused, "a skip pauses, so that what it changed can be read")
        let lines = pilot.lines
        #expect(lines[21].hasPrefix(" skip #\(pilot.player.place): "), "\(lines[21])")
        #expect(lines[22].contains("ø"), "\(lines[22])")
        pilot.type("x")
        #expect(pilot.lines[21].hasPrefix(" unskip #\(pilot.player.place): ") && !pilot.lines[22].contains("ø"))
    }

    @Test("a terminal too short for the panel says how many more rows it needs, and that is enough")
    func panelRowsNeeded() throws {
        let lines = [
            ReplayFormat.headerLine(terminal: ScreenSize(columns: 60, rows: 14), program: "t", started: "s"),
            ReplayFormat.line(for: .arrowPressed(.right, distance: 1), at: 0.1),
        ]
        let bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
        let short = try Pilot<ReplayProgram>(bytes, screen: ScreenSize(columns: 60, rows: 14))
        short.type("s")
        let said = try #require(short.lines.first { $0.contains(" more row") })
        let words = said.split(separator: " ")
        let more = try #require(words.firstIndex(of: "more"))
        let needed = try #require(Int(words[more - 1]), "\(said)")
        // With that many more rows it fits whole.
        let taller = try Pilot<ReplayProgram>(bytes, screen: ScreenSize(columns: 60, rows: 14 + needed))
        taller.type("s")
        #expect(taller.player.layout.panelFits == true)
        let one = try Pilot<ReplayProgram>(bytes, screen: ScreenSize(columns: 60, rows: 14 + needed - 1))
        one.type("s")
        #expect(one.player.layout.panelFits == false, "one row fewer is not enough")
    }

    @Test(
        "a resize that leaves the ball where it was still publishes a position: the change line says so, as the lane does"
    )
    func resizeChangeLine() throws {
        let lines = [
            ReplayFormat.headerLine(terminal: ScreenSize(columns: 80, rows: 24), program: "t", started: "s"),
            ReplayFormat.line(for: .resized(ScreenSize(columns: 90, rows: 26)), at: 0.1),
        ]
        let bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
        let pilot = try Pilot<ReplayProgram>(bytes, screen: ScreenSize(columns: 100, rows: 30))
        pilot.type("l")
        #expect(
            pilot.player.change?.text
                == "#1 ↔ resized to 90×26: position 40,11 on 80×24 → on 90×26 · ballColour flatRed (unchanged) · background (unchanged)"
        )
        let page = StreamsPage.panel(
            index: pilot.player.index, place: 1, width: 80, observations: [], books: LetterBooks())
        let resized = BallPosition(centre: Cell(column: 40, row: 11), screen: ScreenSize(columns: 90, rows: 26))
        #expect(page.columns.first { $0.index == 1 }?.marble(.position) == .value(.position(resized)))
    }

    @Test("a page that starts part-way: every late lane, subscribed anywhere, is the one a whole run gives")
    func lateLanesOnAPage() throws {
        let pilot = try Pilot<ReplayProgram>(Self.sample, screen: ScreenSize(columns: 80, rows: 40))
        let index = pilot.player.index
        // Narrow pages (7 columns at 30 cells), so most start after the start.
        for width in [30, 36] {
            for kind in LateSubscriber.allCases {
                for at in 0...index.count {
                    for place in at...index.count {
                        try expectSameLane(index: index, width: width, kind: kind, at: at, place: place)
                    }
                }
            }
        }
    }

    @Test(
        "a page's letters hold the session's letter book at its place, whatever the order the places come in: steps, steps back, jumps, both views, widths, late lanes, skips; a kept page is the page afresh",
        .tags(.slow), .skippedInQuickRuns)
    func pageLettersInAnyOrder() throws {
        var generator = SeededGenerator()
        print("TimeTravelTests: \(generator)")
        var lettered = 0
        var kepts = 0
        for recording in 0..<6 {
            let bytes = RandomRecording.bytes(
                count: 60 + generator.below(300), observations: true, operators: true, using: &generator)
            let index = try Pilot<ReplayProgram>(bytes).player.index
            let observations = index.observations.compactMap { entry -> StreamsPage.LateObservation? in
                switch entry.event.observation {
                case .subscribed, .unsubscribed, .screenThroughPublish, .lessonBegan:
                    (entry.place, entry.event.observation, SessionTime(seconds: entry.event.time))
                case .panelOpened, .panelClosed, .mapCopies: nil
                }
            }
            // One set of books for the whole walk, as the player keeps; each place's own worked out
            // afresh from the start, by the books alone.
            let books = LetterBooks()
            // And one kept page, as the player keeps: each page it gives is the page worked out afresh.
            let kept = KeptPage()
            var place = 0
            for step in 0..<120 {
                switch generator.below(6) {
                case 0...1: place = min(index.count, place + 1)
                case 2: place = max(0, place - 1)
                case 3: place = generator.below(index.count + 1)
                case 4:
                    // A skip changes what every later place holds.
                    let number = 1 + generator.below(index.count)
                    if index.canSkip(number) { index.setSkipped(number, !index.skipped.contains(number)) }
                default: break
                }
                let axis = generator.below(3) == 0 ? PanelAxis(time: true) : PanelAxis()
                let width = [30, 50, 80, 140][generator.below(4)]
                let page = StreamsPage.panel(
                    index: index, place: place, width: width, observations: observations, axis: axis, books: books,
                    kept: kept)
                let afresh = StreamsPage.panel(
                    index: index, place: place, width: width, observations: observations, axis: axis,
                    books: LetterBooks())
                #expect(
                    page == afresh,
                    "the kept page: recording \(recording), step \(step), place \(place), width \(width), \(axis), \(generator)"
                )
                kepts += kept.reused
                let expected = LetterBooks().book(at: place, in: index).letters
                lettered += expected.isEmpty ? 0 : 1
                // (The page gives a value the book has not met by the place, in its future, the
                // letter it gets then: ValueLetterTests.futureLetters.)
                #expect(
                    expected.allSatisfy { page.homeLetters[$0.key] == $0.value },
                    "recording \(recording), step \(step), place \(place) of \(index.count), width \(width), \(axis), \(generator)"
                )
            }
        }
        #expect(lettered > 100, "\(generator)")
        #expect(kepts > 100, "\(kepts) pages kept; \(generator)")
    }

    /// The late lane of `kind`, its key pressed at `at`, on the page of `place` at `width`, is
    /// what a whole run from the start gives (on the page's columns).
    private func expectSameLane(index: ReplayIndex, width: Int, kind: LateSubscriber, at: Int, place: Int) throws {
        let session = BallSession(start: index.state(at: 0))
        let whole = StreamRecorder(session: session)
        if at == 0 { whole.toggleLate(kind) }
        for number in 1...index.count {
            session.send(index.event(number).intent)
            if number == at { whole.toggleLate(kind) }
        }
        let page = StreamsPage.panel(
            index: index, place: place, width: width, observations: [(at, .subscribed(kind), nil)], books: LetterBooks()
        )
        let shown = try #require(page.lateLanes.first { $0.kind == kind })
        let expected = try #require(whole.lateLane(kind))
        let first = page.columns[0].index
        let last = page.columns[page.columns.count - 1].index
        let named = "\(kind) at \(at), page of \(place) at \(width)"
        #expect(shown.start == expected.start, "\(named)")
        // An end after the page is not on it yet (the page drawn gives up its future's last columns
        // where a subscription's column takes one: what it holds of them is not drawn).
        let drawnEnd = { (lane: LateLane) in lane.end.flatMap { $0.column <= last ? $0 : nil } }
        #expect(drawnEnd(shown) == drawnEnd(expected), "\(named)")
        if expected.start >= first { #expect(shown.handed == expected.handed, "\(named)") }
        let onPage = expected.received.filter { $0 >= first && $0 <= last }
        #expect(shown.received.filter { $0 >= first && $0 <= last } == onPage, "\(named)")
    }

    @Test("with the streams panel open the lanes show the page around the place, the future dim, skips as ø")
    func streamsAroundThePlace() throws {
        let pilot = try Pilot<ReplayProgram>(Self.sample, screen: ScreenSize(columns: 80, rows: 40))
        pilot.type("s")
        for _ in 0..<4 { pilot.type("l") }
        pilot.type("x")
        pilot.type("l")
        let lines = pilot.lines
        let intents = try #require(lines.first { $0.hasPrefix(" intents") })
        #expect(intents.hasPrefix(" intents        ^──▼─•─•─ø─•─•─•─•─▲─←─←─↑─q|"))
        #expect(lines.contains { $0.hasPrefix(" #5 • dragged to") })
        // Columns after the place are dim and uncoloured; those up to it are not.
        let row = try #require(lines.firstIndex { $0.hasPrefix(" ballColour") })
        let column = { (index: Int) in StreamPanel.labelWidth + 2 * index + 1 }
        #expect(pilot.frame[column(5), row].foreground != pilot.frame[column(6), row].foreground)
        try Self.expectExact(pilot, "streams")
    }
}

extension String {
    /// The text padded with spaces to `width`.
    fileprivate func padding(_ width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - unicodeScalars.count))
    }
}

extension TimeTravelTests {
    @Test("a bad line late in a recording: the player keeps all before it, and says where and why reading stopped")
    func badLineLate() throws {
        var generator = SeededGenerator()
        let bytes = RandomRecording.bytes(count: 3_000, thenBadLine: "garbage appended", using: &generator)
        let pilot = try Pilot<ReplayProgram>(bytes, screen: ScreenSize(columns: 140, rows: 50))
        #expect(pilot.player.index.count == 3_000)
        #expect(pilot.player.index.isComplete)
        #expect(pilot.player.index.readingStopped?.line == 3_002)
        #expect(pilot.lines.last?.hasSuffix(" stopped reading at line 3002 ") == true, "\(pilot.lines.last ?? "")")
        pilot.press(.end)
        #expect(pilot.player.place == 3_000)
        // At the end of what was read, the row above the timeline says why it ends there.
        #expect(pilot.lines.contains { $0.hasPrefix(" session.jsonl, line 3002: is not a replay event (not JSON") })
        try Self.expectExact(pilot, "the end before the bad line, \(generator)")
    }

    @Test("a bad line before any intent leaves nothing to keep: the one sentence, as before")
    func badLineFirst() throws {
        let header = String(decoding: Self.sample, as: UTF8.self).split(separator: "\n")[0]
        #expect(throws: ReplayError.self) { try Pilot<ReplayProgram>(Array((header + "\ngarbage\n").utf8)) }
    }
}

extension TimeTravelTests {
    @Test(
        "stepping across resizes that shrink and grow the recording: every frame is the whole terminal, and a terminal shown them holds nothing of an earlier one"
    )
    func nothingLeftBehind() throws {
        var lines = [ReplayFormat.headerLine(terminal: ScreenSize(columns: 90, rows: 30), program: "t", started: "s")]
        var time = 0.0
        for intent: Intent in [
            .pressed(at: Cell(column: 45, row: 14)), .dragged(to: Cell(column: 80, row: 25)),
            .released(at: Cell(column: 80, row: 25)), .resized(ScreenSize(columns: 50, rows: 16)),
            .arrowPressed(.left, distance: 5), .resized(ScreenSize(columns: 70, rows: 22)), .recentred,
        ] {
            time += 0.1
            lines.append(ReplayFormat.line(for: intent, at: time))
        }
        let pilot = try Pilot<ReplayProgram>(
            Array(lines.map { $0 + "\n" }.joined().utf8), screen: ScreenSize(columns: 100, rows: 34))
        pilot.terminal.keepsFrames = true
        pilot.type("s")  // The panel too, above the player's rows.
        for key: TerminalEvent in [.end, .home] + Array(repeating: .character("l"), count: 7)
            + Array(repeating: .character("h"), count: 7) + [.end, .character("s")]
        {
            pilot.press(key)
        }
        var rasteriser = Rasteriser(sequences: .xterm(palette: .xterm256, backColourErase: true))
        var terminal = TerminalEmulator(columns: 100, rows: 34)
        var previous: Frame?
        for (number, frame) in pilot.terminal.history.enumerated() {
            #expect(frame.size == ScreenSize(columns: 100, rows: 34), "frame \(number)")
            var bytes: [UInt8] = []
            rasteriser.draw(frame, over: previous, into: &bytes)
            terminal.receive(bytes)
            let differences = terminal.differences(from: frame, colours: .palette(.xterm256))
            #expect(differences.isEmpty, "frame \(number): \(differences.prefix(5))")
            previous = frame
        }
        #expect(pilot.terminal.history.count > 15)
        // One status line, at the bottom, in every frame.
        #expect(pilot.lines.filter { $0.contains("intent ") }.count == 1)
    }
}

extension TimeTravelTests {
    @Test(
        "x costs the same however long the recording: the tail is worked out between keys, and q behind held x's answers at once"
    )
    func skipIsBounded() throws {
        var generator = SeededGenerator()
        let bytes = RandomRecording.bytes(count: 60_000, using: &generator)
        let pilot = try Pilot<ReplayProgram>(bytes, screen: ScreenSize(columns: 120, rows: 50))
        pilot.press(.end)
        for _ in 0..<3 { pilot.type("[") }
        // A colour change can be a resize's, which cannot be skipped: the next that can be.
        while !pilot.player.index.canSkip(pilot.player.place) { pilot.type("l") }
        let place = pilot.player.place
        pilot.type("x")
        // The key worked out nothing after the checkpoint before the skipped intent.
        let index = pilot.player.index
        #expect(index.derived <= place && index.derived >= place - ReplayIndex.checkpointInterval, "\(generator)")
        #expect(pilot.lines.last?.contains("working out ") == true)
        // Held down, then q: all in one read, and the program is done before any tail is worked out.
        pilot.run([.bytes(Array((String(repeating: "x", count: 30) + "q").utf8))])
        #expect(pilot.watch.isFinished)
        #expect(index.derived < index.count, "the keys waited for the tail")
        #expect(index.skipped.contains(place) == (31 % 2 == 1))
    }

    @Test("after a skip, the tail worked out a part at a time gives exactly the edited log played forward")
    func skipThenWorkedOut() throws {
        var generator = SeededGenerator()
        let bytes = RandomRecording.bytes(count: 20_000, using: &generator)
        let pilot = try Pilot<ReplayProgram>(bytes, screen: ScreenSize(columns: 120, rows: 50))
        // Near the start, so that the tail to work out is long whatever the seed (near the end,
        // a short one was worked out at once for some seeds).
        for _ in 0..<5 { pilot.type("]") }
        // A colour change can be a resize's, which cannot be skipped (the seed decides): the
        // next intent that can be.
        while !pilot.player.index.canSkip(pilot.player.place) { pilot.type("l") }
        pilot.type("x")
        #expect(pilot.player.index.skipped == [pilot.player.place], "\(generator)")
        #expect(pilot.player.index.count - pilot.player.place > 10 * ReplayIndex.checkpointInterval, "\(generator)")
        #expect(!pilot.player.index.isDerived, "\(generator)")
        // Time passes: the loop works the rest out.
        pilot.pass(.milliseconds(50))
        #expect(pilot.player.index.isDerived)
        #expect(pilot.lines.last?.contains("working out") == false)
        pilot.press(.end)
        try Self.expectExact(pilot, "the end after the skip, \(generator)")
    }

    @Test(
        "the edited log keeps the recording's observations, in place, whether or not it quit, and drops only the skipped intent"
    )
    func editedLogKeepsObservations() throws {
        var generator = SeededGenerator()
        let observationNames = ["subscribed", "unsubscribed", "panel"]
        func isObservation(_ line: String) -> Bool {
            observationNames.contains { line.contains(#""event":"\#($0)""#) }
        }
        for _ in 0..<20 {
            var lines = String(
                decoding: RandomRecording.bytes(count: 2 + generator.below(60), observations: true, using: &generator),
                as: UTF8.self
            ).split(separator: "\n").map(String.init)
            if Bool.random(using: &generator) {
                // A session that did not quit: an observation after its last intent too.
                lines.removeLast()
                let kind = LateSubscriber.allCases[generator.below(4)]
                let subscribed =
                    lines.filter { $0.contains(#""subject":"\#(kind.fileName)""#) }.last?
                    .contains(#""event":"subscribed""#) == true
                lines.append(
                    #"{"t":315360000,"event":"\#(subscribed ? "unsubscribed" : "subscribed")","subject":"\#(kind.fileName)"}"#
                )
            }
            // And a subscribe and its cancel at the start, so that every file has some.
            lines.insert(
                contentsOf: [
                    #"{"t":0,"event":"subscribed","subject":"relay"}"#,
                    #"{"t":0,"event":"unsubscribed","subject":"relay"}"#,
                ], at: 1)
            let bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
            let pilot = try Pilot<ReplayProgram>(bytes, screen: ScreenSize(columns: 120, rows: 40))
            let index = pilot.player.index
            // Any intent but a resize (which cannot be skipped); none if all are resizes.
            let skipped = (1...index.count).filter { index.canSkip($0) }.randomElement(using: &generator) ?? 0
            if skipped > 0 {
                pilot.press(.home)
                for _ in 0..<skipped { pilot.type("l") }
                pilot.type("x")
                #expect(index.skipped == [skipped])
            }
            var number = 0
            let expected = lines.filter { line in
                if isObservation(line) || line.hasPrefix(#"{"format""#) { return true }
                number += 1
                return number != skipped
            }
            #expect(expected.contains { isObservation($0) })
            #expect(try pilot.editedLines() == expected, "\(generator)")
        }
    }

    @Test(
        "a held key: each press of a late subscriber's key turns it the other way, the 301st as the first, and one subscribed elsewhere stays"
    )
    func heldLateKey() throws {
        var generator = SeededGenerator()
        let pilot = try Pilot<ReplayProgram>(RandomRecording.bytes(count: 40, using: &generator), spareRows: 6)
        func go(to place: Int) {
            pilot.press(.home)
            for _ in 0..<place { pilot.type("l") }
        }
        func says(_ words: String) -> Bool { pilot.lines.contains { $0.contains(words) } }
        go(to: 5)
        pilot.type("r")
        #expect(says("late Replay(3) subscribed at #5"), "\(pilot.lines)")
        go(to: 10)
        for press in 1...301 {
            pilot.type("b")
            let did = press % 2 == 1 ? "subscribed" : "cancelled"
            #expect(says("late Behavior \(did) at #10"), "press \(press), \(generator)")
        }
        // The Replay(3) subscriber of #5 was never cancelled: at #20 its key cancels it.
        go(to: 20)
        pilot.type("r")
        #expect(says("late Replay(3) cancelled at #20"), "\(generator)")
    }

    @Test("past the kept subscribes and cancels, one more is refused with a sentence, and none changes meaning")
    func lateKeyLimit() throws {
        var generator = SeededGenerator()
        let pilot = try Pilot<ReplayProgram>(
            RandomRecording.bytes(count: 40, using: &generator), spareRows: 6, userObservationLimit: 40)
        func says(_ words: String) -> Bool { pilot.lines.contains { $0.contains(words) } }
        // Three presses of each of the four keys at a place: twelve kept a place.
        pilot.press(.home)
        for place in 1...4 {
            pilot.type("l")
            for key in ["b", "p", "r", "v"] as [Unicode.Scalar] where place < 4 || key == "b" {
                for _ in 0..<3 { pilot.type(key) }
            }
        }
        pilot.type("p")  // The 40th: the one subscribed at #3 (three presses) is cancelled.
        #expect(says("late Publish cancelled at #4"), "\(pilot.lines)")
        pilot.type("p")
        // (Its beginning: a recording as narrow as 40 columns cuts the rest with "…".)
        #expect(says("40 subscribes and cancels kept:"), "\(generator) \(pilot.lines.suffix(4))")
        // Every press is drawn in a column of its own, so none is dropped to make room: a
        // fourth of one key at one place is refused too, and changes nothing (three at #3 left
        // Behavior subscribed, three at #4 cancelled it, and it stays cancelled).
        let before = pilot.frame
        pilot.type("b")
        #expect(says("40 subscribes and cancels kept:"), "\(generator) \(pilot.lines.suffix(4))")
        pilot.type("b")
        #expect(!says("late Behavior subscribed at #4"), "\(generator)")
        #expect(pilot.frame == before, "\(generator)")
    }

    @Test("played forward, the panel opens and closes where the recording's did; one open from the start starts open")
    func recordedPanel() throws {
        let header = ReplayFormat.headerLine(terminal: ScreenSize(columns: 80, rows: 24), program: "t", started: "s")
        let move = ReplayFormat.line(for: .arrowPressed(.left, distance: 1), at: 0.1)
        let open = ReplayFormat.line(for: Observation.panelOpened, at: 0.1)
        let close = ReplayFormat.line(for: Observation.panelClosed, at: 0.1)
        let later = try Pilot<ReplayProgram>(
            Array(([header, move, move, open, move, move, close, move].map { $0 + "\n" }).joined().utf8))
        var seen: [Bool] = [later.player.streamsOpen]
        for _ in 0..<5 {
            later.type("l")
            seen.append(later.player.streamsOpen)
        }
        #expect(seen == [false, false, true, true, false, false])
        #expect(later.lines.contains { $0.hasPrefix(" streams") } == false)
        let fromTheStart = try Pilot<ReplayProgram>(Array(([header, open, move].map { $0 + "\n" }).joined().utf8))
        #expect(fromTheStart.player.streamsOpen)
        #expect(fromTheStart.lines.contains { $0.hasPrefix(" streams") })
    }
}

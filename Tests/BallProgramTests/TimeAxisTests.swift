import BallModel
import BallPlayer
import BallProgram
import BallRendering
import BallReplay
import BallStreams
import BallTestSupport
import Testing
import TextFormats

/// The streams panel on a time axis (`T`): the real loop on its manual clock, keys and time as a
/// user makes them, the lanes read back from the frame, cell by cell.
@Suite("The time view")
struct TimeAxisTests {
    /// The panel's row labelled `label` in `lines`, as characters (a cell each), each value's
    /// letter read as `○` (these tests are of where the marbles stand; the letters are
    /// StreamsTests').
    static func row(_ label: String, in lines: [String]) -> [Character] {
        let row = lines.first { $0.hasPrefix(" \(label) ") }
        #expect(row != nil, "no row \(label) in \(lines)")
        return marks(row ?? String(repeating: "?", count: 80))
    }

    /// The slot's lane in `lines` (whatever its segment's label), as ``row(_:in:)`` reads it: the
    /// row above `ballColour`'s.
    static func slotRow(in lines: [String]) -> [Character] {
        let colour = lines.firstIndex { $0.hasPrefix(" ballColour ") }
        #expect(colour != nil, "no ballColour row in \(lines)")
        return marks(colour.map { lines[$0 - 1] } ?? String(repeating: "?", count: 80))
    }

    /// `line` as characters, a value's letter after the labels read as `○`.
    static func marks(_ line: String) -> [Character] {
        Array(line).enumerated().map { offset, character in
            offset >= StreamPanel.labelWidth && character.unicodeScalars.count == 1
                && MarbleValue.letters.contains(character.unicodeScalars.first!) ? "○" : character
        }
    }

    /// The cell of the time column (span) at `offset` from the panel's left: one cell a span.
    static func cell(_ offset: Int) -> Int { StreamPanel.labelWidth + offset }

    /// The marble's cell (the second of two) of the event view's column at `offset`.
    static func eventCell(_ offset: Int) -> Int { StreamPanel.labelWidth + 2 * offset + 1 }

    /// Play with the panel open, `slot` in the slot at 0 s, the time view on, and the clock at
    /// `seconds`.
    static func onTime(_ slot: SlotOperator, until seconds: Double) -> Pilot<Play> {
        let driver = Pilot<Play>()
        driver.toggleStreams()
        driver.send(.operatorChosen([slot]))
        driver.type("T")
        driver.passTime(to: seconds)
        return driver
    }

    /// Play with the panel open, `debounce` in the slot at 0 s, the time view on, and three
    /// arrows right at 2.0, 2.12 and 2.24 s (a column each at 100 ms).
    static func debounced() -> Pilot<Play> {
        let driver = Self.onTime(.debounce, until: 2.0)
        driver.press(.right)
        driver.pass(.milliseconds(120))
        driver.press(.right)
        driver.pass(.milliseconds(120))
        driver.press(.right)
        return driver
    }

    @Test(
        "T, debounce and three quick moves: the wait drawn ~ as it runs, a wake a column; its ○ three cells right of position's last; then no wake-up"
    )
    func debounceOnTime() {
        let driver = Self.debounced()
        #expect(driver.lines.contains { $0.hasPrefix(" streams 100 ms ") })
        // The ruler: a cell a span, so a second every ten cells.
        let ruler = Array(driver.lines.first { $0.hasPrefix(" streams 100 ms ") } ?? "")
        #expect(String(ruler[Self.cell(0)..<Self.cell(2)]) == "0s")
        #expect(String(ruler[Self.cell(10)..<Self.cell(12)]) == "1s")
        #expect(String(ruler[Self.cell(20)..<Self.cell(22)]) == "2s", "\(String(ruler))")
        // 2.39 s: debounce waits (since 2.0 s); its lane is drawn to the column of now, no further.
        driver.pass(.milliseconds(150))
        var debounce = Self.slotRow(in: driver.lines)
        #expect(String(debounce[Self.cell(20)..<Self.cell(24)]) == "~~~~", "\(String(debounce))")
        #expect(debounce[Self.cell(24)] == " ")
        #expect(!debounce[Self.cell(4)...].contains("○"))
        // While it waits, the loop wakes at the next column's start, at most a column away.
        #expect(driver.terminal.waits.last.flatMap { $0 }.map { $0 <= .milliseconds(100) } == true)

        driver.passTime(to: 3.0)
        let lines = driver.lines
        let intents = Self.row("intents", in: lines)
        let position = Self.row("position", in: lines)
        debounce = Self.slotRow(in: lines)
        for span in 20...22 {
            #expect(intents[Self.cell(span)] == "→")
            #expect(position[Self.cell(span)] == "○")
        }
        // The last ○ on position at 2.24 s (column 22); debounce's at 2.54 s (column 25): three
        // cells right, the wait between.
        #expect(position.lastIndex(of: "○") == Self.cell(22))
        #expect(debounce.lastIndex(of: "○") == Self.cell(25))
        #expect(String(debounce[Self.cell(22)...Self.cell(25)]) == "~~~○", "\(String(debounce))")
        #expect(String(debounce[(Self.cell(22) + 1)..<Self.cell(25)]) == "~~")
        #expect(Self.row("ballColour", in: lines)[Self.cell(25)] == "●")
        // The lanes end with the column of the last thing that happened; idle, nothing wakes.
        #expect(position[Self.cell(26)] == " ")
        #expect(driver.terminal.waits.last == .some(nil))
        // The pointer on debounce's column: its span and what it passed on then.
        let top = lines.firstIndex { $0.hasPrefix(" streams ") }!
        // The slot's lane: under the ruler, intents, position and the row naming its segments.
        driver.hover(at: Cell(column: Self.cell(25), row: top + 4))
        #expect(
            driver.lines.contains { $0.hasPrefix(" 2.5s–2.6s: #4: ○ 43,11 at 2.540 s") }, "\(driver.lines.suffix(3))")
        driver.hover(at: Cell(column: Self.cell(23), row: top + 4))
        #expect(driver.lines.contains { $0.contains("2.3s–2.4s slotted: nothing: debounce waits") })
    }

    @Test(
        "T, debounce and a quick drag released before the timer goes off: ~ in every column up to debounce's ○, live and after"
    )
    func debounceAfterRelease() {
        let driver = Self.onTime(.debounce, until: 1.0)
        let drawn = GlideTests.drawnCentre(driver.frame, ball: driver.appearance.ball)
        #expect(drawn != nil, "no ball drawn")
        let centre = drawn ?? Cell(column: 0, row: 0)
        // Five steps right 30 ms apart (1.03 to 1.15 s), the button released at 1.18 s: debounce
        // holds the last position until 1.45 s, through the release's column and the two after it.
        var steps: [MemoryTerminal.Step] = [.bytes(TerminalBytes.press(centre))]
        for step in 1...5 {
            steps += [
                .pass(.milliseconds(30)),
                .bytes(TerminalBytes.drag(Cell(column: centre.column + step, row: centre.row))),
            ]
        }
        steps += [
            .pass(.milliseconds(30)), .bytes(TerminalBytes.release(Cell(column: centre.column + 5, row: centre.row))),
        ]
        driver.run(steps)
        // 1.39 s: the wait runs, drawn to the column of now.
        driver.passTime(to: 1.39)
        var debounce = Self.slotRow(in: driver.lines)
        #expect(String(debounce[Self.cell(10)...Self.cell(14)]) == "~~~~ ", "\(String(debounce))")
        driver.passTime(to: 2.0)
        debounce = Self.slotRow(in: driver.lines)
        // The steps: three in the column of 1.0 s, two in the next; then nothing moves.
        let position = Self.row("position", in: driver.lines)
        #expect(String(position[Self.cell(10)...Self.cell(12)]) == "³²─", "\(driver.lines.joined(separator: "\n"))")
        #expect(String(debounce[Self.cell(10)...Self.cell(15)]) == "~~~~○ ", "\(driver.lines.joined(separator: "\n"))")
    }

    @Test("< and > zoom from 50 ms to 1 s a column (several events in one are a group); T goes back to intents")
    func zoom() {
        let driver = Self.debounced()
        driver.passTime(to: 3.0)
        driver.type(">")
        var lines = driver.lines
        #expect(lines.contains { $0.hasPrefix(" streams 250 ms ") })
        // 2.0 to 2.25 s is one column: three positions in it, a group; the debounce two columns on.
        #expect(Self.row("position", in: lines)[Self.cell(8)] == "³")
        #expect(Self.row("intents", in: lines)[Self.cell(8)] == "³")
        #expect(Self.slotRow(in: lines).lastIndex(of: "○") == Self.cell(10))
        driver.type("<")
        driver.type("<")
        lines = driver.lines
        #expect(lines.contains { $0.hasPrefix(" streams 50 ms ") })
        // The page of 50 ms columns at 80 cells holds 64: 2.54 s (column 50) is on the first.
        let position = Self.row("position", in: lines)
        for span in [40, 42, 44] { #expect(position[Self.cell(span)] == "○") }
        #expect(Self.slotRow(in: lines).lastIndex(of: "○") == Self.cell(50))
        driver.type("<")
        #expect(driver.lines.contains { $0.hasPrefix(" streams 50 ms ") })
        for _ in 0..<5 { driver.type(">") }
        #expect(driver.lines.contains { $0.hasPrefix(" streams 1 s ") })
        driver.type("T")
        lines = driver.lines
        #expect(lines.contains { $0.hasPrefix(" streams         0") })
        // A column per intent again: the three arrows side by side, debounce's ○ with the last.
        let byIntent = Self.row("position", in: lines)
        #expect(byIntent.lastIndex(of: "○") == Self.eventCell(4))
        #expect(Self.slotRow(in: lines).lastIndex(of: "○") == Self.eventCell(4))
    }

    @Test(
        "throttle on a time axis: the first at once, its window ~ after each it lets through, the latest at the window's end"
    )
    func throttleOnTime() {
        let driver = Self.onTime(.throttle, until: 2.0)
        for step in 0..<3 {
            if step > 0 { driver.pass(.milliseconds(80)) }
            driver.press(.left)
        }
        driver.passTime(to: 3.0)
        let lines = driver.lines
        // 2.0 s through at once, its window to 2.3 s; 2.16 s held, through at 2.3 s, and a new
        // window to 2.6 s with nothing in it; then nothing waits, and nothing wakes.
        let throttle = Self.slotRow(in: lines)
        #expect(String(throttle[Self.cell(20)..<Self.cell(27)]) == "○~~○~~─", "\(String(throttle))")
        // Two positions in the column of 2.0 s (2.0 and 2.08 s), a group; one in the next.
        #expect(Self.row("position", in: lines)[Self.cell(20)] == "²")
        #expect(Self.row("position", in: lines)[Self.cell(21)] == "○")
        #expect(driver.terminal.waits.last == .some(nil))
    }

    @Test("a late subscriber's ^ stands at the time its key was pressed, not at the intent before it")
    func lateOnTime() {
        let driver = Self.debounced()
        driver.passTime(to: 3.0)
        driver.toggleLate(.behavior)
        driver.passTime(to: 3.25)
        driver.toggleLate(.behavior)
        let late = Self.row("late Behavior", in: driver.lines)
        // Subscribed at 3.0 s (column 30), handed the latest at once: the value in the span's
        // one cell, its `^` in the cell before (where the lane does not live); cancelled at 3.25 s
        // (column 32).
        #expect(String(late[Self.cell(29)..<Self.cell(34)]) == "^○─! ", "\(String(late))")
        // The axis moved on with the keys: the position's lane goes on to there, and no further.
        let position = Self.row("position", in: driver.lines)
        #expect(position[Self.cell(32)] == "─" && position[Self.cell(33)] == " ")
    }

    @Test(
        "on a time axis the mirror's lane is the subject's: nothing where combineLatest went in (what it was handed is its own), no ^ or ² there"
    )
    func mirrorOnTime() {
        let driver = Pilot<Play>()
        driver.toggleStreams()
        driver.type("T")
        driver.passTime(to: 1.0)
        driver.send(.operatorChosen([.combineLatest]))
        driver.passTime(to: 1.5)
        driver.type("i")
        let mirror = Self.row("mirror", in: driver.lines)
        // Subscribed at the start, handed F: its `^` before span 0, as position's.
        #expect(mirror[Self.cell(0) - 1] == "^", "\(String(mirror))")
        // combineLatest went in at 1.0 s (span 10): nothing the mirror sent; the flip at 1.5 s.
        #expect(mirror[Self.cell(10)] == "─", "\(String(mirror))")
        #expect(mirror[Self.cell(15)] == "T", "\(String(mirror))")
        let after = String(mirror[Self.cell(1)...])
        let groups = [2, 3, 4].map { Character(Glyph.group($0)) }
        #expect(!after.contains("^") && !after.contains { groups.contains($0) }, "\(after)")
        // The slot's lane: combineLatest's first value, the position with the mirror's F, at 1.0 s.
        #expect(Self.slotRow(in: driver.lines)[Self.cell(10)] == "○", "\(driver.lines)")
    }

    @Test(
        "every mark is drawn in the time view: span 0's ^ before the value handed with it, a value's ! after it, a group where the cell beside is taken"
    )
    func everyMarkOnTime() {
        let driver = Pilot<Play>()
        driver.toggleStreams()
        driver.type("T")
        driver.passTime(to: 1.0)
        driver.press(.right)
        let lines = driver.lines
        // Span 0: each lane subscribed and was handed its value at once; the `^` stands in the
        // label's last cell, before the page's first span, as `^` stands before the value in the
        // event view's column.
        for label in ["position", "ballColour", "background"] {
            let row = Self.row(label, in: lines)
            #expect(row[Self.cell(0) - 1] == "^", "\(label): \(String(row))")
            #expect(row[Self.cell(0)] != "─" && row[Self.cell(0)] != "^", "\(label): \(String(row))")
        }
        // The intents' lane was handed nothing: its `^` in its own span.
        #expect(Self.row("intents", in: lines)[Self.cell(0)] == "^")
        // Subscribed and cancelled within one span (2.0 s, 2.05 s), handed the latest: `^○!`.
        driver.passTime(to: 2.0)
        driver.toggleLate(.behavior)
        driver.pass(.milliseconds(50))
        driver.toggleLate(.behavior)
        var late = Self.row("late Behavior", in: driver.lines)
        #expect(String(late[Self.cell(19)...Self.cell(21)]) == "^○!", "\(String(late))")
        // A cell beside a value taken by another lane of the same row (the player keeps a kind's
        // ended lanes): lane one `^○!` at 2.0–2.05 s, a move at 2.08 s, lane two at 2.15 s, in the
        // span lane one's `!` would take. Each value, with a mark that has no free cell beside it,
        // says it is a group (two things in one cell); the hover names each.
        let screen = ScreenSize(columns: 80, rows: 24)
        let (first, second) = (
            BallPosition(centre: Cell(column: 40, row: 11), screen: screen),
            BallPosition(centre: Cell(column: 41, row: 11), screen: screen)
        )
        var columns = [StreamColumn(index: 0), StreamColumn(index: 1, intent: .arrowPressed(.right, distance: 1))]
        (columns[0].time, columns[0].position) = (.start, first)
        (columns[1].time, columns[1].position) = (SessionTime(microseconds: 2_080_000), second)
        var one = LateLane(id: 0, kind: .behavior, start: 0)
        (one.handedPositions, one.end) = ([first], LateLane.End(column: 0, ending: .unsubscribed))
        (one.startedAt, one.endedAt) = (SessionTime(microseconds: 2_000_000), SessionTime(microseconds: 2_050_000))
        var two = LateLane(id: 1, kind: .behavior, start: 1)
        (two.handedPositions, two.startedAt) = ([second], SessionTime(microseconds: 2_150_000))
        var panel = StreamPanel(columns: columns, lateLanes: [one, two])
        panel.spans = TimeSpans(length: .milliseconds(100), first: 0, count: 30)
        let text = panel.lines(width: 80).map { String(String.UnicodeScalarView($0.map(\.glyph))) }
        late = Self.row("late Behavior", in: text)
        #expect(String(late[Self.cell(19)...Self.cell(22)]) == "^²²─", "\(String(late))")
        panel.hovered = 21
        panel.hoveredLane = .late(.behavior)
        let words = panel.lines(width: 80).last.map { String(String.UnicodeScalarView($0.map(\.glyph))) } ?? ""
        // Each value by its letter, as the values line names it.
        #expect(words.hasPrefix(" 2.1s–2.2s: #1: ^b handed 41,11"), "\(words)")
        #expect(text.contains { $0.contains("b=41,11") }, "\(text)")
    }

    /// A recording: debounce at the start, three arrows right at 2.0, 2.12 and 2.24 s, one left at 5 s.
    static let recording = Array(
        """
        {"format":"colourful-ball-replay","version":3,"terminal":{"columns":80,"rows":24},"colourRules":1,"program":"0.1.0","started":"2026-11-28T09:00:00Z"}
        {"t":0.0,"event":"operator","name":"debounce"}
        {"t":2.0,"event":"arrow","direction":"right","distance":1}
        {"t":2.12,"event":"arrow","direction":"right","distance":1}
        {"t":2.24,"event":"arrow","direction":"right","distance":1}
        {"t":5.0,"event":"arrow","direction":"left","distance":1}

        """.utf8)

    @Test("the player on a time axis: scrubbing the timeline shows the spans around the place, the future dim")
    func playerOnTime() throws {
        let driver = try Pilot<ReplayProgram>(Self.recording, spareRows: 14)
        driver.type("s")
        driver.type("T")
        let width = driver.size.columns
        let row = try #require(driver.player.timelineRow)
        func scrub(to place: Int) throws {
            let column = try #require(
                (0..<width).first {
                    Timeline.place(atColumn: $0, width: width, count: driver.player.index.count) == place
                })
            driver.run([.bytes(TerminalBytes.press(Cell(column: column, row: row)))])
            driver.run([.bytes(TerminalBytes.release(Cell(column: column, row: row)))])
            #expect(driver.player.place == place)
        }
        try scrub(to: 4)
        var lines = driver.lines
        #expect(lines.contains { $0.hasPrefix(" streams 100 ms ") })
        // The page holds 64 spans (to 6.4 s): the move at 5 s (column 50) is on it, the future.
        let moved = Self.row("position", in: lines)
        #expect(moved[Self.cell(22)] == "○" && !moved[Self.cell(23)..<Self.cell(50)].contains("○"))
        #expect(moved[Self.cell(50)] == "○")
        #expect(String(Self.slotRow(in: lines)[Self.cell(22)...Self.cell(25)]) == "~~~○")
        // At the second arrow (2.12 s), what came from 2.24 s on is the future: drawn, dim.
        try scrub(to: 3)
        lines = driver.lines
        #expect(Self.slotRow(in: lines).lastIndex(of: "○") == Self.cell(25))
        let panel = try #require(driver.player.view.panel)
        let cells = panel.lines(width: width)
        let positionRow = try #require(panel.mainLanes.firstIndex(of: .position)) + 1
        #expect(!cells[positionRow][Self.cell(21)].dim)
        #expect(
            cells[positionRow][Self.cell(22)].dim
                && MarbleValue.letters.contains(cells[positionRow][Self.cell(22)].glyph))
        // The last place: the page that holds 5 s, its lanes ending there.
        try scrub(to: 5)
        lines = driver.lines
        let position = Self.row("position", in: lines)
        // 5 s is column 50, on the first page (64 columns at 80 cells), and there the recording
        // and its lanes end: debounce waits from there (what it did after, nobody recorded).
        #expect(position.lastIndex(of: "○") == Self.cell(50))
        #expect(String(Self.slotRow(in: lines)[Self.cell(50)...Self.cell(51)]) == "~ ")
        #expect(position[Self.cell(51)] == " ")
        #expect(lines.contains { $0.hasPrefix(" streams 100 ms 0s        1s") })
    }

    @Test("learn's debounce and throttle card names T, and T lays the tour's lanes on time")
    func learnOnTime() throws {
        let lesson = try #require(Lesson.all.firstIndex { $0.id == "debounce-throttle" })
        #expect(Lesson.all[lesson].text.contains("(T "))
        let driver = Pilot<Learn>(first: lesson)
        driver.type("T")
        #expect(driver.lines.contains { $0.hasPrefix(" streams 100 ms ") }, "\(driver.lines)")
    }

    @Test(
        "the slot's lane is labelled slotted in both views; the row above names the operator the page began with, and each chosen on it"
    )
    func slotLaneLabels() {
        let driver = Pilot<Play>()
        driver.toggleStreams()
        driver.send(.operatorChosen([.filter]))
        // A page and a half of moves: the page begins after filter went in.
        for _ in 0..<40 { driver.press(.right) }
        driver.send(.operatorChosen([.map]))
        var lines = driver.lines
        #expect(lines.filter { $0.hasPrefix(" position ") }.count == 1, "\(lines)")
        #expect(lines.contains { $0.hasPrefix(" slotted        ─") }, "\(lines)")
        // 42 intents: the page holds 31 columns, turning by 15: it begins at #15, where map is #42
        // (its part starts in the column's first cell, 2 × 27 cells on).
        let named = " \(StreamPanel.segmentsLabel)    .filter"
        #expect(
            lines.contains { $0.hasPrefix(named + String(repeating: " ", count: 54 - 7) + "\(Glyph.segment).map ") },
            "\(lines)")
        // The time view, 100 ms a span: 70 moves 0.1 s apart; the page holds 64 spans, turning by
        // 32: it begins at 3.2 s, where map is at 7.0 s.
        let timed = Pilot<Play>()
        timed.toggleStreams()
        timed.send(.operatorChosen([.filter]))
        timed.type("T")
        for _ in 0..<70 {
            timed.pass(.milliseconds(100))
            timed.press(.right)
        }
        timed.send(.operatorChosen([.map]))
        lines = timed.lines
        #expect(lines.contains { $0.hasPrefix(" slotted        ") }, "\(lines)")
        #expect(
            lines.contains { $0.hasPrefix(named + String(repeating: " ", count: 38 - 7) + "\(Glyph.segment).map ") },
            "\(lines)")
    }
}

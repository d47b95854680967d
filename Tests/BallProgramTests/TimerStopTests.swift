import BallModel
import BallPlayer
import BallProgram
import BallRendering
import BallStreams
import BallTestSupport
import Testing
import TextFormats

/// The replay player draws what a timer of the chain let through where and when the live panel
/// drew it: stepped onto an intent, the timer is still to come (its value nowhere yet, its wait
/// `~` running); a step later it has gone off, in the cells the live panel drew it in.
@Suite("A timer's output in the player, as the live panel drew it")
struct TimerStopTests {
    /// The lanes compared, top to bottom.
    static let labels = ["intents", "position", "slotted", "ballColour", "background"]

    /// What the lanes labelled ``labels`` draw in `frame`, each cell a glyph and its colour, from
    /// the label column through `cells` cells.
    static func lanes(in frame: Frame, cells: Int) -> [[String]] {
        let lines = frame.text.split(separator: "\n", omittingEmptySubsequences: false)
        return labels.map { label in
            guard let row = lines.firstIndex(where: { $0.hasPrefix(" \(label) ") }) else { return ["no \(label)"] }
            return (StreamPanel.labelWidth..<(StreamPanel.labelWidth + cells)).map { column in
                "\(frame[column, row].glyph) \(frame[column, row].foreground)"
            }
        }
    }

    /// The lanes' glyphs alone, a line a lane (for a failure's message).
    static func text(_ frame: Frame) -> String {
        frame.text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { line in labels.contains { line.hasPrefix(" \($0) ") } || line.hasPrefix(" streams") }
            .joined(separator: "\n")
    }

    /// The cell under the slot's lane in intent column `offset` of `frame`'s page (its second
    /// cell, where a column's value stands).
    static func slotCell(_ offset: Int, in frame: Frame) -> Unicode.Scalar? {
        let lines = frame.text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let row = lines.firstIndex(where: { $0.hasPrefix(" slotted ") }) else { return nil }
        return frame[StreamPanel.labelWidth + StreamPanel.columnWidth(time: false) * offset + 1, row].glyph
    }

    /// What the live tour drew at a moment, and where in the recording it was.
    struct Seen {
        /// The lanes, each through the last column drawn.
        var lanes: [[String]]
        /// How many cells the lanes draw (through the latest column).
        var cells: Int
        /// The place (intents applied) and whether debounce's timer was still to come.
        var place: Int, pending: Bool
        /// The frame (for messages).
        var frame: Frame
    }

    /// The lesson of debounce and throttle, recorded with a manual clock: `timed` chosen, three
    /// quick arrows, a wait; a quick drag (30 ms a step) released, a wait; the panel's lanes seen
    /// at each moment (on the time axis with `timeView`), each just after the last intent and
    /// after its timer, then the tour quit.
    static func record(timeView: Bool, timed: SlotOperator) throws -> (tour: RecordedTour, seen: [Seen]) {
        let tour = try RecordedTour(first: LearnTests.index("debounce-throttle"))
        let pilot = tour.pilot
        pilot.openStreams()
        pilot.type("1")
        pilot.type("f")
        pilot.type(timed == .debounce ? "4" : "5")
        if timeView { pilot.type("T") }
        #expect(pilot.learn.play.session.state.slot == [timed], "\(pilot.lines.joined(separator: "\n"))")
        var seen: [Seen] = []
        func look() {
            let session = pilot.learn.play.session
            let frame = pilot.frame
            let line =
                frame.text.split(separator: "\n", omittingEmptySubsequences: false)
                .first { $0.hasPrefix(" intents ") } ?? ""
            let cells = line.dropFirst(StreamPanel.labelWidth).reversed().drop { $0 == " " }.count
            seen.append(
                Seen(
                    lanes: lanes(in: frame, cells: cells), cells: cells,
                    place: pilot.learn.play.streams.latestIndex, pending: session.nextTimer != nil, frame: frame))
        }
        pilot.pass(.milliseconds(400))
        for _ in 0..<3 {
            pilot.press(.right)
            pilot.pass(.milliseconds(50))
        }
        look()
        pilot.pass(.seconds(1))
        look()
        let centre = pilot.learn.play.session.state.position.centre
        var steps: [MemoryTerminal.Step] = [.bytes(TerminalBytes.press(Self.onScreen(centre, pilot)))]
        for step in 1...4 {
            steps += [
                .pass(.milliseconds(30)),
                .bytes(TerminalBytes.drag(Self.onScreen(Cell(column: centre.column - step, row: centre.row), pilot))),
            ]
        }
        steps += [
            .pass(.milliseconds(30)),
            .bytes(TerminalBytes.release(Self.onScreen(Cell(column: centre.column - 4, row: centre.row), pilot))),
        ]
        pilot.run(steps)
        look()
        pilot.pass(.seconds(1))
        look()
        pilot.type("q")
        return (tour, seen)
    }

    /// `cell` of the ball's area on the tour's screen (the area is under the card).
    static func onScreen(_ cell: Cell, _ pilot: Pilot<Learn>) -> Cell {
        Cell(column: cell.column, row: cell.row + Learn.layout(of: pilot.size).cardRows)
    }

    /// The recording's player at 80×24, its lanes open (and on the time axis with `timeView`).
    static func player(of tour: RecordedTour, timeView: Bool) throws -> Pilot<ReplayProgram> {
        let player = try Pilot<ReplayProgram>(tour.file.bytes, screen: ScreenSize(columns: 80, rows: 24))
        if !player.player.streamsOpen { player.type("s") }
        if timeView { player.type("T") }
        return player
    }

    /// Steps `player` forward to `place`, and on to its first stop where the chain's timer had
    /// gone off (`pending` false) or to the place itself (`pending`: the timer still to come).
    static func step(_ player: Pilot<ReplayProgram>, to place: Int, pending: Bool) {
        while player.player.place < place { player.press(.arrow(.right, shifted: false)) }
        while !pending, player.player.reached != nil { player.press(.arrow(.right, shifted: false)) }
    }

    @Test(
        "the lesson of debounce and throttle replayed: at each move and release the player's lanes are the live panel's, cell for cell, the value still to come; a step later, after the timer, again",
        arguments: [SlotOperator.debounce, .throttle])
    func intentView(timed: SlotOperator) throws {
        let (tour, seen) = try Self.record(timeView: false, timed: timed)
        #expect(seen.map(\.pending) == [true, false, true, false])
        let player = try Self.player(of: tour, timeView: false)
        for moment in seen {
            Self.step(player, to: moment.place, pending: moment.pending)
            #expect(player.player.place == moment.place)
            #expect((player.player.reached != nil) == moment.pending)
            let shown = Self.lanes(in: player.frame, cells: moment.cells)
            #expect(
                shown == moment.lanes,
                "live:\n\(Self.text(moment.frame))\nreplayed:\n\(Self.text(player.frame))")
        }
        // At the release (the page's last column but the future's), the timer has passed nothing yet:
        // its value is in no column, the release's least of all; then in the release's, as live.
        let release = seen[2]
        let column = release.cells / StreamPanel.columnWidth(time: false) - 1
        player.press(.home)
        Self.step(player, to: release.place, pending: true)
        #expect(Self.slotCell(column, in: player.frame) == Glyph.line, "\(Self.text(player.frame))")
        #expect(Self.slotCell(column, in: release.frame) == Glyph.line, "\(Self.text(release.frame))")
        player.press(.arrow(.right, shifted: false))
        #expect(player.player.place == release.place)
        #expect(Self.slotCell(column, in: player.frame) != Glyph.line, "\(Self.text(player.frame))")
        #expect(Self.slotCell(column, in: player.frame) == Self.slotCell(column, in: seen[3].frame))
    }

    @Test(
        "the lesson of debounce and throttle replayed on the time axis: at each move and release the player's spans are the live panel's, the wait running and nothing passed; after the timer, the value at its own time",
        arguments: [SlotOperator.debounce, .throttle])
    func timeView(timed: SlotOperator) throws {
        let (tour, seen) = try Self.record(timeView: true, timed: timed)
        let player = try Self.player(of: tour, timeView: true)
        for moment in seen {
            Self.step(player, to: moment.place, pending: moment.pending)
            let shown = Self.lanes(in: player.frame, cells: moment.cells + 5)
            #expect(
                Array(shown.map { $0.prefix(moment.cells) }) == moment.lanes.map { $0[...] },
                "live:\n\(Self.text(moment.frame))\nreplayed:\n\(Self.text(player.frame))")
            // The next half second (100 ms a span), where the timer goes off (300 ms after the last
            // move, or the window's start): live had drawn nothing there yet; the player, no wait
            // and no value.
            guard moment.pending else { continue }
            let slot = shown[Self.labels.firstIndex(of: "slotted")!].dropFirst(moment.cells)
            #expect(
                slot.allSatisfy { $0.hasPrefix("\(Glyph.line) ") }, "\(Array(slot)):\n\(Self.text(player.frame))")
        }
    }
}

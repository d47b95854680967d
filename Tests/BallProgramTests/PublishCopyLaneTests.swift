import BallModel
import BallPlayer
import BallProgram
import BallRendering
import BallReplay
import BallStreams
import BallTestSupport
import ColourCore
import TerminalIO
import Testing

/// Why Behavior's `o`: while the screen's colours are bound through the Publish copy of the
/// chain, the lanes draw the copy's three streams, so what the screen shows is on the lanes.
@Suite("The Publish copy's lanes")
struct PublishCopyLaneTests {
    /// The lanes of the copy, by their labels.
    static let labels = ["copy.subject", "copy.ball", "copy.screen"]

    /// The frame row of the lane labelled `label`, if one is drawn.
    static func row(_ label: String, in frame: Frame) -> Int? {
        let lines = frame.text.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.firstIndex { $0.hasPrefix(" \(label) ") }
    }

    /// What the lane labelled `label` draws after its label (trailing blanks cut); nil: not drawn.
    static func marbles(_ label: String, in frame: Frame) -> String? {
        guard let row = row(label, in: frame) else { return nil }
        let line = frame.text.split(separator: "\n", omittingEmptySubsequences: false)[row]
        return String(String(line.dropFirst(StreamPanel.labelWidth)).reversed().drop { $0 == " " }.reversed())
    }

    /// The colour the marble in cell `offset` (from the label column) of `label`'s lane is painted in.
    static func colour(_ label: String, at offset: Int, in frame: Frame) -> FlatColour? {
        row(label, in: frame).map { frame[StreamPanel.labelWidth + offset, $0].foreground }
    }

    /// `marbles` with each letter the values line of `frame` names written as its value (`[41,3]`):
    /// a page's letters are its own.
    static func resolved(_ marbles: String, in frame: Frame) -> String {
        let lines = frame.text.split(separator: "\n", omittingEmptySubsequences: false)
        var values: [Character: String] = [:]
        for line in lines where line.hasPrefix(" values ") {
            for entry in line.split(separator: " ").dropFirst() where entry.dropFirst().hasPrefix("=") {
                values[entry.first!] = String(entry.dropFirst(2))
            }
        }
        return marbles.map { values[$0].map { "[\($0)]" } ?? String($0) }.joined()
    }

    /// The tour at Why Behavior, the lanes open and the question answered (2: the white view).
    static func whyBehavior() -> Pilot<Learn> {
        let pilot = Pilot<Learn>(first: LearnTests.index("why-behavior"))
        pilot.openStreams()
        pilot.type("2")
        return pilot
    }

    @Test("o: the copy's lanes ^ handed nothing; the screen takes the colour its copy.screen ■ has; o again: !")
    func copyLanes() {
        let pilot = Self.whyBehavior()
        let layout = pilot.learn.play.layout!
        let screen = { pilot.frame[1, layout.cardRows].background }
        #expect(screen() != .flatWhite, "bound to the chain: its colours")
        pilot.type("o")
        // A PublishSubject hands a new subscriber nothing: each of the copy's lanes is `^`, then
        // its line, in a column of its own after the start's (o came after it); nothing on
        // copy.screen, so the screen is white (scan's seed is never emitted).
        for label in Self.labels {
            #expect(Self.marbles(label, in: pilot.frame) == "  ^─", "\(pilot.lines.joined(separator: "\n"))")
        }
        #expect(screen() == .flatWhite)
        // Worked by hand, as Rx draws it, from 40,3 at 80×24: one cell right (41,3) the ball's
        // colour is the same. The chain's distinctUntilChanged swallows it (`·`), so its scan
        // gets nothing (background draws nothing); the copy's distinctUntilChanged has no value
        // before it, so it passes the colour on (●), and the copy's scan gives the screen its
        // first colour (■): the screen changes where copy.screen draws ■, not background.
        // (The chain's lanes draw their line in o's column: nothing was emitted there.)
        pilot.press(.right)
        let frame = pilot.frame
        #expect(Self.marbles("ballColour", in: frame) == "^●───·")
        #expect(Self.marbles("background", in: frame) == "^■────")
        #expect(Self.marbles("copy.subject", in: frame) == "  ^──b")
        #expect(Self.marbles("copy.ball", in: frame) == "  ^──●")
        #expect(Self.marbles("copy.screen", in: frame) == "  ^──■")
        #expect(screen() != .flatWhite)
        #expect(Self.colour("copy.screen", at: 5, in: frame) == screen(), "the ■ painted in the screen's colour")
        #expect(Self.colour("copy.ball", at: 5, in: frame) == pilot.learn.play.session.state.ballColour)
        // One more cell (42,3), a new colour: both distinctUntilChanged pass it, both scans fold it.
        pilot.press(.right)
        #expect(Self.marbles("ballColour", in: pilot.frame) == "^●───·─●")
        #expect(Self.marbles("copy.ball", in: pilot.frame) == "  ^──●─●")
        #expect(Self.marbles("copy.screen", in: pilot.frame) == "  ^──■─■")
        #expect(Self.colour("copy.screen", at: 7, in: pilot.frame) == screen())
        // o binds back: the copy's subscriptions are disposed of, `!` in a column of its own
        // after the column's value, as a cancelled late subscriber's lane ends.
        pilot.type("o")
        #expect(Self.marbles("copy.subject", in: pilot.frame) == "  ^──b─c─!")
        #expect(Self.marbles("copy.ball", in: pilot.frame) == "  ^──●─●─!")
        #expect(Self.marbles("copy.screen", in: pilot.frame) == "  ^──■─■─!")
        // After it, nothing more on them: a move draws on the chain's lanes only.
        pilot.press(.right)
        #expect(Self.marbles("copy.subject", in: pilot.frame) == "  ^──b─c─!")
        #expect(Self.marbles("position", in: pilot.frame) == "^a───b─c───d")
    }

    @Test(
        "o before the lesson's first intent, after lessons with intents: the copy's lanes are drawn from the lesson's start, ^ where o was"
    )
    func copyLanesAtTheLessonsStart() {
        // Moves in the lesson before, so the lesson begins at a column after the session's start.
        let pilot = Pilot<Learn>(first: LearnTests.index("publish"))
        pilot.openStreams()
        pilot.type("1")
        pilot.press(.right)
        pilot.press(.right)
        pilot.type("m")
        pilot.type("5")
        #expect(pilot.learn.lesson == LearnTests.index("why-behavior"))
        #expect(pilot.learn.play.streams.latestIndex > 0, "the lesson begins after intents")
        pilot.openStreams()
        pilot.type("2")
        pilot.type("o")
        let layout = pilot.learn.play.layout!
        #expect(pilot.frame[1, layout.cardRows].background == .flatWhite, "the screen through the copy")
        // The lesson's first column drawn quiet, o's after it.
        for label in Self.labels {
            #expect(Self.marbles(label, in: pilot.frame) == "  ^─", "\(pilot.lines.joined(separator: "\n"))")
        }
        pilot.press(.right)
        #expect(Self.marbles("copy.subject", in: pilot.frame)?.hasPrefix("  ^─") == true)
        #expect(Self.marbles("copy.screen", in: pilot.frame)?.last == "■", "\(pilot.lines.joined(separator: "\n"))")
    }

    @Test(
        "the next lesson, begun where o was bound back by its start: no column of the lesson before's o, its own late keys each in a column after the first"
    )
    func nextLessonAfterTheCopy() throws {
        let tour = try RecordedTour(first: LearnTests.index("why-behavior"))
        let pilot = tour.pilot
        pilot.openStreams()
        pilot.type("2")
        pilot.press(.right)
        pilot.type("o")
        pilot.press(.right)
        #expect(pilot.learn.isDone, "\(pilot.lines.joined(separator: "\n"))")
        pilot.type("o")
        pilot.type("o")
        // The next lesson binds the screen back as it begins, after the same intent: that `!`,
        // and the `o`s before it, are the lesson before's, drawn on its lanes only.
        pilot.type("n")
        #expect(pilot.learn.lesson == LearnTests.index("replay"))
        pilot.openStreams()
        #expect(Self.marbles("position", in: pilot.frame) == "──", "\(pilot.lines.joined(separator: "\n"))")
        for label in Self.labels { #expect(Self.row(label, in: pilot.frame) == nil) }
        // Its question answered (the last three), r subscribes: in a column of its own after the first.
        pilot.type("3")
        pilot.type("r")
        let live = ["position", "late Replay(3)"].map { Self.marbles($0, in: pilot.frame) }
        #expect(live == ["────", "  ^³"], "\(pilot.lines.joined(separator: "\n"))")
        // Replayed, at its end: the lesson's page the same.
        pilot.type("q")
        let player = try Pilot<ReplayProgram>(tour.file.bytes, screen: ScreenSize(columns: 80, rows: 24))
        player.run([.bytes(TerminalBytes.end)])
        if !player.player.streamsOpen { player.type("s") }
        let replayed = ["position", "late Replay(3)"].map { Self.marbles($0, in: player.frame) }
        for (seen, shown) in zip(live, replayed) {
            #expect(shown?.hasPrefix(seen ?? "?") == true, "\(player.lines.joined(separator: "\n"))")
        }
    }

    @Test(
        "the copy's subject lane is drawn as a late Publish subscriber, subscribed and cancelled where o was: the same values in the same columns (each o and each p in a column of its own)"
    )
    func subjectAsLatePublish() {
        let pilot = Self.whyBehavior()
        pilot.type("o")
        // p asks the Publish lesson's question first (not done): 1 answers it and subscribes.
        pilot.type("p")
        pilot.type("1")
        for direction: Direction in [.right, .right, .down, .left] { pilot.press(direction) }
        pilot.type("o")
        pilot.type("p")
        // Both drawn (learn's ruler gives its row up first: the values line names the letters),
        // in the order the keys came: o's ^, p's ^, the moves, o's !, p's !.
        let subject = Self.marbles("copy.subject", in: pilot.frame)
        #expect(subject == "  ^────b─c─d─e─!")
        #expect(
            Self.marbles("late Publish", in: pilot.frame) == "    ^──b─c─d─e───!",
            "\(pilot.lines.joined(separator: "\n"))")
    }

    @Test("learn's lanes fold a live late lane for the copy's, and the description line names it")
    func foldedLateLane() {
        // Three live late lanes (their lessons done, so that `b`, `p` and `r` subscribe) and the
        // copy's three: one row more than the lanes have.
        let lessons = ["behavior", "publish", "replay"].map(LearnTests.index)
        let pilot = Pilot<Learn>(first: LearnTests.index("why-behavior"), done: Set(lessons))
        pilot.openStreams()
        pilot.type("2")
        for key: Unicode.Scalar in ["o", "b", "p", "r"] { pilot.type(key) }
        pilot.press(.right)
        let lines = pilot.lines
        // Each subscription in a column of its own, in the order the keys came: o's first.
        #expect(Self.marbles("late Behavior", in: pilot.frame) == "    ^a─────b", "\(lines.joined(separator: "\n"))")
        #expect(Self.marbles("late Publish", in: pilot.frame) == "      ^────b", "\(lines.joined(separator: "\n"))")
        #expect(Self.marbles("late Replay(3)", in: pilot.frame) == nil)
        for label in Self.labels { #expect(Self.row(label, in: pilot.frame) != nil) }
        #expect(lines[lines.count - 2].contains("late Replay"), "\(lines.joined(separator: "\n"))")
    }

    @Test("o, then o twice between two moves: the ended copy keeps its value and !, the new one begins ^ after it")
    func boundAgain() {
        let pilot = Self.whyBehavior()
        pilot.type("o")
        pilot.press(.right)
        for _ in 0..<2 { pilot.type("o") }
        // In Rx's order, each at its own time: 41,3 reached the copy, `o` disposed of it (`─!`),
        // `o` subscribed a new one (`^─`), before the next move.
        #expect(
            Self.marbles("copy.subject", in: pilot.frame) == "  ^──b─!^─", "\(pilot.lines.joined(separator: "\n"))")
        #expect(Self.marbles("copy.ball", in: pilot.frame) == "  ^──●─!^─")
        #expect(Self.marbles("copy.screen", in: pilot.frame) == "  ^──■─!^─")
        pilot.press(.left)
        // The new copy's distinctUntilChanged has no value before: 40,3's colour passes again.
        #expect(
            Self.marbles("copy.subject", in: pilot.frame) == "  ^──b─!^──a", "\(pilot.lines.joined(separator: "\n"))")
        #expect(Self.marbles("copy.ball", in: pilot.frame) == "  ^──●─!^──●")
        #expect(Self.marbles("copy.screen", in: pilot.frame) == "  ^──■─!^──■")
    }

    @Test("o twice between two moves, replayed: the player draws both copies as the tour did, at each place")
    func boundAgainReplayed() throws {
        let tour = try RecordedTour(first: LearnTests.index("why-behavior"))
        tour.pilot.openStreams()
        tour.pilot.type("2")
        tour.pilot.type("o")
        tour.pilot.press(.right)
        for _ in 0..<2 { tour.pilot.type("o") }
        tour.pilot.press(.left)
        let live = Self.labels.map {
            Self.marbles($0, in: tour.pilot.frame).map { Self.resolved($0, in: tour.pilot.frame) }
        }
        #expect(live[0] == "  ^──[41,3]─!^──[40,3]", "\(tour.pilot.lines.joined(separator: "\n"))")
        tour.pilot.type("q")
        let player = try Pilot<ReplayProgram>(tour.file.bytes, screen: ScreenSize(columns: 80, rows: 24))
        if !player.player.streamsOpen { player.type("s") }
        // At the place of the move before the two o's, whole (each o after it a place of its own):
        // the ended copy's value and `!`, the new copy's `^` (what happened until the next intent).
        for _ in 0..<3 { player.press(.right) }
        #expect(player.player.place == 1 && player.player.stop == nil)
        let atPlace = Self.marbles("copy.subject", in: player.frame).map { Self.resolved($0, in: player.frame) }
        #expect(atPlace?.hasPrefix("  ^──[41,3]─!^") == true, "\(player.lines.joined(separator: "\n"))")
        player.press(.right)
        let replayed = Self.labels.map {
            Self.marbles($0, in: player.frame).map { Self.resolved($0, in: player.frame) }
        }
        for (label, (seen, shown)) in zip(Self.labels, zip(live, replayed)) {
            #expect(shown?.hasPrefix(seen ?? "?") == true, "\(label): \(player.lines.joined(separator: "\n"))")
        }
    }

    @Test("at 80×24 the copy's lanes take the late rows: the ball's area keeps its rows, and the ball moves both ways")
    func rowBudget() {
        let pilot = Self.whyBehavior()
        let area = pilot.learn.play.layout!.area
        pilot.type("o")
        // The description line says what the screen shows through the copy: white, until its first values.
        #expect(
            pilot.lines.contains {
                $0.contains("copy: ● flatWhite on ■ flatWhite") || $0.contains("copy ● flatWhite ■ flatWhite")
            },
            "\(pilot.lines.joined(separator: "\n"))")
        #expect(area.rows >= ScreenSize.minimum.rows && pilot.learn.play.layout!.area == area)
        let start = pilot.learn.play.session.state.position.centre
        pilot.press(.down)
        #expect(pilot.learn.play.session.state.position.centre.row == start.row + 1)
        pilot.press(.up)
        #expect(pilot.learn.play.session.state.position.centre == start)
        // Every lane of the copy drawn, with the ruler, the main lanes, the values line and the
        // description: the panel's rows, no more.
        let lines = pilot.lines
        let top = lines.firstIndex { $0.hasPrefix(" streams") }
        #expect(top.map { lines.count - 1 - $0 } == StreamPanel.tourRows, "\(lines.joined(separator: "\n"))")
        for label in Self.labels { #expect(Self.row(label, in: pilot.frame) != nil) }
    }

    @Test("the player draws a recorded tour's copy lanes as the tour did, on a page that starts after o too")
    func player() throws {
        let tour = try RecordedTour(first: LearnTests.index("why-behavior"))
        tour.pilot.openStreams()
        tour.pilot.type("2")
        tour.pilot.press(.right)
        tour.pilot.type("o")
        // Far enough that the page turns: the copy subscribed before the page's first column.
        for step in 0..<40 { tour.pilot.press(step % 2 == 0 ? .left : .right) }
        tour.pilot.press(.right)
        tour.pilot.type("o")
        let live = Self.labels.map {
            Self.marbles($0, in: tour.pilot.frame).map { Self.resolved($0, in: tour.pilot.frame) }
        }
        #expect(live.allSatisfy { $0?.hasSuffix("!") == true }, "\(tour.pilot.lines.joined(separator: "\n"))")
        #expect(tour.pilot.lines.contains { $0.hasPrefix(" streams ") && !$0.contains(" 0 ") })
        let player = try Pilot<ReplayProgram>(tour.file.bytes, screen: ScreenSize(columns: 80, rows: 24))
        player.run([.bytes(TerminalBytes.end)])
        if !player.player.streamsOpen { player.type("s") }
        let replayed = Self.labels.map {
            Self.marbles($0, in: player.frame).map { Self.resolved($0, in: player.frame) }
        }
        #expect(replayed == live, "\(player.lines.joined(separator: "\n"))")
        // Each colour marble painted as the tour painted it.
        for label in Self.labels {
            guard let row = Self.row(label, in: tour.pilot.frame) else { continue }
            for column in StreamPanel.labelWidth..<80
            where "●■".unicodeScalars.contains(tour.pilot.frame[column, row].glyph) {
                #expect(
                    Self.colour(label, at: column - StreamPanel.labelWidth, in: player.frame)
                        == tour.pilot.frame[column, row].foreground)
            }
        }
    }

    @Test(
        "--headless says what the screen showed while o bound it through Publish: white at o, then the copy's colours at each move, as the tour drew them; the chain's own colours beside them"
    )
    func headlessThroughPublish() throws {
        let tour = try RecordedTour(first: LearnTests.index("why-behavior"))
        let layout = try #require(tour.pilot.learn.play.layout)
        // The colours the tour's screen showed, after each key, from its frame.
        var shown: [(ball: FlatColour, background: FlatColour)] = []
        func look() {
            let state = tour.pilot.learn.play.session.state
            let centre = state.position.centre
            shown.append(
                (
                    tour.pilot.frame[centre.column, layout.cardRows + centre.row].background,
                    tour.pilot.frame[1, layout.cardRows].background
                ))
        }
        tour.pilot.type("2")
        for key: Unicode.Scalar in ["o", "→", "→", "→", "o"] {
            tour.pilot.pass(.milliseconds(100))
            if key == "→" { tour.pilot.press(.right) } else { tour.pilot.type(key) }
            look()
        }
        tour.pilot.type("q")
        var lines: [String] = []
        try HeadlessReplay.run(reader: .inMemory(tour.file.bytes), json: false) { lines.append($0) }
        // Each line's colours through the copy, where the screen showed them (the chain's own
        // before them on the line stay the chain's).
        let printed = lines.dropFirst().map { line in
            let shown = line.components(separatedBy: "through Publish:").dropFirst().first ?? ""
            let words = shown.split(separator: " ")
            return (
                words.firstIndex(of: "ball").map { words[$0 + 1] } ?? "",
                words.firstIndex(of: "background").map { words[$0 + 1] } ?? ""
            )
        }
        #expect(shown[0] == (.flatWhite, .flatWhite), "o: the copy handed the screen nothing")
        // One line at o, one at each move whose place changed, each with the copy's colours; o
        // again binds the screen back, a line without them.
        let expected = shown.prefix(4).map { (Substring($0.ball.name), Substring($0.background.name)) } + [("", "")]
        #expect(printed.count == expected.count, "\(lines)")
        for (line, colours) in zip(printed, expected) { #expect(line == colours, "\(lines)") }
    }
}

import BallModel
import BallProgram
import BallRendering
import BallStreams
import BallTestSupport
import Testing

/// Lesson 17 (an error ends the stream) and the lessons a learner's findings named, driven by
/// their ids with the keys, read on the drawn rows.
@Suite("The error lesson and its neighbours")
struct ErrorLessonTests {
    /// The drawn row whose label (after the blank cell) starts `label`, trailing blanks cut.
    static func row(_ pilot: Pilot<Learn>, _ label: String) -> Substring? {
        LearnTests.rows(pilot).first { $0.hasPrefix(label) }?.trimmingSuffix()
    }

    /// Takes the ball into the bottom right corner the card's way: c, Shift+Right, Shift+Down.
    static func intoTheCorner(_ pilot: Pilot<Learn>) {
        pilot.type("c")
        for _ in 0..<20 { pilot.press(.right, shifted: true) }
        for _ in 0..<20 { pilot.press(.down, shifted: true) }
    }

    @Test(
        "lesson 17: R, listed in the box, goes in with catch after it; in a corner each of retry's three subscriptions has its row, each ending # in the corner's column, catch the centre"
    )
    func retryGoesIn() throws {
        let pilot = Pilot<Learn>(first: LearnTests.index("error"))
        pilot.type("2")
        pilot.type("f")
        // R's row says all it puts in: retry, then catch.
        let caught = "position.map { guard !$0.isInCorner else { throw SlotError.outOfBounds($0) }; return $0 }"
        #expect(
            LearnTests.box(pilot).contains("R: \(caught).retry(3).catch { _ in .just(.centred(on: screen)) }"),
            "\(LearnTests.box(pilot))")
        pilot.type("R")
        #expect(pilot.learn.play.session.state.slot == [.tryMap, .retry, .catch])
        #expect(!pilot.lines.contains { $0.contains("not put in") }, "\(pilot.lines.joined(separator: "\n"))")
        Self.intoTheCorner(pilot)
        let lines = pilot.lines.joined(separator: "\n")
        // RxSwift's retry(3) subscribes three times in all (its test scheduler records a
        // Subscription for each): the stage's own lane ends with its error, and each subscription
        // retry made anew has a row of its own, as the rxjs export writes three stage1 lines: its ^
        // in the cell of the # that made it (never before the error), its own # after it; nothing
        // folded at 80×24.
        let source = try #require(Self.row(pilot, ".map { … }"), "\(lines)")
        #expect(source.hasSuffix("─#") && !source.contains("^"), "\(source)")
        for again in ["2nd", "3rd"] {
            let row = try #require(Self.row(pilot, "└ retry's \(again)"), "\(lines)")
            #expect(row.hasSuffix(" ^#") && row.count == source.count + 1, "\(row)\n\(source)")
        }
        #expect(!lines.contains("retry's new subscriptions hidden"), "\(lines)")
        #expect(try #require(Self.row(pilot, ".retry(3)"), "\(lines)").hasSuffix("─#"), "\(lines)")
        // The pointer on the last one's ^ says whose subscription it is, and that its error goes on.
        let third = try #require(pilot.lines.firstIndex { $0.hasPrefix(" └ retry's 3rd") })
        let thrown = try #require(Array(pilot.lines[third]).lastIndex(of: "#"))
        pilot.hover(at: Cell(column: thrown - 1, row: third))
        let words = pilot.lines.joined(separator: "\n")
        #expect(words.contains("^# 3rd subscription to tryMap (retry's): the error again"), "\(words)")
        #expect(try #require(Self.row(pilot, ".catch { … }"), "\(lines)").hasSuffix("|"), "\(lines)")
        // The centre, caught: the colour lives, and the lesson is done.
        let column = try #require(pilot.learn.play.streams.columns.last { $0.failed.contains(.stage(0)) })
        #expect(column.resubscriptions(ofStage: 0) == RetryOperation.attempts - 1)
        #expect(column.slotted == .position(.centred(on: pilot.learn.play.session.state.position.screen)))
        #expect(pilot.learn.isDone)
    }

    @Test(
        "lesson 17 recorded, in the player's time view (T): the source lane's # in the corner's span, and each of retry's new subscriptions ^# in it too"
    )
    func retryInTheTimeView() throws {
        let tour = try RecordedTour(first: LearnTests.index("error"))
        for key: Unicode.Scalar in ["2", "f", "R"] {
            tour.pilot.pass(.milliseconds(300))
            tour.pilot.type(key)
        }
        // A move each 300 ms, so the source lane lives (─) in the spans before the corner's.
        var moves = 0
        while !tour.pilot.learn.play.session.state.position.isInCorner, moves < 40 {
            tour.pilot.pass(.milliseconds(300))
            tour.pilot.press(moves % 2 == 0 ? .left : .up, shifted: true)
            moves += 1
        }
        try #require(tour.pilot.learn.play.session.state.position.isInCorner, "no corner in 40 moves")
        tour.pilot.pass(.milliseconds(300))
        tour.pilot.type("q")
        let player = try Pilot<ReplayProgram>(tour.file.bytes, screen: ScreenSize(columns: 80, rows: 24))
        player.press(.end)
        if !player.player.streamsOpen { player.type("s") }
        player.type("T")
        let rows = player.lines
        let lanes = rows.joined(separator: "\n")
        func lane(_ label: String) -> [Character]? {
            rows.first { $0.hasPrefix(" " + label) }.map { Array($0.dropFirst(StreamPanel.labelWidth)) }
        }
        let source = try #require(lane(".map { … }"), "\(lanes)")
        // The error where it happened: its own #, not a count of marks that had no room.
        let thrown = try #require(source.lastIndex(of: "#"), "\(lanes)")
        #expect(thrown > 0 && source[thrown - 1] == "─", "\(lanes)")
        for again in ["2nd", "3rd"] {
            let row = try #require(lane("└ retry's \(again)"), "\(lanes)")
            // Its ^ in the span of the # that made it, never a span before; its own # after it.
            #expect(row.count > thrown + 1 && row[thrown] == "^" && row[thrown + 1] == "#", "\(lanes)")
            #expect(row.filter { $0 != " " } == ["^", "#"], "\(lanes)")
        }
        #expect(lane(".retry(3)")?.lastIndex(of: "#") == thrown, "\(lanes)")
    }

    @Test(
        "lesson 17: X into a corner, then X again at once: catch's fallback in the column of tryMap's #, never a cell before it, its | after it"
    )
    func fallbackAfterTheError() throws {
        let pilot = Pilot<Learn>(first: LearnTests.index("error"))
        for key: Unicode.Scalar in ["2", "f", "X"] { pilot.type(key) }
        var direction = Direction.left
        for _ in 0..<40 where !pilot.learn.play.session.state.position.isInCorner {
            let before = pilot.learn.play.session.state.position
            pilot.press(direction, shifted: true)
            if pilot.learn.play.session.state.position == before { direction = .up }
        }
        try #require(pilot.learn.play.session.state.position.isInCorner)
        // The new pipe's part begins in the next column, on the same rows.
        for key: Unicode.Scalar in ["f", "X"] { pilot.type(key) }
        let lines = pilot.lines.joined(separator: "\n")
        let source = Array(try #require(Self.row(pilot, ".map { … }"), "\(lines)"))
        let caught = Array(try #require(Self.row(pilot, ".catch { … }"), "\(lines)"))
        // RxSwift's catch subscribes the fallback once the error came: its value never before it.
        let thrown = try #require(source.firstIndex(of: "#"), "\(lines)")
        #expect(
            caught.count > thrown + 1 && caught[thrown].isLetter && caught[thrown + 1] == "|",
            "\(String(source))\n\(String(caught))\n\(lines)")
    }

    @Test(
        "lesson 17: the card's way into a corner (c, Shift+Right, Shift+Down) shows the colour turn the centre's, and passes",
        arguments: LearnTests.tourSizes)
    func colourSeenToChange(size: ScreenSize) throws {
        let pilot = Pilot<Learn>(first: LearnTests.index("error"), screen: size)
        for key: Unicode.Scalar in ["2", "f", "X", "c"] { pilot.type(key) }
        let centre = BallPosition.centred(on: pilot.learn.play.session.state.position.screen).ballColour
        for _ in 0..<40 { pilot.press(.right, shifted: true) }
        let edge = pilot.learn.play.session.state
        #expect(edge.ballColour != centre && !pilot.learn.isDone, "\(size): \(edge.position.centre) \(edge.ballColour)")
        pilot.press(.down, shifted: true)
        let corner = pilot.learn.play.session.state
        #expect(corner.position.isInCorner && corner.ballColour == centre, "\(size): \(corner.position.centre)")
        #expect(pilot.learn.isDone, "\(size): \(LearnTests.card(pilot))")
    }

    @Test(
        "lesson 17 at 80×24: the top-left corner along the centre's row, whose colour the ball has already, does not pass, and the card says why; out of it, f X and the card's way do"
    )
    func noChangeSeenNoPass() throws {
        let pilot = Pilot<Learn>(first: LearnTests.index("error"))
        for key: Unicode.Scalar in ["2", "f", "X"] { pilot.type(key) }
        let centre = BallPosition.centred(on: pilot.learn.play.session.state.position.screen).ballColour
        for _ in 0..<40 { pilot.press(.left, shifted: true) }
        #expect(pilot.learn.play.session.state.ballColour == centre, "the left edge in the centre's colour")
        pilot.press(.up, shifted: true)
        #expect(pilot.learn.play.session.state.position.isInCorner)
        #expect(!pilot.learn.isDone)
        let words = "No change seen: the ball had the centre's colour. Leave the corner, f X, c."
        #expect(LearnTests.said(pilot).contains(words), "\(LearnTests.said(pilot))")
        pilot.press(.right)
        for key: Unicode.Scalar in ["f", "X"] { pilot.type(key) }
        Self.intoTheCorner(pilot)
        #expect(pilot.learn.isDone, "\(LearnTests.card(pilot))")
        #expect(!LearnTests.said(pilot).contains(words), "\(LearnTests.said(pilot))")
    }

    @Test("lesson 17: with X alone the source lane's error is one #, no ^")
    func catchAloneDrawsOneError() throws {
        let pilot = Pilot<Learn>(first: LearnTests.index("error"))
        for key: Unicode.Scalar in ["2", "f", "X"] { pilot.type(key) }
        Self.intoTheCorner(pilot)
        let source = try #require(Self.row(pilot, ".map { … }"), "\(pilot.lines)")
        #expect(source.hasSuffix("─#") && !source.contains("^#"), "\(source)")
        #expect(pilot.learn.isDone)
    }

    @Test("lesson 4: the Done line says the Publish subscriber missed where the ball was, not the centre")
    func publishMissedWhereTheBallWas() {
        let pilot = Pilot<Learn>(first: LearnTests.index("publish"))
        pilot.type("1")
        // The ball away from the centre before p: it misses that place.
        pilot.press(.right, shifted: true)
        pilot.type("p")
        pilot.press(.up)
        #expect(pilot.learn.isDone)
        let card = LearnTests.card(pilot)
        #expect(card.contains("Done: ^─ then a letter: it missed where the ball was as it subscribed"), "\(card)")
        #expect(!card.contains("centre"), "\(card)")
    }

    @Test("lesson 5: o turns the bars dark over the white screen, and the card says why; o again turns them back")
    func barsTurnSaid() throws {
        let pilot = Pilot<Learn>(first: LearnTests.index("why-behavior"))
        let screen = pilot.learn.play.session.state.background
        // The lesson's start: the screen's colour would not show on dark bars, so they are light.
        try #require(Learn.barsLight(over: screen, depth: .direct))
        #expect(pilot.frame[0, 0].background == Renderer.statusForeground)
        pilot.type("2")
        pilot.type("o")
        // White until the first value: it shows on dark bars, which the card says.
        #expect(pilot.frame[0, 0].background == Renderer.statusBackground)
        let said = Learn.barsAnswer(screen: .flatWhite, light: false)
        #expect(LearnTests.card(pilot).contains(said), "\(LearnTests.card(pilot))")
        pilot.type("o")
        #expect(pilot.frame[0, 0].background == Renderer.statusForeground)
        #expect(LearnTests.card(pilot).contains(Learn.boundBackAnswer), "\(LearnTests.card(pilot))")
        // A move says nothing of the bars.
        pilot.press(.right)
        #expect(!LearnTests.card(pilot).contains("Bars "), "\(LearnTests.card(pilot))")
    }

    @Test(
        "lesson 4: a · on background before lesson 2 has its line on the card; the legend's · names the lane's own distinctUntilChanged"
    )
    func swallowedOnBackground() throws {
        let pilot = Pilot<Learn>(first: LearnTests.index("publish"))
        pilot.type("1")
        // The black band keeps the screen's colour: a new ball colour, the same screen colour.
        LearnTests.move(
            pilot,
            until: {
                pilot.learn.play.streams.columns.last.map { $0.ballColour != nil && $0.background == nil } ?? false
            }, limit: 400)
        let column = try #require(pilot.learn.play.streams.columns.last)
        try #require(column.ballColour != nil && column.background == nil, "no · on background in 400 moves")
        let background = try #require(Self.row(pilot, "background"), "\(pilot.lines)")
        #expect(background.hasSuffix("·"), "\(background)")
        let card = LearnTests.card(pilot)
        #expect(
            card.contains("·: a value swallowed (lesson \(LearnTests.index("ghost") + 1))")
                || card.contains("? explains") && card.contains("·"), "\(card)")
        // The legend's line for · is true on background's lane too: it has its own.
        pilot.type("?")
        for _ in 0..<3 where !LearnTests.box(pilot).contains("·:") { pilot.type(" ") }
        let legend = LearnTests.box(pilot).split(separator: "\n").first { $0.hasPrefix("·:") }
        #expect(
            legend?.contains("swallowed by the lane's own distinctUntilChanged") == true, "\(LearnTests.box(pilot))")
    }
}

extension Substring {
    /// Without the blanks at its end.
    fileprivate func trimmingSuffix() -> Substring {
        var end = endIndex
        while end > startIndex, self[index(before: end)] == " " { end = index(before: end) }
        return self[startIndex..<end]
    }
}

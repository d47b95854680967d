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

    /// Takes the ball into the top left corner with Shift+Left and Shift+Up.
    static func intoTheCorner(_ pilot: Pilot<Learn>) {
        for _ in 0..<20 {
            pilot.press(.left, shifted: true)
            pilot.press(.up, shifted: true)
        }
    }

    @Test(
        "lesson 17: R, listed in the box, goes in with catch after it; in a corner the source lane draws retry's new ^ and #, catch the centre"
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
        // The stage retry subscribed to anew: a new ^ and its # at the corner's column.
        let source = try #require(Self.row(pilot, ".map { … }"), "\(lines)")
        #expect(source.hasSuffix("─^#"), "\(source)")
        #expect(try #require(Self.row(pilot, ".retry(3)"), "\(lines)").hasSuffix("─#"), "\(lines)")
        #expect(try #require(Self.row(pilot, ".catch { … }"), "\(lines)").hasSuffix("|"), "\(lines)")
        // The centre, caught: the colour lives, and the lesson is done.
        let column = try #require(pilot.learn.play.streams.columns.last { $0.failed.contains(.stage(0)) })
        #expect(column.resubscriptions(ofStage: 0) == RetryOperation.attempts - 1)
        #expect(column.slotted == .position(.centred(on: pilot.learn.play.session.state.position.screen)))
        #expect(pilot.learn.isDone)
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

import BallModel
import BallProgram
import BallRendering
import BallStreams
import BallTestSupport
import ColourCore
import Testing
import TextFormats

/// What a learner met in lessons 12 to 18 of `learn` at 80×24: each driven through the real loop.
@Suite("The tour's later lessons, as a learner meets them")
struct LaterLessonsTests {
    /// The lessons box's keys to lesson `id`: `m`, then its number's digits.
    static func keys(toLesson id: String) -> [Unicode.Scalar] {
        ["m"] + "\(LearnTests.index(id) + 1)".unicodeScalars
    }

    @Test("lesson 12: the counter chosen whole (f 9) is said on the card, and why the lesson does not pass")
    func wholeCounterSaid() {
        let pilot = Pilot<Learn>(first: LearnTests.index("compose"))
        for key: Unicode.Scalar in ["2", "f", "9"] { pilot.type(key) }
        for _ in 0..<3 { pilot.press(.right) }
        let card = LearnTests.card(pilot)
        #expect(!pilot.learn.isDone)
        #expect(
            card.contains("f 9 put the counter in whole; the task builds it in stages: f z, then f | 9."),
            "\(card)")
        // Built by hand, the words go: f z takes the counter's place.
        for key: Unicode.Scalar in ["f", "z"] { pilot.type(key) }
        #expect(!LearnTests.card(pilot).contains("puts the counter in whole"), "\(LearnTests.card(pilot))")
    }

    @Test("the time view (T) stays on only in the lesson on the clock; another begins in the intent view, and says so")
    func timeViewOnlyWhereTimed() {
        let pilot = Pilot<Learn>(first: LearnTests.index("compose"))
        pilot.type("T")
        #expect(pilot.learn.binding.model.panelAxis.time)
        // Into the lesson on the clock: kept, nothing said.
        for key in Self.keys(toLesson: "debounce-throttle") { pilot.type(key) }
        #expect(pilot.learn.lesson == LearnTests.index("debounce-throttle"))
        #expect(pilot.learn.binding.model.panelAxis.time)
        #expect(!LearnTests.card(pilot).contains("time view off"), "\(LearnTests.card(pilot))")
        // Out of it: the intent view, said after the question's choices.
        for key in Self.keys(toLesson: "combine-latest") { pilot.type(key) }
        #expect(pilot.learn.lesson == LearnTests.index("combine-latest"))
        #expect(!pilot.learn.binding.model.panelAxis.time)
        #expect(LearnTests.card(pilot).contains("time view off"), "\(LearnTests.card(pilot))")
        // With an operator the lesson before left in the slot: the time view's words stay on the
        // title's row where both have no room.
        let throttled = Pilot<Learn>(first: LearnTests.index("debounce-throttle"))
        for key: Unicode.Scalar in ["1", "f", "5", "T"] { throttled.type(key) }
        for key in Self.keys(toLesson: "combine-latest") { throttled.type(key) }
        #expect(!throttled.learn.binding.model.panelAxis.time)
        #expect(LearnTests.card(throttled).contains("time view off"), "\(LearnTests.card(throttled))")
        // On again by the learner: the card no longer says it is off.
        pilot.type("T")
        #expect(pilot.learn.binding.model.panelAxis.time)
        #expect(!LearnTests.card(pilot).contains("time view off"), "\(LearnTests.card(pilot))")
        // A lesson with no question says it in the note, with the operator taken out.
        let filter = Pilot<Learn>(first: LearnTests.index("filter"))
        for key: Unicode.Scalar in ["f", "2", "T"] { filter.type(key) }
        for key in Self.keys(toLesson: "flat-map-latest") { filter.type(key) }
        #expect(!filter.learn.binding.model.panelAxis.time)
        let card = LearnTests.card(filter)
        #expect(
            card.contains("filter taken out of the slot, the time view off (T turns it on)."),
            "\(card)")
    }

    @Test("lesson 14's hint says plainly when a flip shows nothing on the ball, and it is true at 80×24")
    func mirrorHintTrue() throws {
        let pilot = Pilot<Learn>(first: LearnTests.index("combine-latest"))
        for key: Unicode.Scalar in ["2", "t"] { pilot.type(key) }
        let card = LearnTests.card(pilot)
        #expect(card.contains("Mid-screen the mirror image mostly has the same colour: watch the lanes."), "\(card)")
        // Mostly: on most rows of the ball's area the start column's mirror image is in its band.
        let position = pilot.learn.play.session.state.position
        let rows = 0..<position.screen.rows
        let same = rows.filter { row in
            var here = position
            here.centre.row = row
            let mirror = here.mirrored
            return BallColourRule.ballColour(column: here.centre.column, row: row)
                == BallColourRule.ballColour(column: mirror.centre.column, row: row)
        }
        #expect(same.count * 2 > rows.count, "\(same.count) of \(rows.count) rows")
        // And the flip itself passes a value on where the colour stays: the lanes show it.
        pilot.type("f")
        pilot.type("6")
        pilot.type("i")
        #expect(pilot.learn.isDone)
    }

    @Test("lesson 16: flatMapLatest's inner subscriptions are named after flatMap's, never by their names again")
    func innerNamesNotReused() {
        let pilot = Pilot<Learn>(first: LearnTests.index("flat-map"))
        func drag() {
            let centre = pilot.learn.play.session.state.position.centre
            pilot.drag([centre, Cell(column: centre.column + 2, row: centre.row)])
        }
        for key: Unicode.Scalar in ["2", "f", "g"] { pilot.type(key) }
        drag()
        drag()
        // flatMap's two presses: each its own lane, named by its press.
        func inners() -> [Substring] { LearnTests.rows(pilot).filter { $0.hasPrefix("inner") } }
        #expect(inners().map { $0.prefix(8) } == ["inner 1 ", "inner 2 "], "\(inners())")
        for key: Unicode.Scalar in ["f", "8"] { pilot.type(key) }
        drag()
        drag()
        // flatMapLatest's press 1 and 2 are new subscriptions: drawn in the lanes of flatMap's
        // first and second, whose labels name each (3 and 4), and no label names one twice.
        let rows = inners()
        #expect(rows.count == 2 && rows[0].hasPrefix("inner 1, 3 ") && rows[1].hasPrefix("inner 2, 4 "), "\(rows)")
        // Each lane: flatMap's cancelled (`!`) as flatMapLatest went in, then its own `^`…`!`.
        for row in rows {
            let marks = row.dropFirst(StreamPanel.labelWidth - 1).filter { "^!".contains($0) }
            #expect(marks == "^!^!", "\(row)")
        }
    }

    @Test("lesson 16: the slot's lane draws a value twice as b², and ?'s legend spells the mark as the lane draws it")
    func groupAfterValueInTheLegend() {
        let pilot = Pilot<Learn>(first: LearnTests.index("flat-map"))
        for key: Unicode.Scalar in ["2", "f", "g"] { pilot.type(key) }
        for _ in 0..<2 {
            let centre = pilot.learn.play.session.state.position.centre
            pilot.drag([centre, Cell(column: centre.column + 2, row: centre.row)])
        }
        let slotted = LearnTests.rows(pilot).first { $0.hasPrefix("slotted") } ?? ""
        let drawn = Array(slotted)
        let twice = drawn.indices.dropFirst().filter { drawn[$0] == "²" && drawn[$0 - 1].isLetter }
        #expect(!twice.isEmpty, "a value and its count on the slot's lane: \(slotted)")
        // The legend, a page of ? at a time: the group marks' row says what a mark after a value is.
        pilot.type("?")
        var legend: String?
        for _ in 0..<6 where legend == nil {
            legend = pilot.lines.first { $0.contains("² ³ »") }
            if legend == nil { pilot.type(" ") }
        }
        let row = pilot.lines.drop { !$0.contains("² ³ »") }.prefix(3).joined(separator: " ")
        #expect(legend != nil, "no group marks in ?'s legend")
        #expect(
            row.split(separator: " ").joined(separator: " ").contains("after a value, that value so many times (b²)"),
            "\(row)")
    }

    @Test("lesson 17: X outside the operators box says on the status line what it is for and where it works")
    func operatorKeyOutsideItsBox() {
        let pilot = Pilot<Learn>(first: LearnTests.index("error"))
        pilot.type("1")
        pilot.type("X")
        let words = "X puts tryMap,catch in, from the operators box: f opens it"
        #expect(pilot.learn.play.session.state.slot == .none, "nothing put in")
        #expect(pilot.lines.last?.contains(words) == true, "\(pilot.lines.joined(separator: "\n"))")
        // In the box it does its work, and the words are gone.
        for key: Unicode.Scalar in ["f", "X"] { pilot.type(key) }
        #expect(pilot.learn.play.session.state.slot == [.tryMap, .catch])
        #expect(pilot.lines.last?.contains(words) == false, "\(pilot.lines.last ?? "")")
        // Play's digits, outside the box, the same.
        let play = Pilot<Play>()
        play.type("3")
        #expect(play.session.state.slot == .none)
        #expect(
            play.lines.last?.contains("a digit puts an operator in, from the operators box: f opens it") == true,
            "\(play.lines.last ?? "")")
    }

    @Test(
        "lesson 18: pointing at the relay's lane describes its marks as the lane draws them, a value by its letter, each subscription and cancel in its own column"
    )
    func relayHoverAsDrawn() throws {
        let pilot = Pilot<Learn>(first: LearnTests.index("completion"))
        // Subscribed and cancelled after the start column, each in a column of its own; then
        // subscribed again and a move.
        for key: Unicode.Scalar in ["2", "v", "v"] { pilot.type(key) }
        func relayRow() throws -> (row: Int, drawn: [Character]) {
            // (The newest lane's row: each subscription keeps its lane, the oldest's row first.)
            let row = try #require(pilot.lines.lastIndex { $0.hasPrefix(" late Relay") }, "\(pilot.lines)")
            return (row, Array(pilot.lines[row].dropFirst(StreamPanel.labelWidth)))
        }
        var (row, drawn) = try relayRow()
        let letter = drawn[3]
        #expect(String(drawn.prefix(6)) == "  ^\(letter)─!", "\(drawn)")
        #expect(letter.isLetter, "the value it was handed, by its letter: \(drawn)")
        pilot.hover(at: Cell(column: StreamPanel.labelWidth + 3, row: row))
        let described = pilot.lines[pilot.lines.count - 2]
        #expect(described.contains("^\(letter) handed"), "\(described)")
        #expect(!described.contains("\(Glyph.value)"), "\(described)")
        // The cancel's column: its `!`.
        pilot.hover(at: Cell(column: StreamPanel.labelWidth + 5, row: row))
        let cancelled = pilot.lines[pilot.lines.count - 2]
        #expect(cancelled.contains("unsubscribed (v again)"), "\(cancelled)")
        // A value received after it subscribed: by its letter too.
        for key: Unicode.Scalar in ["v"] { pilot.type(key) }
        pilot.press(.right)
        (row, drawn) = try relayRow()
        let subscribed = try #require(drawn.lastIndex(of: "^"), "\(drawn)")
        let received = drawn[subscribed + 3]
        #expect(received.isLetter, "\(drawn)")
        pilot.hover(at: Cell(column: StreamPanel.labelWidth + subscribed + 3, row: row))
        let later = pilot.lines[pilot.lines.count - 2]
        #expect(later.contains(": \(received) ") && !later.contains("\(Glyph.value)"), "\(later)")
    }

    @Test("lesson 17's task names the keys as keys: c, Shift+Right, Shift+Down, not L and J")
    func cornerKeysNamed() {
        let pilot = Pilot<Learn>(first: LearnTests.index("error"))
        pilot.type("2")
        let card = LearnTests.card(pilot)
        #expect(card.contains("c, Shift+Right to the right edge, Shift+Down into the corner"), "\(card)")
        #expect(!card.contains("L to the right edge") && !card.contains("J into"), "\(card)")
    }

    @Test(
        "lesson 18: every late row its task needs is on screen before its key, the relay's too, at 80×24 and the smallest size",
        arguments: LearnTests.tourSizes)
    func completionRowsShown(size: ScreenSize) {
        let pilot = Pilot<Learn>(first: LearnTests.index("completion"), screen: size)
        func lateRows() -> [Substring] { LearnTests.rows(pilot).filter { $0.hasPrefix("late ") } }
        func check(_ when: String) {
            let rows = lateRows()
            for kind in LateSubscriber.allCases {
                let label = "late \(kind.name.prefix { $0 != "(" })"
                #expect(rows.contains { $0.hasPrefix(label) }, "\(kind) \(when) at \(size): \(rows)")
            }
            // The relay's row names its key alone: what it is handed is the question.
            let relay = rows.first { $0.hasPrefix("late Relay") }
            #expect(relay.map { $0.contains("v: subscribe") && !$0.contains("(") } ?? false, "\(when): \(rows)")
        }
        check("before the guess")
        pilot.type("2")
        pilot.type("e")
        check("after e")
        // (r asks the Replay lesson's question first: 3 answers it.)
        for key: Unicode.Scalar in ["b", "p", "r", "3"] { pilot.type(key) }
        check("after b, p, r")
        pilot.type("v")
        #expect(pilot.learn.isDone, "\(size)")
        #expect(lateRows().count == LateSubscriber.allCases.count, "\(lateRows())")
    }
}

import BallModel
import BallProgram
import BallRendering
import BallStreams
import BallTestSupport
import Testing

/// Lesson 18, Completion, as a learner drives it with its keys: each late subscription is its own
/// subscriber (RxSwift's `subscribe`), so every one keeps its lane, before `e` and after it, and
/// each lane draws what Rx would: `^` where it subscribed, what it was handed, `|` where it
/// completed (`!` where it was cancelled). Checked on the drawn rows.
@Suite("Completion's late lanes: one a subscription")
struct CompletionLanesTests {
    /// 80×24, and the smallest terminal the tour is shown whole in.
    static let sizes = LearnTests.tourSizes

    /// A pilot at Completion, every lesson before it done (so `b`, `p` and `r` subscribe at once,
    /// asking no earlier lesson's question), the lanes open.
    static func completion(_ size: ScreenSize) -> Pilot<Learn> {
        let index = LearnTests.index("completion")
        let pilot = Pilot<Learn>(first: index, done: Set(0..<index), screen: size)
        #expect(pilot.learn.play.isStreamsOpen)
        return pilot
    }

    /// A pilot at Completion after `↓`: the cell its column starts at and the letter its position
    /// is drawn as.
    static func movedDown(_ size: ScreenSize) throws -> (pilot: Pilot<Learn>, moved: Int, letter: Character) {
        let pilot = completion(size)
        pilot.press(.down)
        let moved = try column(of: "↓", in: pilot)
        return (pilot, moved, try letter(of: pilot.learn.play.session.state.position, in: pilot))
    }

    /// The drawn rows, without trailing blanks.
    static func rows(_ pilot: Pilot<Learn>) -> [String] {
        pilot.lines.map { String($0.reversed().drop { $0 == " " }.reversed()) }
    }

    /// The rows of `kind`'s late lanes (those with a lane: `^` drawn), top to bottom.
    static func lanes(_ pilot: Pilot<Learn>, _ kind: LateSubscriber) -> [String] {
        rows(pilot).filter { $0.hasPrefix(" late \(kind.plainName)") && $0.contains("^") }
    }

    /// Every late row with a lane or a key's hint, top to bottom.
    static func lateRows(_ pilot: Pilot<Learn>) -> [String] { rows(pilot).filter { $0.hasPrefix(" late ") } }

    /// The cell (from the row's start) of the first cell of the column whose intent the intents
    /// lane draws as `glyph`: a lane subscribed after that intent draws its `^` in a column of
    /// its own after it.
    static func column(of glyph: Character, in pilot: Pilot<Learn>) throws -> Int {
        let intents = try #require(rows(pilot).first { $0.hasPrefix(" intents") })
        let at = try #require(intents.lastIndex(of: glyph), "\(glyph) in \(intents)")
        return intents.distance(from: intents.startIndex, to: at) - 1
    }

    /// What `row` draws from cell `cell` on.
    static func marks(_ row: String, from cell: Int) -> String { String(row.dropFirst(cell)) }

    /// The letter the values line gives `position` (`a=40,3`).
    static func letter(of position: BallPosition, in pilot: Pilot<Learn>) throws -> Character {
        let values = try #require(rows(pilot).first { $0.hasPrefix(" values") })
        let centre = position.centre
        let entry = try #require(
            values.split(separator: " ").first { $0.hasSuffix("=\(centre.column),\(centre.row)") }, "\(values)")
        return try #require(entry.first)
    }

    @Test(
        "↓ b b e b: the cancelled lane ^b then ─! where each b was pressed, the lane after e ^| in a column of its own after e's, both drawn",
        arguments: sizes)
    func cancelledThenEnded(size: ScreenSize) throws {
        let (pilot, moved, letter) = try Self.movedDown(size)
        pilot.type("b")
        pilot.type("b")
        // Each b in a column of its own after ↓'s: the subscription handed ↓'s position, the cancel.
        let cancelled = "  ^\(letter)─!"
        #expect(
            Self.lanes(pilot, .behavior).map { Self.marks($0, from: moved) } == [cancelled], "\(Self.rows(pilot))")
        // The guess, then e: the cancelled lane gets nothing of the end.
        pilot.type("2")
        pilot.type("e")
        let ended = try Self.column(of: "e", in: pilot)
        #expect(ended == moved + 6, "↓, two columns of b, e: \(Self.rows(pilot))")
        #expect(
            Self.lanes(pilot, .behavior).map { Self.marks($0, from: moved) } == [cancelled], "\(Self.rows(pilot))")
        // b after e: a completed BehaviorSubject hands a new subscriber its completion alone, in
        // the column after e's (the cancelled lane ended before: the two share a row).
        pilot.type("b")
        let expected = [cancelled + String(repeating: " ", count: ended + 2 - moved - cancelled.count) + "^|"]
        #expect(Self.lanes(pilot, .behavior).map { Self.marks($0, from: moved) } == expected, "\(Self.rows(pilot))")
        // Every other kind's row is still there, its key's hint.
        for kind in [LateSubscriber.publish, .replay, .relay] {
            #expect(Self.lateRows(pilot).contains { $0.contains("\(kind.key): subscribe") }, "\(Self.rows(pilot))")
        }
        // No row says a lane is left out.
        #expect(!Self.rows(pilot).contains { $0.contains("hidden") }, "\(Self.rows(pilot))")
    }

    @Test("b b after e: two subscriptions, two lanes ^|, each in a column of its own after e's", arguments: sizes)
    func twiceAfterTheEnd(size: ScreenSize) throws {
        let pilot = Self.completion(size)
        // Three moves: the Replay subject holds three positions.
        for _ in 0..<3 { pilot.press(.right) }
        for key: Unicode.Scalar in ["2", "e"] { pilot.type(key) }
        let ended = try Self.column(of: "e", in: pilot)
        pilot.type("b")
        pilot.type("b")
        #expect(
            Self.lanes(pilot, .behavior).map { Self.marks($0, from: ended) } == ["  ^|", "    ^|"],
            "\(Self.rows(pilot))")
        // After e a Publish subscriber is handed the end alone, a Replay(3) its three then the
        // end, the relay its value and no end: each in the column of its key, in the order they came.
        for key: Unicode.Scalar in ["p", "r", "v"] { pilot.type(key) }
        let value = try Self.letter(of: pilot.learn.play.session.state.position, in: pilot)
        #expect(
            Self.lanes(pilot, .publish).map { Self.marks($0, from: ended) } == ["      ^|"], "\(Self.rows(pilot))")
        #expect(
            Self.lanes(pilot, .replay).map { Self.marks($0, from: ended) } == ["        ^³|"], "\(Self.rows(pilot))")
        #expect(
            Self.lanes(pilot, .relay).map { Self.marks($0, from: ended) } == ["          ^\(value)"],
            "\(Self.rows(pilot))")
        #expect(pilot.learn.isDone)
    }

    @Test(
        "keys that make no subscription add no lane: v and e before the guess, e again, a digit, t",
        arguments: sizes)
    func keysWithoutLanes(size: ScreenSize) throws {
        let pilot = Self.completion(size)
        pilot.press(.down)
        let before = Self.lateRows(pilot)
        // Before the guess, v and e ask for it first.
        for key: Unicode.Scalar in ["v", "e"] { pilot.type(key) }
        #expect(Self.lateRows(pilot) == before, "\(Self.rows(pilot))")
        #expect(pilot.learn.play.streams.subscriptionsMade == 0)
        for key: Unicode.Scalar in ["2", "e"] { pilot.type(key) }
        let ended = Self.lateRows(pilot)
        #expect(ended.count == before.count, "\(ended)")
        // e again ends nothing more; a digit and the hint subscribe nothing.
        for key: Unicode.Scalar in ["e", "3", "t"] { pilot.type(key) }
        #expect(Self.lateRows(pilot) == ended, "\(Self.rows(pilot))")
        #expect(pilot.learn.play.streams.subscriptionsMade == 0)
    }

    @Test(
        "more subscriptions than rows: each kind's newest lane drawn, and one line says how many older ones are left out",
        arguments: sizes)
    func moreThanTheRows(size: ScreenSize) throws {
        let pilot = Self.completion(size)
        pilot.press(.down)
        // b subscribes, b cancels, b subscribes again; then e ends the live one (`|`).
        for key: Unicode.Scalar in ["b", "b", "b", "2", "e"] { pilot.type(key) }
        let ended = try Self.column(of: "e", in: pilot)
        // Three times b after e, twice p and once each r and v: nine subscriptions in all.
        for key: Unicode.Scalar in ["b", "b", "b", "p", "p", "r", "v"] { pilot.type(key) }
        let made = 9
        #expect(pilot.learn.play.streams.subscriptionsMade == made)
        // (A row may draw several lanes, each from its `^`.)
        let drawn = LateSubscriber.allCases.map { kind in
            Self.lanes(pilot, kind).map { row in row.dropFirst(StreamPanel.labelWidth).count { $0 == "^" } }
                .reduce(0, +)
        }
        // Every kind keeps a row, its newest lane's last: after e.
        for (kind, count) in zip(LateSubscriber.allCases, drawn) {
            #expect(count >= 1, "\(kind): \(Self.rows(pilot))")
            let newest = try #require(Self.lanes(pilot, kind).last)
            // (In a column of its own after e's.)
            #expect(
                Self.marks(newest, from: ended + 2).drop { $0 == " " }.hasPrefix("^"), "\(kind): \(Self.rows(pilot))")
        }
        // The ball keeps its rows: the late rows are no more than the tour's lanes hold.
        #expect(Self.lateRows(pilot).count <= StreamPanel.tourRows - 1 - StreamLane.main.count - 1)
        let hidden = made - drawn.reduce(0, +)
        #expect(hidden > 0)
        let said = Self.rows(pilot).filter { $0.contains("older") }
        #expect(said.count == 1, "\(Self.rows(pilot))")
        #expect(
            said.first.map { $0.contains("(\(hidden) older") && $0.contains("hidden") } ?? false,
            "\(hidden) hidden: \(Self.rows(pilot))")
    }
}

extension CompletionLanesTests {
    @Test(
        "recorded and replayed: the player's late rows at the end are the tour's, the cancelled lane and the lane after e each in its row"
    )
    func replayedAsDrawn() throws {
        let tour = try RecordedTour(first: LearnTests.index("completion"))
        tour.pilot.press(.down)
        // b asks lesson 3's question first (not done here): 2 answers it, and b subscribes; b
        // again cancels; 2 is this lesson's guess, then e, and b after it.
        for key: Unicode.Scalar in ["b", "2", "b", "2", "e", "b", "v"] { tour.pilot.type(key) }
        // (Only the lanes: the player labels Replay by what it keeps, which the tour, its lesson
        // not done, left out.)
        func lanes(_ frame: Frame) -> [String] { LearnRecordingTests.lateRows(frame).filter { $0.contains("^") } }
        let live = lanes(tour.pilot.frame)
        #expect(live.count == 3, "\(live)")
        tour.pilot.type("q")
        let player = try Pilot<ReplayProgram>(tour.file.bytes, screen: ScreenSize(columns: 80, rows: 24))
        if !player.player.streamsOpen { player.type("s") }
        player.run([.bytes(TerminalBytes.end)])
        let drawn = lanes(player.frame)
        #expect(
            drawn == live, "the tour's\n\(live.joined(separator: "\n"))\nthe player's\n\(drawn.joined(separator: "\n"))"
        )
    }
}

extension CompletionLanesTests {
    @Test(
        "pointing at each of a kind's lanes describes that lane: ^b handed the latest, ─! cancelled, ^| the end alone, each in its own column",
        arguments: sizes)
    func pointedAt(size: ScreenSize) throws {
        let (pilot, moved, letter) = try Self.movedDown(size)
        for key: Unicode.Scalar in ["b", "b", "2", "e", "b"] { pilot.type(key) }
        let ended = try Self.column(of: "e", in: pilot)
        let rows = Self.rows(pilot)
        // The cancelled lane ended before the one after e began: one row draws both.
        let behavior = rows.indices.filter { rows[$0].hasPrefix(" late Behavior") && rows[$0].contains("^") }
        try #require(behavior.count == 1, "\(rows)")
        // The line under the lanes, as the pointer rests on a cell.
        func words(at cell: Cell) -> String {
            pilot.hover(at: cell)
            let rows = Self.rows(pilot)
            return rows[rows.count - 2]
        }
        // Each b's column after ↓'s: the subscription, then the cancel.
        let subscribed = words(at: Cell(column: moved + 3, row: behavior[0]))
        #expect(subscribed.contains("#1: ^\(letter) handed"), "\(subscribed)")
        let cancelled = words(at: Cell(column: moved + 5, row: behavior[0]))
        #expect(cancelled.contains("unsubscribed (b again)"), "\(cancelled)")
        // b after e: in a column of its own after e's.
        let completed = words(at: Cell(column: ended + 3, row: behavior[0]))
        #expect(completed.contains("#2: ^| "), "\(completed)")
        // e's column, between them: neither lane has anything there.
        let between = words(at: Cell(column: ended + 1, row: behavior[0]))
        #expect(!between.contains("^"), "\(between)")
    }
}

extension CompletionLanesTests {
    @Test("b held down after e: a hundred subscriptions, the newest drawn, the rest counted on one line")
    func heldDown() throws {
        let pilot = Self.completion(ScreenSize(columns: 80, rows: 24))
        for key: Unicode.Scalar in ["2", "e"] { pilot.type(key) }
        let presses = 100
        pilot.run((0..<presses).map { _ in .bytes(TerminalBytes.key("b")) })
        #expect(pilot.learn.play.streams.subscriptionsMade == presses)
        let drawn = Self.lanes(pilot, .behavior)
        #expect(!drawn.isEmpty && drawn.allSatisfy { $0.hasSuffix("^|") }, "\(Self.rows(pilot))")
        let said = Self.rows(pilot).filter { $0.contains("older") }
        #expect(
            said.count == 1 && said[0].contains("(\(presses - drawn.count) older late Behavior lanes hidden)"),
            "\(Self.rows(pilot))")
    }
}

import BallModel
import BallProgram
import BallRendering
import BallStreams
import BallTestSupport
import Testing

/// Lesson 17's pipes, one after another (tryMap then catch, then catchAndReturn, then retry and
/// catch), read on the drawn rows, live and in the player: each stage row draws one operator's
/// part, labelled with its code, the same live and replayed, at every place and page.
@Suite("A stage row per operator part")
struct StageRowsTests {
    static let sizes = [ScreenSize(columns: 80, rows: 24), ScreenSize(columns: 120, rows: 40)]

    /// The stage rows of `rows` (a frame's, without trailing blanks): those between position's
    /// lane and the slot's, less the row that names the slot's parts (lesson 17 reads no other
    /// subject, so no input lane lies between them).
    static func stageRows(_ rows: [String]) -> [String] {
        guard let position = rows.firstIndex(where: { $0.hasPrefix(" position ") }),
            let slotted = rows.firstIndex(where: { $0.hasPrefix(" slotted ") }), position < slotted
        else { return [] }
        return rows[(position + 1)..<slotted].filter { !$0.hasPrefix(" in the slot ") }
    }

    /// A row's label, without its blanks.
    static func label(_ row: String) -> String {
        String(row.prefix(StreamPanel.labelWidth)).trimmingCharacters(in: .whitespaces)
    }

    /// Where a row's marks begin and end (cells from the left), if it has any.
    static func marks(_ row: String) -> ClosedRange<Int>? {
        let cells = Array(row)
        let drawn = cells.indices.filter { $0 >= StreamPanel.labelWidth && cells[$0] != " " }
        guard let first = drawn.first, let last = drawn.last else { return nil }
        return first...last
    }

    /// Where each part of the slot's lane begins (cells from the left): its `├` on the slot's lane.
    static func partStarts(_ rows: [String]) -> [Int] {
        guard let slotted = rows.first(where: { $0.hasPrefix(" slotted ") }) else { return [] }
        let cells = Array(slotted)
        return cells.indices.filter { $0 >= StreamPanel.labelWidth && cells[$0] == "├" }
    }

    /// The labels a stage row of lesson 17's pipes may have: its operator's code.
    static let codes: Set<String> = [".map { … }", ".catch { … }", ".retry(3)", ".catchAndRetu…"]

    /// The labels of the rows of the subscriptions retry made anew (to tryMap's part: `.map { … }`).
    static let retried: Set<String> = ["└ retry's 2nd", "└ retry's 3rd"]

    /// Each stage row's label in `rows`, checked to be an operator's code, never a place (`stage 2`),
    /// or a row of retry's right under tryMap's part (or under another of retry's).
    static func checkedLabels(_ rows: [String], _ where: String) -> [String] {
        let labels = stageRows(rows).map(label)
        for (index, label) in labels.enumerated() {
            #expect(
                Self.codes.contains(label) || Self.retried.contains(label),
                "\(`where`): a stage row labelled \(label)\n\(rows.joined(separator: "\n"))")
            if Self.retried.contains(label) {
                let above = index > 0 ? labels[index - 1] : ""
                #expect(
                    above == ".map { … }" || Self.retried.contains(above),
                    "\(`where`): \(label) under \(above)\n\(rows.joined(separator: "\n"))")
            }
        }
        return labels
    }

    @Test(
        "lesson 17, X into a corner, then E, then R: a row per operator's part, each labelled with its code, live, in the player at every place, and as the page scrolls",
        arguments: sizes)
    func aRowPerPart(size: ScreenSize) throws {
        let tour = try RecordedTour(first: LearnTests.index("error"), screen: size)
        let pilot = tour.pilot
        func rows() -> [String] { LearnRecordingTests.rows(pilot.frame) }
        func keys(_ typed: String) {
            for key in typed.unicodeScalars {
                pilot.type(key)
                _ = Self.checkedLabels(rows(), "after \(key)")
            }
        }
        keys("2fXc")
        // The card's way: Shift+Right to the right edge, then Shift+Down into the corner.
        var direction = Direction.right
        for _ in 0..<40 where !pilot.learn.play.session.state.position.isInCorner {
            let before = pilot.learn.play.session.state.position
            pilot.press(direction, shifted: true)
            if pilot.learn.play.session.state.position == before { direction = .down }
            _ = Self.checkedLabels(rows(), "on the way to the corner")
        }
        try #require(pilot.learn.play.session.state.position.isInCorner)
        #expect(pilot.learn.isDone)
        keys("fE")
        pilot.press(.right)
        pilot.press(.left)
        // tryMap's part, catch's (a fallback, then its end) and catchAndReturn's, each its own row.
        let second = rows()
        let starts = Self.partStarts(second)
        try #require(starts.count == 2, "\(second.joined(separator: "\n"))")
        let pipes = Self.stageRows(second)
        #expect(Self.checkedLabels(second, "after E") == [".map { … }", ".catch { … }", ".catchAndRetu…"])
        try #require(pipes.count == 3, "\(second.joined(separator: "\n"))")
        let caught = try #require(Self.marks(pipes[1]), "\(pipes[1])")
        #expect(caught.lowerBound == starts[0] && caught.upperBound <= starts[1], "catch's part alone: \(pipes[1])")
        #expect(pipes[1].hasSuffix("|"), "\(pipes[1])")
        let returned = try #require(Self.marks(pipes[2]), "\(pipes[2])")
        #expect(returned.lowerBound == starts[1], "catchAndReturn's part alone: \(pipes[2])")
        #expect(pipes[2].hasSuffix("|"), "\(pipes[2])")
        // retry's pipe, built in the corner: its rows from its start.
        keys("fR")
        pilot.press(.right)
        pilot.press(.left)
        let third = rows()
        let thirdStarts = Self.partStarts(third)
        let labels = Self.checkedLabels(third, "after R")
        #expect(labels.first == ".map { … }" && labels.contains(".retry(3)"), "\(third.joined(separator: "\n"))")
        for row in Self.stageRows(third) where Self.label(row) == ".retry(3)" {
            #expect(
                Self.marks(row)?.lowerBound == thirdStarts.last,
                "retry's part alone: \(row)\n\(third.joined(separator: "\n"))")
        }
        // Each subscription retry made anew, its row right under tryMap's, the rows of the pipes
        // before it folded first: its ^ and # in retry's pipe's part alone.
        #expect(
            labels.prefix(3) == [".map { … }", "└ retry's 2nd", "└ retry's 3rd"], "\(third.joined(separator: "\n"))")
        for row in Self.stageRows(third) where Self.retried.contains(Self.label(row)) {
            let marks = try #require(Self.marks(row), "\(row)")
            #expect(
                marks.lowerBound >= (thirdStarts.last ?? .max) && row.filter { $0 != " " }.hasSuffix("^#"),
                "retry's part alone: \(row)\n\(third.joined(separator: "\n"))")
        }
        // X, then R again: where the pipe shown has no retry, retry's rows fold before retry's
        // own part's row; R's rows come back with it.
        keys("fX")
        pilot.press(.right)
        let fourth = Self.checkedLabels(rows(), "after X again")
        #expect(
            !fourth.contains(where: Self.retried.contains) || fourth.contains(".retry(3)"),
            "\(rows().joined(separator: "\n"))")
        keys("fR")
        pilot.press(.left)
        // Moves enough to scroll the page: the rows keep their labels.
        for step in 0..<40 {
            pilot.press(step % 2 == 0 ? .right : .left)
            let labels = Self.checkedLabels(rows(), "move \(step)")
            #expect(labels.first == ".map { … }" && labels.contains(".retry(3)"), "\(rows().joined(separator: "\n"))")
        }
        let live = Self.stageRows(rows())
        pilot.type("q")

        // The player, at its end: the tour's rows, labelled alike.
        let player = try Pilot<ReplayProgram>(tour.file.bytes, screen: size)
        if !player.player.streamsOpen { player.type("s") }
        player.run([.bytes(TerminalBytes.end)])
        let end = LearnRecordingTests.rows(player.frame)
        #expect(
            Self.stageRows(end) == live,
            "the tour's\n\(live.joined(separator: "\n"))\nthe player's\n\(end.joined(separator: "\n"))")
        // Stepped from the start through every place: every stage row labelled with its code.
        player.run([.bytes(TerminalBytes.home)])
        var place = -1
        while player.player.place > place || player.player.stop != nil {
            place = player.player.place
            _ = Self.checkedLabels(LearnRecordingTests.rows(player.frame), "the player at #\(place)")
            player.press(.arrow(.right, shifted: false))
            if player.player.place == place && player.player.stop == nil { break }
        }
        #expect(place > 40, "stepped to #\(place)")
    }
}

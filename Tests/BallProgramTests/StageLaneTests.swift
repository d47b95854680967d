import BallModel
import BallPlayer
import BallProgram
import BallRendering
import BallReplay
import BallStreams
import BallTestSupport
import Testing
import TextFormats

/// A lane per stage of the pipe in the slot, read as a terminal shows it (the frame through the
/// rasteriser and the emulator, ``DrawnLaneTests/screenRows(_:)``): in play, in the event view
/// and the time view, in the player, in `learn`.
@Suite("A lane per stage of the pipe")
struct StageLaneTests {
    /// The row of `rows` whose label is `label`, from the panel's first marble cell on, with its
    /// trailing blanks dropped; nil: no such row.
    static func lane(_ label: String, in rows: [String]) -> String? {
        let padded = " " + label
        guard let row = rows.first(where: { $0.hasPrefix(padded) && $0.count > padded.count }) else { return nil }
        let marks = String(Array(row).dropFirst(StreamPanel.labelWidth))
        return String(marks.reversed().drop { $0 == " " }.reversed())
    }

    /// Play at 80×24 with the panel open and `filter,debounce` in the slot (#1, handed 40,11, in
    /// the right half: filter passes it on, debounce holds it).
    static func filterThenDebounce() -> Pilot<Play> {
        let driver = Pilot<Play>(screen: ScreenSize(columns: 80, rows: 24))
        driver.toggleStreams()
        driver.send(.operatorChosen([.filter, .debounce]))
        return driver
    }

    @Test(
        "filter,debounce at 80×24: a value seen passing filter and stopping at debounce, passed on 300 ms after the last; one stopped by filter reaches neither"
    )
    func passesOneStopsAtTheNext() {
        let driver = Self.filterThenDebounce()
        driver.pass(.milliseconds(50))
        driver.press(.right)  // #2: 41,11: filter passes it; debounce waits afresh.
        driver.pass(.milliseconds(50))
        driver.press(.right)  // #3: 42,11.
        var rows = DrawnLaneTests.screenRows(driver.frame)
        // Each stage's lane labelled with its code, cut to … where the label column is narrow.
        #expect(Self.lane(".filter { … }", in: rows) == "  ├a─b─c", "\(rows)")
        #expect(Self.lane("slotted", in: rows) == "^a├─────", "\(rows)")
        #expect(rows.contains { $0.hasPrefix(" in the slot      ├.filter.debounce ") }, "\(rows)")
        // 300 ms with nothing new: debounce passes 42,11 on, in #3's column; the colour follows it.
        driver.pass(.milliseconds(400))
        rows = DrawnLaneTests.screenRows(driver.frame)
        #expect(Self.lane("slotted", in: rows) == "^a├────c", "\(rows)")
        #expect(Self.lane("ballColour", in: rows)?.hasSuffix("─●") == true, "\(rows)")
        // #4: ten cells left, 32,11, in the left half: filter stops it, so nothing reaches debounce.
        driver.send(.arrowPressed(.left, distance: 10))
        driver.pass(.milliseconds(400))
        rows = DrawnLaneTests.screenRows(driver.frame)
        #expect(Self.lane(".filter { … }", in: rows) == "  ├a─b─c──", "\(rows)")
        #expect(Self.lane("slotted", in: rows) == "^a├────c──", "\(rows)")
        #expect(Self.lane("position", in: rows)?.hasSuffix("c─d") == true, "\(rows)")
        // The pointer on filter's lane says why, and its code in full.
        let top = rows.firstIndex { $0.hasPrefix(" streams ") } ?? -1
        let filterRow = rows.firstIndex { $0.hasPrefix(" .filter { … }") } ?? 0
        driver.hover(at: Cell(column: StreamPanel.labelWidth + 2 * 4 + 1, row: filterRow))
        rows = DrawnLaneTests.screenRows(driver.frame)
        #expect(
            rows.contains {
                $0.hasPrefix(" #4: nothing: 32,11 filtered out ← .filter { $0.isInRightHalf }")
            }, "\(rows.suffix(3)), panel from row \(top)")
        driver.hover(at: Cell(column: StreamPanel.labelWidth + 2 * 2 + 1, row: filterRow))
        rows = DrawnLaneTests.screenRows(driver.frame)
        #expect(
            rows.contains {
                $0.hasPrefix(" #2: ○ 41,11: filter passed it on to debounce ← .filter { $0.isInRightHalf }")
            }, "\(rows.suffix(3))")
    }

    @Test(
        "the time view (T) draws each stage's lane at its own time: filter's values at once, debounce's wait ~ on its own lane"
    )
    func timeView() {
        let driver = Self.filterThenDebounce()
        driver.type("T")
        driver.passTime(to: 1.0)
        driver.press(.right)  // #2 at 1.0 s: 41,11.
        driver.pass(.milliseconds(100))
        driver.press(.right)  // #3 at 1.1 s: 42,11; debounce passes it on at 1.4 s.
        driver.passTime(to: 2.0)
        let rows = DrawnLaneTests.screenRows(driver.frame)
        // A span a cell, 100 ms each: filter's values in spans 10 and 11, debounce's at 14 with
        // its wait before it; the first span holds the build, handed 40,11 (a).
        let filter = Self.lane(".filter { … }", in: rows).map(Array.init) ?? []
        let debounce = Self.lane("slotted", in: rows).map(Array.init) ?? []
        #expect(filter.count > 11 && filter[10] == "b" && filter[11] == "c", "\(rows)")
        #expect(debounce.count > 14 && String(debounce[10...14]) == "~~~~c", "\(rows)")
        #expect(!filter.contains("~"), "the wait is debounce's: \(rows)")
    }

    @Test("the player (replay F) draws the stage lanes of the recording, map's 1 1 1 over scan's 1 2 3, in both views")
    func player() throws {
        let recorded = try RecordedPlay()
        let driver = recorded.pilot
        driver.send(.operatorChosen(.counter))  // #1: handed 40,11: 1.
        for _ in 0..<3 {
            driver.pass(.milliseconds(200))
            driver.press(.right)  // #2–#4: 2, 3, 4.
        }
        driver.type("q")
        let pilot = try recorded.player(screen: ScreenSize(columns: 80, rows: 24))
        pilot.press(.end)
        if !pilot.player.streamsOpen { pilot.type("s") }
        var rows = DrawnLaneTests.screenRows(pilot.frame)
        #expect(Self.lane(".map {_ in 1}", in: rows) == "  ├1─1─1─1─|", "\(rows)")
        #expect(Self.lane("slotted", in: rows) == "^a├1─2─3─4─|", "\(rows)")
        pilot.type("T")
        rows = DrawnLaneTests.screenRows(pilot.frame)
        let map = Self.lane(".map {_ in 1}", in: rows) ?? ""
        let scan = Self.lane("slotted", in: rows) ?? ""
        #expect(map.filter { $0 == "1" }.count == 4, "\(rows)")
        #expect(scan.filter { "1234".contains($0) }.count >= 3 && scan.hasSuffix("4|"), "\(rows)")
    }

    @Test(
        "a three-stage pipe reading the mirror at 80×24 in play: every lane drawn or named, none cut silently; the panel keeps its rows"
    )
    func rowBudget() {
        let driver = Pilot<Play>(screen: ScreenSize(columns: 80, rows: 24))
        driver.toggleStreams()
        driver.send(.operatorChosen([.combineLatest, .filter, .debounce]))
        for kind in LateSubscriber.allCases { driver.toggleLate(kind) }
        driver.press(.right)
        let rows = DrawnLaneTests.screenRows(driver.frame)
        // The ruler gives up its row first (the late rows all have lanes).
        #expect(!rows.contains { $0.hasPrefix(" streams ") }, "\(rows)")
        guard let top = rows.firstIndex(where: { $0.hasPrefix(" intents ") }) else {
            Issue.record("no panel: \(rows)")
            return
        }
        // The panel takes the rows it keeps at most with a slot, and no more.
        let status = rows.count - 1
        #expect(status - top <= StreamPanel.rows(slot: true), "\(rows)")
        let labels = [".combineLatest", ".filter { … }", "mirror"]
        let description = rows[status - 1]
        for label in labels {
            let drawn = rows.contains { $0.hasPrefix(" \(label)") }
            #expect(drawn || description.contains(label), "\(label) neither drawn nor named: \(rows)")
        }
        #expect(rows.contains { $0.hasPrefix(" slotted ") }, "the last stage's lane, the slot's: \(rows)")
    }

    @Test("learn's counter lesson: map's lane over scan's within learn's rows")
    func learn() {
        let index = Lesson.all.firstIndex { $0.id == "counter" } ?? 10
        let pilot = Pilot<Learn>(first: index)
        pilot.type("f")
        pilot.type("1")
        pilot.type("f")
        pilot.type("9")
        for _ in 0..<3 { pilot.press(.right) }
        let rows = DrawnLaneTests.screenRows(pilot.frame)
        #expect(Self.lane(".map {_ in 1}", in: rows)?.hasSuffix("1─1─1─1") == true, "\(rows)")
        #expect(Self.lane("slotted", in: rows)?.hasSuffix("1─2─3─4") == true, "\(rows)")
    }
}

import BallModel
import BallPlayer
import BallProgram
import BallRendering
import BallReplay
import BallStreams
import BallTestSupport
import TerminalIO
import Testing
import TextFormats

/// What the panel draws of the late lanes, read as a user sees it (the frame through the
/// rasteriser into a small xterm), against the reference model of each subject kind
/// (``SubjectZooModel``): in play, as keys and moves come, and in the player, from the recording
/// the session made and at its end, where late subscribers meet completed subjects.
@Suite("The late lanes as drawn, against the reference model")
struct DrawnLaneTests {
    /// Wide enough that a run's columns all sit on the panel's first page.
    static let size = ScreenSize(columns: 200, rows: 30)

    /// The drawn text of each late lane's row after its label, by kind (its hint when it has
    /// no lane; of a kind's rows, the last: its newest lane's), through the rasteriser and the
    /// emulator; a position's letter read as `○` (the
    /// model knows where a value is, not its letter: the letters are StreamsTests').
    static func drawnLanes(_ frame: Frame) -> [LateSubscriber: String] {
        var rasteriser = Rasteriser(sequences: .xterm(palette: .xterm256, backColourErase: true))
        let rows = TerminalEmulator.showing(frame, through: &rasteriser).rowTexts
        var lanes: [LateSubscriber: String] = [:]
        for kind in LateSubscriber.allCases {
            let label = " " + StreamLane.late(kind).label
            // (Above the values line: the line under it may begin with a lane's name.)
            let above = rows[..<(rows.lastIndex { $0.hasPrefix(" values ") } ?? rows.count)]
            guard let row = above.last(where: { $0.hasPrefix(label + " ") }) else { continue }
            let marks = row.unicodeScalars.dropFirst(StreamPanel.labelWidth)
            let lane = String(String(String.UnicodeScalarView(marks)).reversed().drop { $0 == " " }.reversed())
            lanes[kind] =
                lane.hasPrefix("\(kind.key)")
                ? lane
                : String(
                    String.UnicodeScalarView(
                        lane.unicodeScalars.map { MarbleValue.letters.contains($0) ? Glyph.value : $0 }))
        }
        return lanes
    }

    /// Each kind's drawn lane is the model's (the hint where the model has none).
    /// `player`: the player's page, which keeps a kind's ended lanes beside its newest.
    static func expectDrawn(
        _ frame: Frame, _ model: SubjectZooModel, player: Bool = false, _ context: String
    ) -> Bool {
        let drawn = drawnLanes(frame)
        var same = true
        for kind in LateSubscriber.allCases {
            let expected = model.drawn(kind, keepingEnded: player)
            guard let shown = drawn[kind] else {
                // The player's idle row gives its row up to a lane cancelled where its kind was
                // subscribed again, which has a row of its own.
                if player, expected == nil { continue }
                Issue.record("no row for \(kind): \(context)")
                return false
            }
            if let expected {
                #expect(shown == expected, "\(kind): \(context)")
                same = same && shown == expected
            } else {
                #expect(shown.hasPrefix("\(kind.key)"), "\(kind) has no lane: its key's hint. \(context)")
            }
        }
        return same
    }

    @Test(
        "100 seeded runs of moves, subscribes, cancels (in the same column too), panel toggles and quits: every late lane drawn as the model says, in play and in the player",
        .tags(.slow), .skippedInQuickRuns
    )
    func againstTheModel() throws {
        var generator = SeededGenerator()
        for run in 0..<100 {
            let recorded = try RecordedPlay(screen: Self.size)
            let driver = recorded.pilot
            driver.toggleStreams()
            var model = SubjectZooModel()
            var state = driver.session.state
            let context = { "run \(run), \(generator)" }
            for _ in 0..<(1 + generator.below(40)) {
                switch generator.below(12) {
                case 0...4:
                    let direction = Direction.allCases[generator.below(Direction.allCases.count)]
                    let shifted = generator.below(3) == 0
                    driver.press(direction, shifted: shifted)
                    let next = reduce(state, .arrowPressed(direction, distance: shifted ? KeyMap.bigStep : 1))
                    model.intent(published: next.position != state.position)
                    state = next
                case 5:
                    // Looking touches nothing: the panel closes and opens again.
                    driver.toggleStreams()
                    driver.toggleStreams()
                default:
                    // One key, or the same key again at once: a cancel in the column it began.
                    let kind = LateSubscriber.allCases[generator.below(LateSubscriber.allCases.count)]
                    for _ in 0..<(generator.below(3) == 0 ? 2 : 1) {
                        driver.toggleLate(kind)
                        model.toggle(kind)
                    }
                }
                #expect(driver.session.state == state, "\(context())")
                guard Self.expectDrawn(driver.frame, model, "play: \(context())") else {
                    return
                }
            }
            if generator.below(2) == 0 {
                driver.type("q")
                model.quit()
            }
            // The recording replays the subscriptions where they were made: at its end the
            // player draws the same lanes.
            let pilot = try recorded.player(screen: ScreenSize(columns: Self.size.columns, rows: 40))
            pilot.press(.end)
            if !pilot.player.streamsOpen { pilot.type("s") }
            guard
                Self.expectDrawn(
                    pilot.frame, model, player: true, "player at the end: \(context())")
            else { return }
            // Late subscribers to subjects that completed (or not): each kind once or twice.
            for _ in 0..<(1 + generator.below(4)) {
                let kind = LateSubscriber.allCases[generator.below(LateSubscriber.allCases.count)]
                pilot.type(kind.key)
                model.toggle(kind)
            }
            guard
                Self.expectDrawn(
                    pilot.frame, model, player: true, "player, keys at the end: \(context())")
            else { return }
        }
    }

    @Test(
        "the issue's reproducer: all four subscribed and cancelled between two moves, each subscription and cancel in a column of its own: ^○ ─!, ^─ ─!, ^³ ─!, ^○ ─!, never | for a cancel"
    )
    func cancelledInTheirColumn() {
        let driver = Pilot<Play>(screen: ScreenSize(columns: 80, rows: 24))
        driver.toggleStreams()
        driver.press(.left)
        driver.press(.left)
        for kind in LateSubscriber.allCases {
            driver.toggleLate(kind)
            driver.toggleLate(kind)
        }
        driver.press(.left)
        let drawn = Self.drawnLanes(driver.frame)
        // After column 2 (cells 4 and 5 after the label), eight columns of their own, in the
        // order the keys came: b's subscription (cells 6 and 7), its cancel, p's, ….
        #expect(drawn[.behavior] == "      ^○─!")
        #expect(drawn[.publish] == "          ^──!")
        #expect(drawn[.replay] == "              ^³─!")
        #expect(drawn[.relay] == "                  ^○─!")
    }

    @Test(
        "the player at the end of a recording that quit: late Behavior and Publish ^|, Replay(3) ^³|, Relay ^○, each in a column of its own after the quit's"
    )
    func lateToCompletedSubjects() throws {
        let pilot = try Pilot<ReplayProgram>(SampleRecording.bytes, screen: ScreenSize(columns: 80, rows: 40))
        pilot.press(.end)
        pilot.type("s")
        for kind in LateSubscriber.allCases { pilot.type(kind.key) }
        let drawn = Self.drawnLanes(pilot.frame)
        let page = StreamPanel.pageStart(latest: pilot.player.place, width: 80)
        let pad = String(repeating: " ", count: 2 * (pilot.player.place - page))
        // After the quit's column, in the order the keys came.
        #expect(drawn[.behavior] == pad + "  ^|")
        #expect(drawn[.publish] == pad + "    ^|")
        #expect(drawn[.replay] == pad + "      ^³|")
        #expect(drawn[.relay] == pad + "        ^○")
    }

    /// The screen's rows as a terminal shows them, through the rasteriser and the emulator.
    static func screenRows(_ frame: Frame) -> [String] {
        var rasteriser = Rasteriser(sequences: .xterm(palette: .xterm256, backColourErase: true))
        return TerminalEmulator.showing(frame, through: &rasteriser).rowTexts
    }

    @Test(
        "as a terminal shows them at 80×24: the counter's lane reads 1 2 3 after ├.map.scan, filter's part stays when debounce goes in, the mirror's flips read T F, the values line names the letters"
    )
    func valuesAndSegmentsOnScreen() {
        let driver = Pilot<Play>(screen: ScreenSize(columns: 80, rows: 24))
        driver.toggleStreams()
        driver.send(.operatorChosen(.counter))  // #1: handed 40,11: 1.
        for _ in 0..<3 { driver.press(.right) }  // #2–#4: 2, 3, 4.
        var rows = Self.screenRows(driver.frame)
        #expect(rows.contains { $0.hasPrefix(" in the slot      ├.map.scan ") }, "\(rows)")
        // Each stage its lane: map's 1 1 1 over the slot's 1 2 3 (`slotted`: the empty slot's `^a` is on it too).
        #expect(rows.contains { $0.hasPrefix(" .map {_ in 1}    ├1─1─1─1 ") }, "\(rows)")
        #expect(rows.contains { $0.hasPrefix(" slotted        ^a├1─2─3─4 ") }, "\(rows)")
        #expect(rows.contains { $0.hasPrefix(" position       ^a───b─c─d ") }, "\(rows)")
        #expect(rows.contains { $0.hasPrefix(" values         a=40,11 b=41,11 c=42,11 d=43,11 ") }, "\(rows)")
        // filter (#5, handed 43,11, d), a move left (#6, 42,11, c), then debounce (#7): filter's part
        // keeps its marbles and its name; debounce's starts at #7.
        driver.send(.operatorChosen([.filter]))
        driver.press(.left)
        driver.send(.operatorChosen([.debounce]))
        rows = Self.screenRows(driver.frame)
        // Each name as far as the next part's start, cut with …; the last whole.
        #expect(rows.contains { $0.hasPrefix(" in the slot      ├.map.s…├.f…├.debounce ") }, "\(rows)")
        #expect(rows.contains { $0.hasPrefix(" slotted        ^a├1─2─3─4├d─c├─ ") }, "\(rows)")
        // map's lane keeps what it drew while the counter was in: the one-stage pipes after it
        // have no stage before their last.
        #expect(rows.contains { $0.hasPrefix(" .map {_ in 1}    ├1─1─1─1       ") }, "\(rows)")
        // combineLatest reads mirror: its lane, the subject's, ^F at the start and each flip's
        // new state; nothing where combineLatest subscribed (the F it was handed there, with the
        // position, is combineLatest's, not a value mirror sent).
        driver.send(.operatorChosen([.combineLatest]))  // #8
        driver.type("i")  // #9: on.
        driver.type("i")  // #10: off.
        rows = Self.screenRows(driver.frame)
        #expect(rows.contains { $0.hasPrefix(" mirror         ^F─────────────────T─F ") }, "\(rows)")
    }

    @Test(
        "a value and then a cancel are drawn in Rx's order: the value in the move's cell, the ! in the cancel's own column after it, never the value before the move"
    )
    func cancelAfterValue() {
        let driver = Pilot<Play>(screen: ScreenSize(columns: 80, rows: 24))
        driver.toggleStreams()
        driver.press(.left)  // #1: 39,11.
        driver.toggleLate(.behavior)  // In #1: handed 39,11.
        driver.press(.left)  // #2: 38,11 received with the move.
        driver.toggleLate(.behavior)  // In #2, after it: cancelled.
        let rows = Self.screenRows(driver.frame)
        // The intents lane's arrow stands in #2's second cell: so does the value it made; each
        // b in a column of its own after the move it came after.
        #expect(rows.contains { $0.hasPrefix(" intents        ^──←───←── ") }, "\(rows)")
        #expect(rows.contains { $0.hasPrefix(" late Behavior      ^b─c─! ") }, "\(rows)")
        #expect(rows.contains { $0.hasPrefix(" values         ") && $0.contains("b=39,11 c=38,11") }, "\(rows)")
    }

    /// The glyph at `cell` of the row labelled `label` in `rows`.
    static func glyph(_ label: String, _ cell: Int, in rows: [String]) -> Character? {
        guard let row = rows.first(where: { $0.hasPrefix(" \(label) ") }) else { return nil }
        let characters = Array(row)
        return cell < characters.count ? characters[cell] : nil
    }

    @Test(
        "a position keeps its letter as the page turns and in the time view, on the cells a terminal shows; the values line names it"
    )
    func lettersStayOnScreen() {
        let driver = Pilot<Play>(screen: ScreenSize(columns: 80, rows: 24))
        driver.toggleStreams()
        // #1–#20, 100 ms apart: 39,11 to 20,11, the page's columns 1 to 20 (two cells each).
        for _ in 0..<20 {
            driver.pass(.milliseconds(100))
            driver.press(.left)
        }
        var rows = Self.screenRows(driver.frame)
        let marble = { (column: Int) in StreamPanel.labelWidth + 2 * column + 1 }
        // The position at #j (40 - j, 11) and its letter.
        let before = (0...20).map { Self.glyph("position", marble($0), in: rows) }
        #expect(before[0] == "a" && before[1] == "b", "\(rows)")
        #expect(Set(before).count == 21, "\(before)")
        #expect(rows.contains { $0.hasPrefix(" values ") && $0.contains(" \(before[19]!)=21,11 ") }, "\(rows)")
        // #21–#40: 21,11 back to 40,11; past the page's 31 columns it turns, from #15 on.
        for _ in 0..<20 {
            driver.pass(.milliseconds(100))
            driver.press(.right)
        }
        rows = Self.screenRows(driver.frame)
        #expect(rows.first { $0.hasPrefix(" streams ") }?.contains(" 15 ") == true, "\(rows)")
        // #k (k from 21 to 40) is at 40 - j for j = 40 - k: the same letter as #j before the turn.
        for k in 21...40 {
            #expect(Self.glyph("position", marble(k - 15), in: rows) == before[40 - k], "#\(k): \(rows)")
        }
        // The values line lists them in the order the page draws them: 40,11 last.
        #expect(rows.contains { $0.hasPrefix(" values ") && $0.split(separator: " ").last == "a=40,11" }, "\(rows)")
        // The time view, a span (a cell) for each 100 ms: #k in span k, the same letters.
        driver.type("T")
        rows = Self.screenRows(driver.frame)
        for k in 1...40 {
            let letter = before[k <= 20 ? k : 40 - k]
            #expect(Self.glyph("position", StreamPanel.labelWidth + k, in: rows) == letter, "#\(k): \(rows)")
        }
    }
}

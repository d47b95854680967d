import BallModel
import BallProgram
import BallRendering
import BallStreams
import BallTestSupport
import ColourCore
import Foundation
import Testing

/// The streams panel: what each lane shows at each column, after real intents through the
/// real session and publishers.
@Suite("Streams as marble lanes")
struct StreamsTests {
    /// Each lane as text: two characters per column (the `^`/`|` mark or line, then the
    /// marble), from the start column on, each late subscription and cancel in a column of its
    /// own after its intent's, as the panel draws them; late lanes start blank before their
    /// subscription.
    static func lanes(_ driver: Pilot<Play>) -> [String: String] {
        let columns = StreamColumn.withMoments(driver.streams.columns)
        let panel = StreamPanel(columns: columns, lateLanes: driver.streams.lateLanes)
        // Two cells a column, and the cell after the last for a third mark (`^3|`).
        let width = StreamPanel.labelWidth + 2 * columns.count + 1
        var lanes: [String: String] = [:]
        let lines = panel.lines(width: width)
        for (index, lane) in StreamLane.main.enumerated() {
            lanes[lane.label] = text(lines[index + 1])
        }
        // A row for each kind, in the key map's order; only the kinds subscribed are read.
        for (slot, kind) in LateSubscriber.allCases.enumerated() where driver.streams.lateLane(kind) != nil {
            lanes[StreamLane.late(kind).label] = text(lines[5 + slot])
        }
        return lanes
    }

    /// The slot's lane of `panel` as ``text(_:)`` gives it, and the row above it that names its
    /// segments, drawn `columns` columns wide.
    static func slotLane(_ panel: StreamPanel, columns: Int) -> (lane: String, segments: String) {
        let lines = panel.lines(width: StreamPanel.labelWidth + 2 * columns + 1)
        // The ruler, the lanes above the slot's, the segments' row, then the slot's lane.
        let row = 2 + panel.mainLanes.firstIndex(of: .slotted)!
        return (text(lines[row]), text(lines[row - 1]))
    }

    /// A lane's cells after its label, without the last when it holds no third mark.
    private static func text(_ line: [LaneCell]) -> String {
        let text = String(String.UnicodeScalarView(line.dropFirst(StreamPanel.labelWidth).map(\.glyph)))
        return text.hasSuffix(" ") ? String(text.dropLast()) : text
    }

    @Test(
        "every lane at every column: a drag within one band (one ●, then ·), the black band (background ·), a clamp at the edge (no ○), late subscribers"
    )
    func wholeLanes() {
        let driver = Pilot<Play>()
        // Column 1: a press that moves nothing; 2–5: a drag (40,11 is flatRed on flatMint; from
        // 42,11 the ball is flatBlackDark, whose complement is itself: the black band).
        driver.send(.pressed(at: Cell(column: 40, row: 11)))
        for column in 41...44 { driver.send(.dragged(to: Cell(column: column, row: 11))) }
        driver.send(.released(at: Cell(column: 44, row: 11)))
        // 7–14: five cells right each, until the ball is held at the right edge (70,11).
        for _ in 0..<8 { driver.press(.right, shifted: true) }
        driver.toggleLate(.behavior)  // In column 14: handed 70,11 at once.
        driver.press(.left)  // 15
        driver.toggleLate(.publish)  // In column 15: nothing yet.
        driver.press(.up)  // 16
        #expect(
            Self.lanes(driver) == [
                // Each subscription in a column of its own after the intent it came after.
                "intents": "^──▼─•─•─•─•─▲─→─→─→─→─→─→─→─→───←───↑",
                "position": "^a───b─c─d─e───f─g─h─i─j─k───────j───l",
                "ballColour": "^●───·─●─·─·───●─·─●─●─·─·───────·───·",
                "background": "^■─────·───────■───■─■────────────────",
                "late Behavior": "                              ^k─j───l",
                "late Publish": "                                  ^──l",
            ])
        // What the columns say of the state (the headless replay's derivation, column by column).
        let states = driver.streams.columns.map { column in
            let state = column.state!
            return
                "\(state.position.centre.column),\(state.position.centre.row) \(state.ball.name) \(state.background.name)"
        }
        #expect(states[3] == "42,11 flatBlackDark flatMint")
        #expect(states[7] == "49,11 flatMaroonDark flatTealDark")
        #expect(states[12...14].allSatisfy { $0 == "70,11 flatRedDark flatGray" })
    }

    @Test(
        "the subject zoo: Publish misses the latest, Replay(3) is handed three, a key again unsubscribes (!), quitting completes every lane but the relay's"
    )
    func zooAndEndings() {
        let driver = Pilot<Play>()
        driver.toggleLate(.behavior)  // Column 0: handed the start's position.
        driver.press(.right)  // 1
        driver.toggleLate(.publish)  // In column 1: handed nothing.
        driver.press(.right)  // 2
        driver.toggleLate(.publish)  // Again, in column 2: unsubscribed after this column's ○.
        driver.toggleLate(.replay)  // In column 2: handed 40,11, 41,11 and 42,11 at once.
        driver.toggleLate(.relay)  // In column 2: handed 42,11.
        driver.press(.right)  // 3
        driver.send(.quitRequested)  // 4: every subject completes; the relay does not.
        #expect(
            Self.lanes(driver) == [
                // Each subscription and cancel in a column of its own after the intent before it.
                "intents": "^────→───→───────→─q|", "position": "^a───b───c───────d─|",
                "ballColour": "^●───·───●───────·─|", "background": "^■───────·─────────|",
                "late Behavior": "  ^a─b───c───────d─|", "late Publish": "      ^──c─!        ",
                "late Replay(3)": "            ^³───d─|", "late Relay": "              ^c─d──",
            ])
        let lanes = LateSubscriber.allCases.map { driver.streams.lateLane($0)! }
        #expect(lanes.map(\.handed) == [1, 0, 3, 1])
        #expect(
            lanes.map(\.end) == [
                LateLane.End(column: 4, ending: .completed),
                // The first thing after #2's intent.
                LateLane.End(column: 2, ending: .unsubscribed, moment: 0),
                LateLane.End(column: 4, ending: .completed), nil,
            ])
        // Pointing at a late lane's column names the values it received there, oldest first, each
        // by the letter its lane draws; at a subscription's or a cancel's own column, what it did.
        let drawn = StreamColumn.withMoments(driver.streams.columns)
        let panel = StreamPanel(columns: drawn, lateLanes: driver.streams.lateLanes)
        let columns = driver.streams.columns
        func after(_ index: Int, _ moment: Int) -> StreamColumn {
            drawn.first { $0.index == index && $0.moment == moment } ?? StreamColumn(index: -1)
        }
        #expect(
            panel.describe(after(2, 1), in: .late(.replay)).hasPrefix(
                "#2: ^³ handed a 40,11 · b 41,11 · c 42,11 at once: a Replay subject keeps the last 3 ← "))
        #expect(panel.describe(columns[2], in: .late(.publish)).hasPrefix("#2: c 42,11 ← "))
        #expect(panel.describe(after(2, 0), in: .late(.publish)).hasPrefix("#2: ! unsubscribed (p again) ← "))
        #expect(
            panel.describe(after(0, 0), in: .late(.behavior)).hasPrefix(
                "#0: ^a handed 40,11 at once: a Behavior subject hands the latest ← "))
        #expect(panel.describe(columns[3], in: .late(.relay)).hasPrefix("#3: d 43,11 ← "))
        #expect(
            panel.describe(columns[4], in: .late(.replay)).hasPrefix(
                "#4: | completed: the position subject completed (the session quit) ← "))
        // Publish again after the quit (as the player can, at the last place): a completed
        // subject hands a new subscriber only the end.
        driver.streams.toggleLate(.publish)
        #expect(Self.lanes(driver)["late Publish"] == "                    ^|")
        #expect(driver.streams.lateLane(.publish)?.end == LateLane.End(column: 4, ending: .completed, moment: 0))
        let later = StreamColumn.withMoments(driver.streams.columns)
        let quitted = StreamPanel(columns: later, lateLanes: driver.streams.lateLanes)
        #expect(
            quitted.describe(
                later.first { $0.index == 4 && $0.moment == 0 } ?? StreamColumn(index: -1), in: .late(.publish)
            ).hasPrefix(
                "#4: ^| handed only the completion: the Publish subject had completed ← "))
        // Replay(3) after the quit: its three, then the completion (^3|).
        driver.streams.toggleLate(.replay)
        driver.streams.toggleLate(.replay)
        #expect(Self.lanes(driver)["late Replay(3)"] == "                        ^³|")
    }

    @Test(
        "debounce's lane says what it held and how soon the next intent came, and what it let through, when: 300 ms after, with no new position"
    )
    func debounceWords() {
        let driver = Pilot<Play>()  // 40,11 on 80×24.
        driver.send(.operatorChosen([.debounce]))  // #1 at 0: handed 40,11, held.
        driver.passTime(to: 0.1)
        driver.press(.left)  // #2 at 0.1: 39,11 held, 40,11 dropped.
        driver.passTime(to: 0.22)
        driver.press(.left)  // #3 at 0.22: 38,11 held, 39,11 dropped; through at 0.52.
        driver.passTime(to: 1)
        driver.press(.left)  // #4 at 1: 37,11 held.
        var panel = StreamPanel(columns: driver.streams.columns, lateLanes: [])
        panel.showsSlot = true
        let columns = driver.streams.columns
        let said = (1...4).map { panel.describe(columns[$0], in: .slotted) }
        let code = "slotted = position.debounce(.milliseconds(300), scheduler: clock)"
        #expect(said[0] == "#1: debounce: 40,11 waits for 300 ms with no new position; #2 came 100 ms later ← \(code)")
        #expect(said[1] == "#2: debounce: 39,11 waits for 300 ms with no new position; #3 came 120 ms later ← \(code)")
        #expect(said[2] == "#3: ○ 38,11 at 0.520 s: debounce, 300 ms went by with no new position ← \(code)")
        #expect(said[3] == "#4: debounce: 37,11 waits for 300 ms with no new position ← \(code)")
        // Drawn: the lane's one marble after the start is in #3's column, where 38,11 went through.
        // The operator went in at #1: its part of the lane starts there (├), named above it.
        let (lane, segments) = Self.slotLane(panel, columns: columns.count)
        #expect(lane == "^a├────c──")
        #expect(segments == "  ├.deboun…")
    }

    @Test(
        "distinctUntilChanged's lane says when the ball crossed to the other half and what it dropped; f then d puts it in"
    )
    func distinctUntilChangedWords() {
        let driver = Pilot<Play>()  // 40,11 on 80×24: the right half (from column 40 on).
        driver.type("f")
        driver.type("d")  // #1: handed 40,11, the first: through.
        #expect(driver.session.state.slot == [.distinctUntilChanged])
        driver.press(.left)  // #2: 39,11, the left half: through.
        driver.press(.left)  // #3: 38,11, left still: dropped.
        var panel = StreamPanel(columns: driver.streams.columns, lateLanes: [])
        panel.showsSlot = true
        let columns = driver.streams.columns
        let said = (1...3).map { panel.describe(columns[$0], in: .slotted) }
        let code = "slotted = position.distinctUntilChanged { $0.isInRightHalf == $1.isInRightHalf }"
        #expect(
            said[0] == "#1: ○ 40,11: distinctUntilChanged chosen, subscribed and handed the position at once ← \(code)")
        #expect(said[1] == "#2: ○ 39,11: the ball crossed into the left half, so it differs from the last ← \(code)")
        #expect(
            said[2]
                == "#3: nothing: 38,11 is in the left half, as the last that went through: distinctUntilChanged drops it ← \(code)"
        )
        #expect(Self.slotLane(panel, columns: columns.count).lane == "^a├a─b──")
    }

    @Test(
        "throttle's lane says what it passed as it was chosen, what it held until when, what went through at the window's end, and what went through at once"
    )
    func throttleWords() {
        let driver = Pilot<Play>()  // 40,11 on 80×24.
        driver.send(.operatorChosen([.throttle]))  // #1 at 0: handed 40,11 subscribing: through; a window to 0.3.
        driver.passTime(to: 0.1)
        driver.press(.left)  // #2 at 0.1: 39,11 held.
        driver.passTime(to: 0.2)
        driver.press(.left)  // #3 at 0.2: 38,11 held (the latest).
        driver.passTime(to: 0.25)
        driver.press(.left)  // #4 at 0.25: 37,11 held (the latest); through at 0.3.
        driver.passTime(to: 1)
        driver.press(.left)  // #5 at 1: 36,11 through at once, the window from 0.3 over.
        var panel = StreamPanel(columns: driver.streams.columns, lateLanes: [])
        panel.showsSlot = true
        let columns = driver.streams.columns
        let said = (1...5).map { panel.describe(columns[$0], in: .slotted) }
        let code = "slotted = position.throttle(.milliseconds(300), latest: true, scheduler: clock)"
        #expect(
            said[0]
                == "#1: ○ 40,11 through at once: throttle, chosen, passes the position handed as it subscribes and a 300 ms window starts (Combine's throttle drops it) ← \(code)"
        )
        #expect(
            said[1]
                == "#2: throttle: 39,11 held: its window from 0.000 s ends at 0.300 s; then the latest goes through ← \(code)"
        )
        #expect(
            said[2]
                == "#3: throttle: 38,11 held: its window from 0.000 s ends at 0.300 s; then the latest goes through ← \(code)"
        )
        #expect(
            said[3] == "#4: ○ 37,11 at 0.300 s: throttle's window ended; the latest position goes through ← \(code)")
        #expect(
            said[4]
                == "#5: ○ 36,11 through at once: its window from 0.300 s was over, so throttle lets it through and a 300 ms window starts ← \(code)"
        )
        // Drawn: after the start's, marbles in #1 (handed as chosen), #4 (at the window's end)
        // and #5; none in #2 or #3.
        #expect(Self.slotLane(panel, columns: columns.count).lane == "^a├a─────d─e")
        #expect(driver.session.state.slotted.position?.centre.column == 36)
    }

    @Test(
        "the slot's lane says what sample and combineLatest did with the mirror, and draws a marble where each passed one on"
    )
    func mirrorWords() {
        let driver = Pilot<Play>()  // 40,11 on 80×24.
        driver.send(.operatorChosen([.sample]))  // #1: sampled at once.
        driver.press(.left)  // #2: 39,11 held.
        driver.press(.left)  // #3: 38,11 held (the latest).
        driver.type("i")  // #4: the mirror on: 38,11 sampled.
        driver.type("i")  // #5: off: nothing new to sample.
        driver.send(.operatorChosen([.combineLatest]))  // #6: 38,11, the mirror off.
        driver.type("i")  // #7: on: 38,11 mirrored, 41,11.
        driver.press(.left)  // #8: 37,11 mirrored, 42,11.
        var panel = StreamPanel(columns: driver.streams.columns, lateLanes: [])
        panel.showsSlot = true
        let columns = driver.streams.columns
        let said = (1...8).map { panel.describe(columns[$0], in: .slotted) }
        let sample = "slotted = position.sample(mirror)"
        let combine = "slotted = Observable.combineLatest(position, mirror) { $1 ? $0.mirrored : $0 }"
        #expect(
            said == [
                "#1: ○ 40,11: sample chosen, subscribed to position (handed it) and then to mirror, which hands sample alone its value (mirror's lane: nothing new sent), and that samples it at once ← \(sample)",
                "#2: sample: 39,11 held until the mirror flips (i) ← \(sample)",
                "#3: sample: 38,11 held until the mirror flips (i) ← \(sample)",
                "#4: ○ 38,11: the mirror flipped, so sample passes on the latest position ← \(sample)",
                "#5: nothing: the mirror flipped, but no new position came since sample last passed one on ← \(sample)",
                "#6: ○ 38,11: combineLatest chosen, subscribed to position and mirror, each handing its latest at once (the mirror is off) ← \(combine)",
                "#7: ○ 41,11 (38,11 mirrored): the mirror flipped on, so combineLatest passes the latest position on again ← \(combine)",
                "#8: ○ 42,11 (37,11 mirrored): a new position, with the mirror's latest (on) ← \(combine)",
            ])
        // The intents lane shows the flips (¦); the slot's lane a marble in #1, #4, #6, #7, #8.
        let lines = panel.lines(width: StreamPanel.labelWidth + 2 * columns.count + 1)
        #expect(Self.text(lines[1]) == "^──ƒ─←─←─¦─¦─ƒ─¦─←")
        // combineLatest's second input has its lane, named as the code names it: each flip.
        #expect(panel.mainLanes == [.intents, .position, .mirror, .slotted, .ballColour, .background])
        #expect(lines[3].starts(with: LaneCell.text(" mirror", width: StreamPanel.labelWidth)))
        // The mirror's states are its marbles (T, F); the positions are letters: 38,11 is c, its
        // mirror image 41,11 is d, 37,11 e, and e mirrored 42,11 f.
        // Where sample (#1) and combineLatest (#6) went in, each subscribed to mirror, which
        // handed it its value at once: that value is the new subscription's, not one the subject
        // sent, so the subject's lane draws nothing there (as position's, which they read too).
        #expect(Self.text(lines[3]) == "^F───────T─F───T──")
        #expect(
            panel.describe(columns[6], in: .mirror).hasPrefix(
                "#6: nothing new: the pipe put in here subscribed to mirror (a Behavior subject) and was handed F false at once: the new subscription's value, not one mirror sent"
            ))
        #expect(panel.describe(columns[4], in: .mirror).hasPrefix("#4: T true: the mirror flipped on ← "))
        #expect(panel.describe(columns[0], in: .mirror).hasPrefix("#0: F false: the mirror's value, handed at once"))
        #expect(Self.text(lines[5]) == "^a├a─────c──├c─d─f")
        #expect(Self.text(lines[4]) == "  ├.sample  ├.comb…")
        #expect(driver.session.state.slotted.position?.centre.column == 42)
    }

    @Test("merge draws a lane for each of its inputs, mouse and keys; short of rows, the last is folded and named")
    func mergeInputLanes() {
        let driver = Pilot<Play>()  // 40,11 on 80×24.
        driver.send(.operatorChosen([.merge]))  // #1: handed nothing.
        driver.press(.left)  // #2: keys 39,11.
        driver.send(.pressed(at: Cell(column: 39, row: 11)))  // #3: grabs, moves nothing.
        driver.send(.dragged(to: Cell(column: 41, row: 11)))  // #4: mouse 41,11.
        driver.send(.released(at: Cell(column: 41, row: 11)))  // #5: moves nothing.
        driver.press(.right)  // #6: keys 42,11.
        var panel = StreamPanel(columns: driver.streams.columns, lateLanes: [])
        panel.showsSlot = true
        let width = StreamPanel.labelWidth + 2 * driver.streams.columns.count + 1
        var lines = panel.lines(width: width)
        #expect(panel.mainLanes == [.intents, .position, .mouse, .keys, .slotted, .ballColour, .background])
        #expect(lines[3].starts(with: LaneCell.text(" mouse", width: StreamPanel.labelWidth)))
        #expect(Self.text(lines[3]) == "^────────c────")
        #expect(lines[4].starts(with: LaneCell.text(" keys", width: StreamPanel.labelWidth)))
        #expect(Self.text(lines[4]) == "^────b───────d")
        #expect(Self.text(lines[6]) == "^a├──b───c───d")
        #expect(
            panel.describe(driver.streams.columns[4], in: .mouse).hasPrefix("#4: c 41,11: a position the mouse made"))
        // One row short of the lanes, with no room for late rows: the late rows go, then the values
        // line, then keys, which the last line names.
        panel.rowBudget = StreamPanel.rows(slot: true) - LateSubscriber.allCases.count - 1 - 1
        lines = panel.lines(width: 80)
        #expect(panel.mainLanes == [.intents, .position, .mouse, .slotted, .ballColour, .background])
        #expect(panel.foldedLanes == [.keys])
        #expect(lines.count == panel.rowCount)
        let last = String(String.UnicodeScalarView(lines.last!.map(\.glyph)))
        #expect(last.hasPrefix(" (no room for the keys lane) #6"), "\(last)")
    }

    @Test("hovering the slot's lane with flatMapLatest in it says what the button did: pressed, dragging, released, up")
    func dragWords() {
        let driver = Pilot<Play>()  // 40,11 on 80×24.
        driver.send(.operatorChosen([.flatMapLatest]))  // #1: the button up: Empty().
        driver.press(.left)  // #2: 39,11 with the button up.
        driver.send(.pressed(at: Cell(column: 39, row: 11)))  // #3: grabbed: 39,11 handed.
        driver.send(.dragged(to: Cell(column: 41, row: 11)))  // #4: 41,11.
        driver.send(.released(at: Cell(column: 42, row: 11)))  // #5: 42,11, then Empty().
        driver.send(.released(at: Cell(column: 42, row: 11)))  // #6: a stray release.
        driver.send(.pressed(at: Cell(column: 42, row: 11)))  // #7: grabbed: 42,11 handed.
        driver.send(.released(at: Cell(column: 42, row: 11)))  // #8: let go where it was.
        var panel = StreamPanel(columns: driver.streams.columns, lateLanes: [])
        panel.showsSlot = true
        let columns = driver.streams.columns
        let said = (1...8).map { panel.describe(columns[$0], in: .slotted) }
        let drag = "slotted = grabbed.flatMapLatest { $0 ? position : .empty() }"
        #expect(
            said == [
                "#1: nothing: flatMapLatest chosen with the button up: grabbed is false, so it switched to .empty() ← \(drag)",
                "#2: nothing: 39,11 came with the button up: flatMapLatest is switched to .empty() until a press ← \(drag)",
                "#3: ○ 39,11: the press: grabbed turned true, so flatMapLatest switched to position, which hands its latest at once ← \(drag)",
                "#4: ○ 41,11: the button is down, so flatMapLatest passes each new position on ← \(drag)",
                "#5: ○ 42,11: the release's position, passed on before grabbed turned false and flatMapLatest switched to .empty() ← \(drag)",
                "#6: nothing: the button was already up ← \(drag)",
                "#7: ○ 42,11: the press: grabbed turned true, so flatMapLatest switched to position, which hands its latest at once ← \(drag)",
                "#8: nothing: the release: grabbed turned false, and flatMapLatest switched to .empty() ← \(drag)",
            ])
        let lines = panel.lines(width: StreamPanel.labelWidth + 2 * columns.count + 1)
        #expect(Self.text(lines[1]) == "^──ƒ─←─▼─•─▲─▲─▼─▲")
        // grabbed, the input flatMapLatest maps: handed false at once, then each press and release
        // that changed it (not the stray release, #6).
        // Under it, the inner subscription each press made, each ended `!` where its release
        // switched to Empty() (after the release's own position, which went through it).
        #expect(
            panel.mainLanes == [
                .intents, .position, .grabbed, .inner(1), .inner(2), .slotted, .ballColour, .background,
            ])
        // (flatMapLatest subscribed to grabbed at #1, handed F: its own value, not grabbed's.)
        #expect(Self.text(lines[3]) == "^F─────T───F───T─F")
        #expect(Self.text(lines[4]) == "      ^b─c─d!     ")
        #expect(Self.text(lines[5]) == "              ^d─!")
        #expect(Self.text(lines[7]) == "^a├────b─c─d───d──")
    }

    @Test("hovering the slot's lane with the counter in it says the count and how map and scan made it")
    func counterWords() {
        let driver = Pilot<Play>()  // 40,11 on 80×24.
        driver.send(.operatorChosen(.counter))  // #1: handed 40,11: 1.
        driver.press(.left)  // #2: 2.
        driver.type("i")  // #3: a flip: no position, no count.
        driver.press(.left)  // #4: 3.
        var panel = StreamPanel(columns: driver.streams.columns, lateLanes: [])
        panel.showsSlot = true
        let columns = driver.streams.columns
        let said = (1...4).map { panel.describe(columns[$0], in: .slotted) }
        let counter = "slotted = position.map { _ in 1 }.scan(0) { $0 + $1 }"
        #expect(
            said == [
                "#1: 1: the pipe built, handed the position: map makes it a 1, and scan adds it to 0 ← \(counter)",
                "#2: 2: a new value: map makes it a 1, and scan adds it to 1 ← \(counter)",
                "#3: nothing: no new position ← \(counter)",
                "#4: 3: a new value: map makes it a 1, and scan adds it to 2 ← \(counter)",
            ])
        // The map stage's lane says what it passed on to scan, or why nothing reached it.
        #expect(
            (1...4).map { panel.describe(columns[$0], in: .part(StagePart(number: 0, operation: .mapToOne))) } == [
                "#1: 1: map passed it on to scan ← .map { _ in 1 }, stage 1 of position.map { _ in 1 }.scan(0) { $0 + $1 }",
                "#2: 1: map passed it on to scan ← .map { _ in 1 }, stage 1 of position.map { _ in 1 }.scan(0) { $0 + $1 }",
                "#3: nothing: no new position ← .map { _ in 1 }, stage 1 of position.map { _ in 1 }.scan(0) { $0 + $1 }",
                "#4: 1: map passed it on to scan ← .map { _ in 1 }, stage 1 of position.map { _ in 1 }.scan(0) { $0 + $1 }",
            ])
        let lines = panel.lines(width: StreamPanel.labelWidth + 2 * columns.count + 1)
        // Each stage's lane is labelled with its code, as the chain has it: map's above scan's,
        // whose lane is the slot's (the colour follows it); the row above names the counter where
        // its part starts (├; the empty slot's part before it is too short to name); the counts
        // are the marbles: 1 1 1 over 1 2 3.
        #expect(
            panel.mainLanes == [
                .intents, .position, .part(StagePart(number: 0, operation: .mapToOne)), .slotted, .ballColour,
                .background,
            ])
        #expect(String(String.UnicodeScalarView(lines[3].prefix(12).map(\.glyph))) == " in the slot")
        #expect(Self.text(lines[3]) == "  ├.map.sc…")
        #expect(String(String.UnicodeScalarView(lines[4].prefix(16).map(\.glyph))) == " .map {_ in 1}  ")
        #expect(Self.text(lines[4]) == "  ├1─1───1")
        #expect(String(String.UnicodeScalarView(lines[5].prefix(13).map(\.glyph))) == " slotted     ")
        #expect(Self.text(lines[5]) == "^a├1─2───3")
    }

    @Test("hovering the slot's lane with merge in it says which stream each value came from, or why none came")
    func mergeWords() {
        let driver = Pilot<Play>()  // 40,11 on 80×24.
        driver.send(.operatorChosen([.merge]))  // #1: handed nothing.
        driver.press(.left)  // #2: 39,11 from keys.
        driver.send(.pressed(at: Cell(column: 10, row: 11)))  // #3: 10,11 from mouse.
        driver.send(.resized(ScreenSize(columns: 40, rows: 24)))  // #4: a new screen: neither's.
        let columns = driver.streams.columns
        var panel = StreamPanel(columns: columns, lateLanes: [])
        panel.showsSlot = true
        let said = (1...4).map { panel.describe(columns[$0], in: .slotted) }
        let merge = "slotted = Observable.merge(mouse, keys)"
        let clamped = driver.session.state.position.centre
        #expect(
            said == [
                "#1: nothing: merge chosen: it reads mouse and keys, not position: Publish subjects (Combine: PassthroughSubject), which hand a new subscriber nothing ← \(merge)",
                "#2: ○ 39,11 from keys: merge passes on what mouse or keys sends, as it comes ← \(merge)",
                "#3: ○ 10,11 from mouse: merge passes on what mouse or keys sends, as it comes ← \(merge)",
                "#4: nothing: \(clamped.column),\(clamped.row) came from a resize, which neither mouse nor keys sends ← \(merge)",
            ])
    }

    @Test("hovering the slot's lane with startWith in it says the middle went first")
    func startWithWords() {
        let driver = Pilot<Play>()  // 40,11 on 80×24.
        driver.press(.left)  // #1: 39,11.
        driver.send(.operatorChosen([.startWith]))  // #2: the middle first: 40,11.
        driver.press(.left)  // #3: 38,11.
        let columns = driver.streams.columns
        var panel = StreamPanel(columns: columns, lateLanes: [])
        panel.showsSlot = true
        let startWith = "slotted = position.skip(1).startWith(.centred(on: screen))"
        #expect(
            [2, 3].map { panel.describe(columns[$0], in: .slotted) } == [
                "#2: ○ 40,11 (the middle): startWith chosen: it puts the middle first, and skip(1) skips the position handed over ← \(startWith)",
                "#3: ○ 38,11 ← \(startWith)",
            ])
    }

    @Test("the panel's description names the latest column: intent, place, both colours")
    func description() {
        let driver = Pilot<Play>()
        driver.press(.right)
        let panel = StreamPanel(columns: driver.streams.columns)
        #expect(
            panel.describe(driver.streams.columns.last)
                == "#1 → arrow right 1 · 41,11 · ● flatRed #E84E3C on ■ flatMint #1ABD9C")
    }

    @Test("hovering a lane names its code and what it did: an emission, a value swallowed, or nothing")
    func laneDescriptions() {
        let driver = Pilot<Play>()
        driver.send(.pressed(at: Cell(column: 40, row: 11)))  // 1: grabbed, nothing moves.
        driver.send(.dragged(to: Cell(column: 41, row: 11)))  // 2: flatRed still (swallowed).
        driver.send(.dragged(to: Cell(column: 42, row: 11)))  // 3: black: the screen keeps mint.
        // (The slot's lane drawn: each lane's code as the chain has it.)
        var panel = StreamPanel(columns: driver.streams.columns)
        panel.showsSlot = true
        let columns = driver.streams.columns
        func said(_ index: Int, _ lane: StreamLane) -> String {
            let text = panel.describe(columns[index], in: lane)
            #expect(text.hasPrefix("#\(index): ") && text.hasSuffix(" ← " + lane.expression))
            return String(text.dropFirst("#\(index): ".count).dropLast(" ← ".count + lane.expression.count))
        }
        #expect(said(1, .position) == "nothing: the position did not change")
        #expect(said(1, .ballColour) == "nothing: no new position")
        // The value as the lane draws it (its letter: 40,11 is a, 41,11 b), then in words.
        #expect(said(2, .position) == "b 41,11")
        #expect(said(2, .ballColour) == "· flatRed again, swallowed by distinctUntilChanged")
        #expect(said(2, .background) == "nothing: no new ball colour")
        #expect(said(3, .ballColour) == "● flatBlackDark")
        #expect(said(3, .background) == "· flatMint again, swallowed by distinctUntilChanged")
        // No slot's lane drawn, the slot empty: ballColour's code says what slotted is, in full,
        // and reads position in short, as the lanes show it.
        panel.showsSlot = false
        let full = panel.describe(columns[3], in: .ballColour)
        #expect(
            full.hasSuffix(
                "ballColour = slotted.map { $0.ballColour }.distinctUntilChanged().share(replay: 1), slotted being position while the slot (f) is empty"
            ), "\(full)")

    }

    @Test("docs/streams.md's legend is MarbleLegend's")
    func documentedLegend() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/streams.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let start = try #require(text.range(of: "<!-- legend: begin -->\n"))
        let end = try #require(text.range(of: "\n<!-- legend: end -->", range: start.upperBound..<text.endIndex))
        #expect(String(text[start.upperBound..<end.lowerBound]) == MarbleLegend.markdownTable)
    }

    @Test(
        "one meaning per symbol: every glyph the lanes draw, in a run with every kind, a skip and a quit, is in the legend once"
    )
    func legendCoversTheLanes() {
        let driver = Pilot<Play>()
        driver.toggleStreams()
        let centre = driver.appearance.position.centre
        driver.drag(from: centre, to: Cell(column: centre.column + 6, row: centre.row - 2))
        for kind in LateSubscriber.allCases { driver.toggleLate(kind) }
        for direction in Direction.allCases { driver.press(direction, shifted: true) }
        driver.toggleLate(.publish)
        driver.type("c")
        driver.send(.quitRequested)
        var columns = StreamColumn.withMoments(driver.streams.columns)
        columns.insert(StreamColumn(index: columns.count, intent: .recentred), at: columns.count - 1)
        columns[columns.count - 2].skipped = true
        let panel = StreamPanel(columns: columns, lateLanes: driver.streams.lateLanes)
        let width = StreamPanel.labelWidth + 2 * columns.count
        let lines = panel.lines(width: width)[1...StreamPanel.rows - 2]
        let drawn = Set(lines.flatMap { $0.dropFirst(StreamPanel.labelWidth).map(\.glyph) }).subtracting([" "])
        #expect(
            drawn.subtracting(MarbleLegend.glyphs).isEmpty,
            "not in the legend: \(drawn.subtracting(MarbleLegend.glyphs))")
        // Each of these was drawn: the run shows every kind of mark.
        for mark in ["^", "|", "!", "³", "ø", "q", "·"] as [Unicode.Scalar] { #expect(drawn.contains(mark), "\(mark)") }
        // No glyph has two entries.
        let listed = MarbleLegend.entries.flatMap { $0.symbol.unicodeScalars.filter { $0 != " " } }
        #expect(listed.count == Set(listed).count)
    }

    @Test(
        "the lanes' code is the chain's own: each line the panel quotes is in BallViewModel.swift, as RxSwift writes it: BehaviorSubject(value:) made as Combine's CurrentValueSubject, distinctUntilChanged() run as removeDuplicates(), scan's accumulator: label"
    )
    func lanesQuoteTheSource() throws {
        let source = try String(
            contentsOfFile: #filePath.replacingOccurrences(
                of: "Tests/BallRenderingTests/StreamsTests.swift", with: "Sources/BallModel/BallViewModel.swift"),
            encoding: .utf8)
        let chain = try #require(source.range(of: "// The chain:")).upperBound
        let end = try #require(source.range(of: "// (end of the chain)")).lowerBound
        let lines = source[chain..<end].split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for lane in [StreamLane.position, .ballColour, .background] {
            let run = lane.expression.replacing(".distinctUntilChanged()", with: ".removeDuplicates()")
                .replacing(", accumulator: ", with: ", ").replacing(
                    "BehaviorSubject(value: ", with: "CurrentValueSubject(")
            #expect(lines.contains(run), "\(lane.label): \(run)")
        }
        // The panel says RxSwift's name: Combine's is nowhere in what it quotes.
        for lane in [StreamLane.ballColour, .background] {
            for code in [lane.expression, lane.shortExpression] {
                #expect(code.contains(".distinctUntilChanged()") && !code.contains("removeDuplicates"), "\(code)")
            }
        }
        #expect(StreamLane.background.shortExpression.contains(", accumulator: screenColour)"))
        // Every lane's code names RxSwift's subjects and switch, never Combine's but in a note.
        let lanes: [StreamLane] =
            [.intents, .position, .slotted, .mirror, .grabbed, .mouse, .keys]
            + LateSubscriber.allCases.map(StreamLane.late) + StreamLane.copy
        for lane in lanes {
            for code in [lane.expression, lane.shortExpression] {
                let spoken = code.replacing(/\ \(Combine: [^)]*\)/, with: "")
                for name in ["CurrentValueSubject", "PassthroughSubject", "switchToLatest"] {
                    #expect(!spoken.contains(name), "\(lane.label): \(code)")
                }
            }
        }
    }

    @Test("the pointer over a column (no button down) makes the description that column's; elsewhere, the latest's")
    func hover() {
        let driver = Pilot<Play>()
        driver.toggleStreams()
        driver.press(.right)
        driver.press(.right, shifted: true)
        driver.press(.down)
        let lines = { driver.frame.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
        // The panel's rows lie over the ball's area, just above the status line; opening it
        // made no intent (the first column after the start is the first arrow).
        let rows = StreamPanel.rows(slot: false)
        let top = 24 - rows - 1
        let intentsRow = top + 1
        let description = { lines()[top + rows - 1] }
        #expect(description().hasPrefix(" #3 ↓ arrow down 1 · "))
        // Column of intent 2 (two cells each, after the labels; column 0 is the start).
        driver.hover(at: Cell(column: StreamPanel.labelWidth + 2 * 2 + 1, row: intentsRow))
        #expect(description().hasPrefix(" #2 → arrow right 5 · 46,11 · ● "), "\(description())")
        // The column under the pointer is highlighted in every lane, and only it.
        for lane in 0..<4 {
            let row = intentsRow + lane
            let reversed = (StreamPanel.labelWidth..<(StreamPanel.labelWidth + 10)).filter {
                driver.frame[$0, row].reverse
            }
            #expect(reversed == [StreamPanel.labelWidth + 4, StreamPanel.labelWidth + 5], "row \(row): \(reversed)")
        }
        // Over another lane: its code, and what it did in that column.
        driver.hover(at: Cell(column: StreamPanel.labelWidth + 2 * 3, row: intentsRow + 1))
        #expect(
            description().hasPrefix(" #3: d 46,12 ← position = BehaviorSubject(value: start.position)"),
            "\(description())"
        )
        // 41,11 is 328 + 176 = 504 points: 249 of 255, flatRed again. No slot's lane is drawn:
        // the line names no lane it does not draw (its code, which reads position, has no room).
        driver.hover(at: Cell(column: StreamPanel.labelWidth + 2 * 1, row: intentsRow + 2))
        #expect(
            description().hasPrefix(" #1: · flatRed again, swallowed by distinctUntilChanged")
                && !description().contains("slotted"),
            "\(description())"
        )
        // Off the lanes (over the ball, over the labels): the latest again.
        driver.hover(at: Cell(column: 40, row: 3))
        #expect(description().hasPrefix(" #3 ↓ arrow down 1 · "))
        driver.hover(at: Cell(column: 3, row: intentsRow))
        #expect(description().hasPrefix(" #3 ↓ arrow down 1 · "))
    }

    @Test("with filter in the slot, its lane says what it passed on, and why it passed nothing on where it did not")
    func slotLaneSaysWhy() {
        let driver = Pilot<Play>(screen: ScreenSize(columns: 80, rows: 24))
        driver.type("f")
        driver.type("2")  // #1: filter chosen, handed 40,11 (the middle column, the right half's first).
        driver.press(.left)  // #2: 39,11, left of the middle: not passed on.
        driver.type("s")
        let lines = { driver.frame.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
        let rows = StreamPanel.rows(slot: true) - StreamLane.mostInputs  // filter reads only position.
        let top = 24 - rows - 1
        let slotRow = top + 4  // The ruler, intents, position, the segments' row, then the slot's lane.
        let description = { lines()[top + rows - 1] }
        #expect(lines()[slotRow].hasPrefix(" slotted        ^a├a──"), "\(lines()[slotRow])")
        #expect(lines()[slotRow - 1].hasPrefix(" in the slot      ├.filter "), "\(lines()[slotRow - 1])")
        driver.hover(at: Cell(column: StreamPanel.labelWidth + 2 * 2, row: slotRow))
        #expect(description().hasPrefix(" #2: nothing: 39,11 "), "\(description())")
        #expect(description().contains("filter"), "\(description())")
        driver.hover(at: Cell(column: StreamPanel.labelWidth + 2 * 1, row: slotRow))
        #expect(description().hasPrefix(" #1: ○ 40,11"), "\(description())")
    }

    @Test(
        "catch's completion: catch's own lane ends a| where it passed the middle on, then draws nothing until another pipe; slotted, switchToLatest's output, and the colours go on, and say the ball keeps the middle's colour"
    )
    func catchCompletes() throws {
        let screen = ScreenSize(columns: 80, rows: 24)
        let session = BallSession(screen: screen)
        let recorder = StreamRecorder(session: session)
        session.send(.operatorChosen([.tryMap, .catch]))  // #1
        session.send(.arrowPressed(.right, distance: 30))  // #2: 70,11.
        // #3: 70,17, a corner: tryMap throws, catch passes the middle on and completes.
        session.send(.arrowPressed(.down, distance: 6))
        session.send(.arrowPressed(.left, distance: 5))  // #4: 65,17: nothing comes through the pipe.
        session.send(.arrowPressed(.left, distance: 5))  // #5: 60,17.
        session.send(.operatorChosen([.tryMap, .catch]))  // #6: a new pipe, handed 60,17.
        let columns = recorder.columns(from: 0)
        let middle = BallPosition.centred(on: screen)
        #expect(columns[3].marble(.stage(0)) == .failed(after: nil))
        #expect(columns[3].marble(.stage(1)) == .ended(after: .value(.position(middle))))
        // switchToLatest ends only when the slot and its latest pipe have: slotted does not.
        #expect(columns[3].marble(.slotted) == .value(.position(middle)))
        for column in columns[4...5] {
            #expect(column.marble(.slotted) == .line, "#\(column.index): slotted lives on")
            #expect(column.marble(.stage(1)) == nil, "#\(column.index): catch's lane ended")
            #expect(column.marble(.stage(0)) == nil, "#\(column.index)")
            #expect(column.marble(.ballColour) == .line, "#\(column.index): the colour's stream lives on")
        }
        #expect(columns[6].marble(.slotted) == .value(.position(session.state.position)))
        #expect(columns[6].marble(.stage(1)) == .value(.position(session.state.position)))
        // The ball keeps the middle's colour, and the hovers say so, not that a colour was swallowed.
        #expect(columns[5].state?.ball == middle.ballColour)
        var panel = StreamPanel(columns: columns, lateLanes: [])
        panel.showsSlot = true
        #expect(panel.pipeLabel(.slotted) == "slotted")
        let caught = StreamLane.part(StagePart(number: 1, operation: .catch))
        #expect(panel.mainLanes.contains(caught), "catch's own lane: \(panel.mainLanes)")
        let slot = panel.describe(columns[4], in: .slotted)
        #expect(slot.hasPrefix("#4: nothing: catch completed, and the pipe with it"), "\(slot)")
        let colour = panel.describe(columns[4], in: .ballColour)
        #expect(
            colour.hasPrefix(
                "#4: nothing: the pipe in the slot completed, so nothing reaches the colour: it stays \(middle.ballColour.name)"
            ), "\(colour)")
        #expect(panel.pipeLabel(caught) == ".catch { … }", "one recovery on its lane: labelled with its code")
        // Another recovery after it at the same place: a row of its own, labelled with its code;
        // catch's row draws nothing in its part.
        session.send(.arrowPressed(.down, distance: 6))  // #7: a corner again: catch ends again.
        session.send(.operatorChosen([.tryMap, .catchAndReturn]))  // #8
        session.send(.arrowPressed(.right, distance: 40))  // #9: the bottom right corner: it ends too.
        var both = StreamPanel(columns: recorder.columns(from: 0), lateLanes: [])
        both.showsSlot = true
        let returned = StreamLane.part(StagePart(number: 1, operation: .catchAndReturn))
        #expect(
            both.mainLanes.filter(\.isPipeLane) == [
                .part(StagePart(number: 0, operation: .tryMap)), caught, returned, .slotted,
            ])
        #expect(both.pipeLabel(caught) == ".catch { … }" && both.pipeLabel(returned) == ".catchAndRetu…")
        #expect(both.pipeLabel(.slotted) == "slotted")
        let last = try #require(recorder.columns(from: 0).last)
        #expect(last.marble(caught) == nil && last.marble(returned) == .ended(after: .value(.position(middle))))
        let ended = panel.describe(columns[3], in: .stage(1))
        #expect(ended.contains("then | completed: catch's fallback"), "\(ended)")
        let slotted = panel.describe(columns[3], in: .slotted)
        #expect(
            !slotted.contains("then |") && slotted.contains("catch completed (on its own lane)"), "\(slotted)")
    }

    @Test(
        "tryMap,catch into a corner at 80×24, then another operator: catch's lane ends a|; slotted, switchToLatest's output, never draws | and goes on as ballColour does, into the next operator's part"
    )
    func catchCompletesOnItsOwnLane() {
        let driver = Pilot<Play>(screen: ScreenSize(columns: 80, rows: 24))
        driver.toggleStreams()
        driver.type("f")
        driver.type("X")
        #expect(driver.session.state.slot == [.tryMap, .catch])
        for _ in 0..<12 { driver.press(.left, shifted: true) }
        for _ in 0..<4 { driver.press(.up, shifted: true) }
        #expect(driver.session.state.position.isInCorner)
        // Each row as the rasteriser's cells draw it, from the frame the terminal was sent.
        let cells = { (row: Int) in
            String(String.UnicodeScalarView((0..<80).map { driver.frame[$0, row].glyph }))
        }
        let row = { (label: String) in (0..<24).first { cells($0).hasPrefix(" \(label)") } }
        guard let catchRow = row(".catch { … } "), let slotRow = row("slotted "), let colourRow = row("ballColour ")
        else {
            Issue.record("no catch, slotted or ballColour lane:\n\(driver.frame.text)")
            return
        }
        let trimmed = { (row: Int) in String(cells(row).reversed().drop { $0 == " " }.reversed()) }
        // The middle, `a`, then catch's end; on slotted, `a`, then its line, as far as the colour's.
        #expect(trimmed(catchRow).hasSuffix("─i─a|"), "\(cells(catchRow))")
        #expect(!cells(slotRow).contains("|"), "\(cells(slotRow))")
        let end = trimmed(catchRow).unicodeScalars.count - 1
        #expect(driver.frame[end, slotRow].glyph == "─", "\(cells(slotRow))")
        #expect(driver.frame[end - 1, slotRow].glyph == "a", "\(cells(slotRow))")
        #expect(
            trimmed(slotRow).unicodeScalars.count == trimmed(colourRow).unicodeScalars.count,
            "slotted goes on as ballColour does:\n\(cells(slotRow))\n\(cells(colourRow))")
        #expect(
            row(".map { … } ").map { trimmed($0).hasSuffix("─i─#") } == true, "tryMap's error on its own lane")
        // Pointing at them: catch completed; slotted did not, and says why.
        let description = { driver.lines[22] }
        // (The `|` after `a` is the next column's first cell: the column is `a`'s.)
        driver.hover(at: Cell(column: end - 1, row: catchRow))
        #expect(description().hasPrefix(" #15: | completed"), "\(description())")
        driver.hover(at: Cell(column: end - 1, row: slotRow))
        #expect(description().contains("catch ended on its own lane, slotted lives on"), "\(description())")
        #expect(!description().contains("|"), "\(description())")
        // Another operator: slotted's next part follows on the lane that never ended.
        driver.type("f")
        driver.type("3")
        for _ in 0..<3 { driver.press(.right, shifted: true) }
        #expect(driver.session.state.slot == [.map])
        guard let slotAfter = row("slotted "), let catchAfter = row(".catch { … } ") else {
            Issue.record("the lanes went:\n\(driver.frame.text)")
            return
        }
        #expect(!cells(slotAfter).contains("|"), "\(cells(slotAfter))")
        #expect(cells(slotAfter).contains("a────├"), "\(cells(slotAfter))")
        #expect(
            trimmed(catchAfter).hasSuffix("─i─a|"), "catch's lane draws nothing after its end: \(cells(catchAfter))")
    }

    @Test("the panel open at 80×24 and 200×60: the ball's area stays, the lanes lie over it above the status line")
    func panelSnapshots() {
        for (name, size) in [
            ("streams-80x24", ScreenSize(columns: 80, rows: 24)),
            ("streams-200x60", ScreenSize(columns: 200, rows: 60)),
        ] {
            let driver = Pilot<Play>(screen: size)
            driver.toggleStreams()
            let centre = driver.appearance.position.centre
            driver.drag(from: centre, to: Cell(column: centre.column - 12, row: centre.row - 3))
            driver.toggleLate(.behavior)
            driver.press(.right)
            driver.toggleLate(.publish)
            driver.toggleLate(.replay)
            driver.press(.down)
            #expect(driver.frame.size == size)
            #expect(driver.appearance.position.screen == size)
            #expect(snapshotMismatch(driver.frame.snapshot, named: name, beside: #filePath) == nil)
        }
    }

    @Test("too small for the panel over the ball: the panel is one line saying so, and the ball stays")
    func panelTooSmall() {
        let driver = Pilot<Play>(screen: ScreenSize(columns: 80, rows: 12))
        let before = driver.appearance
        driver.toggleStreams()
        #expect(driver.appearance == before)
        let rows = driver.frame.text.split(separator: "\n", omittingEmptySubsequences: false)
        // 11 rows of panel, 3 of the ball's area in view above it and the status line: 3 more than 12.
        #expect(StreamPanel.rows(slot: false) == 11)
        #expect(rows[10].contains("streams: the terminal is too small for the panel (it needs 3 more rows)"))
        driver.toggleStreams()
        #expect(driver.appearance == before)
        // And 3 more are enough; 2 are not.
        for (rows, fits) in [(15, true), (14, false)] {
            let taller = Pilot<Play>(screen: ScreenSize(columns: 80, rows: rows))
            taller.toggleStreams()
            let text = taller.frame.text
            #expect(text.contains(" intents        ^") == fits, "\(rows) rows")
            #expect(text.contains("streams: the terminal is too small for the panel (it needs 1 more row") == !fits)
        }
    }

    @Test(
        "the panel at the smallest terminal, 24×7 and wider: never \"terminal too small\", the rows it needs said whole, and that many more are enough"
    )
    func panelAtTheSmallest() {
        for columns in 24...60 {
            let driver = Pilot<Play>(screen: ScreenSize(columns: columns, rows: ScreenSize.minimum.rows))
            driver.toggleStreams()
            let text = driver.frame.text
            #expect(!text.contains("too small (need"), "\(columns) columns")
            #expect(!text.contains("…"), "\(columns): \(text)")
            // 11 rows of panel, 3 of the ball's area and the status line: 15, 8 more than 7.
            #expect(
                ["8 more rows needed", "8 rows short"].contains { text.contains("streams: \($0)") }
                    || text.contains("(it needs 8 more rows)"), "\(columns): \(text)")
            let taller = Pilot<Play>(screen: ScreenSize(columns: columns, rows: 15))
            taller.toggleStreams()
            #expect(taller.frame.text.contains(" intents "), "\(columns) columns")
        }
    }
}

/// flatMap's and flatMapLatest's inner lanes, one a press, against what the real chain passed on.
@Suite("flatMap's inner lanes")
struct InnerLaneTests {
    @Test(
        "random sessions with flatMap or flatMapLatest: in every column, the inner lanes that got a value are as many as the values the slot passed on",
        arguments: [SlotOperator.flatMap, .flatMapLatest]
    )
    func innerLanesCountWhatPassed(_ head: SlotOperator) {
        var generator = SeededGenerator()
        print("\(head.name)'s inner lanes: \(generator)")
        for _ in 0..<20 {
            let area = ScreenSize(columns: 40 + generator.below(60), rows: 12 + generator.below(20))
            let session = BallSession(screen: area)
            let recorder = StreamRecorder(session: session, capacity: 400)
            for _ in 0..<150 {
                let cell = Cell(column: generator.below(area.columns), row: generator.below(area.rows))
                let intent: Intent =
                    switch generator.below(10) {
                    case 0, 1: .pressed(at: cell)
                    case 2, 3: .released(at: cell)
                    case 4: .dragged(to: cell)
                    case 5, 6: .arrowPressed(Direction.allCases[generator.below(4)], distance: 1 + generator.below(3))
                    case 7: .recentred
                    default: .operatorChosen([[head], [head], .none][generator.below(3)])
                    }
                session.send(intent)
            }
            session.send(.quitRequested)
            let columns = recorder.columns
            let inners = StreamLane.inners(in: columns)
            #expect(!inners.isEmpty, "\(generator)")
            for column in columns.dropFirst() where column.slot == [head] {
                let received = inners.filter { column.emission($0) != nil }.count
                #expect(received == column.slottedCount, "#\(column.index): \(generator)")
                // flatMapLatest: one inner lives at most, and only while the ball is grabbed.
                if head == .flatMapLatest { #expect(column.innersAfter.count <= 1, "#\(column.index): \(generator)") }
                // A lane subscribed where it got its first value, and lives until cancelled or completed.
                for lane in inners {
                    if case .subscribed? = column.marble(lane) { #expect(column.emission(lane) != nil) }
                }
            }
        }
    }

    @Test("two presses with flatMap: two inner lanes, each move on both; another operator cancels them (!)")
    func twoPresses() {
        let session = BallSession(screen: ScreenSize(columns: 80, rows: 24))
        let recorder = StreamRecorder(session: session)
        for intent: Intent in [
            .operatorChosen([.flatMap]), .pressed(at: Cell(column: 40, row: 11)),
            .released(at: Cell(column: 40, row: 11)),
            .arrowPressed(.right, distance: 1), .pressed(at: Cell(column: 41, row: 11)),
            .released(at: Cell(column: 41, row: 11)), .arrowPressed(.right, distance: 1), .operatorChosen(.none),
            .arrowPressed(.right, distance: 1),
        ] {
            session.send(intent)
        }
        let columns = recorder.columns
        #expect(StreamLane.inners(in: columns) == [.inner(1), .inner(2)])
        func lane(_ number: Int) -> [Marble?] { columns.map { $0.marble(.inner(number)) } }
        let (at41, at42) = (
            Marble.value(
                .position(BallPosition(centre: Cell(column: 41, row: 11), screen: ScreenSize(columns: 80, rows: 24)))),
            Marble.value(
                .position(BallPosition(centre: Cell(column: 42, row: 11), screen: ScreenSize(columns: 80, rows: 24))))
        )
        let at40 = Marble.value(
            .position(BallPosition(centre: Cell(column: 40, row: 11), screen: ScreenSize(columns: 80, rows: 24))))
        #expect(
            lane(1) == [
                nil, nil, .subscribed(handed: at40), .line, at41, .line, .line, at42, .unsubscribed(after: nil), nil,
            ])
        #expect(
            lane(2) == [
                nil, nil, nil, nil, nil, .subscribed(handed: at41), .line, at42, .unsubscribed(after: nil), nil,
            ])
        #expect(columns.map(\.slottedCount) == [1, 0, 1, 0, 1, 1, 0, 2, 1, 1])
    }

    @Test("throttle after flatMap: the column keeps when each copy went through, at once and at the window's end")
    func throttledCopiesKeepTheirTimes() {
        // Two presses: the drag at 310 goes through flatMap twice; the first copy finds the
        // window over and goes through at once, the second waits for the window's end at 610.
        let screen = ScreenSize(columns: 80, rows: 24)
        let session = BallSession(screen: screen)
        let recorder = StreamRecorder(session: session)
        func ms(_ milliseconds: Int64) -> SessionTime { SessionTime(microseconds: milliseconds * 1_000) }
        let steps: [(Int64, Intent)] = [
            (0, .operatorChosen([.flatMap, .throttle])), (10, .pressed(at: Cell(column: 39, row: 11))),
            (20, .released(at: Cell(column: 39, row: 11))), (30, .pressed(at: Cell(column: 39, row: 11))),
            (310, .dragged(to: Cell(column: 45, row: 11))),
        ]
        for (time, intent) in steps { session.send(intent, at: ms(time)) }
        session.advance(to: ms(700))
        let drag = recorder.columns.last
        let moved = SlotOutput.position(BallPosition(centre: Cell(column: 46, row: 11), screen: screen))
        #expect(drag?.intent == .dragged(to: Cell(column: 45, row: 11)))
        #expect(drag?.slottedValues == [moved, moved])
        #expect(drag?.slottedTimes == [ms(310), ms(610)])
        #expect(drag?.passedAt == ms(610))
    }

    @Test(
        "the time view, flatMap then throttle: the drag's two copies stand in their own spans (at once, at the window's end), on the slot's lane and the throttle stage's"
    )
    func throttledCopiesOnTime() {
        // Two presses (each passed at once or at its window's end), then a drag at 800 ms: its
        // first copy finds the window over and goes through at once, the second at 1100 ms.
        let screen = ScreenSize(columns: 80, rows: 24)
        let session = BallSession(screen: screen)
        let recorder = StreamRecorder(session: session)
        func ms(_ milliseconds: Int64) -> SessionTime { SessionTime(microseconds: milliseconds * 1_000) }
        let centre = Cell(column: 40, row: 11)
        let steps: [(Int64, Intent)] = [
            (100, .operatorChosen([.flatMap, .throttle, .map])), (200, .pressed(at: centre)),
            (300, .released(at: centre)), (400, .pressed(at: centre)), (800, .dragged(to: Cell(column: 45, row: 11))),
        ]
        for (time, intent) in steps { session.send(intent, at: ms(time)) }
        session.advance(to: ms(1_200))
        #expect(recorder.columns.last?.slottedTimes == [ms(800), ms(1_100)])
        #expect(recorder.columns.last?.stage(1)?.times == [ms(800), ms(1_100)])
        let panel = StreamPanel(recorder, width: 80, fits: true, axis: PanelAxis(time: true))
        let lines = panel.lines(width: 80).map {
            Array(String(String.UnicodeScalarView($0.dropFirst(StreamPanel.labelWidth).map(\.glyph))))
        }
        // The rows: the ruler, the lanes, and the row naming the pipe's segments above its first lane.
        func row(_ lane: StreamLane) -> [Character] {
            guard let index = panel.mainLanes.firstIndex(of: lane), index + 2 < lines.count else {
                Issue.record("no \(lane.label) lane in \(lines)")
                return []
            }
            return lines[index + 2]
        }
        // A span of 100 ms a cell: the press's value at 200, the second press's at the window's
        // end (500), the drag's first copy at 800, its second at 1100, each alone in its span;
        // throttle's window drawn on its own lane between.
        for (lane, between) in [(StreamLane.part(StagePart(number: 1, operation: .throttle)), "~~"), (.slotted, "──")] {
            let marks = row(lane)
            #expect(marks.count > 11, "\(lines)")
            guard marks.count > 11 else { continue }
            for span in [2, 5, 8, 11] {
                #expect(MarbleValue.letters.contains(marks[span].unicodeScalars.first!), "\(String(marks))")
            }
            #expect(String(marks[9...10]) == between, "\(String(marks))")
        }
    }

    @Test(
        "flatMap's doubles drawn as the value and its count (b²), three as b³; the values line explains each count"
    )
    func doublesDrawnAsValues() {
        let screen = ScreenSize(columns: 80, rows: 24)
        let session = BallSession(screen: screen)
        let recorder = StreamRecorder(session: session)
        for intent: Intent in [
            .operatorChosen([.flatMap]), .pressed(at: Cell(column: 40, row: 11)),
            .released(at: Cell(column: 40, row: 11)),
            .pressed(at: Cell(column: 40, row: 11)), .released(at: Cell(column: 40, row: 11)),
            .arrowPressed(.right, distance: 1), .pressed(at: Cell(column: 41, row: 11)),
            .released(at: Cell(column: 41, row: 11)), .arrowPressed(.right, distance: 1),
        ] {
            session.send(intent)
        }
        var panel = StreamPanel(recorder, width: 80, fits: true)
        panel.rowBudget = nil
        let lines = panel.lines(width: 80).map { String(String.UnicodeScalarView($0.map(\.glyph))) }
        let slotted = lines.first { $0.hasPrefix(" slotted ") }
        #expect(slotted != nil, "\(lines)")
        // #6: the arrow's 41,11 through two inner subscriptions: `b²`; #9: 42,11 through three: `c³`.
        let marks = Array((slotted ?? "").dropFirst(StreamPanel.labelWidth))
        #expect(String(marks[12...13]) == "b²", "\(slotted ?? "")")
        #expect(String(marks[18...19]) == "c³", "\(slotted ?? "")")
        let values = lines.first { $0.hasPrefix(" values ") } ?? ""
        #expect(values.contains(" b=41,11 c=42,11 ²=2 at once ³=3 at once "), "\(values)")
    }

    @Test("two presses with flatMapLatest: an inner lane a press, each ended ! where its release switched to Empty()")
    func twoPressesSwitched() {
        let screen = ScreenSize(columns: 80, rows: 24)
        let session = BallSession(screen: screen)
        let recorder = StreamRecorder(session: session)
        for intent: Intent in [
            .operatorChosen([.flatMapLatest]), .pressed(at: Cell(column: 40, row: 11)),
            .dragged(to: Cell(column: 41, row: 11)), .released(at: Cell(column: 42, row: 11)),
            .arrowPressed(.right, distance: 1), .pressed(at: Cell(column: 43, row: 11)),
            .released(at: Cell(column: 43, row: 11)), .arrowPressed(.right, distance: 1),
        ] {
            session.send(intent)
        }
        let columns = recorder.columns
        #expect(StreamLane.inners(in: columns) == [.inner(1), .inner(2)])
        func lane(_ number: Int) -> [Marble?] { columns.map { $0.marble(.inner(number)) } }
        func at(_ column: Int) -> Marble {
            .value(.position(BallPosition(centre: Cell(column: column, row: 11), screen: screen)))
        }
        // Press one: handed 40,11, then the drag's 41,11; the release moves the ball to 42,11, which
        // goes through the inner first, then grabbed turns false and switchToLatest disposes it.
        #expect(
            lane(1) == [
                nil, nil, .subscribed(handed: at(40)), at(41), .unsubscribed(after: at(42)), nil, nil, nil, nil,
            ])
        // The arrow moves the ball with no inner living; press two is handed 43,11; its release
        // moves nothing: `!` alone. The arrow after it reaches no inner.
        #expect(lane(2) == [nil, nil, nil, nil, nil, nil, .subscribed(handed: at(43)), .unsubscribed(after: nil), nil])
        #expect(columns.map(\.slottedCount) == [1, 0, 1, 1, 1, 0, 1, 0, 0])
    }
}

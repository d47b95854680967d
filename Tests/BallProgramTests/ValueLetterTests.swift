import BallModel
import BallPlayer
import BallProgram
import BallRendering
import BallReplay
import BallStreams
import BallTestSupport
import Foundation
import TerminalIO
import Testing

/// A value's letter, live and in the player: a session driven through the real loop and
/// recorded, then its recording stepped through in the player, place by place; where both draw
/// a value as a letter, it is the same letter, on the lanes and on the values line.
@Suite("The same value, the same letter, live and in the player")
struct ValueLetterTests {
    /// What the panel draws, as a terminal shows it: each lane's row after its label, by label,
    /// and the values line's letters with the words each names.
    struct Drawn {
        /// Each lane's cells after the label (a late kind's hint and the slot's segment names
        /// left out: words, not marbles).
        var lanes: [String: [Unicode.Scalar]] = [:]
        /// The values line's letters and their words (`41,12`, `36,5 (63×22)`).
        var named: [Unicode.Scalar: String] = [:]
        /// The panel's rows, for a failure's message.
        var rows: [String] = []

        /// The panel's rows of `frame`, from the rows between its intents lane and its values line
        /// (nothing, where the panel is closed or says it has no room).
        init(_ frame: Frame) {
            var rasteriser = Rasteriser(sequences: .xterm(palette: .xterm256, backColourErase: true))
            let rows = TerminalEmulator.showing(frame, through: &rasteriser).rowTexts
            func label(_ row: String) -> String {
                String(row.prefix(StreamPanel.labelWidth)).trimmingCharacters(in: .whitespaces)
            }
            guard let intents = rows.firstIndex(where: { label($0) == StreamLane.intents.label }),
                let values = rows[intents...].firstIndex(where: { label($0) == "values" })
            else { return }
            self.rows = Array(rows[intents...].prefix { !$0.hasPrefix(" #") })
            // The stage lanes, each an operator's part, labelled with its code live and in the
            // player alike: by label, but for a code two parts share (`.catch { … }` at two places
            // in two pipes), which the rows either view has room for may tell apart.
            let known = Set(
                (StreamLane.main + [.slotted] + LateSubscriber.allCases.map(StreamLane.late)).map(\.label))
            var parts: [String: [Unicode.Scalar]] = [:]
            var shared: Set<String> = []
            for index in (intents + 1)..<values {
                let row = rows[index]
                let body = Array(row.unicodeScalars.dropFirst(StreamPanel.labelWidth))
                // A late kind with no lane: its key and what it gets, in words.
                if body.count > 1, body[1] == ":" { continue }
                // The slot's lane, right above ballColour's, whatever its label: its pipe's last
                // stage's code where every column on the page has that pipe (another view's page
                // may name a part of another pipe so).
                if !known.contains(label(row)), index + 1 < rows.count,
                    label(rows[index + 1]) == StreamLane.ballColour.label
                {
                    lanes[StreamLane.slotted.label] = body
                    continue
                }
                switch label(row) {
                case StreamPanel.segmentsLabel: continue
                case let label where known.contains(label): lanes[label] = body
                case let named:
                    if parts.updateValue(body, forKey: named) != nil { shared.insert(named) }
                }
            }
            for (named, body) in parts where !shared.contains(named) { lanes[named] = body }
            // `a=41,12`, `b=36,5 (63×22)`, after the label and any `…`.
            let line = String(rows[values].dropFirst(StreamPanel.labelWidth))
            let entry = /([A-Za-z])=([0-9,\-]+(?: \([0-9]+×[0-9]+\))?|true|false)/
            for match in line.matches(of: entry) {
                named[match.output.1.unicodeScalars.first!] = String(match.output.2)
            }
        }
    }

    /// What was compared over all runs: letters on the lanes, entries of the values lines, and
    /// how often the letters went round.
    struct Compared {
        var cells = 0
        var entries = 0
        /// Letters the live values lines named two values with, one after the other (the book
        /// turned over: forty letters given, the least recent value's taken again).
        var reused = 0
    }

    /// The live frame `live` at `place` (after its intent and all until the next), against the
    /// player's frame at the same place: each letter live draws in a column up to the present, the
    /// player draws in that column, and each letter both values lines name names the same value (and each
    /// value both name, the same letter). `start`: the page's first intent, the same in both.
    static func expectSameLetters(
        live: Drawn, player: Drawn, place: Int, start: Int, compared: inout Compared, _ context: String
    ) -> Bool {
        let letters = Set(MarbleValue.letters)
        var same = true
        // A column is two cells; the present's column is the last both draw. The letters are
        // compared a column at a time: where the player's row draws a kind's ended lane beside its
        // later one, a value and its `!` share the column's two cells, which live drew as a line,
        // the value, and the `!` in the next column's first cell.
        for (label, shown) in live.lanes {
            // A lane the player's rows have no room for (its page keeps a late kind's row for a
            // lane it subscribes in the future): its values are compared where the others draw them.
            guard let replayed = player.lanes[label] else { continue }
            for column in 0...(place - start) {
                let cells = (2 * column)..<(2 * column + 2)
                let drawn = Set(shown[cells.clamped(to: shown.indices)].filter(letters.contains))
                guard !drawn.isEmpty else { continue }
                // (Where only the player draws a letter, it draws what live had taken off the
                // page by then: a late kind's ended lane, kept beside its later one.)
                let mine = Set(replayed[cells.clamped(to: replayed.indices)].filter(letters.contains))
                compared.cells += drawn.count
                if !drawn.isSubset(of: mine) {
                    let words = { (letters: Set<Unicode.Scalar>) in letters.map(String.init).sorted().joined() }
                    Issue.record(
                        "\(label), column \(start + column): live drew \(words(drawn)), the player \(words(mine)): \(context)"
                    )
                    same = false
                }
            }
        }
        // The player's values line names the future's letters after the present's: a future value
        // may hold a letter by then given again (the book went round), which live, at this place,
        // still gave a value the player's page does not draw. Compared: the letters the player
        // draws up to the present.
        var present: Set<Unicode.Scalar> = []
        for replayed in player.lanes.values {
            let cells = 0..<min(2 * (place - start + 1), replayed.count)
            present.formUnion(replayed[cells].filter(letters.contains))
        }
        for (letter, words) in live.named where present.contains(letter) {
            guard let replayed = player.named[letter] else { continue }
            compared.entries += 1
            if replayed != words {
                Issue.record("\(letter) is \(words) live, \(replayed) in the player: \(context)")
                same = false
            }
        }
        let liveLetters = Dictionary(live.named.map { ($1, $0) }) { first, _ in first }
        for (letter, words) in player.named where present.contains(letter) {
            guard let own = liveLetters[words], own != letter else { continue }
            Issue.record("\(words) is \(own) live, \(letter) in the player: \(context)")
            same = false
        }
        if !same {
            print("live:\n" + live.rows.joined(separator: "\n") + "\nplayer:\n" + player.rows.joined(separator: "\n"))
        }
        return same
    }

    @Test(
        "seeded sessions of moves, operators, the mirror, late subscribers and waits, recorded and replayed: at every place each value the live lanes drew as a letter has that letter in the player, past forty values too",
        .tags(.slow), .skippedInQuickRuns
    )
    func liveAndPlayer() throws {
        var generator = SeededGenerator()
        print("ValueLetterTests: \(generator)")
        var compared = Compared()
        let size = ScreenSize(columns: 80, rows: 24)
        for run in 0..<4 {
            let recorded = try RecordedPlay(screen: size)
            let driver = recorded.pilot
            driver.toggleStreams()
            var pipe = SlotPipe.none
            // The live frame at each place: the last drawn before the next intent.
            var live: [Int: Drawn] = [0: Drawn(driver.frame)]
            var named: [Unicode.Scalar: Set<String>] = [:]
            var toggled: [LateSubscriber: Int] = [:]
            let steps = 60 + generator.below(60)
            for step in 0..<steps {
                // The first run begins with a jump to each of 45 places: more values than
                // the forty letters, so the book goes round whatever the seed.
                let choice = run == 0 && step < 45 ? -1 : generator.below(22)
                switch choice {
                case -1:
                    // Left and right by turns, never on the ball (a press on it grabs it there).
                    let cell = Cell(column: step % 2 == 0 ? 10 + step / 2 : 70 - step / 2, row: 1)
                    driver.send(.pressed(at: cell))
                    driver.send(.released(at: cell))
                case 0...5:
                    let direction = Direction.allCases[generator.below(Direction.allCases.count)]
                    driver.press(direction, shifted: generator.below(3) == 0)
                case 16...21, 8...10:
                    // Mostly jumps to a new place: the forty letters go round.
                    // Above the panel's rows: on the panel a press inspects a column.
                    let cell = Cell(column: generator.below(size.columns), row: generator.below(4))
                    driver.send(generator.below(2) == 0 ? .pressed(at: cell) : .dragged(to: cell))
                    driver.send(.released(at: cell))
                case 11...12:
                    let change = pipe.randomChange(using: &generator)
                    pipe = pipe.after(change)
                    driver.send(change)
                case 13: driver.type("i")
                case 14...15:
                    // One key of a kind a place: where a kind's lane is cancelled and another
                    // subscribed at one place, the player's row keeps only the new lane (its ended
                    // one, values and all, is not drawn: a lane matter, not a letter's).
                    let kind = LateSubscriber.allCases[generator.below(LateSubscriber.allCases.count)]
                    guard toggled[kind] != driver.streams.latestIndex else { continue }
                    toggled[kind] = driver.streams.latestIndex
                    driver.toggleLate(kind)
                default: driver.pass(.milliseconds(50 + generator.below(1_200)))
                }
                let drawn = Drawn(driver.frame)
                live[driver.streams.latestIndex] = drawn
                for (letter, words) in drawn.named { named[letter, default: []].insert(words) }
            }
            // One more intent: the last place compared lasts until it, as in the recording.
            driver.press(.left)
            compared.reused += named.values.filter { $0.count > 1 }.count
            let last = driver.streams.latestIndex - 1
            let pilot = try recorded.player(screen: ScreenSize(columns: size.columns, rows: 60))
            pilot.press(.home)
            if !pilot.player.streamsOpen { pilot.type("s") }
            for place in 0...last {
                if place > 0 { pilot.press(.arrow(.right, shifted: false)) }
                // Past the stops before the chain's timers (the live frame kept is the last before
                // the next intent): the place whole.
                while pilot.player.reached != nil { pilot.press(.arrow(.right, shifted: false)) }
                #expect(pilot.player.place == place)
                guard let shown = live[place], !shown.lanes.isEmpty else { continue }
                let context = "run \(run), place \(place), \(generator)"
                guard
                    Self.expectSameLetters(
                        live: shown, player: Drawn(pilot.frame), place: place,
                        start: StreamPanel.pageStart(latest: place, width: size.columns), compared: &compared,
                        context)
                else { return }
            }
        }
        // The runs drew letters, named them, and came past the forty a book holds.
        #expect(compared.cells > 200 && compared.entries > 100, "\(compared), \(generator)")
        #expect(compared.reused > 0, "\(compared), \(generator)")
    }

    @Test(
        "a value in the player's future is drawn with the letter the session gives it there, not a letter free on the page"
    )
    func futureLetters() throws {
        let recorded = try RecordedPlay()
        let driver = recorded.pilot
        driver.toggleStreams()
        // 39 positions, fewer than the forty letters: each value keeps one letter all session.
        // They fill more than a page (32 columns at 80), so the second page draws none of the
        // first letters, which a value in its future could be given as letters free on the page.
        // (Right to the edge, one down, back left: every position new.)
        let moves = Array(repeating: Direction.right, count: 30) + [.down] + Array(repeating: .left, count: 6)
        for direction in moves { driver.press(direction) }
        // The page live drew at the last move: the second, from column 16.
        let live = Drawn(driver.frame)
        driver.press(.left)
        let letters = Set(MarbleValue.letters)
        let shown = try #require(live.lanes[StreamLane.position.label])
        #expect(Set(shown.filter(letters.contains)).count > 20, "\(live.rows)")
        let pilot = try recorded.player(screen: ScreenSize(columns: 80, rows: 60))
        pilot.press(.home)
        if !pilot.player.streamsOpen { pilot.type("s") }
        for _ in 0..<32 { pilot.press(.arrow(.right, shifted: false)) }
        // From place 32 to the last move, the same page: the moves after the place are its future.
        for place in 32...moves.count {
            #expect(pilot.player.place == place)
            let replayed = try #require(Drawn(pilot.frame).lanes[StreamLane.position.label])
            let cells = 0..<(2 * (moves.count - 16) + 2)
            #expect(
                Array(replayed[cells].map { letters.contains($0) ? $0 : " " })
                    == Array(shown[cells].map { letters.contains($0) ? $0 : " " }),
                "place \(place): live \(String(String.UnicodeScalarView(shown[cells]))), player \(String(String.UnicodeScalarView(replayed[cells])))"
            )
            pilot.press(.arrow(.right, shifted: false))
        }
    }
}

import BallModel
import BallProgram
import BallRendering
import BallReplay
import BallStreams
import BallTestSupport
import TerminalIO
import Testing

/// Looking never touches: opening and closing the streams panel or the help box, in any state
/// (mid-drag, at the edges, in the black band, at the smallest and a huge window), sends no
/// intent and changes no position or colour. Two sessions are sent the same input, one with
/// the panel and the help opened and closed between (and during) it; their recordings' intents
/// must be the same bytes, and the ball and both colours the same after every step.
@Suite("Looking never touches")
struct LookingTests {
    @Test(
        "at 24×7 (the smallest), 80×24 and 300×100: 60 seeded runs each, the panel and help toggled between and during drags, change nothing",
        .tags(.slow), .skippedInQuickRuns,
        arguments: [
            ScreenSize.minimum, ScreenSize(columns: 80, rows: 24), ScreenSize(columns: 300, rows: 100),
        ]
    )
    func togglesChangeNothing(size: ScreenSize) throws {
        var generator = SeededGenerator()
        for run in 0..<60 {
            let plain = try RecordedPlay(screen: size)
            let looked = try RecordedPlay(screen: size)
            var toggles = 0
            var panelToggles = 0
            /// Opens and closes what is looked at, in `looked` only.
            func look() {
                switch generator.below(3) {
                case 0:
                    looked.pilot.toggleStreams()
                    looked.pilot.toggleStreams()
                    panelToggles += 2
                case 1:
                    // The help box: any key closes it and does nothing else.
                    looked.pilot.type("?")
                    looked.pilot.type("z")
                default:
                    looked.pilot.toggleStreams()
                    panelToggles += 1
                }
                toggles += 1
            }
            func both(_ action: (Pilot<Play>) -> Void) {
                action(plain.pilot)
                action(looked.pilot)
            }
            // The ball's area is the window's: a cell anywhere in it, the edges included.
            func cell() -> Cell {
                let edges = [0, size.columns - 1]
                let column =
                    generator.below(4) == 0 ? edges[generator.below(2)] : generator.below(size.columns)
                return Cell(column: column, row: generator.below(max(1, size.rows - 1)))
            }
            // The panel stays closed when a press comes (a press is where the user sees the
            // ball: with the panel open, the view may be scrolled), and may open mid-drag.
            func closePanel() {
                if looked.pilot.play.isStreamsOpen {
                    looked.pilot.toggleStreams()
                    panelToggles += 1
                }
            }
            for _ in 0..<(1 + generator.below(25)) {
                if generator.below(2) == 0 { look() }
                switch generator.below(6) {
                case 0, 1:
                    closePanel()
                    let start = cell()
                    both { $0.run([.bytes(TerminalBytes.press(start))]) }
                    for _ in 0..<generator.below(6) {
                        let next = cell()
                        both { $0.run([.bytes(TerminalBytes.drag(next))]) }
                        if generator.below(3) == 0 {
                            looked.pilot.toggleStreams()
                            toggles += 1
                            panelToggles += 1
                        }
                        #expect(plain.pilot.appearance == looked.pilot.appearance, "mid-drag: run \(run)")
                    }
                    let end = cell()
                    both { $0.run([.bytes(TerminalBytes.release(end))]) }
                case 2, 3:
                    let direction = Direction.allCases[generator.below(4)]
                    let shifted = generator.below(2) == 0
                    both { $0.press(direction, shifted: shifted) }
                case 4: both { $0.type("c") }
                default:
                    // Into the black band: the sum of points 0 mod 255 (column 0, row 0 at the start).
                    both { $0.send(.recentred) }
                    for _ in 0..<generator.below(8) { both { $0.press(.up, shifted: true) } }
                }
                #expect(
                    plain.pilot.appearance == looked.pilot.appearance,
                    "run \(run) at \(size), \(toggles) toggles, \(generator)")
                #expect(plain.pilot.session.state == looked.pilot.session.state)
            }
            closePanel()
            both { $0.type("q") }
            #expect(plain.intentLines == looked.intentLines, "run \(run) at \(size), \(generator)")
            #expect(plain.intentLines == plain.file.lines, "the plain run looked at nothing")
            // The panel's openings and closings are in the recording, as observations.
            #expect(looked.file.lines.filter { $0.contains(#""event":"panel""#) }.count == panelToggles)
        }
    }

    @Test(
        "opening the panel at 80×24 leaves the ball at 40,11 in flatRed on flatMint, and draws it whole above the panel"
    )
    func openingAtTheStart() {
        let driver = Pilot<Play>()
        let before = driver.appearance
        driver.toggleStreams()
        #expect(driver.appearance == before)
        #expect(before.position.centre == Cell(column: 40, row: 11) && before.ball == .flatRed)
        #expect(driver.streams.latestIndex == 0, "no intent")
        // The view follows the ball: all of its disc above the panel's first row.
        let discRows = driver.frame.discRows(ball: before.ball)
        #expect(!discRows.isEmpty && discRows.max()! == 24 - 1 - StreamPanel.rows(slot: false) - 1, "\(discRows)")
        driver.toggleStreams()
        #expect(driver.appearance == before)
        #expect(driver.streams.latestIndex == 0)
    }
}

extension RecordedPlay {
    /// The recording's intent lines (the observations beside them left out). Every event is at
    /// time 0 (the clock is still): two files differ only in what was recorded.
    fileprivate var intentLines: [String] {
        file.lines.filter { line in
            !["subscribed", "unsubscribed", "panel"].contains { line.contains("\"\($0)\"") }
        }
    }
}

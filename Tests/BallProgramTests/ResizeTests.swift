import BallModel
import BallProgram
import BallRendering
import BallTestSupport
import Testing

/// A window that changes size keeps the whole disc in view: the reducer keeps the centre where
/// the disc fits, and the view follows it above the streams panel.
@Suite("Resizes keep the disc whole")
struct ResizeTests {
    @Test(
        "200 seeded runs of moves and resizes from the smallest, 24×7, to 300×100, the panel open or not: the disc is drawn whole after each",
        .tags(.slow), .skippedInQuickRuns
    )
    func discStaysWhole() {
        var generator = SeededGenerator()
        for run in 0..<200 {
            var size = ScreenSize(
                columns: 24 + generator.below(100), rows: ScreenSize.minimum.rows + generator.below(41))
            let driver = Pilot<Play>(screen: size)
            if generator.below(2) == 0 { driver.toggleStreams() }
            for _ in 0..<(1 + generator.below(12)) {
                switch generator.below(4) {
                case 0:
                    size = ScreenSize(
                        columns: 24 + generator.below(277), rows: ScreenSize.minimum.rows + generator.below(94))
                    driver.resize(columns: size.columns, rows: size.rows)
                case 1: driver.toggleStreams()
                default:
                    let direction = Direction.allCases[generator.below(4)]
                    for _ in 0..<generator.below(6) { driver.press(direction, shifted: true) }
                }
                let position = driver.appearance.position
                let half = position.shape.halfHeight
                // The panel's rows, or its one line where it does not fit.
                let panelOpen = driver.play.isStreamsOpen
                let panelRows = panelOpen ? (StreamPanel.fits(over: size) ? StreamPanel.rows(slot: false) : 1) : 0
                let coveredFrom = size.rows - 1 - panelRows
                let offset = StreamPanel.viewOffset(for: position, coveredFrom: coveredFrom)
                let (top, bottom) = (position.centre.row - half - offset, position.centre.row + half - offset)
                let drawn = driver.frame.discRows(ball: driver.appearance.ball)
                let context = "run \(run) at \(size), panel \(panelOpen), \(generator)"
                // Taller than the rows above the panel, its top goes off the top, as docs/streams.md says.
                if top >= 0 {
                    #expect(drawn.first == top && drawn.last == bottom, "\(drawn) for \(top)...\(bottom): \(context)")
                } else {
                    #expect(panelOpen && drawn.last == bottom, "\(context)")
                }
                #expect(bottom < coveredFrom, "\(context)")
                if drawn.first != top && top >= 0 { return }
            }
        }
    }

    @Test("the issue's case: --streams at 80×24, then the window grows to 120×40: the disc is whole in it")
    func growWithThePanel() {
        let driver = Pilot<Play>(screen: ScreenSize(columns: 80, rows: 24))
        driver.toggleStreams()
        driver.resize(columns: 120, rows: 40)
        let position = driver.appearance.position
        let half = position.shape.halfHeight
        let drawn = driver.frame.discRows(ball: driver.appearance.ball)
        #expect(drawn.first == position.centre.row - half && drawn.last == position.centre.row + half)
        #expect(drawn.first! >= 0 && drawn.last! < 40 - 1 - StreamPanel.rows(slot: false))
    }
}

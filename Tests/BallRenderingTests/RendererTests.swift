import BallModel
import BallProgram
import BallRendering
import BallTestSupport
import ColourCore
import Testing

/// The renderer: golden snapshots of whole frames, and the rules they follow.
@Suite("The renderer")
struct RendererTests {
    @Test("80×24 at the start: a round disc, the status bar")
    func start80x24() {
        let driver = Pilot<Play>(screen: ScreenSize(columns: 80, rows: 24))
        #expect(snapshotMismatch(driver.frame.snapshot, named: "start-80x24", beside: #filePath) == nil)
    }

    @Test("200×60 after a drag")
    func dragged200x60() {
        let driver = Pilot<Play>(screen: ScreenSize(columns: 200, rows: 60))
        driver.drag(from: Cell(column: 100, row: 29), to: Cell(column: 40, row: 20))
        #expect(snapshotMismatch(driver.frame.snapshot, named: "dragged-200x60", beside: #filePath) == nil)
    }

    @Test("at the bottom-right corner of 80×24, the ball stays whole above the status line")
    func corner() {
        let driver = Pilot<Play>(screen: ScreenSize(columns: 80, rows: 24))
        driver.drag(from: Cell(column: 40, row: 11), to: Cell(column: 79, row: 23))
        #expect(snapshotMismatch(driver.frame.snapshot, named: "corner-80x24", beside: #filePath) == nil)
    }

    @Test("too small: a centred notice")
    func tooSmall() {
        let driver = Pilot<Play>(screen: ScreenSize(columns: 80, rows: 24))
        driver.resize(columns: 20, rows: 5)
        #expect(snapshotMismatch(driver.frame.snapshot, named: "too-small-20x5", beside: #filePath) == nil)
        driver.resize(columns: 80, rows: 24)
        #expect(driver.frame.text.contains("●"))
    }

    @Test("the disc is round: as wide as it is tall, within a half-cell (cells are twice as tall as wide)")
    func discIsRound() {
        let driver = Pilot<Play>(screen: ScreenSize(columns: 80, rows: 24))
        let frame = driver.frame
        let ball = driver.appearance.ball
        var litHalves = 0
        var columns = Set<Int>()
        var halfRows = Set<Int>()
        for row in 0..<23 {
            for column in 0..<80 {
                let (top, bottom) = halves(frame[column, row], lit: ball)
                if top { litHalves += 1; columns.insert(column); halfRows.insert(2 * row) }
                if bottom { litHalves += 1; columns.insert(column); halfRows.insert(2 * row + 1) }
            }
        }
        #expect(abs(columns.count - halfRows.count) <= 1)  // As wide as tall, in square half-cells.
        #expect(columns.count == 19)
        // Close to π r² for diameter 20.
        #expect(abs(Double(litHalves) - Double.pi * 100) < 20)
    }

    @Test("the ball and the screen show the derived colours; the status line names them")
    func coloursInFrame() {
        let driver = Pilot<Play>(screen: ScreenSize(columns: 80, rows: 24))
        let appearance = driver.appearance
        let frame = driver.frame
        #expect(frame[40, 11] == FrameCell(glyph: " ", foreground: appearance.ball, background: appearance.ball))
        #expect(frame[31, 11] == FrameCell(glyph: " ", foreground: appearance.ball, background: appearance.ball))
        #expect(frame[31, 9] == FrameCell(glyph: "▄", foreground: appearance.ball, background: appearance.background))
        #expect(frame[31, 13] == FrameCell(glyph: "▄", foreground: appearance.background, background: appearance.ball))
        #expect(!frame.text.contains("▀") && !frame.text.contains("█"))
        #expect(frame[0, 0] == .blank(appearance.background))
        #expect(frame.text.split(separator: "\n").last!.contains("flatRed #E84E3C"))
        for column in 0..<80 { #expect(frame[column, 23].background == Renderer.statusBackground) }
    }

    @Test("the status line shortens to fit, keeping the colours")
    func statusFits() {
        for width in [24, 40, 60, 80, 120] {
            let driver = Pilot<Play>(screen: ScreenSize(columns: width, rows: 24))
            let status = String(driver.frame.text.split(separator: "\n").last!)
            #expect(status.unicodeScalars.count == width)
            #expect(status.contains(driver.appearance.ball.name))
        }
    }

    @Test(
        "a frame drawn over an older one (only its written rows cleared) equals one drawn fresh; rows it calls blank are"
    )
    func reusedFrames() {
        var renderer = Renderer()
        var reused = Frame(size: ScreenSize(columns: 0, rows: 0), fill: .flatWhite)
        var position = BallPosition.centred(on: ScreenSize(columns: 80, rows: 24))
        var previous: Appearance?
        for step in 0..<120 {
            if step == 60 { position = .centred(on: ScreenSize(columns: 100, rows: 30)) }
            position.centre = Cell(
                column: (position.centre.column + 7 * step) % position.screen.columns,
                row: (position.centre.row + 3 * step) % (position.screen.rows - 1))
            let appearance = Appearance.at(position, after: previous)
            previous = appearance
            renderer.render(appearance, into: &reused)
            var fresh = Frame(size: ScreenSize(columns: 0, rows: 0), fill: .flatWhite)
            var freshRenderer = Renderer()
            freshRenderer.render(appearance, into: &fresh)
            #expect(reused == fresh, "step \(step)")
            var written = 0
            for row in 0..<reused.size.rows {
                let columns = reused.writtenColumns(row: row)
                written += columns.count
                for column in 0..<reused.size.columns where !columns.contains(column) {
                    #expect(reused[column, row] == .blank(reused.fill), "step \(step), \(column),\(row)")
                }
            }
            // The ball's rows and the status line, not the whole frame.
            #expect(written > reused.size.columns && written < reused.size.columns * reused.size.rows / 2)
        }
    }
}

extension RendererTests {
    @Test("the status line names the place in cells and points, both colours and the keys, in full when it fits")
    func statusText() {
        let screen = ScreenSize(columns: 120, rows: 24)
        let expected: [(Cell, String)] = [
            (Cell(column: 0, row: 0), " 0,0 · 0,0 pt  ● flatBlackDark #262626  on ■ flatWhite #EDF1F2  "),
            (Cell(column: 3, row: 2), " 3,2 · 24,32 pt  ● flatPlumDark #4F2B4F  on ■ flatForestGreenDark #2C4F35  "),
            (Cell(column: 8, row: 2), " 8,2 · 64,32 pt  ● flatMaroonDark #662521  on ■ flatTealDark #356273  "),
            (Cell(column: 16, row: 8), " 16,8 · 128,128 pt  ● flatBlackDark #262626  on ■ flatTealDark #356273  "),
            (Cell(column: 30, row: 0), " 30,0 · 240,0 pt  ● flatRed #E84E3C  on ■ flatMint #1ABD9C  "),
        ]
        var renderer = Renderer()
        var frame = Frame(size: screen, fill: .flatWhite)
        var previous: Appearance?
        for (centre, place) in expected {
            let appearance = Appearance.at(BallPosition(centre: centre, screen: screen), after: previous)
            previous = appearance
            renderer.render(appearance, into: &frame)
            let status = String(frame.text.split(separator: "\n").last!)
            #expect(status.hasPrefix(place + "drag/←↑↓→ move  c centre  ? keys  q quit"), "\(status)")
        }
    }

    @Test(
        "monochrome: the status line and the disc's cells whose upper half it covers are in reverse video; nothing else"
    )
    func monochrome() {
        let driver = Pilot<Play>(screen: ScreenSize(columns: 80, rows: 24), depth: .monochrome)
        let frame = driver.frame
        let coloured = Pilot<Play>(screen: ScreenSize(columns: 80, rows: 24)).frame
        var wholeCells = 0
        for row in 0..<24 {
            for column in 0..<80 {
                let (top, bottom) = halves(coloured[column, row], lit: driver.appearance.ball)
                if top && bottom { wholeCells += 1 }
                #expect(frame[column, row].reverse == (row == 23 || top), "\(column),\(row)")
                #expect(frame[column, row].glyph == coloured[column, row].glyph, "\(column),\(row)")
            }
        }
        #expect(wholeCells > 100)
        driver.resize(columns: 20, rows: 5)
        let reversed = driver.frame.cells.allSatisfy { $0.reverse }
        #expect(reversed)  // The "too small" notice, whole.
    }
}

extension RendererTests {
    @Test("a notice sits at the right end of the status line, never over the place, cut to fit")
    func notice() {
        var renderer = Renderer()
        for width in [120, 60, 30] {
            var screen = ScreenModel(
                appearance: Appearance.at(.centred(on: ScreenSize(columns: width, rows: 24)), after: nil))
            screen.update(.noticePosted("recording stopped after 12 events"))
            var frame = Frame(size: screen.appearance.position.screen, fill: .flatWhite)
            renderer.render(screen, into: &frame)
            let status = String(frame.text.split(separator: "\n").last!)
            let place = " \(width / 2),11"
            #expect(status.hasPrefix(place), "\(width): \(status)")
            #expect(status.unicodeScalars.count == width)
            if width >= 60 {
                #expect(status.hasSuffix(" recording stopped after 12 events "), "\(width): \(status)")
            } else {
                #expect(status.contains(" recording stop"), "\(width): \(status)")
            }
            #expect(frame[width - 2, 23].bold)
        }
    }
}

/// Which halves of `cell` show the colour `lit`, as a terminal draws it: a blank is its
/// background; `▄` is its foreground below, its background above; `▀` the other way round.
private func halves(_ cell: FrameCell, lit: FlatColour) -> (top: Bool, bottom: Bool) {
    switch cell.glyph {
    case " ": (cell.background == lit, cell.background == lit)
    case "▄": (cell.background == lit, cell.foreground == lit)
    case "▀": (cell.foreground == lit, cell.background == lit)
    default: (false, false)
    }
}

extension RendererTests {
    static let help = HelpText(
        title: "keys", rows: [HelpRow(keys: "arrows", does: "move 1 cell"), HelpRow(keys: "q, Esc", does: "quit")],
        footer: "any key closes this")

    @Test("the help box: centred over the ball in the status line's colours, over an unchanged status line")
    func helpBox() {
        var renderer = Renderer()
        let size = ScreenSize(columns: 80, rows: 24)
        let appearance = Appearance.at(.centred(on: size), after: nil)
        var plain = Frame(size: size, fill: .flatWhite)
        renderer.render(appearance, into: &plain)
        var screen = ScreenModel(appearance: appearance)
        screen.update(.helpOpened(Self.help))
        var frame = Frame(size: size, fill: .flatWhite)
        renderer.render(screen, into: &frame)
        #expect(snapshotMismatch(frame.snapshot, named: "help-80x24", beside: #filePath) == nil)
        let rows = frame.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(rows[23] == self.rows(of: plain)[23])
        #expect(rows.contains { $0.contains("  arrows  move 1 cell  ") })
        #expect(rows.contains { $0.contains("  q, Esc  quit  ") })
        #expect(rows.contains { $0.contains("  any key closes this  ") })
        screen.update(.helpClosed)
        renderer.render(screen, into: &frame)
        #expect(frame == plain)
    }

    @Test("in the smallest terminal the help keeps its title, a page of rows, and says more follow")
    func helpBoxSmall() {
        var renderer = Renderer()
        let size = ScreenSize.minimum
        var screen = ScreenModel(appearance: Appearance.at(.centred(on: size), after: nil))
        screen.update(
            .helpOpened(
                HelpText(
                    title: "keys",
                    rows: (1...9).map { HelpRow(keys: "k\($0)", does: "does \($0) and much more besides") },
                    footer: "any key closes this")))
        var frame = Frame(size: size, fill: .flatWhite)
        renderer.render(screen, into: &frame)
        let text = frame.text
        #expect(text.contains("keys") && text.contains("space: more (1/9)"), "\(text)")
        #expect(text.contains("k1  does 1") && !text.contains("k2"), "\(text)")
    }

    private func rows(of frame: Frame) -> [String] {
        frame.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
}

extension RendererTests {
    @Test(
        "a replay's status line starts with the player's facts and names its keys, shorter where it must",
        arguments: [
            (StatusKeys.replay, 140, "● flatRed #E84E3C  on ■ flatMint #1ABD9C  space pause  ←→ step  ? keys  q quit"),
            (.replay, 100, "● flatRed #E84E3C  on ■ flatMint #1ABD9C  ? keys  q quit"),
            (.replayPaused, 140, "● flatRed #E84E3C  on ■ flatMint #1ABD9C  space play  ←→ step  ? keys  q quit"),
            (.replayPaused, 80, "● flatRed  ? keys  q quit"), (.replayPaused, 64, "? keys  q quit"),
        ])
    func replayStatus(keys: StatusKeys, width: Int, expected: String) {
        var renderer = Renderer()
        let facts = "\(keys == .replay ? "replay" : "paused")  intent 3/13  t 0.49 s  1×"
        let size = ScreenSize(columns: width, rows: 24)
        var frame = Frame(size: size, fill: .flatWhite)
        let position = BallPosition(centre: Cell(column: 40, row: 11), screen: size)
        var screen = ScreenModel(appearance: Appearance.at(position, after: nil))
        screen.update(.playerChanged(PlayerRows(terminal: size, facts: facts, rows: []), keys: keys))
        renderer.render(screen, into: &frame)
        let status = String(frame.text.split(separator: "\n").last!.reversed().drop { $0 == " " }.reversed())
        #expect(status == " \(facts)  40,11  \(expected)")
    }

    @Test(
        "at 80 columns the status line keeps ? keys and q quit whatever the colours (every pair, the longest names), in play, learn and the player (its facts cut first)",
        arguments: [StatusKeys.play, .learn, .replay, .replayPaused])
    func keysAt80(keys: StatusKeys) {
        var renderer = Renderer()
        let size = ScreenSize(columns: 80, rows: 60)
        var frame = Frame(size: size, fill: .flatWhite)
        // The widest place: the last column, a two-digit row.
        let position = BallPosition(centre: Cell(column: 76, row: 57), screen: size)
        let facts =
            keys == .play || keys == .learn
            ? nil
            : "replay  intent 12345/67890  t 1234.56 s  16×  3 rows hidden  Lesson 12 · debounce, throttle"
        var longest = 0
        for ball in FlatColour.allCases {
            for background in FlatColour.allCases {
                var screen = ScreenModel(appearance: Appearance(position: position, ball: ball, background: background))
                if let facts {
                    screen.update(.playerChanged(PlayerRows(terminal: size, facts: facts, rows: []), keys: keys))
                }
                if keys == .learn {
                    screen.update(.tourLaidOut(TourLayout(terminal: size, cardRows: 6, cardRowsAtMinimum: 6)))
                }
                renderer.render(screen, into: &frame)
                let status = String(frame.text.split(separator: "\n").last!)
                #expect(status.contains("? keys  q quit"), "\(keys), \(ball) on \(background): \(status)")
                if keys == .play || keys == .learn {
                    #expect(status.contains(ball.name), "\(keys), \(ball) on \(background): \(status)")
                    #expect(status.contains(background.name), "\(keys), \(ball) on \(background): \(status)")
                } else {
                    // The facts' last parts make room, whole: `…` in their place.
                    #expect(status.hasPrefix(" replay  intent 12345/67890  t 1234.56 s  16×  …  76,57  "), "\(status)")
                }
                longest = max(longest, ball.name.count + background.name.count)
            }
        }
        #expect(longest == 2 * "flatForestGreenDark".count, "the longest names were among them")
    }

    @Test("play's status line keeps its long place and short keys at 80 columns")
    func playStatus() {
        var renderer = Renderer()
        let size = ScreenSize(columns: 80, rows: 24)
        var frame = Frame(size: size, fill: .flatWhite)
        let position = BallPosition(centre: Cell(column: 40, row: 11), screen: size)
        renderer.render(Appearance.at(position, after: nil), into: &frame)
        let status = String(frame.text.split(separator: "\n").last!.reversed().drop { $0 == " " }.reversed())
        #expect(status == " 40,11 · 320,176 pt  ● flatRed #E84E3C  on ■ flatMint #1ABD9C  ? keys  q quit")
    }
}

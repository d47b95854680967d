import BallModel
import BallRendering
import BallTestSupport
import ColourCore
import Foundation
import TerminalIO
import Testing

/// Every swatch on the status line, every marble and tick in the panel's lanes and the
/// player's timeline, and the bar's edge, shows in every colour depth: checked on what a
/// terminal receives (the rasteriser's bytes fed to the test emulator), with xterm's default
/// palette, WCAG 2.1's contrast ratio (written here from the standard, not borrowed from the
/// program) for marks and a plain RGB distance for the bar's edge, for all 48 × 48 colours.
@Suite("Swatches and marbles stay visible")
struct SwatchVisibilityTests {
    static let depths: [ColourDepth] = [.direct, .palette(.xterm256), .palette(.ansi16), .palette(.ansi8)]

    /// The least distance (Euclidean, 0–255 channels) at which the bar's edge shows.
    static let visible = 30.0

    /// The least contrast ratio of a mark against its cell: WCAG 2.1's 3:1 for graphical
    /// objects (success criterion 1.4.11).
    static let markContrast = 3.0

    @Test(
        "● and ■ show against the cell behind them, and the bar against the screen", .tags(.slow), .skippedInQuickRuns,
        arguments: depths)
    func swatches(depth: ColourDepth) {
        let size = ScreenSize(columns: 120, rows: 8)
        var renderer = Renderer(depth: depth)
        var frame = Frame(size: size, fill: .flatWhite)
        var rasteriser = Rasteriser(sequences: Self.sequences(for: depth))
        var failures: [String] = []
        var closest = (distance: Double.infinity, what: "")
        var lowest = (ratio: Double.infinity, what: "")
        for ball in FlatColour.allCases {
            for background in FlatColour.allCases {
                let appearance = Appearance(
                    position: BallPosition(centre: Cell(column: 5, row: 2), screen: size), ball: ball,
                    background: background)
                renderer.render(appearance, into: &frame)
                let terminal = TerminalEmulator.showing(frame, through: &rasteriser)
                let status = terminal.cells[size.rows - 1]
                let above = terminal.cells[size.rows - 2]
                var marks: [(String, Int?, Int?)] = []
                var pairs: [(String, Int?, Int?)] = []
                if let ballSwatch = status.first(where: { $0.glyph == "●" }) {
                    marks.append(("● \(ball.name)", ballSwatch.foreground, ballSwatch.background))
                } else {
                    failures.append("\(ball.name) on \(background.name): no ●")
                }
                if let backgroundSwatch = status.first(where: { $0.glyph == "■" }) {
                    marks.append(("■ \(background.name)", backgroundSwatch.foreground, backgroundSwatch.background))
                } else {
                    failures.append("\(ball.name) on \(background.name): no ■")
                }
                pairs.append(("the bar under \(background.name)", status[100].background, above[100].background))
                marks.append(("the text on the bar", status[2].foreground, status[2].background))
                for (what, first, second) in marks {
                    let ratio = Self.contrast(first, second)
                    if ratio < lowest.ratio { lowest = (ratio, what) }
                    if ratio < Self.markContrast {
                        failures.append("\(what) (ball \(ball.name)): \(Self.format(ratio)):1")
                    }
                }
                for (what, first, second) in pairs {
                    let distance = Self.distance(first, second)
                    if distance < closest.distance { closest = (distance, what) }
                    if distance < Self.visible {
                        failures.append("\(what) (ball \(ball.name)): \(Int(distance)) apart")
                    }
                }
            }
        }
        print("\(depth): the closest edge is \(closest.what), \(Int(closest.distance)) apart")
        print("\(depth): the lowest contrast is \(lowest.what), \(Self.format(lowest.ratio)):1")
        let failing = failures.count
        #expect(failing == 0, "\(failing) invisible, first: \(failures.prefix(6))")
    }

    @Test(
        "every marble and tick reaches 3:1 against its cell, on the panel and the timeline over every screen",
        arguments: depths)
    func marbles(depth: ColourDepth) {
        let size = ScreenSize(columns: 120, rows: 12)
        let glyphs: [Unicode.Scalar] = ["○", "●", "■", "│", "▼", "•", "▲"]
        // One row of every colour's marbles, as the player's rows (the timeline's ticks and
        // the panel's lanes are drawn by the same code, in the status line's colours).
        var row: [LaneCell] = []
        for colour in FlatColour.allCases {
            row.append(LaneCell(glyph: glyphs[Int(colour.rawValue) % glyphs.count], colour: colour))
            row.append(LaneCell(glyph: " "))
        }
        row += Array(repeating: LaneCell(glyph: " "), count: max(0, size.columns - row.count))
        var renderer = Renderer(depth: depth)
        var frame = Frame(size: size, fill: .flatWhite)
        var rasteriser = Rasteriser(sequences: Self.sequences(for: depth))
        var failures: [String] = []
        var lowest = (ratio: Double.infinity, what: "")
        for background in FlatColour.allCases {
            let area = ScreenSize(columns: size.columns, rows: size.rows - 3)
            var screen = ScreenModel(
                appearance: Appearance(
                    position: BallPosition(centre: Cell(column: 5, row: 2), screen: area), ball: .flatWhite,
                    background: background))
            screen.player = PlayerRows(terminal: size, facts: "replay", rows: [row, row])
            renderer.render(screen, into: &frame)
            let terminal = TerminalEmulator.showing(frame, through: &rasteriser)
            let drawn = terminal.cells[size.rows - 3]
            for (offset, colour) in FlatColour.allCases.enumerated() {
                let cell = drawn[offset * 2]
                let what = "\(colour.name) on the bar over \(background.name)"
                guard cell.glyph == row[offset * 2].glyph else {
                    failures.append("\(what): drew \(cell.glyph)")
                    continue
                }
                let ratio = Self.contrast(cell.foreground, cell.background)
                if ratio < lowest.ratio { lowest = (ratio, what) }
                if ratio < Self.markContrast { failures.append("\(what): \(Self.format(ratio)):1") }
            }
        }
        print("\(depth): the lowest marble contrast is \(lowest.what), \(Self.format(lowest.ratio)):1")
        let failing = failures.count
        #expect(failing == 0, "\(failing) marbles below 3:1, first: \(failures.prefix(6))")
    }

    @Test(
        "the disc shows on the screen in every one of the 48 × 48 pairs of colours at every depth, and without colour: each of its rows has a cell apart from the screen",
        .tags(.slow), .skippedInQuickRuns,
        arguments: depths + [.monochrome])
    func disc(depth: ColourDepth) {
        let size = ScreenSize(columns: 40, rows: 12)
        let centre = size.centre
        let shape = BallShape(for: size)
        var renderer = Renderer(depth: depth)
        var frame = Frame(size: size, fill: .flatWhite)
        var rasteriser = Rasteriser(sequences: Self.sequences(for: depth))
        var failures: [String] = []
        var ringed = 0
        for ball in FlatColour.allCases {
            for background in FlatColour.allCases {
                renderer.render(
                    Appearance(
                        position: BallPosition(centre: centre, screen: size), ball: ball, background: background),
                    into: &frame)
                let terminal = TerminalEmulator.showing(frame, through: &rasteriser)
                let screen = terminal.cells[0][0]
                // A cell shows apart from the screen when a colour it shows (its glyph's, where it
                // has one, and its background) lies 30 apart in RGB, or it is in reverse video
                // where the screen is not.
                func apart(_ cell: TerminalEmulator.Cell) -> Bool {
                    if cell.reverse != screen.reverse { return true }
                    let shown = (cell.glyph == " " ? [] : [cell.foreground]) + [cell.background]
                    return shown.contains { Self.distance($0, screen.background) >= Self.visible }
                }
                if !apart(terminal.cells[centre.row][centre.column]) { ringed += 1 }
                for rowOffset in -shape.halfHeight...shape.halfHeight {
                    let row = centre.row + rowOffset
                    let onDisc = (0..<size.columns).filter {
                        shape.covers(Cell(column: $0, row: row), centredAt: centre)
                    }
                    let shows = onDisc.filter { apart(terminal.cells[row][$0]) }
                    if shows.isEmpty {
                        failures.append("\(ball.name) on \(background.name): row \(rowOffset) vanishes")
                    }
                }
            }
        }
        print("\(depth): \(ringed) of 2,304 pairs show the disc by its edge alone")
        #expect(failures.isEmpty, "\(failures.count) rows vanish, first: \(failures.prefix(6))")
    }

    @Test("in 8 colours a flatBlackDark ball on a flatTealDark screen (both black there) is drawn with a light edge")
    func blackOnBlack() {
        let size = ScreenSize(columns: 40, rows: 12)
        var renderer = Renderer(depth: .palette(.ansi8))
        var frame = Frame(size: size, fill: .flatWhite)
        var rasteriser = Rasteriser(sequences: Self.sequences(for: .palette(.ansi8)))
        renderer.render(
            Appearance(
                position: BallPosition(centre: size.centre, screen: size), ball: .flatBlackDark,
                background: .flatTealDark), into: &frame)
        let terminal = TerminalEmulator.showing(frame, through: &rasteriser)
        let centreRow = terminal.cells[size.centre.row]
        // Black inside, a light edge at both ends of the row, black screen outside.
        let light = centreRow.indices.filter { Self.distance(centreRow[$0].background, 0) > 100 }
        #expect(light.count == 2, "\(light)")
        #expect(Self.distance(centreRow[size.centre.column].background, centreRow[0].background) < 1)
    }

    /// The sequences of an xterm that shows colours as `depth` does.
    static func sequences(for depth: ColourDepth) -> TerminalSequences {
        switch depth {
        case .palette(let palette): .xterm(palette: palette)
        default: .xtermDirectColour()
        }
    }

    /// WCAG 2.1's contrast ratio of two colours as the emulator holds them: each channel made
    /// linear (the sRGB transfer function as WCAG writes it, threshold 0.03928), the relative
    /// luminance 0.2126 R + 0.7152 G + 0.0722 B, then (lighter + 0.05) / (darker + 0.05).
    static func contrast(_ first: Int?, _ second: Int?) -> Double {
        func luminance(_ channels: [Int]) -> Double {
            let linear = channels.map { value -> Double in
                let scaled = Double(value) / 255
                return scaled <= 0.03928 ? scaled / 12.92 : pow((scaled + 0.055) / 1.055, 2.4)
            }
            return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
        }
        let (one, other) = (luminance(rgb(first)), luminance(rgb(second)))
        return (max(one, other) + 0.05) / (min(one, other) + 0.05)
    }

    /// A ratio with two decimals, for messages.
    static func format(_ ratio: Double) -> String {
        String(format: "%.2f", ratio)
    }

    /// How far apart two colours as the emulator holds them are, in RGB.
    static func distance(_ first: Int?, _ second: Int?) -> Double {
        let (one, other) = (rgb(first), rgb(second))
        let squares = (0..<3).map { (Double(one[$0]) - Double(other[$0])) * (Double(one[$0]) - Double(other[$0])) }
        return squares.reduce(0, +).squareRoot()
    }

    /// A colour as the emulator holds it (a palette index, or 24-bit), as xterm shows it by
    /// default (XTerm's documented palette: the 16 ANSI colours, the 6×6×6 cube, the greys).
    static func rgb(_ colour: Int?) -> [Int] {
        guard let colour else { return [0, 0, 0] }
        if colour >= 0x100_0000 { return [colour >> 16 & 0xFF, colour >> 8 & 0xFF, colour & 0xFF] }
        let ansi = [
            [0, 0, 0], [205, 0, 0], [0, 205, 0], [205, 205, 0], [0, 0, 238], [205, 0, 205], [0, 205, 205],
            [229, 229, 229], [127, 127, 127], [255, 0, 0], [0, 255, 0], [255, 255, 0], [92, 92, 255],
            [255, 0, 255], [0, 255, 255], [255, 255, 255],
        ]
        if colour < 16 { return ansi[colour] }
        if colour >= 232 { return Array(repeating: 8 + 10 * (colour - 232), count: 3) }
        let levels = [0, 95, 135, 175, 215, 255]
        let cube = colour - 16
        return [levels[cube / 36], levels[cube / 6 % 6], levels[cube % 6]]
    }
}

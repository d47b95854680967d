import BallModel
import BallRendering
import BallTestSupport
import ColourCore
import TerminalIO
import Testing

/// Every swatch on the status line, and the bar's edge, shows in every colour depth: checked
/// on what a terminal receives (the rasteriser's bytes fed to the test emulator), with xterm's
/// default palette and a plain RGB distance written here, for all 48 × 48 ball and screen
/// colours.
@Suite("Swatches stay visible")
struct SwatchVisibilityTests {
    static let depths: [ColourDepth] = [.direct, .palette(.xterm256), .palette(.ansi16), .palette(.ansi8)]

    /// The least distance (Euclidean, 0–255 channels) at which a one-cell swatch shows.
    static let visible = 30.0

    @Test("● and ■ show against the cell behind them, and the bar against the screen", arguments: depths)
    func swatches(depth: ColourDepth) {
        let sequences: TerminalSequences =
            switch depth {
            case .palette(let palette): .xterm(palette: palette)
            default: .xtermDirectColour()
            }
        let size = ScreenSize(columns: 120, rows: 8)
        var renderer = Renderer(depth: depth)
        var frame = Frame(size: size, fill: .flatWhite)
        var rasteriser = Rasteriser(sequences: sequences)
        var failures: [String] = []
        var closest = (distance: Double.infinity, what: "")
        for ball in FlatColour.allCases {
            for background in FlatColour.allCases {
                let appearance = Appearance(
                    position: BallPosition(centre: Cell(column: 5, row: 2), screen: size), ball: ball,
                    background: background)
                renderer.render(appearance, into: &frame)
                var bytes: [UInt8] = []
                rasteriser.invalidate()
                rasteriser.draw(frame, over: nil, into: &bytes)
                var terminal = TerminalEmulator(columns: size.columns, rows: size.rows)
                terminal.receive(bytes)
                let status = terminal.cells[size.rows - 1]
                let above = terminal.cells[size.rows - 2]
                var pairs: [(String, Int?, Int?)] = []
                if let ballSwatch = status.first(where: { $0.glyph == "●" }) {
                    pairs.append(("● \(ball.name)", ballSwatch.foreground, ballSwatch.background))
                } else {
                    failures.append("\(ball.name) on \(background.name): no ●")
                }
                if let backgroundSwatch = status.first(where: { $0.glyph == "■" }) {
                    pairs.append(("■ \(background.name)", backgroundSwatch.foreground, backgroundSwatch.background))
                } else {
                    failures.append("\(ball.name) on \(background.name): no ■")
                }
                pairs.append(("the bar under \(background.name)", status[100].background, above[100].background))
                pairs.append(("the text on the bar", status[2].foreground, status[2].background))
                for (what, first, second) in pairs {
                    let distance = Self.distance(first, second)
                    if distance < closest.distance { closest = (distance, what) }
                    if distance < Self.visible {
                        failures.append("\(what) (ball \(ball.name)): \(Int(distance)) apart")
                    }
                }
            }
        }
        print("\(depth): the closest pair is \(closest.what), \(Int(closest.distance)) apart")
        #expect(failures.isEmpty, "\(failures.count) invisible, first: \(failures.prefix(6))")
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

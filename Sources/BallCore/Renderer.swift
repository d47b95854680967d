import ColourCore

// MARK: - Rendering

/// Builds the frame for an appearance: the screen in its colour, the ball as a half-block
/// disc, and the status line. Pure: the same appearance always gives the same frame.
public struct Renderer: Sendable {
    /// The status line's colours: legible on every screen colour, since it has its own.
    public static let statusForeground = FlatColour.flatWhite
    /// The status line's background.
    public static let statusBackground = FlatColour.flatBlackDark

    private var shape: BallShape?
    private var shapeSize: ScreenSize?

    /// A renderer; it keeps the ball's shape between frames of the same size.
    public init() {}

    /// The frame for `appearance`.
    public mutating func frame(for appearance: Appearance) -> Frame {
        var frame = Frame(size: appearance.position.screen, fill: appearance.background)
        render(appearance, into: &frame)
        return frame
    }

    /// Draws `appearance` into `frame`, reusing its storage.
    public mutating func render(_ appearance: Appearance, into frame: inout Frame) {
        let size = appearance.position.screen
        frame.reset(size: size, fill: appearance.background)
        guard size.columns > 0, size.rows > 0 else { return }
        guard size.isLargeEnough else {
            drawTooSmallNotice(into: &frame)
            return
        }
        if shapeSize != size {
            shape = BallShape(for: size)
            shapeSize = size
        }
        if let shape { drawBall(appearance, shape: shape, into: &frame) }
        drawStatus(appearance, into: &frame)
    }

    // MARK: - The ball

    private func drawBall(_ appearance: Appearance, shape: BallShape, into frame: inout Frame) {
        let centre = appearance.position.centre
        let ball = appearance.ball
        let background = appearance.background
        let lastRow = frame.size.rows - 2
        for span in shape.rows {
            let row = centre.row + span.rowOffset
            guard row >= 0, row <= lastRow else { continue }
            let low = min(span.top?.lowerBound ?? .max, span.bottom?.lowerBound ?? .max)
            let high = max(span.top?.upperBound ?? .min, span.bottom?.upperBound ?? .min)
            for offset in low...high {
                let column = centre.column + offset
                guard column >= 0, column < frame.size.columns else { continue }
                let top = span.top?.contains(offset) ?? false
                let bottom = span.bottom?.contains(offset) ?? false
                let glyph: Unicode.Scalar = top ? (bottom ? "█" : "▀") : (bottom ? "▄" : " ")
                frame[column, row] = FrameCell(glyph: glyph, foreground: ball, background: background)
            }
        }
    }

    // MARK: - The status line

    private func drawStatus(_ appearance: Appearance, into frame: inout Frame) {
        let row = frame.size.rows - 1
        let width = frame.size.columns
        for column in 0..<width { frame[column, row] = .blank(Self.statusBackground) }
        let status = StatusLine(appearance)
        let parts = status.parts(fitting: width)
        var column = 0
        for part in parts {
            column = frame.write(
                part.text, column: column, row: row, foreground: part.colour ?? Self.statusForeground,
                background: Self.statusBackground, bold: part.bold)
        }
    }

    // MARK: - Too small

    private func drawTooSmallNotice(into frame: inout Frame) {
        let size = frame.size
        frame.reset(size: size, fill: Self.statusBackground)
        let minimum = ScreenSize.minimum
        let lines = [
            "terminal too small", "(need \(minimum.columns)×\(minimum.rows),", "have \(size.columns)×\(size.rows))",
        ]
        let top = max(0, (size.rows - lines.count) / 2)
        for (index, line) in lines.enumerated() where top + index < size.rows {
            let column = max(0, (size.columns - line.unicodeScalars.count) / 2)
            frame.write(
                line, column: column, row: top + index, foreground: Self.statusForeground,
                background: Self.statusBackground, bold: index == 0)
        }
    }
}

// MARK: - Status line text

/// The status line: the position in cells and points, the ball's colour, the screen's colour
/// and the main keys, shortened to fit the terminal's width.
struct StatusLine {
    struct Part {
        var text: String
        var colour: FlatColour? = nil
        var bold = false
    }

    let appearance: Appearance

    init(_ appearance: Appearance) { self.appearance = appearance }

    /// The whole line in each form, longest first.
    var variants: [String] { allForms.map { $0.map(\.text).joined() } }

    /// The longest form that fits `width` columns (the shortest, clipped, when none does).
    func parts(fitting width: Int) -> [Part] {
        let forms = allForms
        return forms.first { $0.reduce(0) { $0 + $1.text.unicodeScalars.count } <= width } ?? forms.last!
    }

    private var allForms: [[Part]] {
        let position = appearance.position.centre
        let points = appearance.points
        let ball = appearance.ball
        let background = appearance.background
        let place = Part(text: " \(position.column),\(position.row) · \(points.x.plainText),\(points.y.plainText) pt  ")
        let shortPlace = Part(text: " \(position.column),\(position.row)  ")
        let ballParts = [Part(text: "●", colour: ball), Part(text: " \(ball.name) \(ball.hex)  ")]
        let backgroundParts = [
            Part(text: "on "), Part(text: "■", colour: background),
            Part(text: " \(background.name) \(background.hex)  "),
        ]
        let shortBackground = [
            Part(text: "on "), Part(text: "■", colour: background), Part(text: " \(background.name)  "),
        ]
        let keys = [
            Part(text: "drag", bold: true), Part(text: "/"), Part(text: "←↑↓→", bold: true), Part(text: " move  "),
            Part(text: "c", bold: true), Part(text: " centre  "), Part(text: "q", bold: true), Part(text: " quit"),
        ]
        let quitOnly = [Part(text: "q", bold: true), Part(text: " quit")]
        return [
            [place] + ballParts + backgroundParts + keys,
            [place] + ballParts + backgroundParts + quitOnly,
            [place] + ballParts + backgroundParts,
            [shortPlace] + ballParts + shortBackground,
            [shortPlace] + ballParts,
        ]
    }
}

import ColourCore

// MARK: - Rendering

/// Builds the frame for an appearance: the screen in its colour, the ball as a half-block
/// disc, and the status line. Pure: the same appearance always gives the same frame.
public struct Renderer: Sendable {
    /// The status line's colours: legible on every screen colour, since it has its own.
    public static let statusForeground = FlatColour.flatWhite
    /// The status line's background.
    public static let statusBackground = FlatColour.flatBlackDark

    /// The ball's shape, kept for the screen size it was made for.
    private var shape: (size: ScreenSize, shape: BallShape)?
    /// The status line's colour-dependent parts, kept while the colours stay the same.
    private var statusTails: (key: UInt16, tails: [[StatusLine.Segment]])?

    /// A renderer; it keeps the ball's shape between frames of the same size.
    public init() {}

    /// Draws `appearance` into `frame`, reusing its storage.
    public mutating func render(_ appearance: Appearance, into frame: inout Frame) {
        let size = appearance.position.screen
        frame.reset(size: size, fill: appearance.background)
        guard size.columns > 0, size.rows > 0 else { return }
        guard size.isLargeEnough else {
            drawTooSmallNotice(into: &frame)
            return
        }
        if shape?.size != size { shape = (size, BallShape(for: size)) }
        drawBall(appearance, shape: shape!.shape, into: &frame)
        drawStatus(appearance, into: &frame)
    }

    // MARK: - The ball

    private func drawBall(_ appearance: Appearance, shape: BallShape, into frame: inout Frame) {
        let centre = appearance.position.centre
        let ball = appearance.ball
        let background = appearance.background
        let columns = frame.size.columns
        let lastRow = frame.size.rows - 2
        frame.withCells { cells in
            for glyphRow in shape.glyphRows {
                let row = centre.row + glyphRow.rowOffset
                guard row >= 0, row <= lastRow else { continue }
                var column = centre.column + glyphRow.firstColumnOffset
                for glyph in glyphRow.glyphs {
                    if column >= 0, column < columns {
                        cells[row * columns + column] = FrameCell(
                            glyph: glyph, foreground: ball, background: background)
                    }
                    column += 1
                }
            }
        }
    }

    // MARK: - The status line

    private mutating func drawStatus(_ appearance: Appearance, into frame: inout Frame) {
        let row = frame.size.rows - 1
        let width = frame.size.columns
        for column in 0..<width { frame[column, row] = .blank(Self.statusBackground) }
        let key = UInt16(appearance.ball.rawValue) << 8 | UInt16(appearance.background.rawValue)
        if statusTails?.key != key {
            statusTails = (key, StatusLine.tails(ball: appearance.ball, background: appearance.background))
        }
        let place = StatusLine.place(appearance, short: false)
        let shortPlace = StatusLine.place(appearance, short: true)
        // The longest form that fits: long place and each tail in turn, then the short place.
        var chosen: (place: [Unicode.Scalar], tail: [StatusLine.Segment])?
        for tail in statusTails!.tails.dropLast(2) where place.count + StatusLine.width(tail) <= width {
            chosen = (place, tail)
            break
        }
        if chosen == nil {
            let shortTails = statusTails!.tails.suffix(2)
            chosen = (
                shortPlace, shortTails.first { shortPlace.count + StatusLine.width($0) <= width } ?? shortTails.last!
            )
        }
        var column = frame.write(
            chosen!.place, column: 0, row: row, foreground: Self.statusForeground, background: Self.statusBackground)
        for segment in chosen!.tail {
            column = frame.write(
                segment.scalars, column: column, row: row, foreground: segment.colour ?? Self.statusForeground,
                background: Self.statusBackground, bold: segment.bold)
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
/// and the main keys, in the longest form that fits the terminal's width.
enum StatusLine {
    /// A run of text in one style (`colour` nil: the status line's own text colour).
    struct Segment {
        var scalars: [Unicode.Scalar]
        var colour: FlatColour? = nil
        var bold = false

        init(_ text: String, colour: FlatColour? = nil, bold: Bool = false) {
            scalars = Array(text.unicodeScalars)
            self.colour = colour
            self.bold = bold
        }
    }

    /// The place: ` 40,11 · 320,176 pt  `, or ` 40,11  ` when short (cells are whole
    /// numbers, and so are their points).
    static func place(_ appearance: Appearance, short: Bool) -> [Unicode.Scalar] {
        let centre = appearance.position.centre
        var scalars: [Unicode.Scalar] = [" "]
        scalars.reserveCapacity(32)
        appendDigits(centre.column, to: &scalars)
        scalars.append(",")
        appendDigits(centre.row, to: &scalars)
        if !short {
            scalars.append(contentsOf: [" ", "·", " "])
            appendDigits(centre.column * PointPosition.pointsPerColumn, to: &scalars)
            scalars.append(",")
            appendDigits(centre.row * PointPosition.pointsPerRow, to: &scalars)
            scalars.append(contentsOf: [" ", "p", "t"])
        }
        scalars.append(contentsOf: [" ", " "])
        return scalars
    }

    private static func appendDigits(_ value: Int, to scalars: inout [Unicode.Scalar]) {
        if value < 0 { scalars.append("-") }
        var magnitude = value.magnitude
        var digits: [Unicode.Scalar] = []
        repeat {
            digits.append(Unicode.Scalar(UInt8(48 + magnitude % 10)))
            magnitude /= 10
        } while magnitude > 0
        scalars.append(contentsOf: digits.reversed())
    }

    /// What follows the place, longest first: ball, background and keys; ball, background and
    /// `q quit`; ball and background; then, for the short place, ball and the background's
    /// name; ball alone.
    static func tails(ball: FlatColour, background: FlatColour) -> [[Segment]] {
        let ballParts = [Segment("●", colour: ball), Segment(" \(ball.name) \(ball.hex)  ")]
        let backgroundParts = [
            Segment("on "), Segment("■", colour: background), Segment(" \(background.name) \(background.hex)  "),
        ]
        let shortBackground = [Segment("on "), Segment("■", colour: background), Segment(" \(background.name)  ")]
        let keys = [
            Segment("drag", bold: true), Segment("/"), Segment("←↑↓→", bold: true), Segment(" move  "),
            Segment("c", bold: true), Segment(" centre  "), Segment("q", bold: true), Segment(" quit"),
        ]
        let quitOnly = [Segment("q", bold: true), Segment(" quit")]
        return [
            ballParts + backgroundParts + keys,
            ballParts + backgroundParts + quitOnly,
            ballParts + backgroundParts,
            ballParts + shortBackground,
            ballParts,
        ]
    }

    /// The width of a tail in columns.
    static func width(_ segments: [Segment]) -> Int { segments.reduce(0) { $0 + $1.scalars.count } }

    /// The whole line in its longest form.
    static func fullText(_ appearance: Appearance) -> String {
        var text = String(String.UnicodeScalarView(place(appearance, short: false)))
        for segment in tails(ball: appearance.ball, background: appearance.background)[0] {
            text.unicodeScalars.append(contentsOf: segment.scalars)
        }
        return text
    }
}

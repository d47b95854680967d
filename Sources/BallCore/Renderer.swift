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
    /// The status line's parts as ready cells, made once per colour (see ``StatusLine/Part``).
    private var statusParts = StatusParts()
    /// The status line's place, rewritten for each frame in the same storage.
    private var place: [Unicode.Scalar] = []

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
        for glyphRow in shape.glyphRows {
            let row = centre.row + glyphRow.rowOffset
            guard row >= 0, row <= lastRow else { continue }
            let first = centre.column + glyphRow.firstColumnOffset
            let shown = max(0, first)..<min(columns, first + glyphRow.glyphs.count)
            guard !shown.isEmpty else { continue }
            frame.withCells(row: row, columns: shown) { cells in
                for column in shown {
                    cells[column - shown.lowerBound] = FrameCell(
                        glyph: glyphRow.glyphs[column - first], foreground: ball, background: background)
                }
            }
        }
    }

    // MARK: - The status line

    /// The status line: the position, then the longest tail that fits (ball, background and
    /// keys, down to the ball alone), on a dark line of its own. Its parts depend on one
    /// colour at most, so they are made into cells once and copied after that; nothing is
    /// allocated per frame.
    private mutating func drawStatus(_ appearance: Appearance, into frame: inout Frame) {
        let row = frame.size.rows - 1
        let width = frame.size.columns
        let colours = (ball: appearance.ball, background: appearance.background)
        /// How many cells the tail at `index` of ``StatusLine/tails`` takes.
        func tailWidth(_ index: Int) -> Int {
            var total = 0
            for part in StatusLine.tails[index] { total += statusParts.cells(part, colours).count }
            return total
        }
        // The longest form that fits: long place and each tail in turn, then the short place.
        let tails = StatusLine.tails.indices
        StatusLine.place(appearance, short: false, into: &place)
        var tail = tails.dropLast(2).first { place.count + tailWidth($0) <= width }
        if tail == nil {
            StatusLine.place(appearance, short: true, into: &place)
            tail = tails.suffix(2).first { place.count + tailWidth($0) <= width } ?? tails.last
        }
        let column = frame.write(
            place, column: 0, row: row, foreground: Self.statusForeground, background: Self.statusBackground)
        let rest = column..<width
        frame.withCells(row: row, columns: rest) { row in
            var index = 0
            for part in StatusLine.tails[tail!] {
                for cell in statusParts.cells(part, colours) where index < rest.count {
                    row[index] = cell
                    index += 1
                }
            }
            for index in index..<rest.count { row[index] = .blank(Self.statusBackground) }
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
        var scalars: [Unicode.Scalar] = []
        place(appearance, short: short, into: &scalars)
        return scalars
    }

    /// Writes the place into `scalars` (emptied first, its storage kept).
    static func place(_ appearance: Appearance, short: Bool, into scalars: inout [Unicode.Scalar]) {
        let centre = appearance.position.centre
        scalars.removeAll(keepingCapacity: true)
        scalars.append(" ")
        appendDigits(centre.column, to: &scalars)
        scalars.append(",")
        appendDigits(centre.row, to: &scalars)
        if !short {
            for scalar: Unicode.Scalar in [" ", "·", " "] { scalars.append(scalar) }
            appendDigits(centre.column * PointPosition.pointsPerColumn, to: &scalars)
            scalars.append(",")
            appendDigits(centre.row * PointPosition.pointsPerRow, to: &scalars)
            for scalar: Unicode.Scalar in [" ", "p", "t"] { scalars.append(scalar) }
        }
        scalars.append(" ")
        scalars.append(" ")
    }

    private static func appendDigits(_ value: Int, to scalars: inout [Unicode.Scalar]) {
        if value < 0 { scalars.append("-") }
        let magnitude = value.magnitude
        var power: UInt = 1
        while power <= magnitude / 10 { power *= 10 }
        repeat {
            scalars.append(Unicode.Scalar(UInt8(48 + magnitude / power % 10)))
            power /= 10
        } while power > 0
    }

    /// The pieces of what follows the place; each depends on one colour at most.
    enum Part: Int, CaseIterable {
        /// `● flatRed #E84E3C  `
        case ball
        /// `on ■ flatMint #1ABD9C  `
        case background
        /// `on ■ flatMint  `
        case shortBackground
        /// `drag/←↑↓→ move  c centre  q quit`
        case keys
        /// `q quit`
        case quitOnly
    }

    /// What follows the place, longest first: ball, background and keys; ball, background and
    /// `q quit`; ball and background; then, for the short place, ball and the background's
    /// name; ball alone.
    static let tails: [[Part]] = [
        [.ball, .background, .keys], [.ball, .background, .quitOnly], [.ball, .background],
        [.ball, .shortBackground], [.ball],
    ]

    /// The segments of `part` for these colours.
    static func segments(_ part: Part, ball: FlatColour, background: FlatColour) -> [Segment] {
        switch part {
        case .ball: [Segment("●", colour: ball), Segment(" \(ball.name) \(ball.hex)  ")]
        case .background:
            [Segment("on "), Segment("■", colour: background), Segment(" \(background.name) \(background.hex)  ")]
        case .shortBackground: [Segment("on "), Segment("■", colour: background), Segment(" \(background.name)  ")]
        case .keys:
            [
                Segment("drag", bold: true), Segment("/"), Segment("←↑↓→", bold: true), Segment(" move  "),
                Segment("c", bold: true), Segment(" centre  "), Segment("q", bold: true), Segment(" quit"),
            ]
        case .quitOnly: [Segment("q", bold: true), Segment(" quit")]
        }
    }

    /// The whole line in its longest form.
    static func fullText(_ appearance: Appearance) -> String {
        var text = String(String.UnicodeScalarView(place(appearance, short: false)))
        for part in tails[0] {
            for segment in segments(part, ball: appearance.ball, background: appearance.background) {
                text.unicodeScalars.append(contentsOf: segment.scalars)
            }
        }
        return text
    }
}

/// The status line's parts as cells, made on first use for each colour and kept.
struct StatusParts: Sendable {
    private static let colourCount = FlatColour.allCases.count
    private var cached = [[FrameCell]?](
        repeating: nil, count: StatusLine.Part.allCases.count * StatusParts.colourCount)

    /// The cells of `part` in these colours.
    mutating func cells(_ part: StatusLine.Part, _ colours: (ball: FlatColour, background: FlatColour))
        -> [FrameCell]
    {
        let colour: FlatColour? =
            switch part {
            case .ball: colours.ball
            case .background, .shortBackground: colours.background
            case .keys, .quitOnly: nil
            }
        let index = part.rawValue * Self.colourCount + Int(colour?.rawValue ?? 0)
        if let cells = cached[index] { return cells }
        let cells = StatusLine.segments(part, ball: colours.ball, background: colours.background).flatMap {
            segment in
            segment.scalars.map {
                FrameCell(
                    glyph: $0, foreground: segment.colour ?? Renderer.statusForeground,
                    background: Renderer.statusBackground, bold: segment.bold)
            }
        }
        cached[index] = cells
        return cells
    }
}

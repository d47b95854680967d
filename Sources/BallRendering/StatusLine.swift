import BallModel
import ColourCore
import TextFormats

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

    /// Writes the place into `scalars` (emptied first, its storage kept): ` 40,11 · 320,176 pt  `,
    /// or ` 40,11  ` when short (cells are whole numbers, and so are their points); `facts`
    /// (the replay player's), if any, come first.
    static func place(
        _ appearance: Appearance, short: Bool, facts: String? = nil, into scalars: inout [Unicode.Scalar]
    ) {
        let centre = appearance.position.centre
        scalars.removeAll(keepingCapacity: true)
        if let facts {
            scalars.append(" ")
            scalars.append(contentsOf: facts.unicodeScalars)
            scalars.append(" ")
        }
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
        /// `● flatRed  `
        case ballName
        /// `on ■ flatMint #1ABD9C  `
        case background
        /// `on ■ flatMint  `
        case shortBackground
        /// `drag/←↑↓→ move  c centre  ? keys  q quit`
        case playKeys
        /// `? keys  q quit`
        case playKeysShort
        /// `? keys`
        case playKeysShortest
        /// `space pause  ←→ step  ? keys  q quit` (the player's facts say `replay`)
        case replayKeys
        /// `? keys  q quit`
        case replayKeysShort
        /// `? keys`
        case replayKeysShortest
        /// `space play  ←→ step  ? keys  q quit` (the player's facts say `paused`)
        case pausedKeys
        /// `t hint  n next  ? keys  q quit` (`learn`)
        case learnKeys
    }

    /// What follows the place, in the order tried: the keys go last. Ball, background and the
    /// long keys; then the short keys (`? keys  q quit`) with ball and background, the
    /// background's name alone, both names alone (at 80 columns the longest names fit, and so
    /// the keys always do), and in a replay, whose facts come first, the ball's name alone and
    /// no colour; then, for narrower terminals, `? keys` (which lists them all) and the colours
    /// without keys, down to the ball's name alone. (Where even that does not fit, the line
    /// ends in `…`.)
    /// The long place, with its points, comes only with both colours in full and the keys
    /// (``longPlaceTails``).
    static func tails(_ keys: StatusKeys) -> [[Part]] {
        switch keys {
        case .play: playTails
        case .learn: learnTails
        case .replay: replayTails
        case .replayPaused: pausedTails
        }
    }

    private static let playTails = tails(.playKeys, .playKeysShort, .playKeysShortest) + [screenless]
    private static let learnTails = tails(.learnKeys, .playKeysShort, .playKeysShortest) + [screenless]

    /// The ball's name and `? keys  q quit`, the screen's colour left out (the screen shows it):
    /// last of play's tails, and taken only where play's facts leave no other tail that names
    /// `q quit` room (``screenlessTail(_:)``).
    private static let screenless: [Part] = [.ballName, .playKeysShort]

    /// The index of the tail of `tails(keys)` that leaves the screen's colour out for the keys, if
    /// it has one: only where nothing else keeps `q quit`.
    static func screenlessTail(_ keys: StatusKeys) -> Int? {
        switch keys {
        case .play, .learn: tails(keys).count - 1
        case .replay, .replayPaused: nil
        }
    }
    // The player's facts come first in a replay: the place is short, and `? keys` stays as
    // long as the ball's colour fits beside it.
    private static let replayTails = replayTails(.replayKeys)
    private static let pausedTails = replayTails(.pausedKeys)

    private static func replayTails(_ long: Part) -> [[Part]] {
        [
            [.ball, .background, long], [.ball, .background, .replayKeysShort],
            [.ball, .shortBackground, .replayKeysShort], [.ballName, .shortBackground, .replayKeysShort],
            [.ballName, .replayKeysShort], [.replayKeysShort], [.ball, .shortBackground, .replayKeysShortest],
            [.ball, .replayKeysShortest], [.ballName, .shortBackground], [.ball], [.ballName],
        ]
    }

    private static func tails(_ long: Part, _ short: Part, _ shortest: Part) -> [[Part]] {
        [
            [.ball, .background, long], [.ball, .background, short], [.ball, .shortBackground, short],
            [.ballName, .shortBackground, short], [.ballName, .shortBackground, shortest], [.ball, .background],
            [.ball, .shortBackground], [.ballName, .shortBackground], [.ball], [.ballName],
        ]
    }

    /// How many of the first tails the long place is tried with: both colours in full, and
    /// the keys (its points go before any of them).
    static let longPlaceTails = 2

    /// Whether `tail` names `q quit`.
    static func namesQuit(_ tail: [Part]) -> Bool {
        tail.contains {
            [.playKeys, .playKeysShort, .replayKeys, .replayKeysShort, .pausedKeys, .learnKeys].contains($0)
        }
    }

    /// How many cells of the player's facts are kept at least when their last parts go so
    /// that the keys fit (`replay  intent 12/340  …`).
    static let shortestFacts = 20

    /// The segments of `part` for these colours.
    static func segments(_ part: Part, ball: FlatColour, background: FlatColour) -> [Segment] {
        switch part {
        case .ball: [Segment("\(Glyph.ball)", colour: ball), Segment(" \(ball.name) \(ball.hex)  ")]
        case .ballName: [Segment("\(Glyph.ball)", colour: ball), Segment(" \(ball.name)  ")]
        case .background:
            [
                Segment("on "), Segment("\(Glyph.background)", colour: background),
                Segment(" \(background.name) \(background.hex)  "),
            ]
        case .shortBackground:
            [Segment("on "), Segment("\(Glyph.background)", colour: background), Segment(" \(background.name)  ")]
        case .playKeys:
            [
                Segment("drag", bold: true), Segment("/"), Segment("←↑↓→", bold: true), Segment(" move  "),
                Segment("c", bold: true), Segment(" centre  "),
            ] + help + quit
        case .playKeysShort: help + quit
        case .playKeysShortest: help
        case .replayKeys: [Segment("space", bold: true), Segment(" pause  ")] + step + help + quit
        case .replayKeysShort: help + quit
        case .replayKeysShortest: help
        case .pausedKeys: [Segment("space", bold: true), Segment(" play  ")] + step + help + quit
        case .learnKeys:
            [Segment("t", bold: true), Segment(" hint  "), Segment("n", bold: true), Segment(" next  ")] + help + quit
        }
    }

    private static let help = [Segment("?", bold: true), Segment(" keys")]
    private static let quit = [Segment("  "), Segment("q", bold: true), Segment(" quit")]
    private static let step = [Segment("←→", bold: true), Segment(" step  ")]
}

/// What the status line says about the keys: playing, watching a replay, or the replay paused.
package enum StatusKeys: Hashable, Sendable {
    /// Playing with the ball.
    case play
    /// The tour (`learn`): its own keys first.
    case learn
    /// A replay playing.
    case replay
    /// A replay paused.
    case replayPaused
}

/// The status line's parts as cells, made on first use for each colour and bar and kept.
struct StatusParts: Sendable {
    private static let colourCount = FlatColour.allCases.count
    private var cached = [[FrameCell]?](
        repeating: nil, count: StatusLine.Part.allCases.count * StatusParts.colourCount * 2)
    /// Which colours show against the bars.
    private let visibility: BarVisibility
    /// Whether the cells are in reverse video (on a monochrome screen).
    private let reverse: Bool

    /// Parts whose swatches are kept visible by `visibility`, in reverse video when `reverse`.
    init(visibility: BarVisibility, reverse: Bool) {
        self.visibility = visibility
        self.reverse = reverse
    }

    /// The cells of `part` in these colours, on the bar `status`: a swatch that would not show
    /// against the bar sits on a cell of the text's colour.
    mutating func cells(
        _ part: StatusLine.Part, _ colours: (ball: FlatColour, background: FlatColour), _ status: StatusColours
    ) -> [FrameCell] {
        let colour: FlatColour? =
            switch part {
            case .ball, .ballName: colours.ball
            case .background, .shortBackground: colours.background
            default: nil
            }
        let lightBar = status.bar != Renderer.statusBackground
        let index = (part.rawValue * Self.colourCount + Int(colour?.rawValue ?? 0)) * 2 + (lightBar ? 1 : 0)
        if let cells = cached[index] { return cells }
        let cells = StatusLine.segments(part, ball: colours.ball, background: colours.background).flatMap {
            segment in
            let background = segment.colour.map { visibility.swatchBackground($0, on: status) } ?? status.bar
            return segment.scalars.map {
                FrameCell(
                    glyph: $0, foreground: segment.colour ?? status.text, background: background, bold: segment.bold,
                    reverse: reverse)
            }
        }
        cached[index] = cells
        return cells
    }
}

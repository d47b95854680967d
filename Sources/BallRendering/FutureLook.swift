import ColourCore
import TextFormats

// MARK: - How the player's future is drawn

/// How the replay player draws its future (the lanes' cells after its place) on one of the
/// status line's bars at one colour depth, so that no future cell looks played: in a faint
/// colour of its own where the depth has one, else as ``Glyph/later``.
///
/// A played cell is in the bar's text colour, a marble (`●`, `■`) in its colour, or a ghost
/// (`·`) dim; a future cell has no colour of its own (shapes only). The future's colour is the
/// grey that lies furthest from both the text and the bar (the least of its two contrast ratios
/// the greatest), where that least reaches ``faintContrast``: a grey half-way between them. In
/// 8 colours there is none (the greys there are the text's or the bar's own, and cyan is too
/// near the light bar and the text of the dark one). Where the terminal also shows a marble's
/// colour or the dim colour in that grey (in 16 colours the teal and grey backgrounds share
/// it), a future `●`, `■` or `·` would be one played: those are drawn as ``Glyph/later``, the
/// rest in the grey. Without colours, every future mark is ``Glyph/later``: reverse video marks
/// the hovered column.
package struct FutureLook: Hashable, Sendable {
    /// The future's colour; nil: none tells it from a played cell (every future mark is
    /// ``Glyph/later``).
    package var colour: FlatColour?
    /// Whether a future marble or ghost (`●`, `■`, `·`) is drawn as ``Glyph/later``: a played
    /// one can show in ``colour``.
    package var shadesMarbles: Bool

    /// The least contrast ratio of the future's colour against the text and against the bar:
    /// below WCAG 2.1's 3:1 for marks on purpose, as the future is drawn faint (a 256-colour
    /// terminal's middle grey has 2.98:1 against its lightest), and above cyan on xterm's light
    /// grey or beside its white (1.6:1), where the two do not read apart at a glance.
    package static let faintContrast = 2.5

    /// The greys the future's colour is chosen from.
    private static let greys: [FlatColour] = [.flatGrayDark, .flatGray, .flatWhiteDark, .flatNavyBlue]

    /// The look on the bar of `colours` at `depth`, where what is dim (a ghost) is in `dim`.
    package init(on colours: StatusColours, depth: ColourDepth, dim: FlatColour) {
        guard let text = depth.shown(colours.text), let bar = depth.shown(colours.bar) else {
            (colour, shadesMarbles) = (nil, true)
            return
        }
        let apart = Self.greys.compactMap { grey -> (FlatColour, Double)? in
            guard let shown = depth.shown(grey) else { return nil }
            let least = min(shown.contrastRatio(with: text), shown.contrastRatio(with: bar))
            return least >= Self.faintContrast ? (grey, least) : nil
        }
        guard let grey = apart.max(by: { $0.1 < $1.1 })?.0 else {
            (colour, shadesMarbles) = (nil, true)
            return
        }
        // Marbles that show on the bar sit on it; the others on a cell of the text's colour.
        let played = BallColourRule.demoColours.filter { depth.canTellApart($0, colours.bar) } + [dim]
        colour = grey
        shadesMarbles = played.contains { depth.shown($0) == depth.shown(grey) }
    }

    /// The glyph and colour a future cell of `glyph` is drawn with (`dim`: the colour of
    /// ``Glyph/later`` where the future has none).
    package func drawn(_ cell: LaneCell, dim: FlatColour) -> (glyph: Unicode.Scalar, colour: FlatColour) {
        switch cell.future {
        case nil: return (cell.glyph, dim)
        case .words: return (cell.glyph, colour ?? dim)
        case .sample: return (colour == nil || shadesMarbles ? Glyph.later : " ", colour ?? dim)
        case .mark:
            guard cell.glyph != " " else { return (cell.glyph, colour ?? dim) }
            guard let colour, !(shadesMarbles && Self.marbles.contains(cell.glyph)) else {
                return (Glyph.later, colour ?? dim)
            }
            return (cell.glyph, colour)
        }
    }

    /// The glyphs of the marbles painted in their colour when played, and of a ghost (dim).
    private static let marbles: Set<Unicode.Scalar> = [Glyph.ball, Glyph.background, Glyph.ghost]
}

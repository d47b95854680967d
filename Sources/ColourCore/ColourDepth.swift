// MARK: - How a terminal shows colours

/// How colours reach a terminal: exactly, through a palette, or not at all.
package enum ColourDepth: Hashable, Sendable, CustomStringConvertible {
    /// 24-bit colour: the exact flat colours.
    case direct
    /// A palette: the colour module's table for it.
    case palette(TerminalPalette)
    /// No colour (a monochrome terminal, or `NO_COLOR` set): shapes and reverse video only.
    case monochrome

    /// `direct colour`, `256 colours`, ...
    package var description: String {
        switch self {
        case .direct: "direct colour"
        case .palette(let palette): "\(palette.rawValue) colours"
        case .monochrome: "no colour"
        }
    }

    /// The colour `colour` shows as: itself in direct colour, its palette entry's colour as
    /// xterm gives it by default, nil without colour.
    package func shown(_ colour: FlatColour) -> RGBColour? {
        switch self {
        case .direct: colour.rgb
        case .palette(let palette): TerminalPalette.defaultRGB(ofIndex: colour.terminalIndex(in: palette))
        case .monochrome: nil
        }
    }

    /// Whether one colour shows clearly against the other at this depth: their shown colours
    /// are at least ``visibleDistance`` apart (CIEDE2000, as the colour module measures).
    /// Without colour, colours are not what tells things apart: true.
    package func canTellApart(_ first: FlatColour, _ second: FlatColour) -> Bool {
        guard let one = shown(first), let other = shown(second) else { return true }
        return LabColour(one).distance(to: LabColour(other)) >= Self.visibleDistance
    }

    /// The least CIEDE2000 distance at which a small swatch shows against its surroundings.
    package static let visibleDistance: Float = 12
}

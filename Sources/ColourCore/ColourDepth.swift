// MARK: - How a terminal shows colours

/// How colours reach a terminal: exactly, through a palette, or not at all.
package enum ColourDepth: Hashable, Sendable, CustomStringConvertible {
    /// 24-bit colour: the exact flat colours.
    case direct
    /// A palette: the colour module's table for it.
    case palette(TerminalPalette)
    /// No colour (a monochrome terminal, or `NO_COLOR` set): shapes and reverse video only.
    case monochrome

    /// How a terminal shows colours, from what the environment and its terminfo entry say:
    /// none with `NO_COLOR` set (to anything but ""), or a terminal of no colours; direct colour
    /// where `COLORTERM` is `truecolor` or `24bit` (as kitty, VTE's terminals and most
    /// others say), terminfo says so (`RGB`, or 2^24 colours) or `TERM` ends in `-direct`;
    /// otherwise the palette of the terminal's colour count.
    ///
    /// - Parameters:
    ///   - noColour: `NO_COLOR`.
    ///   - colourTerm: `COLORTERM`.
    ///   - term: `TERM`.
    ///   - terminfoColours: terminfo's `colors`; nil where terminfo is not asked (a command's
    ///     output): 256 where `TERM` has "256" in it, else 16 (none for `dumb` or no `TERM`).
    ///   - terminfoRGB: terminfo's `RGB` flag.
    package init(noColour: String?, colourTerm: String?, term: String, terminfoColours: Int?, terminfoRGB: Bool) {
        let colours = terminfoColours ?? (term.isEmpty || term == "dumb" ? 0 : term.contains("256") ? 256 : 16)
        if let noColour, !noColour.isEmpty {
            self = .monochrome
        } else if colours < 8 {
            self = .monochrome
        } else if terminfoRGB || colours >= 0x100_0000 || term.hasSuffix("-direct") || colourTerm == "truecolor"
            || colourTerm == "24bit"
        {
            self = .direct
        } else {
            self = colours >= 256 ? .palette(.xterm256) : colours >= 16 ? .palette(.ansi16) : .palette(.ansi8)
        }
    }

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
    /// reach ``nonTextContrast`` (WCAG 2.1's contrast for marks that are not text). Without
    /// colour, colours are not what tells things apart: true.
    package func canTellApart(_ first: FlatColour, _ second: FlatColour) -> Bool {
        guard let one = shown(first), let other = shown(second) else { return true }
        return one.contrastRatio(with: other) >= Self.nonTextContrast
    }

    /// Whether text in one colour reads on the other at this depth: their shown colours reach
    /// ``textContrast``; `bold`: as the terminal shows it bold, which in 8 and 16 colours many
    /// terminals (xterm's `boldColors`) show in the bright entry of a base colour (bold black is
    /// grey). Without colour, true.
    package func canRead(_ text: FlatColour, on background: FlatColour, bold: Bool = false) -> Bool {
        guard var one = shown(text), let other = shown(background) else { return true }
        if bold, case .palette(let palette) = self, palette != .xterm256 {
            let index = text.terminalIndex(in: palette)
            if index < 8 { one = TerminalPalette.defaultRGB(ofIndex: index + 8) }
        }
        return one.contrastRatio(with: other) >= Self.textContrast
    }

    /// The least contrast ratio at which text reads: WCAG 2.1's 4.5:1 (success criterion 1.4.3).
    package static let textContrast = 4.5

    /// The least contrast ratio at which a mark (a marble, a tick, a swatch) shows against the
    /// cell it sits on: WCAG 2.1's 3:1 for graphical objects (success criterion 1.4.11).
    package static let nonTextContrast = 3.0

    /// Whether an area of one colour shows against the other at this depth: their shown colours
    /// lie at least ``areaDistance`` apart (a large area needs less than a mark: the ball on
    /// the screen, where the original's colours are close in luminance, such as flatRed on
    /// flatMint). Two colours one palette entry shows (flatBlackDark and flatTealDark both
    /// black in 8 colours) do not. Without colour, true (reverse video tells them apart).
    package func canSeeArea(_ first: FlatColour, against second: FlatColour) -> Bool {
        guard let one = shown(first), let other = shown(second) else { return true }
        let (red, green, blue) = (one.red - other.red, one.green - other.green, one.blue - other.blue)
        return (red * red + green * green + blue * blue).squareRoot() * 255 >= Self.areaDistance
    }

    /// The least distance (Euclidean, 0–255 channels) between two shown colours at which an
    /// area of one shows against the other.
    package static let areaDistance = 30.0
}

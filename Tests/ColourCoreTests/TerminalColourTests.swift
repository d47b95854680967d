import ColourCore
import Testing

/// Flat colours on indexed terminals: near, and never merging colours the demo shows apart.
@Suite("Terminal colour tables")
struct TerminalColourTests {
    static let demoPairs: [(FlatColour, FlatColour)] = [
        (.flatBlackDark, .flatWhite), (.flatPlumDark, .flatForestGreenDark), (.flatMaroonDark, .flatTealDark),
        (.flatMaroon, .flatTeal), (.flatRedDark, .flatGray), (.flatRed, .flatMint),
    ]

    @Test("on 256 colours every flat colour has its own fixed entry")
    func xterm256IsInjective() {
        let indices = FlatColour.allCases.map { $0.terminalIndex(in: .xterm256) }
        #expect(Set(indices).count == 48)
        #expect(indices.allSatisfy { (16...255).contains($0) })
        #expect(
            FlatColour.flatMaroonDark.terminalIndex(in: .xterm256) != FlatColour.flatMaroon.terminalIndex(in: .xterm256)
        )
    }

    @Test("on 16 and 8 colours each ball differs from its background", arguments: [TerminalPalette.ansi16, .ansi8])
    func ballsDifferFromBackgrounds(palette: TerminalPalette) {
        for (ball, background) in Self.demoPairs {
            #expect(ball.terminalIndex(in: palette) != background.terminalIndex(in: palette), "\(ball) \(background)")
            #expect(ball.terminalIndex(in: palette) != FlatColour.flatWhite.terminalIndex(in: palette))
            #expect(palette.usableIndices.contains(ball.terminalIndex(in: palette)))
        }
    }

    @Test("on 16 colours neighbouring ball bands differ")
    func neighbouringBandsDiffer() {
        let bands = ColourRuleTests.bands
        for (first, second) in zip(bands, bands.dropFirst()) {
            #expect(first.terminalIndex(in: .ansi16) != second.terminalIndex(in: .ansi16))
        }
    }

    @Test(
        "how a terminal shows colours: NO_COLOR wins, then COLORTERM or terminfo's RGB for direct colour, then the count"
    )
    func depthFromEnvironment() {
        func depth(
            _ term: String, colours: Int?, rgb: Bool = false, colourTerm: String? = nil, noColour: String? = nil
        ) -> ColourDepth {
            ColourDepth(
                noColour: noColour, colourTerm: colourTerm, term: term, terminfoColours: colours, terminfoRGB: rgb)
        }
        // kitty: TERM=xterm-kitty (256 colours in terminfo, no RGB), COLORTERM=truecolor.
        #expect(depth("xterm-kitty", colours: 256, colourTerm: "truecolor") == .direct)
        #expect(depth("xterm-256color", colours: 256, colourTerm: "24bit") == .direct)
        #expect(depth("xterm-kitty", colours: 256) == .palette(.xterm256))
        #expect(depth("xterm-256color", colours: 256, colourTerm: "yes") == .palette(.xterm256))
        #expect(depth("xterm-direct", colours: 0x100_0000, rgb: true) == .direct)
        #expect(depth("tmux-direct", colours: 256) == .direct)
        #expect(depth("xterm-kitty", colours: 256, colourTerm: "truecolor", noColour: "1") == .monochrome)
        #expect(depth("xterm-256color", colours: 256, noColour: "") == .palette(.xterm256))  // Set but empty: no.
        // A terminal of no colours stays so, whatever COLORTERM says (inherited from elsewhere).
        #expect(depth("vt100", colours: -1, colourTerm: "truecolor") == .monochrome)
        #expect(depth("linux", colours: 8) == .palette(.ansi8))
        #expect(depth("xterm", colours: 16) == .palette(.ansi16))
        // Without terminfo (a command's output): the name says.
        #expect(depth("screen-256color", colours: nil) == .palette(.xterm256))
        #expect(depth("xterm", colours: nil) == .palette(.ansi16))
        #expect(depth("dumb", colours: nil, colourTerm: "truecolor") == .monochrome)
        #expect(depth("", colours: nil) == .monochrome)
    }

    @Test("the xterm palette's fixed entries")
    func xtermDefaults() {
        #expect(TerminalPalette.defaultRGB(ofIndex: 52).hex == "#5F0000")
        #expect(TerminalPalette.defaultRGB(ofIndex: 231).hex == "#FFFFFF")
        #expect(TerminalPalette.defaultRGB(ofIndex: 232).hex == "#080808")
        #expect(TerminalPalette.defaultRGB(ofIndex: 255).hex == "#EEEEEE")
    }
}

extension PrecomputedTableTests {
    @Test("the terminal colour tables are the nearest-colour search's", arguments: TerminalPalette.allCases)
    func terminalTables(palette: TerminalPalette) {
        let computed = TerminalColourTables.computed(for: palette)
        let stored = FlatColour.allCases.map { $0.terminalIndex(in: palette) }
        #expect(stored == computed, "the stored \(palette) table should be \(computed)")
    }
}

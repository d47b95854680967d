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

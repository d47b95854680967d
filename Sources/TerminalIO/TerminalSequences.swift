import ColourCore

// MARK: - What a terminal understands

/// The escape sequences of one terminal, as the ``Rasteriser`` uses them: made once from the
/// terminal's terminfo entry by the terminal adapter, or written out for tests.
///
/// Positions are 0-based. Parameterised sequences are functions; the rasteriser keeps each
/// result, so every distinct cursor move is formatted once. An empty sequence, or a nil
/// function, means the terminal does not have it.
package struct TerminalSequences {
    /// Moves the cursor to (row, column) (`cup`): the one sequence every terminal must have.
    package var cursorAddress: (_ row: Int, _ column: Int) -> [UInt8]
    /// Moves the cursor to a column of its row (`hpa`).
    package var columnAddress: ((_ column: Int) -> [UInt8])?
    /// Moves the cursor right by a count (`cuf`).
    package var cursorForward: ((_ count: Int) -> [UInt8])?
    /// Moves the cursor left by a count (`cub`).
    package var cursorBackward: ((_ count: Int) -> [UInt8])?
    /// Inserts a blank at the cursor, shifting the rest of the row right (`ich1`, or `ich` 1).
    package var insertCharacter: [UInt8]
    /// Deletes the character at the cursor, shifting the rest of the row left (`dch1`).
    package var deleteCharacter: [UInt8]
    /// Erases from the cursor to the end of the screen (`ed`).
    package var eraseToEndOfScreen: [UInt8]
    /// Turns every attribute and colour off (`sgr0`).
    package var resetAttributes: [UInt8]
    /// Turns bold on (`bold`).
    package var bold: [UInt8]
    /// Turns reverse video on (`rev`).
    package var reverse: [UInt8]
    /// Each flat colour as the foreground (`setaf`), by raw value; empty on a monochrome terminal.
    package var foregrounds: [[UInt8]]
    /// Each flat colour as the background (`setab`), by raw value; empty on a monochrome terminal.
    package var backgrounds: [[UInt8]]
    /// Whether erasing and inserting fill with the current background colour (`bce`).
    package var backColourErase: Bool
    /// A colour between the flat ones (a fade) as the foreground (false) or background (true):
    /// itself in direct colour, the nearest entry of a 256-colour palette; nil where the
    /// terminal has too few colours to blend (then colours switch at once).
    package var blend: ((_ colour: RGBColour, _ background: Bool) -> [UInt8])?

    /// Sequences from their parts; see each property.
    package init(
        cursorAddress: @escaping (Int, Int) -> [UInt8], columnAddress: ((Int) -> [UInt8])?,
        cursorForward: ((Int) -> [UInt8])?, cursorBackward: ((Int) -> [UInt8])?, insertCharacter: [UInt8],
        deleteCharacter: [UInt8], eraseToEndOfScreen: [UInt8], resetAttributes: [UInt8], bold: [UInt8],
        reverse: [UInt8], foregrounds: [[UInt8]], backgrounds: [[UInt8]], backColourErase: Bool,
        blend: ((RGBColour, Bool) -> [UInt8])? = nil
    ) {
        self.cursorAddress = cursorAddress
        self.columnAddress = columnAddress
        self.cursorForward = cursorForward
        self.cursorBackward = cursorBackward
        self.insertCharacter = insertCharacter
        self.deleteCharacter = deleteCharacter
        self.eraseToEndOfScreen = eraseToEndOfScreen
        self.resetAttributes = resetAttributes
        self.bold = bold
        self.reverse = reverse
        self.foregrounds = foregrounds
        self.backgrounds = backgrounds
        self.backColourErase = backColourErase
        self.blend = blend
    }

    /// Whether colours are shown at all.
    package var hasColour: Bool { foregrounds.count == FlatColour.allCases.count }

    /// An xterm-compatible terminal with 256 colours and back-colour-erase (as `xterm-256color`
    /// describes it), colours from `palette`; or without colour (`palette` nil).
    package static func xterm(palette: TerminalPalette? = .xterm256, backColourErase: Bool = true) -> Self {
        func csi(_ text: String) -> [UInt8] { Array("\u{1B}[\(text)".utf8) }
        func colour(_ base: Int, _ bright: Int, _ extended: Int) -> [[UInt8]] {
            guard let palette else { return [] }
            return FlatColour.allCases.map { flat in
                let index = flat.terminalIndex(in: palette)
                return index < 8
                    ? csi("\(base + index)m")
                    : index < 16 ? csi("\(bright + index - 8)m") : csi("\(extended);5;\(index)m")
            }
        }
        return TerminalSequences(
            cursorAddress: { csi("\($0 + 1);\($1 + 1)H") }, columnAddress: { csi("\($0 + 1)G") },
            cursorForward: { csi("\($0)C") }, cursorBackward: { csi("\($0)D") }, insertCharacter: csi("1@"),
            deleteCharacter: csi("P"), eraseToEndOfScreen: csi("J"), resetAttributes: csi("m"), bold: csi("1m"),
            reverse: csi("7m"), foregrounds: colour(30, 90, 38), backgrounds: colour(40, 100, 48),
            backColourErase: backColourErase,
            blend: palette == .xterm256
                ? { colour, background in
                    csi("\(background ? 48 : 38);5;\(TerminalPalette.nearestXterm256Index(to: colour))m")
                } : nil)
    }
}

extension TerminalSequences {
    /// A colour between the flat ones in xterm's 24-bit form (`ESC [ 38 ; 2 ; r ; g ; b m`).
    package static let directBlend: @Sendable (RGBColour, Bool) -> [UInt8] = { colour, background in
        let (red, green, blue) = colour.channels
        return Array("\u{1B}[\(background ? 48 : 38);2;\(red);\(green);\(blue)m".utf8)
    }

    /// An xterm-compatible terminal with 24-bit colour (as `xterm-direct` describes it, with
    /// the semicolon form every such terminal reads): the exact flat colours.
    package static func xtermDirectColour() -> Self {
        var sequences = xterm(palette: nil)
        func colour(_ selector: Int) -> [[UInt8]] {
            FlatColour.allCases.map { flat in
                let (red, green, blue) = flat.rgb.channels
                return Array("\u{1B}[\(selector);2;\(red);\(green);\(blue)m".utf8)
            }
        }
        sequences.foregrounds = colour(38)
        sequences.backgrounds = colour(48)
        sequences.blend = Self.directBlend
        return sequences
    }
}

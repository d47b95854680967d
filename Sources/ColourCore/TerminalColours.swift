// MARK: - Flat colours on terminals without direct colour

/// A terminal's indexed palette: the xterm 256-colour palette, or the 16 or 8 ANSI colours.
package enum TerminalPalette: Int, Sendable, CaseIterable {
    /// The 8 ANSI colours (indices 0–7).
    case ansi8 = 8
    /// The 16 ANSI colours (indices 0–15).
    case ansi16 = 16
    /// The xterm 256-colour palette; only its fixed part (16–255) is used, since themes
    /// redefine 0–15.
    case xterm256 = 256

    /// The indices this palette may use for flat colours.
    package var usableIndices: ClosedRange<Int> {
        switch self {
        case .ansi8: 0...7
        case .ansi16: 0...15
        case .xterm256: 16...255
        }
    }

    /// The RGB value xterm gives palette entry `index` by default (0...255).
    package static func defaultRGB(ofIndex index: Int) -> RGBColour {
        switch index {
        case 0..<16:
            let value = ansiDefaults[index]
            return RGBColour(red8: UInt8(value >> 16), green8: UInt8(value >> 8 & 0xFF), blue8: UInt8(value & 0xFF))
        case 16..<232:
            let cube = index - 16
            return RGBColour(
                red8: cubeLevels[cube / 36], green8: cubeLevels[cube / 6 % 6], blue8: cubeLevels[cube % 6])
        default:
            let level = UInt8(8 + 10 * (index - 232))
            return RGBColour(red8: level, green8: level, blue8: level)
        }
    }

    /// The entry of the xterm 256-colour palette's fixed part (16–255) nearest `colour` by RGB
    /// distance (ties: the lower index): where a colour between the flat ones (a fade) goes on a
    /// 256-colour terminal.
    package static func nearestXterm256Index(to colour: RGBColour) -> Int {
        let (red, green, blue) = colour.channels
        var best = (index: 16, distance: Int.max)
        for index in 16...255 {
            let (r, g, b) = defaultRGB(ofIndex: index).channels
            let (dr, dg, db) = (Int(r) - Int(red), Int(g) - Int(green), Int(b) - Int(blue))
            let distance = dr * dr + dg * dg + db * db
            if distance < best.distance { best = (index, distance) }
        }
        return best.index
    }

    private static let cubeLevels: [UInt8] = [0, 95, 135, 175, 215, 255]
    private static let ansiDefaults: [UInt32] = [
        0x000000, 0xCD0000, 0x00CD00, 0xCDCD00, 0x0000EE, 0xCD00CD, 0x00CDCD, 0xE5E5E5,
        0x7F7F7F, 0xFF0000, 0x00FF00, 0xFFFF00, 0x5C5CFF, 0xFF00FF, 0x00FFFF, 0xFFFFFF,
    ]
}

extension FlatColour {
    /// The palette entry that stands for this colour on a terminal with `palette`.
    ///
    /// The nearest entry by the perceptual distance the colour module uses (Chameleon's
    /// CIEDE2000), adjusted so that colours the demo must tell apart stay apart: on 256
    /// colours no two flat colours share an entry; on 16 and 8 each ball colour of the demo
    /// differs from its background and from the start colour, and on 16 neighbouring ball
    /// bands differ too. Where a pair collides, the colour that loses least by it
    /// moves to its next-nearest entry.
    package func terminalIndex(in palette: TerminalPalette) -> Int {
        switch palette {
        case .xterm256: Int(TerminalColourTables.xterm256[Int(rawValue)])
        case .ansi16: Int(TerminalColourTables.ansi16[Int(rawValue)])
        case .ansi8: Int(TerminalColourTables.ansi8[Int(rawValue)])
        }
    }
}

// MARK: - Building the tables

/// The tables, built once by ``computed(for:)`` and kept as literals so start-up does no
/// colour search; the tests recompute them and compare.
package enum TerminalColourTables {
    static let xterm256: [UInt8] = [
        236, 235, 60, 25, 239, 238, 137, 95, 22, 23, 247, 245, 42, 35, 149, 106, 97, 127, 88, 52, 43, 36, 240, 237,
        208, 166, 212, 169, 89, 53, 153, 146, 62, 61, 196, 160, 187, 180, 39, 32, 31, 24, 210, 167, 255, 251, 220, 214,
    ]
    static let ansi16: [UInt8] = [
        0, 0, 12, 12, 8, 0, 8, 8, 8, 0, 8, 8, 2, 2, 3, 3, 5, 5, 9, 0, 6, 6, 0, 0,
        9, 9, 13, 5, 4, 4, 7, 7, 12, 12, 9, 1, 7, 7, 8, 8, 8, 8, 9, 9, 7, 7, 3, 3,
    ]
    static let ansi8: [UInt8] = [
        0, 0, 4, 4, 0, 0, 7, 1, 0, 0, 7, 6, 2, 2, 3, 3, 5, 5, 1, 1, 6, 6, 0, 0,
        1, 1, 5, 5, 4, 4, 7, 7, 5, 4, 1, 1, 7, 7, 6, 6, 6, 0, 1, 1, 7, 7, 3, 3,
    ]

    /// The table for `palette` as the search gives it (slow: for tests).
    package static func computed(for palette: TerminalPalette) -> [Int] {
        TerminalColourTable.build(for: palette).map(Int.init)
    }
}

extension BallColourRule {
    /// Every colour the demo shows, so every colour a lane's marble can be painted in: each
    /// ball colour of the rule, each background it leads to, and the start's flatWhite.
    package static let demoColours: [FlatColour] = {
        let (balls, backgrounds) = TerminalColourTable.demoColours
        return balls + backgrounds
    }()
}

enum TerminalColourTable {
    /// The colours the demo shows: every ball colour of the rule, every background it leads
    /// to, and the start colour, flatWhite.
    static var demoColours: (balls: [FlatColour], backgrounds: [FlatColour]) {
        var balls: [FlatColour] = []
        for band in BallColourRule.bands where !balls.contains(band.colour) { balls.append(band.colour) }
        var backgrounds: [FlatColour] = [.flatWhite]
        for ball in balls {
            if let candidate = BallColourRule.backgroundCandidate(forBall: ball), !backgrounds.contains(candidate) {
                backgrounds.append(candidate)
            }
        }
        return (balls, backgrounds)
    }

    /// Pairs of colours that must land on different entries of `palette`.
    static func mustDiffer(in palette: TerminalPalette) -> [(FlatColour, FlatColour)] {
        let colours = FlatColour.allCases
        switch palette {
        case .xterm256:
            return colours.indices.flatMap { i in colours[(i + 1)...].map { (colours[i], $0) } }
        case .ansi16, .ansi8:
            let (balls, _) = demoColours
            let againstBackgrounds = balls.flatMap { ball in
                [(ball, FlatColour.flatWhite)]
                    + (BallColourRule.backgroundCandidate(forBall: ball).map { [(ball, $0)] } ?? [])
            }
            guard palette == .ansi16 else { return againstBackgrounds }
            let neighbours = zip(balls, balls.dropFirst()).map { ($0, $1) }
            return againstBackgrounds + neighbours
        }
    }

    static func build(for palette: TerminalPalette) -> [UInt8] {
        let entries = Array(palette.usableIndices)
        let entryLab = entries.map { LabColour(TerminalPalette.defaultRGB(ofIndex: $0)) }
        // Each colour's entries, nearest first, with their distances.
        let ranked: [[(entry: Int, distance: Float)]] = FlatColour.allCases.map { colour in
            let lab = FlatColour.labValues[Int(colour.rawValue)]
            return entries.indices
                .map { (entries[$0], lab.distance(to: entryLab[$0])) }
                .sorted { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }
        }
        var choice = [Int](repeating: 0, count: FlatColour.allCases.count)  // rank chosen per colour
        let pairs = mustDiffer(in: palette)
        func entry(_ colour: FlatColour) -> Int { ranked[Int(colour.rawValue)][choice[Int(colour.rawValue)]].entry }
        func taken(_ colour: FlatColour, _ candidate: Int) -> Bool {
            pairs.contains { pair in
                (pair.0 == colour && entry(pair.1) == candidate) || (pair.1 == colour && entry(pair.0) == candidate)
            }
        }
        func nextFree(_ colour: FlatColour) -> Int? {
            let options = ranked[Int(colour.rawValue)]
            return options.indices.dropFirst(choice[Int(colour.rawValue)] + 1).first {
                !taken(colour, options[$0].entry)
            }
        }
        while let (first, second) = pairs.first(where: { entry($0.0) == entry($0.1) }) {
            // Move whichever colour loses least by taking its next free entry.
            let costs = [first, second].map { colour -> (FlatColour, Int, Float)? in
                guard let next = nextFree(colour) else { return nil }
                let options = ranked[Int(colour.rawValue)]
                return (colour, next, options[next].distance - options[choice[Int(colour.rawValue)]].distance)
            }.compactMap { $0 }
            guard let move = costs.min(by: { $0.2 < $1.2 }) else { break }
            choice[Int(move.0.rawValue)] = move.1
        }
        return FlatColour.allCases.map { UInt8(entry($0)) }
    }
}

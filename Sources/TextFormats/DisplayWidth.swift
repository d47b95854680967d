// MARK: - How many cells a character takes in a terminal

extension Unicode.Scalar {
    /// How many terminal cells the character takes: 0 for combining marks and format characters
    /// (they sit on the character before), 2 for East Asian wide and fullwidth characters and
    /// most emoji, 1 otherwise: the widths a UTF-8 terminal (xterm, VTE, kitty) and glibc's
    /// `wcwidth` give. Control characters are 1 here: text is made visible before it is drawn.
    package var terminalWidth: Int {
        let value = self.value
        if value < 0x300 { return 1 }  // Latin, the common case.
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if value >= 0x1160 && value <= 0x11FF { return 0 }  // Hangul jungseong and jongseong join.
        return Self.isWide(value) ? 2 : 1
    }

    /// East Asian Width W and F (Unicode 15), and the emoji presented wide.
    private static func isWide(_ value: UInt32) -> Bool {
        var low = 0
        var high = wideRanges.count
        while low < high {
            let middle = (low + high) / 2
            if wideRanges[middle].upperBound < value {
                low = middle + 1
            } else if wideRanges[middle].lowerBound > value {
                high = middle
            } else {
                return true
            }
        }
        return false
    }

    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3,
        0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F, 0x2693...0x2693, 0x26A1...0x26A1,
        0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA,
        0x26F2...0x26F3, 0x26F5...0x26F5, 0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B,
        0x2728...0x2728, 0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55, 0x2E80...0x303E,
        0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
        0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4,
        0x17000...0x18CFF, 0x1B000...0x1B2FF, 0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E,
        0x1F191...0x1F19A, 0x1F200...0x1F2FF, 0x1F300...0x1F320, 0x1F32D...0x1F335, 0x1F337...0x1F37C,
        0x1F37E...0x1F393, 0x1F3A0...0x1F3CA, 0x1F3CF...0x1F3D3, 0x1F3E0...0x1F3F0, 0x1F3F4...0x1F3F4,
        0x1F3F8...0x1F43E, 0x1F440...0x1F440, 0x1F442...0x1F4FC, 0x1F4FF...0x1F53D, 0x1F54B...0x1F54E,
        0x1F550...0x1F567, 0x1F57A...0x1F57A, 0x1F595...0x1F596, 0x1F5A4...0x1F5A4, 0x1F5FB...0x1F64F,
        0x1F680...0x1F6C5, 0x1F6CC...0x1F6CC, 0x1F6D0...0x1F6D2, 0x1F6D5...0x1F6D7, 0x1F6DC...0x1F6DF,
        0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC, 0x1F7E0...0x1F7EB, 0x1F7F0...0x1F7F0, 0x1F90C...0x1F93A,
        0x1F93C...0x1F945, 0x1F947...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}

extension String {
    /// How many terminal cells the text takes (``Unicode/Scalar/terminalWidth``).
    package var terminalWidth: Int { unicodeScalars.reduce(0) { $0 + $1.terminalWidth } }

    /// The text cut to at most `width` cells, ending in `…` where it was cut (a wide character
    /// is never split).
    package func fitted(toWidth width: Int) -> String {
        guard terminalWidth > width else { return self }
        guard width > 0 else { return "" }
        var kept = String.UnicodeScalarView()
        var used = 0
        for scalar in unicodeScalars {
            let cells = scalar.terminalWidth
            if used + cells > width - 1 { break }
            kept.append(scalar)
            used += cells
        }
        return String(kept) + "…"
    }

    /// The first of `choices` (longest first, each saying the same in fewer cells) that fits in
    /// `width` cells; when none does, the last cut to `width` with `…`.
    package static func first(of choices: [String], fittingWidth width: Int) -> String {
        choices.first { $0.terminalWidth <= width } ?? (choices.last ?? "").fitted(toWidth: width)
    }

    /// The text in lines of at most `width` cells, broken at spaces (a word wider than a
    /// line is cut with `…`); at least one line.
    package func wrapped(toWidth width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in split(separator: " ", omittingEmptySubsequences: true).map(String.init) {
            let word = word.fitted(toWidth: width)
            if line.isEmpty {
                line = word
            } else if line.terminalWidth + 1 + word.terminalWidth <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = word
            }
        }
        return lines + [line]
    }
}

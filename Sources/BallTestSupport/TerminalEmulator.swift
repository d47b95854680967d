import BallRendering
import ColourCore
import TerminalIO
import TextFormats

/// A small xterm, for checking the bytes a program sends: it understands what
/// `TerminalSequences.xterm` sends (cursor addressing and relative moves, insert and delete
/// character, erase to the end of the screen, SGR bold, reverse, 8/16/256 and 24-bit colours),
/// with or without back-colour-erase, and records anything else as a problem. Its rules are
/// xterm's, written here from xterm's documentation, not taken from the program's code.
package struct TerminalEmulator {
    /// One cell as the terminal shows it: colours are palette indices, or 24-bit colours as
    /// ``direct(_:)`` gives them (nil: the terminal's default).
    package struct Cell: Equatable, Sendable {
        /// The character shown.
        package var glyph: Unicode.Scalar = " "
        /// The foreground colour.
        package var foreground: Int?
        /// The background colour.
        package var background: Int?
        /// Bold (SGR 1).
        package var bold = false
        /// Reverse video (SGR 7).
        package var reverse = false
        /// Whether the cell is known: false where a tmux capture said nothing about it.
        package var known = true
    }

    /// A 24-bit colour as a cell holds it: above every palette index.
    package static func direct(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> Int {
        0x100_0000 | Int(red) << 16 | Int(green) << 8 | Int(blue)
    }

    /// The screen, row by row.
    package private(set) var cells: [[Cell]]
    /// What the emulator did not understand, or a program should not have sent.
    package private(set) var problems: [String] = []
    /// Whether the cursor is shown (DEC mode 25).
    package private(set) var cursorVisible = true
    /// A cell's place on the screen.
    package struct Position: Hashable, Sendable {
        /// The row, from 0.
        package var row: Int
        /// The column, from 0.
        package var column: Int

        /// The place at `row`, `column`.
        package init(row: Int, column: Int) {
            self.row = row
            self.column = column
        }
    }
    /// The cells a character was written into, in order (``forgetPrinted()`` empties it): a
    /// terminal paints those cells anew.
    package private(set) var printed: [Position] = []

    /// Empties ``printed``.
    package mutating func forgetPrinted() { printed.removeAll() }
    private var row = 0
    private var column = 0
    private var pendingWrap = false
    private var pen = Cell()
    private let backColourErase: Bool
    private var utf8 = UTF8()
    private var pendingUTF8: [UInt8] = []

    /// An empty screen of `columns` × `rows`.
    package init(columns: Int, rows: Int, backColourErase: Bool = true) {
        cells = Array(repeating: Array(repeating: Cell(), count: columns), count: rows)
        self.backColourErase = backColourErase
    }

    /// The screen's width.
    package var columns: Int { cells.first?.count ?? 0 }
    /// The screen's height.
    package var rows: Int { cells.count }

    /// A blank as erasing and inserting leave it.
    private var erased: Cell { Cell(background: backColourErase ? pen.background : nil) }

    /// The screen tmux shows in `capture` (`capture-pane -p -e -N`: each row's text and SGR
    /// sequences, rows separated by newlines). tmux leaves out the cells after a row's last
    /// written one (a row only erased comes back empty): those cells are not ``Cell/known``.
    package static func capture(_ capture: String, columns: Int, rows: Int) -> TerminalEmulator {
        var emulator = TerminalEmulator(columns: columns, rows: rows)
        var unknown = Cell()
        unknown.known = false
        emulator.cells = Array(repeating: Array(repeating: unknown, count: columns), count: rows)
        for (row, line) in capture.split(separator: "\n", omittingEmptySubsequences: false).prefix(rows).enumerated() {
            emulator.row = row
            emulator.column = 0
            emulator.pendingWrap = false
            emulator.receive(Array(line.utf8))
        }
        return emulator
    }

    /// Takes in the bytes a program wrote.
    package mutating func receive(_ bytes: [UInt8]) {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x1B {
                index = escape(bytes, from: index + 1)
            } else if byte == 0x0D {
                column = 0
                pendingWrap = false
                index += 1
            } else if byte == 0x0A {
                lineFeed()
                index += 1
            } else if byte < 0x20 {
                problems.append("control byte \(byte)")
                index += 1
            } else {
                pendingUTF8.append(byte)
                var iterator = pendingUTF8.makeIterator()
                switch utf8.decode(&iterator) {
                case .scalarValue(let scalar):
                    pendingUTF8.removeAll()
                    print(scalar)
                case .emptyInput: break
                case .error:
                    if pendingUTF8.count >= 4 {
                        problems.append("bad UTF-8")
                        pendingUTF8.removeAll()
                    }
                }
                index += 1
            }
        }
    }

    /// Down a row; at the bottom the screen scrolls up one row.
    private mutating func lineFeed() {
        pendingWrap = false
        if row + 1 < rows {
            row += 1
        } else {
            cells.removeFirst()
            cells.append(Array(repeating: erased, count: columns))
        }
    }

    /// Prints `scalar` at the cursor by its width, as xterm does: a wide character takes two
    /// cells (the second holds `\u{0}`, as a frame's second cell does), and writing over either
    /// half of a wide character leaves its other half blank.
    private mutating func print(_ scalar: Unicode.Scalar) {
        var width = scalar.terminalWidth
        guard width > 0 else { return }
        if pendingWrap { problems.append("a character written past the right margin at row \(row)") }
        if width == 2, column + 1 >= columns {
            problems.append("a wide character at the right margin of row \(row)")
            width = 1
        }
        printed.append(Position(row: row, column: column))
        if cells[row][column].glyph == "\u{0}", column > 0 { cells[row][column - 1].glyph = " " }
        if column + width < columns, cells[row][column + width].glyph == "\u{0}" {
            cells[row][column + width].glyph = " "
        }
        var cell = pen
        cell.glyph = scalar
        cells[row][column] = cell
        if width == 2 {
            cell.glyph = "\u{0}"
            cells[row][column + 1] = cell
        }
        if column + width < columns { column += width } else { pendingWrap = true }
    }

    /// Reads one escape sequence starting after ESC; the index after it.
    private mutating func escape(_ bytes: [UInt8], from start: Int) -> Int {
        guard start < bytes.count else {
            problems.append("a lone ESC")
            return start
        }
        if bytes[start] == UInt8(ascii: "("), start + 1 < bytes.count { return start + 2 }  // Character set.
        guard bytes[start] == UInt8(ascii: "[") else {
            problems.append("ESC \(Character(Unicode.Scalar(bytes[start])))")
            return start + 1
        }
        var index = start + 1
        var text = ""
        while index < bytes.count, !(0x40...0x7E).contains(bytes[index]) {
            text.append(Character(Unicode.Scalar(bytes[index])))
            index += 1
        }
        guard index < bytes.count else {
            problems.append("unfinished CSI")
            return index
        }
        if text.hasPrefix("?") {
            privateMode(text, Character(Unicode.Scalar(bytes[index])))
            return index + 1
        }
        control(
            Character(Unicode.Scalar(bytes[index])),
            text.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) })
        return index + 1
    }

    /// Whether the pen is as after SGR 0: no colours, bold or reverse video.
    package var penIsReset: Bool { pen == Cell() }

    /// `CSI ? n h` / `CSI ? n l`: the DEC private modes (only the cursor's is known).
    private mutating func privateMode(_ text: String, _ final: Character) {
        guard text == "?25", final == "h" || final == "l" else { return problems.append("CSI \(text) \(final)") }
        cursorVisible = final == "h"
    }

    private mutating func control(_ final: Character, _ parameters: [Int?]) {
        let first = parameters.first.flatMap { $0 } ?? 0
        let count = max(1, first)
        if final != "m" { pendingWrap = false }
        switch final {
        case "H":
            row = min(rows - 1, max(1, first) - 1)
            column = min(columns - 1, max(1, parameters.count > 1 ? parameters[1] ?? 1 : 1) - 1)
        case "G": column = min(columns - 1, count - 1)
        case "C": column = min(columns - 1, column + count)
        case "D": column = max(0, column - count)
        case "@":
            for _ in 0..<count {
                cells[row].insert(erased, at: column)
                cells[row].removeLast()
            }
        case "P":
            for _ in 0..<count {
                cells[row].remove(at: column)
                cells[row].append(erased)
            }
        case "J":
            guard first == 0 else { return problems.append("ED \(first)") }
            for index in column..<columns { cells[row][index] = erased }
            for below in row + 1..<rows { cells[below] = Array(repeating: erased, count: columns) }
        case "m": graphicRendition(parameters.map { $0 ?? 0 })
        default: problems.append("CSI \(parameters) \(final)")
        }
    }

    private mutating func graphicRendition(_ parameters: [Int]) {
        var index = 0
        while index < parameters.count {
            let value = parameters[index]
            switch value {
            case 0: pen = Cell()
            case 1: pen.bold = true
            case 7: pen.reverse = true
            case 22: pen.bold = false
            case 27: pen.reverse = false
            case 30...37: pen.foreground = value - 30
            case 40...47: pen.background = value - 40
            case 90...97: pen.foreground = value - 90 + 8
            case 100...107: pen.background = value - 100 + 8
            case 39: pen.foreground = nil
            case 49: pen.background = nil
            case 38, 48:
                let colour: Int
                if index + 2 < parameters.count, parameters[index + 1] == 5 {
                    colour = parameters[index + 2]
                    index += 2
                } else if index + 4 < parameters.count, parameters[index + 1] == 2,
                    parameters[index + 2...index + 4].allSatisfy({ (0...255).contains($0) })
                {
                    colour = Self.direct(
                        UInt8(parameters[index + 2]), UInt8(parameters[index + 3]), UInt8(parameters[index + 4]))
                    index += 4
                } else {
                    problems.append("SGR \(parameters)")
                    return
                }
                if value == 38 {
                    pen.foreground = colour
                } else {
                    pen.background = colour
                }
            default: problems.append("SGR \(value)")
            }
            index += 1
        }
    }

    /// How the program under test shows flat colours, for ``differences(from:colours:)``.
    package enum Colours: Sendable {
        /// As entries of a palette, by the colour module's table.
        case palette(TerminalPalette)
        /// Exactly, as 24-bit colours.
        case direct
        /// Not at all (a monochrome terminal).
        case none

        func value(_ colour: FlatColour) -> Int? {
            switch self {
            case .palette(let palette): colour.terminalIndex(in: palette)
            case .direct:
                TerminalEmulator.direct(colour.rgb.channels.red, colour.rgb.channels.green, colour.rgb.channels.blue)
            case .none: nil
            }
        }
    }

    /// The cells that do not show what `frame` holds, as "column,row" (colours shown as
    /// `colours` says). A cell shows its glyph, its reverse video and bold as the frame says; a
    /// blank shows its background colour (in reverse video, its foreground); any other cell
    /// both colours. A cell that is not known must be a blank in the frame.
    package func differences(from frame: Frame, colours: Colours) -> [String] {
        var differences: [String] = []
        for row in 0..<frame.size.rows {
            for column in 0..<frame.size.columns {
                let want = frame[column, row]
                let have = cells[row][column]
                guard have.known else {
                    if !want.isBlank { differences.append("\(column),\(row)") }
                    continue
                }
                var same = have.glyph == want.glyph && have.reverse == want.reverse
                if !want.isBlank { same = same && have.bold == want.bold }
                if case .none = colours {
                } else if want.isBlank {
                    same =
                        same
                        && (want.reverse
                            ? have.foreground == colours.value(want.foreground)
                            : have.background == colours.value(want.background))
                } else {
                    same =
                        same && have.foreground == colours.value(want.foreground)
                        && have.background == colours.value(want.background)
                }
                if !same { differences.append("\(column),\(row)") }
            }
        }
        return differences
    }
}

extension TerminalEmulator {
    /// A terminal of `frame`'s size sent the whole of `frame` through `rasteriser`: what a user
    /// sees of it.
    package static func showing(_ frame: Frame, through rasteriser: inout Rasteriser) -> TerminalEmulator {
        var bytes: [UInt8] = []
        rasteriser.invalidate()
        rasteriser.draw(frame, over: nil, into: &bytes)
        var terminal = TerminalEmulator(columns: frame.size.columns, rows: frame.size.rows)
        terminal.receive(bytes)
        return terminal
    }

    /// Each row's glyphs as text (a wide glyph's second cell left out).
    package var rowTexts: [String] {
        cells.map { row in
            String(String.UnicodeScalarView(row.map(\.glyph).filter { $0 != FrameCell.continuationGlyph }))
        }
    }
}

extension Frame {
    /// The rows where the disc of a ball of colour `ball` has a half block `▄` in its colour
    /// (its top and bottom rows have them: the first and last are where the disc is drawn).
    package func discRows(ball: FlatColour) -> [Int] {
        (0..<size.rows).filter { row in
            (0..<size.columns).contains { column in
                let cell = self[column, row]
                return cell.glyph == Glyph.lowerHalf && (cell.foreground == ball || cell.background == ball)
            }
        }
    }
}

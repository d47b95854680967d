import BallCore
import ColourCore

/// A small xterm, for checking the rasteriser's bytes: it understands what
/// `TerminalSequences.xterm` sends (cursor addressing and relative moves, insert and delete
/// character, erase to the end of the screen, SGR bold, reverse and 8/16/256 colours), with or
/// without back-colour-erase, and records anything else as a problem.
struct TerminalEmulator {
    /// One cell as the terminal shows it: colours are palette indices (nil: the default).
    struct Cell: Equatable {
        var glyph: Unicode.Scalar = " "
        var foreground: Int?
        var background: Int?
        var bold = false
        var reverse = false
    }

    private(set) var cells: [[Cell]]
    private(set) var problems: [String] = []
    private var row = 0
    private var column = 0
    private var pendingWrap = false
    private var pen = Cell()
    private let backColourErase: Bool
    private var utf8 = UTF8()
    private var pendingUTF8: [UInt8] = []

    init(columns: Int, rows: Int, backColourErase: Bool = true) {
        cells = Array(repeating: Array(repeating: Cell(), count: columns), count: rows)
        self.backColourErase = backColourErase
    }

    var columns: Int { cells.first?.count ?? 0 }
    var rows: Int { cells.count }

    /// A blank as erasing and inserting leave it.
    private var erased: Cell { Cell(background: backColourErase ? pen.background : nil) }

    /// Takes in the bytes a program wrote.
    mutating func receive(_ bytes: [UInt8]) {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x1B {
                index = escape(bytes, from: index + 1)
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

    private mutating func print(_ scalar: Unicode.Scalar) {
        if pendingWrap { problems.append("a character written past the right margin at row \(row)") }
        var cell = pen
        cell.glyph = scalar
        cells[row][column] = cell
        if column + 1 < columns { column += 1 } else { pendingWrap = true }
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
        control(
            Character(Unicode.Scalar(bytes[index])),
            text.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) })
        return index + 1
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
            case 30...37: pen.foreground = value - 30
            case 40...47: pen.background = value - 40
            case 90...97: pen.foreground = value - 90 + 8
            case 100...107: pen.background = value - 100 + 8
            case 39: pen.foreground = nil
            case 49: pen.background = nil
            case 38, 48:
                guard index + 2 < parameters.count, parameters[index + 1] == 5 else {
                    problems.append("SGR \(parameters)")
                    return
                }
                if value == 38 {
                    pen.foreground = parameters[index + 2]
                } else {
                    pen.background = parameters[index + 2]
                }
                index += 2
            default: problems.append("SGR \(value)")
            }
            index += 1
        }
    }

    /// The cells that do not show what `frame` holds, as "column,row" (colours as `palette`
    /// shows them; nil: a monochrome terminal, where the status line is in reverse video).
    func differences(from frame: Frame, palette: TerminalPalette?) -> [String] {
        var differences: [String] = []
        for row in 0..<frame.size.rows {
            for column in 0..<frame.size.columns {
                let want = frame[column, row]
                let have = cells[row][column]
                var same = have.glyph == want.glyph
                if let palette {
                    same = same && have.background == want.background.terminalIndex(in: palette) && !have.reverse
                    if !want.isBlank {
                        same =
                            same && have.foreground == want.foreground.terminalIndex(in: palette)
                            && have.bold == want.bold
                    }
                } else {
                    same = same && have.reverse == (want.background == Renderer.statusBackground)
                    if !want.isBlank { same = same && have.bold == want.bold }
                }
                if !same { differences.append("\(column),\(row)") }
            }
        }
        return differences
    }
}

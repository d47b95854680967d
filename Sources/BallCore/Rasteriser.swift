import ColourCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: - What a terminal understands

/// The escape sequences of one terminal, as the ``Rasteriser`` uses them: made once from the
/// terminal's terminfo entry by the terminal adapter, or written out for tests.
///
/// Positions are 0-based. Parameterised sequences are functions; the rasteriser keeps each
/// result, so every distinct cursor move is formatted once. An empty sequence, or a nil
/// function, means the terminal does not have it.
public struct TerminalSequences {
    /// Moves the cursor to (row, column) (`cup`): the one sequence every terminal must have.
    public var cursorAddress: (_ row: Int, _ column: Int) -> [UInt8]
    /// Moves the cursor to a column of its row (`hpa`).
    public var columnAddress: ((_ column: Int) -> [UInt8])?
    /// Moves the cursor right by a count (`cuf`).
    public var cursorForward: ((_ count: Int) -> [UInt8])?
    /// Moves the cursor left by a count (`cub`).
    public var cursorBackward: ((_ count: Int) -> [UInt8])?
    /// Inserts a blank at the cursor, shifting the rest of the row right (`ich1`, or `ich` 1).
    public var insertCharacter: [UInt8]
    /// Deletes the character at the cursor, shifting the rest of the row left (`dch1`).
    public var deleteCharacter: [UInt8]
    /// Erases from the cursor to the end of the screen (`ed`).
    public var eraseToEndOfScreen: [UInt8]
    /// Turns every attribute and colour off (`sgr0`).
    public var resetAttributes: [UInt8]
    /// Turns bold on (`bold`).
    public var bold: [UInt8]
    /// Turns reverse video on (`rev`).
    public var reverse: [UInt8]
    /// Each flat colour as the foreground (`setaf`), by raw value; empty on a monochrome terminal.
    public var foregrounds: [[UInt8]]
    /// Each flat colour as the background (`setab`), by raw value; empty on a monochrome terminal.
    public var backgrounds: [[UInt8]]
    /// Whether erasing and inserting fill with the current background colour (`bce`).
    public var backColourErase: Bool

    /// Sequences from their parts; see each property.
    public init(
        cursorAddress: @escaping (Int, Int) -> [UInt8], columnAddress: ((Int) -> [UInt8])?,
        cursorForward: ((Int) -> [UInt8])?, cursorBackward: ((Int) -> [UInt8])?, insertCharacter: [UInt8],
        deleteCharacter: [UInt8], eraseToEndOfScreen: [UInt8], resetAttributes: [UInt8], bold: [UInt8],
        reverse: [UInt8], foregrounds: [[UInt8]], backgrounds: [[UInt8]], backColourErase: Bool
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
    }

    /// Whether colours are shown at all.
    public var hasColour: Bool { foregrounds.count == FlatColour.allCases.count }

    /// An xterm-compatible terminal with 256 colours and back-colour-erase (as `xterm-256color`
    /// describes it), colours from `palette`; or without colour (`palette` nil).
    public static func xterm(palette: TerminalPalette? = .xterm256, backColourErase: Bool = true) -> Self {
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
            backColourErase: backColourErase)
    }
}

// MARK: - The rasteriser

/// Turns frames into the bytes that draw them on a terminal: the whole frame, or only what
/// changed since the frame before. Pure (it writes into a byte array); the terminal adapter
/// sends the bytes with one `write(2)`.
///
/// What keeps the output small:
/// - Only cells that look different are written; a blank shows only its background, so its
///   foreground and boldness are free, and no colour changes at the ball's edges.
/// - Each cursor move is the shortest of: an absolute address, a column address, a relative
///   move left or right, or writing the cells in between again.
/// - On a back-colour-erase terminal a new background is one erase, and a row whose content
///   shifted by one column is shifted in place (insert or delete one character) when that is
///   shorter than writing its edges.
public struct Rasteriser {
    private let sequences: TerminalSequences
    private let colour: Bool
    private var pen = Pen()
    private var cursor: (row: Int, column: Int)?
    private var columns = 0
    private var cursorAddresses = SequenceTable(count: 0)
    private var columnAddresses = SequenceTable(count: 0)
    private var forwardMoves = SequenceTable(count: 0)
    private var backwardMoves = SequenceTable(count: 0)
    /// One row as it is on the screen while the row is drawn (shifts change it).
    private var onScreen: [FrameCell] = []
    /// Room to keep ``onScreen`` while a row is tried two ways.
    private var savedRow: [FrameCell] = []

    /// A rasteriser for a terminal that understands `sequences`. The first frame is drawn whole.
    public init(sequences: TerminalSequences) {
        self.sequences = sequences
        colour = sequences.hasColour
    }

    /// Forgets what the terminal shows (after it was suspended or lost its contents): the
    /// next frame is drawn whole.
    public mutating func invalidate() {
        pen = Pen()
        cursor = nil
    }

    /// Appends to `output` the bytes that take the screen from `previous` to `frame`; with no
    /// `previous` (or one of another size), the bytes that draw `frame` whole.
    public mutating func draw(_ frame: Frame, over previous: Frame?, into output: inout [UInt8]) {
        let size = frame.size
        if size.columns != columns || cursorAddresses.count != size.columns * size.rows {
            columns = size.columns
            cursorAddresses = SequenceTable(count: size.columns * size.rows)
            columnAddresses = SequenceTable(count: size.columns)
            forwardMoves = SequenceTable(count: size.columns)
            backwardMoves = SequenceTable(count: size.columns)
            onScreen = Array(repeating: Self.unknown, count: size.columns)
            savedRow = onScreen
        }
        let old = previous?.size == size ? previous : nil
        // An erase leaves blanks in the pen's background (with back-colour-erase; otherwise in
        // the terminal's own colour, which is right on a monochrome terminal unless the fill
        // is shown in reverse video).
        let canErase = colour ? sequences.backColourErase : !Self.isReversed(.blank(frame.fill))
        var erased = false
        if old == nil || old?.fill != frame.fill, canErase, !sequences.eraseToEndOfScreen.isEmpty {
            // A new screen colour: erase everything in it (one sequence), then draw what is not blank.
            if old == nil || pen.bold != false || pen.reverse != false { resetAttributes(into: &output) }
            if colour { setBackground(frame.fill, into: &output) }
            move(toRow: 0, column: 0, cells: nil, into: &output)
            output.append(contentsOf: sequences.eraseToEndOfScreen)
            erased = true
        } else if old == nil {
            resetAttributes(into: &output)
        }
        let blank = FrameCell.blank(frame.fill)
        frame.cells.withUnsafeBufferPointer { newCells in
            for row in 0..<size.rows {
                let new = UnsafeBufferPointer(rebasing: newCells[row * columns..<(row + 1) * columns])
                if erased {
                    onScreen.withUnsafeMutableBufferPointer { $0.update(repeating: blank) }
                } else if let old {
                    let same = old.cells.withUnsafeBufferPointer { oldCells in
                        let oldRow = UnsafeBufferPointer(rebasing: oldCells[row * columns..<(row + 1) * columns])
                        // Most rows are unchanged: one comparison of their memory each.
                        if memoryEqual(oldRow, new) { return true }
                        onScreen.withUnsafeMutableBufferPointer { _ = $0.update(fromContentsOf: oldRow) }
                        return false
                    }
                    if same { continue }
                } else {
                    onScreen.withUnsafeMutableBufferPointer { $0.update(repeating: Self.unknown) }
                }
                drawRow(row, new, fill: blank, into: &output)
            }
        }
    }

    // MARK: - Rows

    /// Draws one row over ``onScreen``: cell by cell, or shifted in place first when the
    /// content moved by one column and that comes out shorter.
    private mutating func drawRow(
        _ row: Int, _ new: UnsafeBufferPointer<FrameCell>, fill: FrameCell, into output: inout [UInt8]
    ) {
        guard let shift = shiftToTry(new, fill: fill) else {
            writeChanges(row, new, into: &output)
            return
        }
        let start = output.count
        let (savedPen, savedCursor) = (pen, cursor)
        savedRow.withUnsafeMutableBufferPointer { _ = $0.update(fromContentsOf: onScreen) }
        /// Takes back what was drawn of the row since `start`.
        func undo(_ rasteriser: inout Rasteriser, _ output: inout [UInt8]) {
            output.removeSubrange(start...)
            (rasteriser.pen, rasteriser.cursor) = (savedPen, savedCursor)
            let saved = rasteriser.savedRow
            rasteriser.onScreen.withUnsafeMutableBufferPointer { _ = $0.update(fromContentsOf: saved) }
        }
        writeChanges(row, new, into: &output)
        let plain = output.count - start
        undo(&self, &output)
        shiftInPlace(row, by: shift, fill: fill, into: &output)
        writeChanges(row, new, into: &output)
        if output.count - start > plain {
            // Writing the edges was shorter after all: draw it that way again.
            undo(&self, &output)
            writeChanges(row, new, into: &output)
        }
    }

    /// The column (the first the shift moves) and direction, when the row's content moved by
    /// exactly one column and the terminal can shift it.
    private func shiftToTry(_ new: UnsafeBufferPointer<FrameCell>, fill: FrameCell) -> (column: Int, right: Bool)? {
        guard colour, sequences.backColourErase, !sequences.insertCharacter.isEmpty,
            !sequences.deleteCharacter.isEmpty
        else { return nil }
        guard let before = onScreen.firstIndex(where: { !Self.looksSame($0, fill, colour: true) }),
            let after = new.firstIndex(where: { !Self.looksSame($0, fill, colour: true) })
        else { return nil }
        switch after - before {
        case 1: return (before, true)
        case -1: return (after, false)
        default: return nil
        }
    }

    /// Shifts the row right (inserting a blank at `column`) or left (deleting the cell at
    /// `column`, a blank entering at the right margin), blanks in the screen's colour.
    private mutating func shiftInPlace(
        _ row: Int, by shift: (column: Int, right: Bool), fill: FrameCell, into output: inout [UInt8]
    ) {
        move(toRow: row, column: shift.column, cells: nil, into: &output)
        setBackground(fill.background, into: &output)
        if shift.right {
            output.append(contentsOf: sequences.insertCharacter)
            onScreen.removeLast()
            onScreen.insert(fill, at: shift.column)
        } else {
            output.append(contentsOf: sequences.deleteCharacter)
            onScreen.remove(at: shift.column)
            onScreen.append(fill)
        }
    }

    /// Writes each cell of `new` that looks different from ``onScreen``.
    private mutating func writeChanges(_ row: Int, _ new: UnsafeBufferPointer<FrameCell>, into output: inout [UInt8]) {
        for column in 0..<columns where !Self.looksSame(onScreen[column], new[column], colour: colour) {
            move(toRow: row, column: column, cells: new, into: &output)
            write(new[column], into: &output)
            cursor = column + 1 < columns ? (row, column + 1) : nil  // Past the last column: a pending wrap.
        }
    }

    /// Whether two cells look the same on screen: a blank shows only its background (and, on
    /// a monochrome terminal, whether it is in reverse video).
    private static func looksSame(_ first: FrameCell, _ second: FrameCell, colour: Bool) -> Bool {
        guard first.glyph == second.glyph else { return false }
        if colour {
            guard first.background == second.background else { return false }
            return first.isBlank || (first.foreground == second.foreground && first.bold == second.bold)
        }
        guard isReversed(first) == isReversed(second) else { return false }
        return first.isBlank || first.bold == second.bold
    }

    /// On a monochrome terminal the status line stands out in reverse video.
    private static func isReversed(_ cell: FrameCell) -> Bool { cell.background == Renderer.statusBackground }

    /// A cell no frame holds: what the screen shows is not known.
    private static let unknown = FrameCell(glyph: "\u{FFFF}", foreground: .flatWhite, background: .flatWhite)

    // MARK: - Cells and the pen

    /// The attributes the terminal will draw the next character with (nil: not known).
    private struct Pen {
        var foreground: FlatColour?
        var background: FlatColour?
        var bold: Bool?
        var reverse: Bool?
    }

    private mutating func write(_ cell: FrameCell, into output: inout [UInt8]) {
        let reverse = !colour && Self.isReversed(cell)
        let bold = cell.isBlank ? (pen.bold ?? false) : cell.bold
        if (pen.bold == true && !bold) || (pen.reverse == true && !reverse) || pen.bold == nil || pen.reverse == nil {
            resetAttributes(into: &output)
        }
        if bold, pen.bold != true {
            output.append(contentsOf: sequences.bold)
            pen.bold = true
        }
        if reverse, pen.reverse != true {
            output.append(contentsOf: sequences.reverse)
            pen.reverse = true
        }
        if colour {
            setBackground(cell.background, into: &output)
            if !cell.isBlank, pen.foreground != cell.foreground {
                output.append(contentsOf: sequences.foregrounds[Int(cell.foreground.rawValue)])
                pen.foreground = cell.foreground
            }
        }
        appendUTF8(cell.glyph, to: &output)
    }

    private mutating func setBackground(_ colour: FlatColour, into output: inout [UInt8]) {
        guard self.colour, pen.background != colour else { return }
        output.append(contentsOf: sequences.backgrounds[Int(colour.rawValue)])
        pen.background = colour
    }

    private mutating func resetAttributes(into output: inout [UInt8]) {
        output.append(contentsOf: sequences.resetAttributes)
        pen = Pen(foreground: nil, background: nil, bold: false, reverse: false)
    }

    /// Whether `cell` would come out right with the pen as it is (for writing it again as a
    /// cursor move).
    private func penFits(_ cell: FrameCell) -> Bool {
        if !colour { return pen.reverse == Self.isReversed(cell) && (cell.isBlank || pen.bold == cell.bold) }
        guard pen.background == cell.background else { return false }
        return cell.isBlank || (pen.foreground == cell.foreground && pen.bold == cell.bold)
    }

    // MARK: - Cursor moves

    /// Moves the cursor to (`row`, `column`) the shortest way. `cells` is the row as it will
    /// look once drawn: cells between the cursor and the target may be written again instead
    /// of moving over them.
    private mutating func move(
        toRow row: Int, column: Int, cells: UnsafeBufferPointer<FrameCell>?, into output: inout [UInt8]
    ) {
        if let cursor, cursor.row == row, cursor.column == column { return }
        let cursorAddress = sequences.cursorAddress
        let cup = cursorAddresses.sequence(row * columns + column) { cursorAddress(row, column) }
        var best = cup
        var rewrite: Range<Int>?
        if let cursor, cursor.row == row {
            let gap = column - cursor.column
            if let hpa = sequences.columnAddress {
                let candidate = columnAddresses.sequence(column) { hpa(column) }
                if candidate.count < best.count { best = candidate }
            }
            if gap > 0, let cuf = sequences.cursorForward {
                let candidate = forwardMoves.sequence(gap) { cuf(gap) }
                if candidate.count < best.count { best = candidate }
            }
            if gap < 0, let cub = sequences.cursorBackward {
                let candidate = backwardMoves.sequence(-gap) { cub(-gap) }
                if candidate.count < best.count { best = candidate }
            }
            if gap > 0, gap < best.count, let cells {
                // Writing the cells in between again, when they need no change of pen.
                var length = 0
                for index in cursor.column..<column {
                    guard penFits(cells[index]), Self.looksSame(onScreen[index], cells[index], colour: colour) else {
                        length = .max
                        break
                    }
                    length += utf8Length(cells[index].glyph)
                }
                if length < best.count { rewrite = cursor.column..<column }
            }
        }
        if let rewrite, let cells {
            for index in rewrite { appendUTF8(cells[index].glyph, to: &output) }
        } else {
            output.append(contentsOf: best)
        }
        cursor = (row, column)
    }
}

// MARK: - Helpers

/// Formatted sequences in fixed slots of 16 bytes (a length, then up to 15 bytes): each is
/// formatted once, then read back from one place in memory.
private struct SequenceTable {
    private static let slot = 16
    private var storage: [UInt8]
    /// How many slots.
    let count: Int

    init(count: Int) {
        self.count = count
        storage = [UInt8](repeating: 0, count: count * Self.slot)
    }

    /// The sequence in slot `index`, formatted by `format` the first time (sequences longer
    /// than a slot are formatted every time).
    mutating func sequence(_ index: Int, format: () -> [UInt8]) -> ArraySlice<UInt8> {
        let start = index * Self.slot
        let length = Int(storage[start])
        if length > 0 { return storage[start + 1...start + length] }
        let bytes = format()
        guard !bytes.isEmpty, bytes.count < Self.slot else { return bytes[...] }
        storage[start] = UInt8(bytes.count)
        storage.replaceSubrange(start + 1...start + bytes.count, with: bytes)
        return storage[start + 1...start + bytes.count]
    }
}

/// Whether two runs of cells hold the same bytes.
private func memoryEqual(_ first: UnsafeBufferPointer<FrameCell>, _ second: UnsafeBufferPointer<FrameCell>) -> Bool {
    guard first.count == second.count else { return false }
    guard let a = first.baseAddress, let b = second.baseAddress else { return true }
    return memcmp(a, b, first.count * MemoryLayout<FrameCell>.stride) == 0
}

private func utf8Length(_ scalar: Unicode.Scalar) -> Int {
    switch scalar.value {
    case 0..<0x80: 1
    case 0x80..<0x800: 2
    case 0x800..<0x1_0000: 3
    default: 4
    }
}

private func appendUTF8(_ scalar: Unicode.Scalar, to output: inout [UInt8]) {
    let value = scalar.value
    switch value {
    case 0..<0x80:
        output.append(UInt8(value))
    case 0x80..<0x800:
        output.append(UInt8(0xC0 | value >> 6))
        output.append(UInt8(0x80 | value & 0x3F))
    case 0x800..<0x1_0000:
        output.append(UInt8(0xE0 | value >> 12))
        output.append(UInt8(0x80 | value >> 6 & 0x3F))
        output.append(UInt8(0x80 | value & 0x3F))
    default:
        output.append(UInt8(0xF0 | value >> 18))
        output.append(UInt8(0x80 | value >> 12 & 0x3F))
        output.append(UInt8(0x80 | value >> 6 & 0x3F))
        output.append(UInt8(0x80 | value & 0x3F))
    }
}

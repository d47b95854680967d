import BallRendering
import ColourCore
import Platform
import TextFormats

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
///
/// What keeps it fast (it runs once per drag step, and touches little memory): only the
/// columns either frame wrote (``Frame/writtenColumns(row:)``) are compared, cells as 64-bit
/// words first, and within a changed row only those from its first to its last changed cell
/// are looked at again; a row shifted in place is drawn the other way too only when that could
/// be shorter; every sequence is formatted once and kept in one byte array.
package struct Rasteriser {
    private let sequences: TerminalSequences
    private let colour: Bool
    /// Whether a row can be shifted in place: colours, back-colour-erase, insert and delete.
    private let canShift: Bool
    /// Whether the frame drawn, or the one before, holds a wide character.
    private var wideGlyphs = false
    /// The sequences that take no parameters, formatted once (see ``Fixed``).
    private let fixed: SequenceTable
    private var pen = Pen()
    private var cursor: (row: Int, column: Int)?
    private var columns = 0
    private var rows = 0
    /// The cursor moves for this size, formatted on first use (see ``Move``).
    private var moves = MoveCache(keys: 0)
    /// One row as it is on the screen while the row is drawn (shifts change it).
    private var onScreen: [FrameCell] = []
    /// Room to keep ``onScreen`` while a row is tried two ways.
    private var savedRow: [FrameCell] = []
    /// The frame's fading colours' sequences (see ``Frame/blends``), by ``FrameCell/Blend`` raw
    /// value: foregrounds, then backgrounds.
    private var blendSequences: [[UInt8]] = Array(repeating: [], count: 6)

    /// A rasteriser for a terminal that understands `sequences`. The first frame is drawn whole.
    package init(sequences: TerminalSequences) {
        self.sequences = sequences
        colour = sequences.hasColour
        canShift =
            colour && sequences.backColourErase && !sequences.insertCharacter.isEmpty
            && !sequences.deleteCharacter.isEmpty
        var fixed = SequenceTable(count: Fixed.backgrounds + FlatColour.allCases.count)
        for (key, bytes) in [
            (Fixed.insertCharacter, sequences.insertCharacter), (Fixed.deleteCharacter, sequences.deleteCharacter),
            (Fixed.eraseToEndOfScreen, sequences.eraseToEndOfScreen),
            (Fixed.resetAttributes, sequences.resetAttributes), (Fixed.bold, sequences.bold),
            (Fixed.reverse, sequences.reverse),
        ] {
            _ = fixed.store(key, bytes)
        }
        if colour {
            for colour in FlatColour.allCases {
                _ = fixed.store(Fixed.foregrounds + Int(colour.rawValue), sequences.foregrounds[Int(colour.rawValue)])
                _ = fixed.store(Fixed.backgrounds + Int(colour.rawValue), sequences.backgrounds[Int(colour.rawValue)])
            }
        }
        self.fixed = fixed
    }

    /// Forgets what the terminal shows (after it was suspended or lost its contents): the
    /// next frame is drawn whole.
    package mutating func invalidate() {
        pen = Pen()
        cursor = nil
    }

    /// Appends to `output` the bytes that take the screen from `previous` to `frame`; with no
    /// `previous` (or one of another size), the bytes that draw `frame` whole.
    package mutating func draw(_ frame: Frame, over previous: Frame?, into output: inout [UInt8]) {
        let size = frame.size
        if size.columns != columns || size.rows != rows {
            (columns, rows) = (size.columns, size.rows)
            moves = MoveCache(keys: Move.backward.key(columns, row: 0, columns: columns, rows: rows))
            onScreen = Array(repeating: Self.unknown, count: size.columns)
            savedRow = onScreen
        }
        // A frame whose colours fade is drawn whole: each of its blended cells is a new colour.
        let old = previous?.size == size && previous?.blends == frame.blends ? previous : nil
        if let blends = frame.blends, let blend = sequences.blend {
            for kind in [FrameCell.Blend.ball, .screen] {
                let rgb = blends.colour(kind)!
                blendSequences[Int(kind.rawValue)] = blend(rgb, false)
                blendSequences[3 + Int(kind.rawValue)] = blend(rgb, true)
            }
        }
        // Shifting a row moves its cells by one: not with wide characters about, which a
        // terminal keeps whole.
        wideGlyphs = frame.hasWideGlyphs || old?.hasWideGlyphs == true
        // An erase leaves blanks in the pen's background (with back-colour-erase; otherwise in
        // the terminal's own colour, which is right on a monochrome terminal, where the fill is
        // a blank without reverse video).
        let canErase = !colour || sequences.backColourErase
        var erased = false
        if old == nil || old?.fill != frame.fill, canErase, fixed.length(Fixed.eraseToEndOfScreen) > 0 {
            // A new screen colour: erase everything in it (one sequence), then draw what is not blank.
            if old == nil || pen.bold != false || pen.reverse != false { resetAttributes(into: &output) }
            if colour {
                setBackground(of: .blank(frame.fill, blend: frame.blends == nil ? .none : .screen), into: &output)
            }
            move(toRow: 0, column: 0, cells: nil, into: &output)
            fixed.append(Fixed.eraseToEndOfScreen, to: &output)
            erased = true
        } else if old == nil {
            resetAttributes(into: &output)
        }
        let blank = FrameCell.blank(frame.fill, blend: frame.blends == nil ? .none : .screen)
        let sameFill = old?.fill == frame.fill
        frame.cells.withUnsafeBufferPointer { newCells in
            for row in 0..<size.rows {
                let new = UnsafeBufferPointer(rebasing: newCells[row * columns..<(row + 1) * columns])
                // The columns to look at: outside them, the row is blank in the fill before and
                // after (or after an erase).
                let scope: Range<Int>
                let changed: Range<Int>?
                if erased {
                    scope = frame.writtenColumns(row: row)
                    if scope.isEmpty { continue }
                    onScreen.withUnsafeMutableBufferPointer { $0.update(repeating: blank) }
                    changed = onScreen.withUnsafeBufferPointer { differingColumns($0, new, in: scope) }
                } else if let old {
                    scope = sameFill ? hull(old.writtenColumns(row: row), frame.writtenColumns(row: row)) : 0..<columns
                    if scope.isEmpty { continue }
                    changed = old.cells.withUnsafeBufferPointer { oldCells in
                        let oldRow = UnsafeBufferPointer(rebasing: oldCells[row * columns..<(row + 1) * columns])
                        guard let changed = differingColumns(oldRow, new, in: scope) else { return nil }
                        onScreen.withUnsafeMutableBufferPointer { onScreen in
                            if scope.count < columns { onScreen.update(repeating: blank) }
                            _ = UnsafeMutableBufferPointer(rebasing: onScreen[scope]).update(
                                fromContentsOf: oldRow[scope])
                        }
                        return changed
                    }
                } else {
                    scope = 0..<columns
                    onScreen.withUnsafeMutableBufferPointer { $0.update(repeating: Self.unknown) }
                    changed = scope
                }
                if let changed { drawRow(row, new, changed: changed, scope: scope, fill: blank, into: &output) }
            }
        }
    }

    // MARK: - Rows

    /// Draws the `changed` columns of one row over ``onScreen``: cell by cell, or shifted in
    /// place first when the content moved by one column and that comes out shorter. Outside
    /// `scope` the row is blank in the fill on the screen and in `new`.
    private mutating func drawRow(
        _ row: Int, _ new: UnsafeBufferPointer<FrameCell>, changed: Range<Int>, scope: Range<Int>, fill: FrameCell,
        into output: inout [UInt8]
    ) {
        guard canShift, !wideGlyphs, let shift = shiftToTry(new, from: scope.lowerBound, fill: fill) else {
            writeChanges(row, new, in: changed, into: &output)
            return
        }
        let start = output.count
        let (savedPen, savedCursor) = (pen, cursor)
        let plainAtLeast = plainLowerBound(row, new, changed)
        savedRow.withUnsafeMutableBufferPointer { _ = $0.update(fromContentsOf: onScreen) }
        /// Takes back what was drawn of the row since `start`.
        func undo(_ rasteriser: inout Rasteriser, _ output: inout [UInt8]) {
            output.removeSubrange(start...)
            (rasteriser.pen, rasteriser.cursor) = (savedPen, savedCursor)
            let saved = rasteriser.savedRow
            rasteriser.onScreen.withUnsafeMutableBufferPointer { _ = $0.update(fromContentsOf: saved) }
        }
        /// Shifts the row, then writes what still differs.
        func shiftAndWrite(_ rasteriser: inout Rasteriser, _ output: inout [UInt8]) {
            rasteriser.shiftInPlace(row, by: shift, fill: fill, into: &output)
            // A shift moves the blanks beyond the scope among themselves, and one cell into it.
            let moved = scope.lowerBound..<min(rasteriser.columns, scope.upperBound + 1)
            if let left = rasteriser.onScreen.withUnsafeBufferPointer({ differingColumns($0, new, in: moved) }) {
                rasteriser.writeChanges(row, new, in: left, into: &output)
            }
        }
        // Shifting first: when it comes out no longer than writing the changed cells could,
        // it is kept without drawing the row the other way.
        shiftAndWrite(&self, &output)
        let shifted = output.count - start
        if shifted <= plainAtLeast { return }
        undo(&self, &output)
        writeChanges(row, new, in: changed, into: &output)
        if output.count - start > shifted {
            undo(&self, &output)
            shiftAndWrite(&self, &output)
        }
    }

    /// At least how many bytes writing the changed cells of `range` takes (without shifting):
    /// the move to the first when the cursor is on another row, its background when the pen
    /// has another, each cell's glyph, and between separate changes a move of at least one byte
    /// per skipped cell or three (the shortest relative move).
    private mutating func plainLowerBound(_ row: Int, _ new: UnsafeBufferPointer<FrameCell>, _ range: Range<Int>) -> Int
    {
        var bound = 0
        var previous: Int?
        var from = range.lowerBound
        while let column = nextChange(from: from, before: range.upperBound, new) {
            if let previous {
                if column > previous + 1 { bound += min(column - previous - 1, 3) }
            } else {
                if cursor?.row != row {
                    bound += moveLength(
                        .address, Move.address.key(column, row: row, columns: columns, rows: rows), row: row,
                        column: column)
                }
                if colour, pen.background != Self.code(new[column].background, new[column].backgroundBlend) {
                    bound += fixed.length(Fixed.backgrounds + Int(new[column].background.rawValue))
                }
            }
            bound += UTF8.width(new[column].glyph)
            previous = column
            from = column + 1
        }
        return bound
    }

    /// The column (the first the shift moves) and direction, when the row's content moved by
    /// exactly one column. Cells before `from` are blank in the fill on the screen and in `new`.
    private func shiftToTry(_ new: UnsafeBufferPointer<FrameCell>, from: Int, fill: FrameCell) -> (
        column: Int, right: Bool
    )? {
        /// The first cell that is not a blank in the screen's colour.
        func firstShown(_ cells: UnsafeBufferPointer<FrameCell>) -> Int? {
            withUnsafePointer(to: fill) { blank in
                var index = from
                while index < cells.count,
                    !cellsDiffer(cells.baseAddress! + index, blank, 0)
                        || Self.looksSame(cells[index], fill, colour: true)
                {
                    index += 1
                }
                return index < cells.count ? index : nil
            }
        }
        guard let before = onScreen.withUnsafeBufferPointer(firstShown), let after = firstShown(new) else {
            return nil
        }
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
        setBackground(of: fill, into: &output)
        fixed.append(shift.right ? Fixed.insertCharacter : Fixed.deleteCharacter, to: &output)
        let moved = columns - shift.column - 1
        onScreen.withUnsafeMutableBufferPointer { cells in
            let at = cells.baseAddress! + shift.column
            if shift.right {
                memmove(at + 1, at, moved * MemoryLayout<FrameCell>.stride)
                at.pointee = fill
            } else {
                memmove(at, at + 1, moved * MemoryLayout<FrameCell>.stride)
                cells[cells.count - 1] = fill
            }
        }
    }

    /// Writes each cell of `new` in `range` that looks different from ``onScreen``.
    private mutating func writeChanges(
        _ row: Int, _ new: UnsafeBufferPointer<FrameCell>, in range: Range<Int>, into output: inout [UInt8]
    ) {
        // One cell more on each side: the cells beside a changed glyph (see ``nextChange``).
        let end = min(columns, range.upperBound + 1)
        var from = max(0, range.lowerBound - 1)
        while var column = nextChange(from: from, before: end, new) {
            // A wide character's second cell: the character is written from its first.
            if new[column].isContinuation, column > 0 { column -= 1 }
            let width = column + 1 < columns && new[column + 1].isContinuation ? 2 : 1
            move(toRow: row, column: column, cells: new, into: &output)
            write(new[column], into: &output)
            // Past the last column: a pending wrap.
            cursor = column + width < columns ? (row, column + width) : nil
            from = column + width
        }
    }

    /// The first column from `from` up to `end` whose cell in `new` looks different from
    /// ``onScreen``, or is beside a glyph from beyond ASCII (a half block, a swatch, an arrow)
    /// that changes: a terminal that draws such glyphs from a font may let them spill a pixel
    /// into the cells beside them (xterm does), so those cells are written again and the spill
    /// goes with the glyph.
    private func nextChange(from: Int, before end: Int, _ new: UnsafeBufferPointer<FrameCell>) -> Int? {
        onScreen.withUnsafeBufferPointer { onScreen in
            guard let shown = onScreen.baseAddress, let wanted = new.baseAddress, from < end else { return nil }
            let colour = colour
            let last = onScreen.count - 1
            // The cell before `from`: whether its glyph may spill, and goes.
            if from > 0, !shown[from - 1].glyph.isASCII, cellsDiffer(shown, wanted, from - 1),
                !Self.looksSame(shown[from - 1], wanted[from - 1], colour: colour)
            {
                return from
            }
            var column = from
            while column < end {
                // Cells with the same bytes look the same: the comparison that settles most cells.
                if cellsDiffer(shown, wanted, column), !Self.looksSame(shown[column], wanted[column], colour: colour) {
                    return column
                }
                // The next cell's glyph may spill into this one, and goes (most cells are blanks:
                // the glyph is looked at first). The cell before was looked at already.
                let next = column + 1
                if next <= last, !shown[next].glyph.isASCII, cellsDiffer(shown, wanted, next),
                    !Self.looksSame(shown[next], wanted[next], colour: colour)
                {
                    return column
                }
                column += 1
            }
            return nil
        }
    }

    /// Whether two cells look the same on screen: a blank shows only its background, or in
    /// reverse video only its foreground (and on a monochrome terminal neither: only whether it
    /// is in reverse video).
    private static func looksSame(_ first: FrameCell, _ second: FrameCell, colour: Bool) -> Bool {
        guard first.glyph == second.glyph, first.reverse == second.reverse else { return false }
        if colour {
            let sameForeground =
                first.foreground == second.foreground && first.foregroundBlend == second.foregroundBlend
            let sameBackground =
                first.background == second.background && first.backgroundBlend == second.backgroundBlend
            if first.isBlank { return first.reverse ? sameForeground : sameBackground }
            return sameBackground && sameForeground && first.bold == second.bold
        }
        return first.isBlank || first.bold == second.bold
    }

    /// A colour as the pen holds it: a flat colour's raw value, or past them a fading colour.
    private static func code(_ colour: FlatColour, _ blend: FrameCell.Blend) -> UInt8 {
        blend == .none ? colour.rawValue : 64 + blend.rawValue
    }

    /// A cell no frame holds: what the screen shows is not known.
    private static let unknown = FrameCell(glyph: "\u{FFFF}", foreground: .flatWhite, background: .flatWhite)

    // MARK: - Cells and the pen

    /// The attributes the terminal will draw the next character with (nil: not known).
    private struct Pen {
        /// The foreground's ``code(_:_:)``.
        var foreground: UInt8?
        /// The background's ``code(_:_:)``.
        var background: UInt8?
        var bold: Bool?
        var reverse: Bool?
    }

    private mutating func write(_ cell: FrameCell, into output: inout [UInt8]) {
        let reverse = cell.reverse
        let bold = cell.isBlank ? (pen.bold ?? false) : cell.bold
        if (pen.bold == true && !bold) || (pen.reverse == true && !reverse) || pen.bold == nil || pen.reverse == nil {
            resetAttributes(into: &output)
        }
        if bold, pen.bold != true {
            fixed.append(Fixed.bold, to: &output)
            pen.bold = true
        }
        if reverse, pen.reverse != true {
            fixed.append(Fixed.reverse, to: &output)
            pen.reverse = true
        }
        if colour {
            setBackground(of: cell, into: &output)
            let foreground = Self.code(cell.foreground, cell.foregroundBlend)
            if !cell.isBlank || cell.reverse, pen.foreground != foreground {
                if cell.foregroundBlend != .none, sequences.blend != nil {
                    output += blendSequences[Int(cell.foregroundBlend.rawValue)]
                } else {
                    fixed.append(Fixed.foregrounds + Int(cell.foreground.rawValue), to: &output)
                }
                pen.foreground = foreground
            }
        }
        // A wide character's second cell is never written on its own (see writeChanges).
        output.appendUTF8(cell.isContinuation ? " " : cell.glyph)
    }

    /// Sets the pen's background to `cell`'s (its fading colour, where it has one).
    private mutating func setBackground(of cell: FrameCell, into output: inout [UInt8]) {
        let code = Self.code(cell.background, cell.backgroundBlend)
        guard colour, pen.background != code else { return }
        if cell.backgroundBlend != .none, sequences.blend != nil {
            output += blendSequences[3 + Int(cell.backgroundBlend.rawValue)]
        } else {
            fixed.append(Fixed.backgrounds + Int(cell.background.rawValue), to: &output)
        }
        pen.background = code
    }

    private mutating func resetAttributes(into output: inout [UInt8]) {
        fixed.append(Fixed.resetAttributes, to: &output)
        pen = Pen(foreground: nil, background: nil, bold: false, reverse: false)
    }

    /// Whether `cell` would come out right with the pen as it is (for writing it again as a
    /// cursor move).
    private func penFits(_ cell: FrameCell) -> Bool {
        guard pen.reverse == cell.reverse else { return false }
        if !colour { return cell.isBlank || pen.bold == cell.bold }
        guard pen.background == Self.code(cell.background, cell.backgroundBlend) else { return false }
        let foreground = Self.code(cell.foreground, cell.foregroundBlend)
        if cell.isBlank { return !cell.reverse || pen.foreground == foreground }
        return pen.foreground == foreground && pen.bold == cell.bold
    }

    // MARK: - Cursor moves

    /// Moves the cursor to (`row`, `column`) the shortest way. `cells` is the row as it will
    /// look once drawn: cells between the cursor and the target may be written again instead
    /// of moving over them.
    private mutating func move(
        toRow row: Int, column: Int, cells: UnsafeBufferPointer<FrameCell>?, into output: inout [UInt8]
    ) {
        if let cursor, cursor.row == row, cursor.column == column { return }
        var best = Move.address.key(column, row: row, columns: columns, rows: rows)
        var bestMove = (kind: Move.address, value: column)
        var length = moveLength(.address, best, row: row, column: column)
        var rewrite: Range<Int>?
        if let cursor, cursor.row == row {
            let gap = column - cursor.column
            /// Takes the move `kind` to `value` (a column, or a count) if it is shorter.
            func consider(_ kind: Move, _ value: Int) {
                let key = kind.key(value, row: row, columns: columns, rows: rows)
                let candidate = moveLength(kind, key, row: row, column: value)
                if candidate > 0, candidate < length { (best, bestMove, length) = (key, (kind, value), candidate) }
            }
            consider(.column, column)
            if gap > 0 { consider(.forward, gap) }
            if gap < 0 { consider(.backward, -gap) }
            if gap > 0, gap < length, let cells {
                // Writing the cells in between again, when they need no change of pen.
                var rewritten = 0
                for index in cursor.column..<column {
                    guard penFits(cells[index]), Self.looksSame(onScreen[index], cells[index], colour: colour),
                        cells[index].glyph.isASCII || cells[index].glyph.terminalWidth == 1
                    else {
                        rewritten = .max
                        break
                    }
                    rewritten += UTF8.width(cells[index].glyph)
                }
                if rewritten < length { rewrite = cursor.column..<column }
            }
        }
        if let rewrite, let cells {
            for index in rewrite { output.appendUTF8(cells[index].glyph) }
        } else {
            // A move formatted since (on a very large terminal) may have taken its entry.
            if !moves.hasEntryPerKey, moves.formattedLength(best) == nil {
                _ = formatMove(bestMove.kind, best, row: row, column: bestMove.value)
            }
            moves.append(best, to: &output)
        }
        cursor = (row, column)
    }

    /// The length of a move's sequence, formatted the first time (0: the terminal has no such move).
    private mutating func moveLength(_ kind: Move, _ key: Int, row: Int, column: Int) -> Int {
        if let length = moves.formattedLength(key) { return length }
        return formatMove(kind, key, row: row, column: column)
    }

    /// Formats a move (`column` is the count for relative moves) and keeps it under its key.
    @inline(never)
    private mutating func formatMove(_ kind: Move, _ key: Int, row: Int, column: Int) -> Int {
        let bytes: [UInt8]? =
            switch kind {
            case .address: sequences.cursorAddress(row, column)
            case .column: sequences.columnAddress?(column)
            case .forward: sequences.cursorForward?(column)
            case .backward: sequences.cursorBackward?(column)
            }
        return moves.store(key, bytes ?? [])
    }

    /// The kinds of cursor move, each with its own region of ``moves``.
    private enum Move {
        /// To a row and column: a key per cell.
        case address
        /// To a column of the cursor's row: a key per column.
        case column
        /// Right by a count: a key per count.
        case forward
        /// Left by a count: a key per count.
        case backward

        /// The key of this move to `value` (a column, or a count), or, for `.address`, to
        /// (`row`, `value`); the `.backward` key just past the last count is the table's size.
        func key(_ value: Int, row: Int, columns: Int, rows: Int) -> Int {
            let cells = columns * rows
            return switch self {
            case .address: row * columns + value
            case .column: cells + value
            case .forward: cells + columns + value
            case .backward: cells + 2 * columns + value
            }
        }
    }

    /// The keys of the sequences that take no parameters, then each colour's.
    private enum Fixed {
        static let insertCharacter = 0
        static let deleteCharacter = 1
        static let eraseToEndOfScreen = 2
        static let resetAttributes = 3
        static let bold = 4
        static let reverse = 5
        /// Foregrounds from here, by raw value.
        static let foregrounds = 6
        /// Backgrounds from here, by raw value.
        static let backgrounds = foregrounds + FlatColour.allCases.count
    }
}

// MARK: - Helpers

/// The formatted cursor moves, by key (see `Rasteriser.Move`), in a table of bounded size:
/// one entry per key while the keys fit (every terminal up to some 14,000 cells, 80×24 and
/// 150×80 among them), else keys share entries by their low bits, and a move that lost its
/// entry is formatted again. A very large terminal costs at most ``maximumEntries`` entries.
/// An entry's bytes are made when a move is first kept in it: the moves a session never makes
/// cost no memory (at 80×24, 128 KB were once zero-filled before the first frame).
private struct MoveCache {
    /// The most entries: 16,384, of 9 bytes and the 32 of a move once it is kept: at most 672 KB.
    static let maximumEntries = 1 << 14
    /// The longest move kept (every real one is under 16 bytes); a longer one is kept as none.
    private static let entryBytes = 32
    private let mask: Int
    /// Whether every key has an entry of its own (no move ever takes another's).
    let hasEntryPerKey: Bool
    /// The key each entry holds (-1: none).
    private var keys: [Int32]
    private var lengths: [UInt8]
    /// Where each entry's ``entryBytes`` start in `bytes` (-1: not made yet).
    private var offsets: [Int32]
    private var bytes: [UInt8] = []

    init(keys count: Int) {
        var size = 64
        while size < count, size < Self.maximumEntries { size <<= 1 }
        mask = size - 1
        hasEntryPerKey = count <= size
        keys = [Int32](repeating: -1, count: size)
        lengths = [UInt8](repeating: 0, count: size)
        offsets = [Int32](repeating: -1, count: size)
    }

    /// The length of the move under `key` (0: the terminal has none), or nil if it is not kept.
    func formattedLength(_ key: Int) -> Int? {
        let entry = key & mask
        return keys[entry] == Int32(truncatingIfNeeded: key) ? Int(lengths[entry]) : nil
    }

    /// Keeps `sequence` for `key` and returns its length.
    mutating func store(_ key: Int, _ sequence: [UInt8]) -> Int {
        let entry = key & mask
        let kept = sequence.count <= Self.entryBytes ? sequence : []
        keys[entry] = Int32(truncatingIfNeeded: key)
        lengths[entry] = UInt8(kept.count)
        if offsets[entry] < 0 {
            offsets[entry] = Int32(bytes.count)
            bytes.append(contentsOf: repeatElement(0, count: Self.entryBytes))
        }
        let start = Int(offsets[entry])
        bytes.withUnsafeMutableBufferPointer { buffer in
            for (offset, byte) in kept.enumerated() { buffer[start + offset] = byte }
        }
        return kept.count
    }

    /// Appends the move kept under `key` (which must be kept) to `output`.
    func append(_ key: Int, to output: inout [UInt8]) {
        let entry = key & mask
        let length = Int(lengths[entry])
        guard length > 0 else { return }
        let start = Int(offsets[entry])
        bytes.withUnsafeBufferPointer {
            output.append(contentsOf: UnsafeBufferPointer(rebasing: $0[start..<start + length]))
        }
    }
}

/// Sequences kept in one byte array, each in a numbered key: formatted once, then appended
/// from one place in memory.
private struct SequenceTable {
    /// The sequences, one after another.
    private var bytes: [UInt8] = []
    /// Per key: 0 if not formatted yet; otherwise bit 63 set, the offset in ``bytes`` from
    /// bit 8 and the length in the low byte.
    private var entries: [UInt64]

    init(count: Int) {
        entries = [UInt64](repeating: 0, count: count)
    }

    /// The length of the sequence in `key` (0: stored empty), or nil if none was stored.
    func formattedLength(_ key: Int) -> Int? {
        let entry = entries[key]
        return entry == 0 ? nil : Int(entry & 0xFF)
    }

    /// The length of the sequence in `key` (0 when empty or not stored).
    func length(_ key: Int) -> Int { Int(entries[key] & 0xFF) }

    /// Keeps `sequence` in `key` and returns its length; a sequence longer than 255 bytes is
    /// kept as empty (no terminal has one).
    mutating func store(_ key: Int, _ sequence: [UInt8]) -> Int {
        let kept = sequence.count <= 0xFF ? sequence : []
        entries[key] = 1 << 63 | UInt64(bytes.count) << 8 | UInt64(kept.count)
        bytes.append(contentsOf: kept)
        return kept.count
    }

    /// Appends the sequence in `key` to `output`.
    func append(_ key: Int, to output: inout [UInt8]) {
        let entry = entries[key]
        let length = Int(entry & 0xFF)
        guard length > 0 else { return }
        let offset = Int(entry >> 8 & 0xFF_FFFF_FFFF)
        bytes.withUnsafeBufferPointer {
            output.append(contentsOf: UnsafeBufferPointer(rebasing: $0[offset..<offset + length]))
        }
    }
}

/// The columns of `columns` from the first to the last where two rows' cells differ (nil: none
/// does). Cells are compared as 64-bit words without their padding when they fit one.
private func differingColumns(
    _ first: UnsafeBufferPointer<FrameCell>, _ second: UnsafeBufferPointer<FrameCell>, in columns: Range<Int>
) -> Range<Int>? {
    guard !columns.isEmpty, let a = first.baseAddress, let b = second.baseAddress else { return nil }
    var lower = columns.lowerBound
    while lower < columns.upperBound, !cellsDiffer(a, b, lower) { lower += 1 }
    guard lower < columns.upperBound else { return nil }
    var upper = columns.upperBound - 1
    while !cellsDiffer(a, b, upper) { upper -= 1 }
    return lower..<upper + 1
}

/// The smallest range holding both (either may be empty).
private func hull(_ first: Range<Int>, _ second: Range<Int>) -> Range<Int> {
    if first.isEmpty { return second }
    if second.isEmpty { return first }
    return min(first.lowerBound, second.lowerBound)..<max(first.upperBound, second.upperBound)
}

/// Whether the cells at `index` differ: compared as 64-bit words without their padding when
/// a cell fits one.
@inline(__always)
private func cellsDiffer(_ first: UnsafePointer<FrameCell>, _ second: UnsafePointer<FrameCell>, _ index: Int) -> Bool {
    guard MemoryLayout<FrameCell>.stride == 8 else { return first[index] != second[index] }
    let size = MemoryLayout<FrameCell>.size
    let mask: UInt64 = size >= 8 ? ~0 : (1 << (8 * UInt64(size))) - 1
    let offset = index &* 8
    let difference =
        UnsafeRawPointer(first).load(fromByteOffset: offset, as: UInt64.self)
        ^ UnsafeRawPointer(second).load(fromByteOffset: offset, as: UInt64.self)
    return difference & mask != 0
}

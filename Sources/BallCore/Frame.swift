import ColourCore

// MARK: - Frames

/// One terminal cell of a frame: a glyph, its colours and whether it is bold.
public struct FrameCell: Hashable, Sendable {
    /// What is drawn: a space, a half block, a letter.
    public var glyph: Unicode.Scalar
    /// The glyph's colour.
    public var foreground: FlatColour
    /// The cell's colour behind the glyph.
    public var background: FlatColour
    /// Bold text (the status line's key names).
    public var bold: Bool

    /// A cell from its glyph and colours.
    public init(glyph: Unicode.Scalar, foreground: FlatColour, background: FlatColour, bold: Bool = false) {
        self.glyph = glyph
        self.foreground = foreground
        self.background = background
        self.bold = bold
    }

    /// A blank cell of colour `colour`.
    public static func blank(_ colour: FlatColour) -> FrameCell {
        FrameCell(glyph: " ", foreground: colour, background: colour)
    }

    /// Whether the cell shows nothing but its background.
    public var isBlank: Bool { glyph == " " }
}

/// A whole screen as a value: what the renderer builds and a screen presents.
///
/// Colours are flat colours; how they reach the terminal (direct colour, a palette entry, or
/// nothing on a monochrome terminal) is the presenting screen's business.
///
/// A frame knows which of its rows may hold anything but blanks in ``fill`` (the rows written
/// since it was made or reset): resetting clears only those, and a screen need not look at a
/// row that is blank in both the frame it shows and the one before. Two frames are equal when
/// their size, fill and cells are.
public struct Frame: Hashable, Sendable {
    /// The frame's size.
    public private(set) var size: ScreenSize
    /// The cells, row by row.
    public private(set) var cells: [FrameCell]
    /// The colour most of the frame is: the screen's background.
    public private(set) var fill: FlatColour
    /// One bit per row, set when the row was written: every other row is blank in ``fill``.
    private var writtenRows: [UInt64]

    /// A frame of `size`, every cell blank in `fill`.
    public init(size: ScreenSize, fill: FlatColour) {
        self.size = size
        self.fill = fill
        cells = Array(repeating: .blank(fill), count: max(0, size.columns) * max(0, size.rows))
        writtenRows = Self.noRows(size)
    }

    private static func noRows(_ size: ScreenSize) -> [UInt64] {
        [UInt64](repeating: 0, count: (max(0, size.rows) + 63) / 64)
    }

    /// Whether every cell of `row` is certainly a blank in ``fill`` (it was not written since
    /// the frame was made or reset).
    public func isBlank(row: Int) -> Bool { !Self.isWritten(row, in: writtenRows) }

    private static func isWritten(_ row: Int, in rows: [UInt64]) -> Bool {
        rows[row >> 6] & (1 << UInt64(row & 63)) != 0
    }

    private mutating func markWritten(row: Int) {
        writtenRows[row >> 6] |= 1 << UInt64(row & 63)
    }

    /// The cell at `column`, `row`.
    public subscript(column: Int, row: Int) -> FrameCell {
        get { cells[row * size.columns + column] }
        set {
            markWritten(row: row)
            cells[row * size.columns + column] = newValue
        }
    }

    /// Makes every cell blank in `fill`, at `size`, reusing the storage: at the same size and
    /// fill only the rows written since are cleared.
    public mutating func reset(size newSize: ScreenSize, fill newFill: FlatColour) {
        let count = max(0, newSize.columns) * max(0, newSize.rows)
        if newSize != size || cells.count != count {
            size = newSize
            cells = Array(repeating: .blank(newFill), count: count)
            writtenRows = Self.noRows(newSize)
        } else {
            let (columns, rows) = (size.columns, size.rows)
            let sameFill = newFill == fill
            let written = writtenRows
            cells.withUnsafeMutableBufferPointer { cells in
                for row in 0..<rows where !sameFill || Self.isWritten(row, in: written) {
                    Self.fill(
                        UnsafeMutableBufferPointer(rebasing: cells[row * columns..<(row + 1) * columns]),
                        with: .blank(newFill))
                }
            }
            writtenRows.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        }
        fill = newFill
    }

    /// Sets every cell to `cell`, eight bytes at a time (the hot path of every frame).
    private static func fill(_ cells: UnsafeMutableBufferPointer<FrameCell>, with cell: FrameCell) {
        guard MemoryLayout<FrameCell>.stride == MemoryLayout<UInt64>.stride else {
            cells.update(repeating: cell)
            return
        }
        var pattern: UInt64 = 0
        withUnsafeMutableBytes(of: &pattern) { $0.storeBytes(of: cell, as: FrameCell.self) }
        cells.withMemoryRebound(to: UInt64.self) { $0.update(repeating: pattern) }
    }

    /// Gives `body` the cells, row by row, to change in place (every row counts as written).
    public mutating func withCells<Result>(_ body: (inout UnsafeMutableBufferPointer<FrameCell>) -> Result) -> Result {
        writtenRows.withUnsafeMutableBufferPointer { $0.update(repeating: ~0) }
        return cells.withUnsafeMutableBufferPointer { body(&$0) }
    }

    /// Gives `body` the cells of `row` to change in place.
    public mutating func withRow<Result>(_ row: Int, _ body: (UnsafeMutableBufferPointer<FrameCell>) -> Result)
        -> Result
    {
        markWritten(row: row)
        let columns = size.columns
        return cells.withUnsafeMutableBufferPointer {
            body(UnsafeMutableBufferPointer(rebasing: $0[row * columns..<(row + 1) * columns]))
        }
    }

    /// Whether two frames show the same: size, fill and cells (not which rows were written).
    public static func == (first: Frame, second: Frame) -> Bool {
        first.size == second.size && first.fill == second.fill && first.cells == second.cells
    }

    /// Hashes what ``==`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(size)
        hasher.combine(fill)
        hasher.combine(cells)
    }

    /// Writes `text` from (`column`, `row`), clipped at the right edge; returns the next column.
    @discardableResult
    public mutating func write(
        _ text: String, column: Int, row: Int, foreground: FlatColour, background: FlatColour, bold: Bool = false
    ) -> Int {
        write(
            Array(text.unicodeScalars), column: column, row: row, foreground: foreground, background: background,
            bold: bold)
    }

    /// Writes `scalars` from (`column`, `row`), clipped at the right edge; returns the next column.
    @discardableResult
    public mutating func write(
        _ scalars: [Unicode.Scalar], column: Int, row: Int, foreground: FlatColour, background: FlatColour,
        bold: Bool = false
    ) -> Int {
        let columns = size.columns
        var column = column
        withRow(row) { cells in
            for scalar in scalars {
                guard column < columns else { break }
                if column >= 0 {
                    cells[column] = FrameCell(
                        glyph: scalar, foreground: foreground, background: background, bold: bold)
                }
                column += 1
            }
        }
        return column
    }

    // MARK: - Text snapshots

    /// The glyphs, a line per row (trailing spaces kept).
    public var text: String {
        (0..<size.rows).map { row in
            String(String.UnicodeScalarView((0..<size.columns).map { self[$0, row].glyph }))
        }.joined(separator: "\n")
    }

    /// A golden-snapshot form: the glyphs, then the colours as one letter per cell with a
    /// legend naming each letter's foreground and background.
    public var snapshot: String {
        var legend: [String: Character] = [:]
        var order: [String] = []
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var colourRows: [String] = []
        for row in 0..<size.rows {
            var line = ""
            for column in 0..<size.columns {
                let cell = self[column, row]
                let key =
                    cell.isBlank
                    ? "blank on \(cell.background.name)"
                    : "\(cell.foreground.name) on \(cell.background.name)\(cell.bold ? " bold" : "")"
                if legend[key] == nil {
                    legend[key] = letters[min(order.count, letters.count - 1)]
                    order.append(key)
                }
                line.append(legend[key]!)
            }
            colourRows.append(line)
        }
        let legendLines = order.map { "\(legend[$0]!) = \($0)" }
        return
            (["size \(size)", "--- glyphs"]
            + text.split(separator: "\n", omittingEmptySubsequences: false).map(
                String.init) + ["--- colours"] + colourRows + ["--- legend"] + legendLines).joined(separator: "\n")
            + "\n"
    }
}

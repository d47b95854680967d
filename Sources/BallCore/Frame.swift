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
public struct Frame: Hashable, Sendable {
    /// The frame's size.
    public private(set) var size: ScreenSize
    /// The cells, row by row.
    public private(set) var cells: [FrameCell]
    /// The colour most of the frame is: the screen's background.
    public var fill: FlatColour

    /// A frame of `size`, every cell blank in `fill`.
    public init(size: ScreenSize, fill: FlatColour) {
        self.size = size
        self.fill = fill
        cells = Array(repeating: .blank(fill), count: max(0, size.columns) * max(0, size.rows))
    }

    /// The cell at `column`, `row`.
    public subscript(column: Int, row: Int) -> FrameCell {
        get { cells[row * size.columns + column] }
        set { cells[row * size.columns + column] = newValue }
    }

    /// Makes every cell blank in `fill`, at `size`, reusing the storage.
    public mutating func reset(size newSize: ScreenSize, fill newFill: FlatColour) {
        let count = max(0, newSize.columns) * max(0, newSize.rows)
        if newSize != size || cells.count != count {
            size = newSize
            cells = Array(repeating: .blank(newFill), count: count)
        } else {
            Self.fill(&cells, with: .blank(newFill))
        }
        fill = newFill
    }

    /// Sets every cell to `cell`, eight bytes at a time (the hot path of every frame).
    private static func fill(_ cells: inout [FrameCell], with cell: FrameCell) {
        guard MemoryLayout<FrameCell>.stride == MemoryLayout<UInt64>.stride else {
            for index in cells.indices { cells[index] = cell }
            return
        }
        var pattern: UInt64 = 0
        withUnsafeMutableBytes(of: &pattern) { $0.storeBytes(of: cell, as: FrameCell.self) }
        cells.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: UInt64.self) { words in
                for index in words.indices { words[index] = pattern }
            }
        }
    }

    /// Gives `body` the cells, row by row, to change in place.
    public mutating func withCells<Result>(_ body: (inout UnsafeMutableBufferPointer<FrameCell>) -> Result) -> Result {
        cells.withUnsafeMutableBufferPointer { body(&$0) }
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
        withCells { cells in
            for scalar in scalars {
                guard column < columns else { break }
                if column >= 0 {
                    cells[row * columns + column] = FrameCell(
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

import BallModel
import ColourCore
import TextFormats

// MARK: - Frames

/// One terminal cell of a frame: a glyph, its colours, and whether it is bold or in reverse
/// video. Eight bytes (the rasteriser compares cells as 64-bit words): the attributes share a
/// byte.
package struct FrameCell: Hashable, Sendable {
    /// What is drawn: a space, a half block, a letter.
    package var glyph: Unicode.Scalar
    /// The glyph's colour (during a fade, the flat colour it fades to: see ``foregroundBlend``).
    package var foreground: FlatColour
    /// The cell's colour behind the glyph (see ``backgroundBlend``).
    package var background: FlatColour
    /// Bold, reverse video, and which colour of the frame's fade each colour is (see ``Blend``).
    private var attributes: UInt8

    /// Which of a frame's fading colours (``Frame/blends``) a cell's colour is shown as.
    package enum Blend: UInt8, Hashable, Sendable {
        /// Its flat colour.
        case none
        /// The ball's colour as it fades.
        case ball
        /// The screen's colour as it fades.
        case screen
    }

    /// A cell from its glyph, colours and attributes; a colour with a blend is shown as the
    /// frame's fading colour of that kind.
    package init(
        glyph: Unicode.Scalar, foreground: FlatColour, background: FlatColour, bold: Bool = false,
        reverse: Bool = false,
        foregroundBlend: Blend = .none, backgroundBlend: Blend = .none
    ) {
        self.glyph = glyph
        self.foreground = foreground
        self.background = background
        attributes =
            (bold ? 1 : 0) | (reverse ? 2 : 0) | foregroundBlend.rawValue << 2 | backgroundBlend.rawValue << 4
    }

    /// Bold text (the status line's key names).
    package var bold: Bool {
        get { attributes & 1 != 0 }
        set { attributes = attributes & ~1 | (newValue ? 1 : 0) }
    }

    /// Reverse video: the terminal swaps the cell's colours (SGR 7). The renderer uses it where
    /// colours are not shown, so the status line still stands out on a monochrome terminal.
    package var reverse: Bool {
        get { attributes & 2 != 0 }
        set { attributes = attributes & ~2 | (newValue ? 2 : 0) }
    }

    /// Which fading colour the foreground is shown as (``Blend/none``: its flat colour).
    package var foregroundBlend: Blend { Blend(rawValue: attributes >> 2 & 3) ?? .none }

    /// Which fading colour the background is shown as (``Blend/none``: its flat colour).
    package var backgroundBlend: Blend { Blend(rawValue: attributes >> 4 & 3) ?? .none }

    /// A blank cell of colour `colour` (shown as the fading colour `blend` when it has one).
    package static func blank(_ colour: FlatColour, blend: Blend = .none) -> FrameCell {
        FrameCell(glyph: " ", foreground: colour, background: colour, foregroundBlend: blend, backgroundBlend: blend)
    }

    /// Whether the cell shows nothing but its background (a space; its foreground and boldness
    /// do not show).
    package var isBlank: Bool { glyph == " " }

    /// The glyph of a wide character's second cell: the character, drawn in the cell before,
    /// covers it, and nothing of its own is drawn there.
    package static let continuationGlyph: Unicode.Scalar = "\u{0}"

    /// Whether the cell is the second cell of a wide character.
    package var isContinuation: Bool { glyph == Self.continuationGlyph }
}

/// The ball's and the screen's colours part of the way through a fade, as a frame shows them.
package struct Blends: Hashable, Sendable {
    /// The ball's colour now.
    package var ball: RGBColour
    /// The screen's colour now.
    package var screen: RGBColour

    /// Fading colours from their parts.
    package init(ball: RGBColour, screen: RGBColour) {
        self.ball = ball
        self.screen = screen
    }

    /// The colour a cell's colour marked `blend` is shown as (nil: its own flat colour).
    package func colour(_ blend: FrameCell.Blend) -> RGBColour? {
        switch blend {
        case .none: nil
        case .ball: ball
        case .screen: screen
        }
    }
}

/// A whole screen as a value: what the renderer builds and a screen presents.
///
/// Colours are flat colours; how they reach the terminal (direct colour, a palette entry, or
/// nothing on a monochrome terminal) is the presenting screen's business.
///
/// A frame knows, per row, the columns written since it was made or reset: every other cell
/// is a blank in ``fill``. Resetting clears only those, and a screen need not look at cells
/// that are blank in both the frame it shows and the one before. Two frames are equal when
/// their size, fill and cells are.
package struct Frame: Hashable, Sendable {
    /// The frame's size.
    package private(set) var size: ScreenSize
    /// The cells, row by row.
    package private(set) var cells: [FrameCell]
    /// The colour most of the frame is: the screen's background.
    package private(set) var fill: FlatColour
    /// The ball's and the screen's colours while they fade (the original's 0.1 s blend): the
    /// cells marked with a ``FrameCell/Blend`` are shown in these; nil: no fade (the fill is
    /// shown as itself).
    package private(set) var blends: Blends?
    /// Per row, the first written column and the one after the last (equal: none written).
    private var written: [(lower: Int32, upper: Int32)]
    /// Whether a wide character (two cells) was written since the frame was made or reset.
    package private(set) var hasWideGlyphs = false

    /// A frame of `size`, every cell blank in `fill`.
    package init(size: ScreenSize, fill: FlatColour) {
        self.size = size
        self.fill = fill
        cells = Array(repeating: .blank(fill), count: max(0, size.columns) * max(0, size.rows))
        written = Self.nothingWritten(size)
    }

    private static func nothingWritten(_ size: ScreenSize) -> [(lower: Int32, upper: Int32)] {
        Array(repeating: (0, 0), count: max(0, size.rows))
    }

    /// The columns of `row` written since the frame was made or reset, from the first to the
    /// last: every cell of the row outside them is a blank in ``fill``.
    package func writtenColumns(row: Int) -> Range<Int> {
        let (lower, upper) = written[row]
        return Int(lower)..<Int(upper)
    }

    private mutating func markWritten(row: Int, columns: Range<Int>) {
        guard !columns.isEmpty else { return }
        let (lower, upper) = written[row]
        written[row] =
            lower == upper
            ? (Int32(columns.lowerBound), Int32(columns.upperBound))
            : (min(lower, Int32(columns.lowerBound)), max(upper, Int32(columns.upperBound)))
    }

    /// The cell at `column`, `row`.
    package subscript(column: Int, row: Int) -> FrameCell {
        get { cells[row * size.columns + column] }
        set {
            precondition(column >= 0 && column < size.columns, "column \(column) is outside the frame")
            markWritten(row: row, columns: column..<column + 1)
            cells[row * size.columns + column] = newValue
        }
    }

    /// Makes every cell blank in `fill`, at `size`, reusing the storage: at the same size and
    /// fill only the columns written since are cleared. With `blends`, the fill is shown as the
    /// screen's fading colour.
    package mutating func reset(size newSize: ScreenSize, fill newFill: FlatColour, blends newBlends: Blends? = nil) {
        let count = max(0, newSize.columns) * max(0, newSize.rows)
        let blank = FrameCell.blank(newFill, blend: newBlends == nil ? .none : .screen)
        defer { blends = newBlends }
        if newSize != size || cells.count != count {
            size = newSize
            cells = Array(repeating: blank, count: count)
            written = Self.nothingWritten(newSize)
        } else {
            let (columns, rows) = (size.columns, size.rows)
            let sameFill = newFill == fill && (newBlends == nil) == (blends == nil)
            let spans = written
            cells.withUnsafeMutableBufferPointer { cells in
                for row in 0..<rows {
                    let clear = sameFill ? Int(spans[row].lower)..<Int(spans[row].upper) : 0..<columns
                    guard !clear.isEmpty else { continue }
                    Self.fill(
                        UnsafeMutableBufferPointer(
                            rebasing: cells[row * columns + clear.lowerBound..<row * columns + clear.upperBound]),
                        with: blank)
                }
            }
            written.withUnsafeMutableBufferPointer { $0.update(repeating: (0, 0)) }
        }
        fill = newFill
        hasWideGlyphs = false
    }

    /// Notes that a wide character was written into cells directly (``withCells``).
    package mutating func noteWideGlyphs() { hasWideGlyphs = true }

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

    /// Gives `body` the cells `columns` of `row` to change in place: element 0 is the cell at
    /// `columns.lowerBound`.
    package mutating func withCells<Result>(
        row: Int, columns: Range<Int>, _ body: (UnsafeMutableBufferPointer<FrameCell>) -> Result
    ) -> Result {
        precondition(
            columns.lowerBound >= 0 && columns.upperBound <= size.columns, "columns \(columns) are outside the frame")
        markWritten(row: row, columns: columns)
        let start = row * size.columns
        return cells.withUnsafeMutableBufferPointer {
            body(UnsafeMutableBufferPointer(rebasing: $0[start + columns.lowerBound..<start + columns.upperBound]))
        }
    }

    /// Whether two frames show the same: size, fill, fading colours and cells (not which cells
    /// were written).
    package static func == (first: Frame, second: Frame) -> Bool {
        first.size == second.size && first.fill == second.fill && first.blends == second.blends
            && first.cells == second.cells
    }

    /// Hashes what ``==`` compares.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(size)
        hasher.combine(fill)
        hasher.combine(blends)
        hasher.combine(cells)
    }

    /// Writes `text` from (`column`, `row`), clipped at the right edge; returns the next column.
    @discardableResult
    package mutating func write(
        _ text: String, column: Int, row: Int, foreground: FlatColour, background: FlatColour, bold: Bool = false,
        reverse: Bool = false
    ) -> Int {
        write(
            Array(text.unicodeScalars), column: column, row: row, foreground: foreground, background: background,
            bold: bold, reverse: reverse)
    }

    /// Writes `scalars` from (`column`, `row`) by their width in cells (a wide character takes
    /// two, the second a ``FrameCell/continuationGlyph``; a combining mark none, and is left out),
    /// clipped at the right edge (a wide character with one cell left becomes a space); returns
    /// the next column.
    @discardableResult
    package mutating func write(
        _ scalars: [Unicode.Scalar], column: Int, row: Int, foreground: FlatColour, background: FlatColour,
        bold: Bool = false, reverse: Bool = false
    ) -> Int {
        let first = max(0, column)
        let end = min(size.columns, column + scalars.count)
        guard scalars.allSatisfy({ $0.terminalWidth == 1 }) else {
            return writeByWidth(scalars, column: column, row: row, foreground, background, bold, reverse)
        }
        if first < end {
            withCells(row: row, columns: first..<end) { cells in
                for index in first..<end {
                    cells[index - first] = FrameCell(
                        glyph: scalars[index - column], foreground: foreground, background: background, bold: bold,
                        reverse: reverse)
                }
            }
        }
        return column >= size.columns ? column : min(size.columns, column + scalars.count)
    }

    /// ``write(_:column:row:foreground:background:bold:reverse:)`` for text with characters
    /// wider or narrower than one cell.
    private mutating func writeByWidth(
        _ scalars: [Unicode.Scalar], column: Int, row: Int, _ foreground: FlatColour, _ background: FlatColour,
        _ bold: Bool, _ reverse: Bool
    ) -> Int {
        var at = column
        for scalar in scalars {
            let width = scalar.terminalWidth
            guard width > 0 else { continue }
            guard at < size.columns else { break }
            let fits = at + width <= size.columns
            if at >= 0 {
                self[at, row] = FrameCell(
                    glyph: fits ? scalar : " ", foreground: foreground, background: background, bold: bold,
                    reverse: reverse)
            }
            if width == 2, fits, at + 1 >= 0 {
                self[at + 1, row] = FrameCell(
                    glyph: FrameCell.continuationGlyph, foreground: foreground, background: background, bold: bold,
                    reverse: reverse)
                hasWideGlyphs = true
            }
            at += fits ? width : 1
        }
        return min(max(at, column), size.columns)
    }

    // MARK: - Text snapshots

    /// The glyphs, a line per row (trailing spaces kept; a wide character once, for its two cells).
    package var text: String {
        (0..<size.rows).map { row in
            String(
                String.UnicodeScalarView(
                    (0..<size.columns).map { self[$0, row].glyph }.filter { $0 != FrameCell.continuationGlyph }))
        }.joined(separator: "\n")
    }

    /// A golden-snapshot form: the glyphs, then the colours as one letter per cell with a
    /// legend naming each letter's foreground and background.
    package var snapshot: String {
        var legend: [String: Character] = [:]
        var order: [String] = []
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var colourRows: [String] = []
        for row in 0..<size.rows {
            var line = ""
            for column in 0..<size.columns {
                let cell = self[column, row]
                let reverse = cell.reverse ? " reverse" : ""
                let key =
                    cell.isBlank
                    ? "blank on \(cell.background.name)\(reverse)"
                    : "\(cell.foreground.name) on \(cell.background.name)\(cell.bold ? " bold" : "")\(reverse)"
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

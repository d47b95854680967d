import ColourCore

// MARK: - Cells and sizes

/// A terminal cell: 0-based column and row.
public struct Cell: Hashable, Sendable, CustomStringConvertible {
    /// The column, 0 at the left.
    public var column: Int
    /// The row, 0 at the top.
    public var row: Int

    /// A cell from its column and row.
    public init(column: Int, row: Int) {
        self.column = column
        self.row = row
    }

    /// The cell's position in points (8 × 16 points per cell), as the colour rule takes it.
    public var points: PointPosition { PointPosition(column: column, row: row) }

    /// `41,12`.
    public var description: String { "\(column),\(row)" }
}

/// The size of a terminal in cells.
public struct ScreenSize: Hashable, Sendable, CustomStringConvertible {
    /// Width in columns.
    public var columns: Int
    /// Height in rows, the status line included.
    public var rows: Int

    /// A size from its columns and rows.
    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    /// The smallest terminal the ball and its status line fit in.
    public static let minimum = ScreenSize(columns: 24, rows: 8)

    /// Whether the ball and the status line fit.
    public var isLargeEnough: Bool { columns >= Self.minimum.columns && rows >= Self.minimum.rows }

    /// The cell in the middle of the area above the status line.
    public var centre: Cell { Cell(column: columns / 2, row: (rows - 1) / 2) }

    /// `80×24`.
    public var description: String { "\(columns)×\(rows)" }
}

// MARK: - The ball's shape

/// The ball as terminal cells: a round disc drawn with half blocks, so each cell holds two
/// square-ish "pixels" (its top and bottom halves).
///
/// The diameter is a quarter of the terminal's width (the original: 100 of 375 points), at
/// least 6 columns, and never taller than the area above the status line.
public struct BallShape: Hashable, Sendable {
    /// One row of the disc: which column offsets (from the centre) are lit in the cell's top
    /// and bottom halves; an empty range when that half is dark.
    public struct RowSpan: Hashable, Sendable {
        /// The row offset from the centre row.
        public let rowOffset: Int
        /// Lit column offsets in the top half.
        public let top: ClosedRange<Int>?
        /// Lit column offsets in the bottom half.
        public let bottom: ClosedRange<Int>?
    }

    /// Diameter in columns (half-rows vertically).
    public let diameter: Int
    /// The disc, top row first.
    public let rows: [RowSpan]
    /// The largest column offset any row reaches.
    public let halfWidth: Int
    /// The largest row offset any row reaches.
    public let halfHeight: Int
    /// The disc as glyphs (▀ ▄ █, and spaces inside a row's span), ready to copy: the
    /// renderer's hot path.
    public let glyphRows: [GlyphRow]

    /// One row of the disc as half-block glyphs.
    public struct GlyphRow: Hashable, Sendable {
        /// The row offset from the centre row.
        public let rowOffset: Int
        /// The column offset of the first glyph.
        public let firstColumnOffset: Int
        /// The glyphs, left to right.
        public let glyphs: [Unicode.Scalar]
    }

    /// The ball for a terminal of `size`.
    public init(for size: ScreenSize) {
        let wanted = max(6, size.columns / 4)
        let tallest = max(2, 2 * (size.rows - 1) - 2)
        self.init(diameter: min(wanted, tallest))
    }

    /// A disc of `diameter`: pixel (column offset c, half-row h) is lit when its centre lies
    /// within `diameter / 2` of the centre cell's middle.
    public init(diameter: Int) {
        self.diameter = diameter
        let radius = Double(diameter) / 2
        func span(_ verticalDistance: Double) -> ClosedRange<Int>? {
            let room = radius * radius - verticalDistance * verticalDistance
            guard room >= 0 else { return nil }
            let reach = Int(room.squareRoot().rounded(.down))
            return -reach...reach
        }
        var rows: [RowSpan] = []
        let limit = diameter / 2 + 1
        for offset in -limit...limit {
            let top = span(Double(2 * offset) - 0.5)
            let bottom = span(Double(2 * offset) + 0.5)
            if top != nil || bottom != nil { rows.append(RowSpan(rowOffset: offset, top: top, bottom: bottom)) }
        }
        self.rows = rows
        halfWidth = rows.map { max($0.top?.upperBound ?? 0, $0.bottom?.upperBound ?? 0) }.max() ?? 0
        halfHeight = rows.map { abs($0.rowOffset) }.max() ?? 0
        glyphRows = rows.map { span in
            let low = min(span.top?.lowerBound ?? .max, span.bottom?.lowerBound ?? .max)
            let high = max(span.top?.upperBound ?? .min, span.bottom?.upperBound ?? .min)
            let glyphs: [Unicode.Scalar] = (low...high).map { offset in
                let top = span.top?.contains(offset) ?? false
                let bottom = span.bottom?.contains(offset) ?? false
                return top ? (bottom ? "█" : "▀") : (bottom ? "▄" : " ")
            }
            return GlyphRow(rowOffset: span.rowOffset, firstColumnOffset: low, glyphs: glyphs)
        }
    }

    /// Whether the disc centred at `centre` covers `cell` (either half).
    public func covers(_ cell: Cell, centredAt centre: Cell) -> Bool {
        let offset = cell.row - centre.row
        guard abs(offset) <= halfHeight else { return false }
        let span = rows[offset + halfHeight]
        let column = cell.column - centre.column
        return span.top?.contains(column) == true || span.bottom?.contains(column) == true
    }

    /// The centres that keep the whole disc on a screen of `size`, above the status line;
    /// nil when the screen is too small for it.
    public func allowedCentres(on size: ScreenSize) -> (columns: ClosedRange<Int>, rows: ClosedRange<Int>)? {
        let lastColumn = size.columns - 1 - halfWidth
        let lastRow = size.rows - 2 - halfHeight
        guard size.isLargeEnough, halfWidth <= lastColumn, halfHeight <= lastRow else { return nil }
        return (halfWidth...lastColumn, halfHeight...lastRow)
    }
}

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

/// A distance between two cells, in columns and rows.
public struct CellOffset: Hashable, Sendable {
    /// Columns to the right.
    public var columns: Int
    /// Rows down.
    public var rows: Int

    /// An offset from its columns and rows.
    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }
}

extension Cell {
    /// This cell moved by `offset`.
    public func offset(by offset: CellOffset) -> Cell {
        Cell(column: column + offset.columns, row: row + offset.rows)
    }
}

import ColourCore

// MARK: - Cells and sizes

/// A terminal cell: 0-based column and row.
package struct Cell: Hashable, Sendable, CustomStringConvertible {
    /// The column, 0 at the left.
    package var column: Int
    /// The row, 0 at the top.
    package var row: Int

    /// A cell from its column and row.
    package init(column: Int, row: Int) {
        self.column = column
        self.row = row
    }

    /// The cell's position in points (8 × 16 points per cell), as the colour rule takes it.
    package var points: PointPosition { PointPosition(column: column, row: row) }

    /// `41,12`.
    package var description: String { "\(column),\(row)" }
}

/// The size of a terminal in cells.
package struct ScreenSize: Hashable, Sendable, CustomStringConvertible {
    /// Width in columns.
    package var columns: Int
    /// Height in rows, the status line included.
    package var rows: Int

    /// A size from its columns and rows.
    package init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    /// The smallest terminal the ball and its status line fit in: the smallest disc (3 rows) with
    /// its ``BallShape/verticalRoom`` to move up and down in, and the status line (24×7; `learn`'s
    /// ball area at 80×24).
    package static let minimum = ScreenSize(columns: 24, rows: 3 + BallShape.verticalRoom + 1)

    /// The largest ball's area there is: a larger terminal is drawn in this much of it, and a
    /// replay file holds no larger size.
    package static let largest = ScreenSize(columns: 1_000, rows: 1_000)

    /// This size kept within 1 and ``largest`` each way: the ball's area a terminal of this
    /// size gives (a larger terminal is drawn in this much of it).
    package var fittedToLargest: ScreenSize {
        ScreenSize(
            columns: min(max(columns, 1), Self.largest.columns), rows: min(max(rows, 1), Self.largest.rows))
    }

    /// Whether the ball and the status line fit.
    package var isLargeEnough: Bool { columns >= Self.minimum.columns && rows >= Self.minimum.rows }

    /// The cell in the middle of the area above the status line.
    package var centre: Cell { Cell(column: columns / 2, row: (rows - 1) / 2) }

    /// Whether `cell` is one of this size's cells.
    package func contains(_ cell: Cell) -> Bool {
        (0..<columns).contains(cell.column) && (0..<rows).contains(cell.row)
    }

    /// The cell of this size nearest to `cell` (itself when inside); nil when there are no cells.
    package func nearestCell(to cell: Cell) -> Cell? {
        guard columns > 0, rows > 0 else { return nil }
        return Cell(column: min(max(cell.column, 0), columns - 1), row: min(max(cell.row, 0), rows - 1))
    }

    /// `80×24`.
    package var description: String { "\(columns)×\(rows)" }
}

/// A distance between two cells, in columns and rows.
package struct CellOffset: Hashable, Sendable {
    /// Columns to the right.
    package var columns: Int
    /// Rows down.
    package var rows: Int

    /// An offset from its columns and rows.
    package init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }
}

extension Cell {
    /// This cell moved by `offset`.
    package func offset(by offset: CellOffset) -> Cell {
        Cell(column: column + offset.columns, row: row + offset.rows)
    }
}

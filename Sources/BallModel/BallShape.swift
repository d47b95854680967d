// MARK: - The ball's shape

/// The ball as terminal cells: a round disc in which each cell holds two square-ish "pixels"
/// (its top and bottom halves), so a cell is twice as tall as it is wide.
///
/// The diameter is a quarter of the terminal's width (the original: 100 of 375 points), at
/// least 6 columns, and never taller than the area above the status line. This is the one
/// place the shape is computed: the step clamps with it, the renderer draws its spans.
package struct BallShape: Hashable, Sendable {
    /// Diameter in columns (half-rows vertically).
    package let diameter: Int
    /// The largest column offset any row reaches.
    package let halfWidth: Int
    /// The largest row offset any row reaches.
    package let halfHeight: Int

    /// The ball for a terminal of `size`.
    package init(for size: ScreenSize) {
        let wanted = max(6, size.columns / 4)
        let tallest = max(2, 2 * (size.rows - 1) - 2)
        self.init(diameter: min(wanted, tallest))
    }

    /// A disc of `diameter`: pixel (column offset c, half-row h) is lit when its centre lies
    /// within `diameter / 2` of the centre cell's middle.
    package init(diameter: Int) {
        self.diameter = diameter
        let radius = Double(diameter) / 2
        // The widest half-rows are the two beside the centre line, half a half-row from it; the
        // last lit row is the last whose nearer half lies within the radius (2k − ½ ≤ r).
        halfWidth = Self.reach(radius: radius, verticalDistance: 0.5) ?? 0
        halfHeight = diameter > 0 ? Int(((radius + 0.5) / 2).rounded(.down)) : 0
    }

    /// The lit column offsets of the top and bottom halves of the row `rowOffset` from the
    /// centre row (nil: that half is dark).
    package func span(rowOffset: Int) -> (top: ClosedRange<Int>?, bottom: ClosedRange<Int>?) {
        let radius = Double(diameter) / 2
        func lit(_ distance: Double) -> ClosedRange<Int>? {
            Self.reach(radius: radius, verticalDistance: distance).map { -$0...$0 }
        }
        return (lit(Double(2 * rowOffset) - 0.5), lit(Double(2 * rowOffset) + 0.5))
    }

    /// How far a half-row `verticalDistance` half-rows from the centre reaches either side;
    /// nil when it lies outside the disc.
    private static func reach(radius: Double, verticalDistance: Double) -> Int? {
        let room = radius * radius - verticalDistance * verticalDistance
        guard room >= 0 else { return nil }
        return Int(room.squareRoot().rounded(.down))
    }

    /// Whether the disc centred at `centre` covers `cell` (either half).
    package func covers(_ cell: Cell, centredAt centre: Cell) -> Bool {
        let offset = cell.row - centre.row
        guard abs(offset) <= halfHeight else { return false }
        let (top, bottom) = span(rowOffset: offset)
        let column = cell.column - centre.column
        return top?.contains(column) == true || bottom?.contains(column) == true
    }

    /// The centres that keep the whole disc on a screen of `size`, above the status line;
    /// nil when the screen is too small for it.
    package func allowedCentres(on size: ScreenSize) -> (columns: ClosedRange<Int>, rows: ClosedRange<Int>)? {
        let lastColumn = size.columns - 1 - halfWidth
        let lastRow = size.rows - 2 - halfHeight
        guard size.isLargeEnough, halfWidth <= lastColumn, halfHeight <= lastRow else { return nil }
        return (halfWidth...lastColumn, halfHeight...lastRow)
    }
}

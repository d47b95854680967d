import Platform

// MARK: - The ball's shape

/// The ball as terminal cells: a round disc in which each cell holds two square-ish "pixels"
/// (its top and bottom halves), so a cell is twice as tall as it is wide.
///
/// The diameter is a quarter of the terminal's width (the original: 100 of 375 points), at
/// least 6 columns, and never taller than the area above the status line; in a short area
/// (`learn`'s, between its card and its lanes; a short window) it leaves the ball
/// ``verticalRoom`` rows to move up and down in, down to a 6-column disc, as the colour rule is
/// as much vertical as horizontal. This is the one place the shape is computed: the step clamps
/// with it, the renderer draws its spans.
package struct BallShape: Hashable, Sendable {
    /// Diameter in columns (half-rows vertically).
    package let diameter: Int
    /// The largest column offset any row reaches.
    package let halfWidth: Int
    /// The largest row offset any row reaches.
    package let halfHeight: Int

    /// The rows a short area leaves the ball to move up and down in (its centre's rows but
    /// one), where a 6-column disc has them: three rows, 48 points of the colour rule.
    package static let verticalRoom = 3

    /// The ball for a terminal of `size`.
    package init(for size: ScreenSize) {
        let wanted = max(6, size.columns / 4)
        // The area above the status line, less a half-row each side; then less the room to move.
        let fits = max(2, 2 * (size.rows - 1) - 2)
        let tallest = min(fits, max(6, fits - 2 * Self.verticalRoom))
        self.init(diameter: min(wanted, tallest))
    }

    /// A disc of `diameter`: a pixel (a column offset c from the centre cell, a half-row at
    /// v half-rows from the centre line, v = ±½, ±1½, …; one cell wide and one half-row tall)
    /// is lit when at least half of its area lies within `diameter / 2` of the centre cell's
    /// middle. So the outline is round at every size: no lone pixel at the top and bottom
    /// where a pixel's centre only touches the circle.
    package init(diameter: Int) {
        self.diameter = diameter
        if diameter >= 0, diameter < Self.extents.count {
            (halfWidth, halfHeight) = Self.extents[diameter]
        } else {
            (halfWidth, halfHeight) = Self.extent(diameter: diameter)
        }
    }

    /// The largest column and row offsets the disc of `diameter` reaches, worked out (the
    /// shapes a terminal gives read them from ``extents``).
    package static func extent(diameter: Int) -> (halfWidth: Int, halfHeight: Int) {
        guard diameter > 0 else { return (0, 0) }
        let radius = Double(diameter) / 2
        // The widest half-rows are the two beside the centre line; the last lit row is the
        // last whose nearer half-row has its middle pixel lit (each is narrower than the one
        // before it).
        let halfWidth = reach(radius: radius, verticalDistance: 0.5) ?? 0
        var halfHeight = 0
        while reach(radius: radius, verticalDistance: Double(2 * (halfHeight + 1)) - 0.5) != nil { halfHeight += 1 }
        return (halfWidth, halfHeight)
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

    /// How far the half-row `verticalDistance` half-rows from the centre line reaches either
    /// side: the largest column offset whose pixel is at least half inside the circle (each
    /// pixel further out has less of it inside); nil when not even the middle one is.
    private static func reach(radius: Double, verticalDistance: Double) -> Int? {
        let vertical = abs(verticalDistance)
        guard radius > 0, insideShare(radius: radius, column: 0, vertical: vertical) >= 0.5 else { return nil }
        var (low, high) = (0, Int(radius.rounded(.up)) + 1)  // lit at low; not at high
        while high - low > 1 {
            let middle = (low + high) / 2
            if insideShare(radius: radius, column: middle, vertical: vertical) >= 0.5 {
                low = middle
            } else {
                high = middle
            }
        }
        return low
    }

    /// The share of the pixel at column offset `column` and half-row `vertical` (≥ ½) from the
    /// centre line that lies inside the circle of `radius`: its area inside, exactly.
    static func insideShare(radius: Double, column: Int, vertical: Double) -> Double {
        let (left, right) = (Double(column) - 0.5, Double(column) + 0.5)
        return areaUnder(vertical + 0.5, from: left, to: right, radius: radius)
            - areaUnder(vertical - 0.5, from: left, to: right, radius: radius)
    }

    /// ∫ min(s(x), `height`) dx from `left` to `right`, where s(x) = √(r² − x²) is the upper half
    /// of the circle of `radius` (0 outside it) and `height` ≥ 0: the area under both.
    private static func areaUnder(_ height: Double, from left: Double, to right: Double, radius: Double) -> Double {
        let (low, high) = (max(left, -radius), min(right, radius))
        guard low < high else { return 0 }
        // The area under the arc from 0 to x.
        func arc(_ x: Double) -> Double {
            (x * max(0, radius * radius - x * x).squareRoot() + radius * radius * asin(min(1, max(-1, x / radius)))) / 2
        }
        guard height < radius else { return arc(high) - arc(low) }
        // Under the line where the arc is above it (|x| ≤ w), under the arc outside that.
        let width = (radius * radius - height * height).squareRoot()
        var area = 0.0
        let (flatLow, flatHigh) = (max(low, -width), min(high, width))
        if flatLow < flatHigh { area += height * (flatHigh - flatLow) }
        if low < min(high, -width) { area += arc(min(high, -width)) - arc(low) }
        if max(low, width) < high { area += arc(high) - arc(max(low, width)) }
        return area
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

// MARK: - The extents, written out

extension BallShape {
    /// The largest column and row offsets of the discs of every diameter a terminal gives (up to
    /// a quarter of 1,000 columns), written out: a step asks for them, and working them out at
    /// start took 15 M instructions before the first frame. BallShapeTests checks each entry
    /// against ``extent(diameter:)``.
    package static let extents: [(halfWidth: Int, halfHeight: Int)] = [
        (0, 0), (0, 0), (0, 0), (1, 0), (1, 1), (2, 1), (2, 1), (3, 1),
        (3, 2), (4, 2), (4, 2), (5, 2), (5, 3), (6, 3), (6, 3), (7, 3),
        (7, 4), (8, 4), (8, 4), (9, 4), (9, 5), (10, 5), (10, 5), (11, 5),
        (11, 6), (12, 6), (12, 6), (13, 6), (13, 7), (14, 7), (14, 7), (15, 7),
        (15, 8), (16, 8), (16, 8), (17, 8), (17, 9), (18, 9), (18, 9), (19, 9),
        (19, 10), (20, 10), (20, 10), (21, 10), (21, 11), (22, 11), (22, 11), (23, 11),
        (23, 12), (24, 12), (24, 12), (25, 12), (25, 13), (26, 13), (26, 13), (27, 13),
        (27, 14), (28, 14), (28, 14), (29, 14), (29, 15), (30, 15), (30, 15), (31, 15),
        (31, 16), (32, 16), (32, 16), (33, 16), (33, 17), (34, 17), (34, 17), (35, 17),
        (35, 18), (36, 18), (36, 18), (37, 18), (37, 19), (38, 19), (38, 19), (39, 19),
        (39, 20), (40, 20), (40, 20), (41, 20), (41, 21), (42, 21), (42, 21), (43, 21),
        (43, 22), (44, 22), (44, 22), (45, 22), (45, 23), (46, 23), (46, 23), (47, 23),
        (47, 24), (48, 24), (48, 24), (49, 24), (49, 25), (50, 25), (50, 25), (51, 25),
        (51, 26), (52, 26), (52, 26), (53, 26), (53, 27), (54, 27), (54, 27), (55, 27),
        (55, 28), (56, 28), (56, 28), (57, 28), (57, 29), (58, 29), (58, 29), (59, 29),
        (59, 30), (60, 30), (60, 30), (61, 30), (61, 31), (62, 31), (62, 31), (63, 31),
        (63, 32), (64, 32), (64, 32), (65, 32), (65, 33), (66, 33), (66, 33), (67, 33),
        (67, 34), (68, 34), (68, 34), (69, 34), (69, 35), (70, 35), (70, 35), (71, 35),
        (71, 36), (72, 36), (72, 36), (73, 36), (73, 37), (74, 37), (74, 37), (75, 37),
        (75, 38), (76, 38), (76, 38), (77, 38), (77, 39), (78, 39), (78, 39), (79, 39),
        (79, 40), (80, 40), (80, 40), (81, 40), (81, 41), (82, 41), (82, 41), (83, 41),
        (83, 42), (84, 42), (84, 42), (85, 42), (85, 43), (86, 43), (86, 43), (87, 43),
        (87, 44), (88, 44), (88, 44), (89, 44), (89, 45), (90, 45), (90, 45), (91, 45),
        (91, 46), (92, 46), (92, 46), (93, 46), (93, 47), (94, 47), (94, 47), (95, 47),
        (95, 48), (96, 48), (96, 48), (97, 48), (97, 49), (98, 49), (98, 49), (99, 49),
        (99, 50), (100, 50), (100, 50), (101, 50), (101, 51), (102, 51), (102, 51), (103, 51),
        (103, 52), (104, 52), (104, 52), (105, 52), (105, 53), (106, 53), (106, 53), (107, 53),
        (107, 54), (108, 54), (108, 54), (109, 54), (109, 55), (110, 55), (110, 55), (111, 55),
        (111, 56), (112, 56), (112, 56), (113, 56), (113, 57), (114, 57), (114, 57), (115, 57),
        (115, 58), (116, 58), (116, 58), (117, 58), (117, 59), (118, 59), (118, 59), (119, 59),
        (119, 60), (120, 60), (120, 60), (121, 60), (121, 61), (122, 61), (122, 61), (123, 61),
        (123, 62), (124, 62), (124, 62),
    ]
}

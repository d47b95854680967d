// MARK: - The demo's position → colour rule

/// A point on the original phone screen, in points (one terminal cell is 8 × 16 points).
public struct PointPosition: Sendable, Hashable {
    /// Horizontal position in points.
    public var x: Double
    /// Vertical position in points.
    public var y: Double

    /// A position from its coordinates in points.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// Points per terminal cell horizontally.
    public static let pointsPerColumn = 8
    /// Points per terminal cell vertically.
    public static let pointsPerRow = 16

    /// The position of a cell (0-based column and row): `x = column × 8`, `y = row × 16`.
    public init(column: Int, row: Int) {
        self.init(x: Double(column * Self.pointsPerColumn), y: Double(row * Self.pointsPerRow))
    }
}

/// The colourful-ball rule: `red = ((x + y) mod 255) / 255` flattened gives the ball's
/// colour; its complement, unless it is the ball's own colour, gives the background.
///
/// The ball colour is a function of `(x + y) mod 255` only, and it changes at a handful of
/// band edges; the rule keeps one entry per unit interval of that remainder (and the exact
/// edge where an interval holds one), so a lookup costs a division and two comparisons,
/// never a 48-way search.
public enum BallColourRule {
    /// The red component the original app built for a position: `((x + y) % 255) / 255`,
    /// with the remainder taking the dividend's sign, as Swift's `truncatingRemainder` does.
    public static func red(at position: PointPosition) -> Double {
        ((position.x + position.y).truncatingRemainder(dividingBy: 255)) / 255
    }

    /// The ball's flat colour at `position` (a table lookup). Positions must be finite.
    public static func ballColour(at position: PointPosition) -> FlatColour {
        ballColour(remainder: (position.x + position.y).truncatingRemainder(dividingBy: 255))
    }

    /// The ball's flat colour by the full 48-way search: the reference the table is built from.
    public static func searchedBallColour(at position: PointPosition) -> FlatColour {
        flatten(RGBColour(red: red(at: position), green: 0, blue: 0))
    }

    /// The background after the ball takes colour `ball` on a screen coloured `current`:
    /// the ball's complement, or `current` unchanged when the complement is the ball's own colour.
    public static func background(forBall ball: FlatColour, current: FlatColour) -> FlatColour {
        let candidate = ball.complement
        return candidate == ball ? current : candidate
    }

    /// The background candidate for a ball colour, or nil when it is the ball's own colour
    /// (that is, "no change").
    public static func backgroundCandidate(forBall ball: FlatColour) -> FlatColour? {
        let candidate = ball.complement
        return candidate == ball ? nil : candidate
    }

    // MARK: - The lookup table

    /// One unit interval `[k, k + 1)` of the remainder: its colour below `edge`, and above it.
    struct Interval: Sendable {
        var below: FlatColour
        var edge: Double
        var above: FlatColour
    }

    /// Intervals for remainders from −255 up to 255, indexed by `floor(remainder) + 255`.
    static let intervals: [Interval] = (-255..<255).map { start in
        let low = Double(start)
        let high = Double(start + 1).nextDown
        let below = colourForRemainder(low)
        let above = colourForRemainder(high)
        guard below != above else { return Interval(below: below, edge: .infinity, above: below) }
        // Bisect to the first remainder that takes the upper colour.
        var (lower, upper) = (low, high)
        while lower.nextUp < upper {
            let middle = lower + (upper - lower) / 2
            if colourForRemainder(middle) == below { lower = middle } else { upper = middle }
        }
        return Interval(below: below, edge: upper, above: above)
    }

    private static func colourForRemainder(_ remainder: Double) -> FlatColour {
        flatten(RGBColour(red: remainder / 255, green: 0, blue: 0))
    }

    @inline(__always)
    static func ballColour(remainder: Double) -> FlatColour {
        let index = Int(remainder.rounded(.down)) + 255
        let interval = intervals[index]
        return remainder < interval.edge ? interval.below : interval.above
    }
}

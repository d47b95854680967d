// MARK: - The demo's position → colour rule

/// A point on the original phone screen, in points (one terminal cell is 8 × 16 points).
package struct PointPosition: Sendable, Hashable {
    /// Horizontal position in points.
    package var x: Double
    /// Vertical position in points.
    package var y: Double

    /// A position from its coordinates in points.
    package init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// Points per terminal cell horizontally.
    package static let pointsPerColumn = 8
    /// Points per terminal cell vertically.
    package static let pointsPerRow = 16

    /// The position of a cell (0-based column and row): `x = column × 8`, `y = row × 16`.
    package init(column: Int, row: Int) {
        self.init(x: Double(column) * Double(Self.pointsPerColumn), y: Double(row) * Double(Self.pointsPerRow))
    }
}

/// The colourful-ball rule: `red = ((x + y) mod 255) / 255` flattened gives the ball's
/// colour; its complement, unless it is the ball's own colour, gives the background.
///
/// The ball colour is a function of `(x + y) mod 255` only, and it changes at a handful of
/// band edges; the rule keeps one entry per unit interval of that remainder (and the exact
/// edge where an interval holds one), so a lookup costs a division and two comparisons,
/// never a 48-way search.
package enum BallColourRule {
    /// The red component the original app built for a position: `((x + y) % 255) / 255`,
    /// with the remainder taking the dividend's sign, as Swift's `truncatingRemainder` does.
    package static func red(at position: PointPosition) -> Double {
        ((position.x + position.y).truncatingRemainder(dividingBy: 255)) / 255
    }

    /// The ball's flat colour at `position` (a table lookup). Positions must be finite.
    package static func ballColour(at position: PointPosition) -> FlatColour {
        ballColour(remainder: (position.x + position.y).truncatingRemainder(dividingBy: 255))
    }

    /// The ball's flat colour by the full 48-way search: the reference the table is built from.
    package static func searchedBallColour(at position: PointPosition) -> FlatColour {
        flatten(RGBColour(red: red(at: position), green: 0, blue: 0))
    }

    /// The background after the ball takes colour `ball` on a screen coloured `current`:
    /// the ball's complement, or `current` unchanged when the complement is the ball's own colour.
    package static func background(forBall ball: FlatColour, current: FlatColour) -> FlatColour {
        let candidate = ball.complement
        return candidate == ball ? current : candidate
    }

    /// The background candidate for a ball colour, or nil when it is the ball's own colour
    /// (that is, "no change").
    package static func backgroundCandidate(forBall ball: FlatColour) -> FlatColour? {
        let candidate = ball.complement
        return candidate == ball ? nil : candidate
    }

    // MARK: - The lookup table

    /// The bands of one period: where each starts in `(x + y) mod 255`, and its colour.
    ///
    /// Computed once by ``computedBands()`` (a bisection on `Double` against the full search)
    /// and written here as exact hexadecimal literals, so start-up does no colour search; the
    /// tests recompute them and check every bit. Negative remainders (a red in (−1, 0]) all
    /// have LAB (0, 0, 0), which is flatBlackDark.
    package static let bands: [(start: Double, colour: FlatColour)] = [
        (0, .flatBlackDark),
        (0x1.39139AD910DC8p+5, .flatPlumDark),
        (0x1.CC4647AFF02C2p+5, .flatMaroonDark),
        (0x1.ED891801E79BFp+6, .flatMaroon),
        (0x1.2E2D9E200778Fp+7, .flatRedDark),
        (0x1.D4972ED8F4E5Cp+7, .flatRed),
    ]

    /// The colour of every whole-number remainder 0...254 (cells are whole points).
    private static let wholeRemainders: [FlatColour] = (0..<255).map { ballColour(remainder: Double($0)) }

    /// The ball's colour for a cell: `x + y = 8 column + 16 row` points, in whole numbers.
    package static func ballColour(column: Int, row: Int) -> FlatColour {
        let (sum, overflow) = (column &* PointPosition.pointsPerColumn).addingReportingOverflow(
            row &* PointPosition.pointsPerRow)
        guard !overflow else { return ballColour(at: PointPosition(column: column, row: row)) }
        let remainder = sum % 255
        return remainder < 0 ? .flatBlackDark : wholeRemainders[remainder]
    }

    @inline(__always)
    static func ballColour(remainder: Double) -> FlatColour {
        guard remainder >= 0 else { return .flatBlackDark }
        var colour = FlatColour.flatBlackDark
        for band in bands where remainder >= band.start { colour = band.colour }
        return colour
    }

    /// The bands as the full search gives them: each start is the first `Double` remainder
    /// whose flattened red takes the band's colour. Slow (about 1,000 searches): for tests.
    package static func computedBands() -> [(start: Double, colour: FlatColour)] {
        func colour(_ remainder: Double) -> FlatColour { flatten(RGBColour(red: remainder / 255, green: 0, blue: 0)) }
        var bands = [(start: 0.0, colour: colour(0))]
        for whole in 1..<255 {
            let high = Double(whole)
            guard colour(high) != bands.last!.colour else { continue }
            var (lower, upper) = (high - 1, high)
            while lower.nextUp < upper {
                let middle = lower + (upper - lower) / 2
                if colour(middle) == bands.last!.colour { lower = middle } else { upper = middle }
            }
            bands.append((upper, colour(upper)))
        }
        return bands
    }
}

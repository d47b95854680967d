import ColourCore
import Testing

/// The demo's rule (docs/colour-rules.md, "The demo's rule"): six ball colours per 255-point period, their backgrounds,
/// and the edges between them, checked on both sides.
@Suite("The position → colour rule")
struct ColourRuleTests {
    /// The bands of one period, in order of `(x + y) mod 255`.
    static let bands: [FlatColour] = [
        .flatBlackDark, .flatPlumDark, .flatMaroonDark, .flatMaroon, .flatRedDark, .flatRed, .flatBlackDark,
    ]

    /// Every edge in [0, 255): the first sum that takes the next band.
    static func edges() -> [(sum: Double, below: FlatColour, above: FlatColour)] {
        var edges: [(Double, FlatColour, FlatColour)] = []
        var previous = BallColourRule.searchedBallColour(at: PointPosition(x: 0, y: 0))
        var sum = 0.0
        while sum < 254.75 {
            let next = sum + 0.25
            let colour = BallColourRule.searchedBallColour(at: PointPosition(x: next, y: 0))
            if colour != previous {
                var (low, high) = (sum, next)
                while low.nextUp < high {
                    let middle = low + (high - low) / 2
                    if BallColourRule.searchedBallColour(at: PointPosition(x: middle, y: 0)) == previous {
                        low = middle
                    } else {
                        high = middle
                    }
                }
                edges.append((high, previous, colour))
                previous = colour
            }
            sum = next
        }
        return edges
    }

    @Test("one period sweeps six ball colours in order, and back to black")
    func bandsInOrder() {
        let edges = Self.edges()
        #expect([Self.bands[0]] + edges.map(\.above) == Self.bands.dropLast())
        #expect(BallColourRule.ballColour(at: PointPosition(x: 254.999, y: 0)) == .flatRed)
        #expect(BallColourRule.ballColour(at: PointPosition(x: 255, y: 0)) == .flatBlackDark)
        // Band edges fall at fractional sums.
        for edge in edges { #expect(edge.sum.rounded() != edge.sum) }
    }

    @Test("both sides of every band edge: lookup equals search")
    func bothSidesOfEveryEdge() {
        for edge in Self.edges() {
            let below = PointPosition(x: edge.sum.nextDown, y: 0)
            let above = PointPosition(x: edge.sum, y: 0)
            #expect(BallColourRule.ballColour(at: below) == edge.below)
            #expect(BallColourRule.ballColour(at: above) == edge.above)
            // The same edge one period later (where rounding may move it by an ulp) and split
            // between x and y: the lookup still agrees with the search on both sides.
            for position in [
                PointPosition(x: 255, y: edge.sum.nextDown), PointPosition(x: 255, y: edge.sum),
                PointPosition(x: 255 + edge.sum.nextDown, y: 0), PointPosition(x: 255 + edge.sum, y: 0),
                PointPosition(x: edge.sum / 2, y: edge.sum / 2),
            ] {
                #expect(BallColourRule.ballColour(at: position) == BallColourRule.searchedBallColour(at: position))
            }
        }
    }

    @Test("backgrounds: five complements, and no change on black")
    func backgrounds() {
        let expected: [FlatColour: FlatColour?] = [
            .flatBlackDark: nil, .flatPlumDark: .flatForestGreenDark, .flatMaroonDark: .flatTealDark,
            .flatMaroon: .flatTeal, .flatRedDark: .flatGray, .flatRed: .flatMint,
        ]
        for (ball, background) in expected {
            #expect(BallColourRule.backgroundCandidate(forBall: ball) == background)
        }
        #expect(BallColourRule.background(forBall: .flatBlackDark, current: .flatTeal) == .flatTeal)
        #expect(BallColourRule.background(forBall: .flatRed, current: .flatTeal) == .flatMint)
    }

    @Test("negative sums give a red in (−1, 0], which is flatBlackDark")
    func negativePositions() {
        for sum in stride(from: -1000.0, through: 0, by: 0.5) {
            let position = PointPosition(x: sum, y: 0)
            #expect(BallColourRule.red(at: position) <= 0)
            #expect(BallColourRule.red(at: position) > -1)
            #expect(BallColourRule.ballColour(at: position) == .flatBlackDark)
        }
        #expect(BallColourRule.ballColour(at: PointPosition(x: -300, y: 10)) == .flatBlackDark)
    }

    @Test("very large positions follow the same period")
    func largePositions() {
        for base in [1e6, 2.55e9, 1e15] {
            let period = (base / 255).rounded(.down) * 255
            for offset in [0.0, 30, 62, 100, 230] {
                let position = PointPosition(x: period, y: offset)
                #expect(BallColourRule.ballColour(at: position) == BallColourRule.searchedBallColour(at: position))
            }
        }
        let huge = PointPosition(x: 1e300, y: 1e300)
        #expect(BallColourRule.ballColour(at: huge) == BallColourRule.searchedBallColour(at: huge))
    }

    @Test("the lookup agrees with the full search for every value")
    func lookupAgreesWithSearch() {
        // Every eighth of a point across both signs of the remainder.
        for step in -255 * 8..<255 * 8 {
            let position = PointPosition(x: Double(step) / 8, y: 0)
            #expect(BallColourRule.ballColour(at: position) == BallColourRule.searchedBallColour(at: position))
        }
    }

    @Test("cells are 8 × 16 points")
    func cellsToPoints() {
        #expect(PointPosition(column: 41, row: 12) == PointPosition(x: 328, y: 192))
        #expect(PointPosition(column: 0, row: 0) == PointPosition(x: 0, y: 0))
    }
}

/// The tables the colour module keeps as literals, so start-up does no colour search: each is
/// recomputed here from the rules, bit for bit.
@Suite("Precomputed tables")
struct PrecomputedTableTests {
    /// A Swift literal for a band table, to paste into `BallColourRule.bands` if the rules change.
    static func literal(_ bands: [(start: Double, colour: FlatColour)]) -> String {
        bands.map { band in
            let start = band.start == 0 ? "0" : hexLiteral(band.start)
            return "(\(start), .\(band.colour.name)),"
        }.joined(separator: "\n")
    }

    static func hexLiteral(_ value: Double) -> String {
        let significand = value.significandBitPattern
        var digits = String(significand, radix: 16, uppercase: true)
        digits = String(repeating: "0", count: 13 - digits.count) + digits
        return "0x1.\(digits)p\(value.exponent >= 0 ? "+" : "")\(value.exponent)"
    }

    @Test("the band table is the full search's, bit for bit")
    func bandTable() {
        let computed = BallColourRule.computedBands()
        let stored = BallColourRule.bands
        let same =
            computed.count == stored.count
            && zip(computed, stored).allSatisfy { $0.start.bitPattern == $1.start.bitPattern && $0.colour == $1.colour }
        #expect(same, "BallColourRule.bands should be:\n\(Self.literal(computed))")
    }
}

extension ColourRuleTests {
    @Test("the cell fast path agrees with the points path for every cell, negatives included")
    func cellFastPath() {
        for column in -100...300 {
            for row in -50...100 {
                #expect(
                    BallColourRule.ballColour(column: column, row: row)
                        == BallColourRule.ballColour(at: PointPosition(column: column, row: row)))
            }
        }
        _ = BallColourRule.ballColour(column: .max / 4, row: .max / 4)  // Overflow falls back, no trap.
    }
}

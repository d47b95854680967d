import BallModel
import Testing

/// The disc's extents, written out so the first frame need not work them out, are what the
/// shape's own rule gives.
@Suite("The ball's shape")
struct BallShapeTests {
    @Test("the written-out extents are the rule's, for every diameter a terminal gives")
    func writtenExtents() {
        let largest = ScreenSize.largest.columns / 4
        #expect(BallShape.extents.count == largest + 1)
        for diameter in 0...largest {
            let worked = BallShape.extent(diameter: diameter)
            let shape = BallShape(diameter: diameter)
            #expect(
                shape.halfWidth == worked.halfWidth && shape.halfHeight == worked.halfHeight,
                "diameter \(diameter): written \(shape.halfWidth), \(shape.halfHeight); the rule gives \(worked.halfWidth), \(worked.halfHeight)"
            )
        }
    }

    @Test("each extent is the farthest lit offset of the disc's own spans")
    func extentsBoundTheSpans() {
        for diameter in [6, 7, 19, 20, 47, 250] {
            let shape = BallShape(diameter: diameter)
            let rows = (-shape.halfHeight - 1)...(shape.halfHeight + 1)
            let lit = rows.filter { row in
                let span = shape.span(rowOffset: row)
                return span.top != nil || span.bottom != nil
            }
            #expect(lit.min() == -shape.halfHeight && lit.max() == shape.halfHeight, "diameter \(diameter)")
            let widest = rows.compactMap { row -> Int? in
                let span = shape.span(rowOffset: row)
                return [span.top?.upperBound, span.bottom?.upperBound].compactMap { $0 }.max()
            }.max()
            #expect(widest == shape.halfWidth, "diameter \(diameter)")
        }
    }
}

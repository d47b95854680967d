import BallModel
import BallProgram
import BallRendering
import BallStreams
import BallTestSupport
import Testing

/// The letters the lanes draw are the book's letters in the order it gives them out, none
/// given to a value no lane draws: a learner who reads `m n p s` reads four letters in a row
/// (``MarbleValue/letters`` has no `o`, `q`, `r`: they are other marks).
@Suite("Letters are given in order, only to values drawn")
struct LetterOrderTests {
    /// Every letter the panel's lanes draw in `frame`, and the letters its values line names.
    static func letters(in frame: Frame) -> (drawn: Set<Unicode.Scalar>, named: Set<Unicode.Scalar>, rows: [String]) {
        let drawn = ValueLetterTests.Drawn(frame)
        let letters = Set(MarbleValue.letters)
        return (
            Set(drawn.lanes.values.flatMap { $0.filter(letters.contains) }), Set(drawn.named.keys), drawn.rows
        )
    }

    @Test("bursts of drags and arrows in the tour take the first letters, none skipped")
    func burstsAndGlide() throws {
        let pilot = Pilot<Learn>(first: 3)
        pilot.type("2")
        pilot.type("p")
        // A drag sent in one burst, as a terminal sends a fast one (the report's bytes).
        let first: [UInt8] =
            TerminalBytes.press(Cell(column: 40, row: 8))
            + (0...5).flatMap { TerminalBytes.drag(Cell(column: 39 - $0, row: 9 + $0)) }
            + TerminalBytes.release(Cell(column: 34, row: 14))
        pilot.input(first)
        // A second burst, pressed away from the ball.
        let second: [UInt8] =
            TerminalBytes.press(Cell(column: 25, row: 8))
            + (0...6).flatMap { TerminalBytes.drag(Cell(column: 24 - $0, row: 9 + $0)) }
            + TerminalBytes.release(Cell(column: 18, row: 15))
        pilot.input(second)
        for _ in 0..<4 { pilot.press(.up) }
        let seen = Self.letters(in: pilot.frame)
        #expect(seen.drawn.count > 14, "\(seen.rows.joined(separator: "\n"))")
        // Fewer than forty values, all on the page: the letters drawn are the first of the book's.
        #expect(
            seen.drawn == Set(MarbleValue.letters.prefix(seen.drawn.count)),
            "\(seen.rows.joined(separator: "\n"))")
        // The values line names the latest it has room for (after `…`), each one drawn.
        #expect(seen.named.count > 2 && seen.named.isSubset(of: seen.drawn), "\(seen.rows.joined(separator: "\n"))")
    }
}

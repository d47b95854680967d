import BallProgram
import BallTestSupport
import Testing

/// The tour's boxes of several pages (`?`, `m`) at 80×24: every page in the first's place.
@Suite("A box's pages, in one place")
struct BoxPageTests {
    /// The rows of the box drawn over `pilot`'s screen: from its title's row to its footer's
    /// (`space: more`), nil where either is missing.
    static func boxRows(_ pilot: Pilot<Learn>, title: String) -> ClosedRange<Int>? {
        let lines = pilot.lines
        guard let top = lines.firstIndex(where: { $0.contains(title) }),
            let bottom = lines.firstIndex(where: { $0.contains("space: more") })
        else { return nil }
        return top...bottom
    }

    @Test(
        "? and m: each page drawn where the first was, as tall, the lanes under it covered",
        arguments: [("?", "colourful-ball learn: keys"), ("m", "The lessons")])
    func pagesInOnePlace(key: Unicode.Scalar, title: String) {
        // A lesson with its lanes open, so that a short page would leave them in view.
        let pilot = Pilot<Learn>(first: LearnTests.index("flat-map"))
        pilot.type(key)
        guard let first = Self.boxRows(pilot, title: title) else {
            Issue.record("no box of pages: \(pilot.lines.joined(separator: "\n"))")
            return
        }
        // The box's left edge: two blank cells before its title.
        let titleRow = pilot.lines[first.lowerBound]
        let left = titleRow.distance(from: titleRow.startIndex, to: titleRow.range(of: title)!.lowerBound) - 2
        var pages = 1
        while !pilot.lines.joined().contains("(\(pages)/\(pages))"), pages < 10 {
            pilot.type(" ")
            pages += 1
            let shown = pilot.lines.joined(separator: "\n")
            #expect(Self.boxRows(pilot, title: title) == first, "page \(pages):\n\(shown)")
            // Each of its rows begins with the box's blank margin: no lane drawn under it shows.
            for row in first {
                let margin = pilot.lines[row].dropFirst(left).prefix(2)
                #expect(margin == "  ", "row \(row) of page \(pages):\n\(shown)")
            }
        }
        #expect(pages > 1, "\(key)'s box has one page at 80×24: nothing to check")
    }
}

import BallExport
import BallModel
import BallProgram
import BallRendering
import BallStreams
import BallTestSupport
import Foundation
import FoundationXML
import Testing

/// `replay --marbles --svg`: a late subscriber cancelled and subscribed again at one place (no
/// intent between) is two subscriptions, each drawn in a row of its own, as the live panel and
/// the text export draw them, never merged into one row's `^ⓘ!|`.
@Suite("The late rows in the SVG")
struct LateRowSVGTests {
    /// A session with the panel open: `b`, two moves, `b` `b` (cancelled and subscribed again
    /// where it ended), a move; the late Behavior rows the live panel drew as the first was
    /// cancelled and after the move (its page moves on: the new lane only), and the recording.
    static func played() throws -> (live: [String], bytes: [UInt8]) {
        let recorded = try RecordedPlay()
        let live = recorded.pilot
        func rows() -> [String] {
            live.lines.filter { $0.hasPrefix(" late Behavior") }.map(Self.marks(ofTextRow:))
        }
        live.toggleStreams()
        live.toggleLate(.behavior)
        live.press(.right)
        live.press(.right)
        live.toggleLate(.behavior)
        let cancelled = rows()
        live.toggleLate(.behavior)
        live.press(.right)
        let again = rows()
        live.type("q")
        return (cancelled + again, recorded.bytes())
    }

    /// A text row's marks, its label and lines left out: `^a─b─c!` reads `^abc!`.
    static func marks(ofTextRow row: String) -> String {
        String(row.dropFirst(StreamPanel.labelWidth).filter { $0 != "─" && $0 != " " })
    }

    /// Each `late Behavior` row of `svg`, top to bottom, as its marks read left to right: `^`,
    /// each value's letter (or a group's count), `!`, `|`.
    static func svgRows(_ svg: [UInt8]) throws -> [String] {
        let root = try #require(try XMLDocument(data: Data(svg)).rootElement())
        let rows = try root.nodes(forXPath: "//*[local-name()='g'][@data-lane='late Behavior']")
        return rows.map { row in
            let shapes = (row.children ?? []).compactMap { $0 as? XMLElement }
            let marks: [(x: Double, mark: String)] = shapes.compactMap { shape in
                let x = Double(attribute(shape.name == "line" ? "x1" : "x", of: shape) ?? "") ?? -1
                switch (shape.name, attribute("class", of: shape)) {
                case ("text", "mark"): return (x, "^")
                case ("text", "count"): return (x, String((shape.stringValue ?? "").prefix(1)))
                case ("text", "cancel"): return (x, "!")
                case ("line", "end"): return (x, "|")
                default: return nil
                }
            }
            return marks.sorted { $0.x < $1.x }.map(\.mark).joined()
        }
    }

    /// An element's attribute by name (the document's default namespace is SVG's).
    static func attribute(_ name: String, of element: XMLElement) -> String? {
        element.attributes?.first { $0.name == name }?.stringValue
    }

    @Test(
        "per intent: the cancelled lane and the one subscribed where it ended each in a row of its own, marked as the text export marks them and as the live panel drew them"
    )
    func perIntent() throws {
        let (live, bytes) = try Self.played()
        #expect(live == ["^abc!", "^cd"], "\(live)")
        var text: [String] = []
        try MarbleDiagram.run(reader: .inMemory(bytes), width: 80) { text.append($0) }
        let textRows = text.filter { $0.hasPrefix(" late Behavior") }.map(Self.marks(ofTextRow:))
        var svg: [UInt8] = []
        try MarbleSVG.run(reader: .inMemory(bytes)) { svg += $0 }
        let drawn = try Self.svgRows(svg)
        #expect(drawn == ["^abc!", "^cd|"], "\(drawn)")
        #expect(drawn == textRows, "\(text.joined(separator: "\n"))")
        // What live drew, each in a row (the quit after it completes the living one).
        #expect(live.allSatisfy { row in drawn.contains { $0.hasPrefix(row) } }, "\(live) \(drawn)")
    }

    @Test(
        "on a time axis of a frame longer than the session: both subscriptions in the one frame, each in a row of its own with its own ^"
    )
    func inOneFrame() throws {
        let (_, bytes) = try Self.played()
        var svg: [UInt8] = []
        try MarbleSVG.run(reader: .inMemory(bytes), framing: .time(microseconds: 10_000_000)) { svg += $0 }
        let drawn = try Self.svgRows(svg)
        #expect(drawn.count == 2, "\(drawn)")
        #expect(drawn.allSatisfy { $0.filter { $0 == "^" }.count == 1 }, "\(drawn)")
        #expect(drawn.first?.hasSuffix("!") == true && drawn.last?.hasSuffix("|") == true, "\(drawn)")
    }
}

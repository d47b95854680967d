import BallExport
import BallModel
import BallProgram
import BallReplay
import BallStreams
import BallTestSupport
import Foundation
import FoundationXML
import Testing

/// `replay --marbles --svg` of a recorded tour's `o`: the Publish copy's lanes, `copy.subject`,
/// `copy.ball` and `copy.screen`, drawn as the other lanes are (a line while it lives, `^`, its
/// values, `!`), checked against what the recording says `o` did and the position lane.
@Suite("The Publish copy's lanes in the SVG")
struct CopyLaneSVGTests {
    /// A tour recorded through the real loop in "Why Behavior": `o` on and off, twice between two
    /// moves, and on across the SVG's first block's end; 50 ms between keys.
    static func recordedTour() throws -> [UInt8] {
        let tour = try RecordedTour(first: Lesson.all.firstIndex { $0.id == "why-behavior" }!)
        tour.pilot.openStreams()
        var keys: [Unicode.Scalar] = ["2", "→", "o", "→", "↓", "→", "o", "→", "o", "o", "←", "→", "o"]
        for step in 0..<110 { keys.append(["←", "↓", "→", "↑"][step % 4]) }
        keys += ["o", "→", "q"]
        for key in keys {
            tour.pilot.pass(.milliseconds(50))
            switch key {
            case "→": tour.pilot.press(.right)
            case "←": tour.pilot.press(.left)
            case "↓": tour.pilot.press(.down)
            case "↑": tour.pilot.press(.up)
            default: tour.pilot.type(key)
            }
        }
        return tour.file.bytes
    }

    /// The columns each copy lived in, from the recording alone: a copy subscribed after intent
    /// `k` lives from column `k + 1` through the column after whose intent `o` bound back.
    static func copies(_ bytes: [UInt8]) throws -> (lived: [ClosedRange<Int>], subscribed: Int, unsubscribed: Int) {
        var intents = 0
        var began: Int?
        var lived: [ClosedRange<Int>] = []
        var (subscribed, unsubscribed) = (0, 0)
        let observations: Set<String> = ["subscribed", "unsubscribed", "panel", "lesson", "screen", "mapCopies"]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n").dropFirst() {
            let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let kind = try #require(event["event"] as? String)
            if kind == "screen" {
                if event["through"] as? String == "publish" {
                    began = intents + 1
                    subscribed += 1
                } else {
                    if let start = began, start <= intents { lived.append(start...intents) }
                    began = nil
                    unsubscribed += 1
                }
            } else if !observations.contains(kind) {
                intents += 1
            }
        }
        return (lived, subscribed, unsubscribed)
    }

    private func attribute(_ name: String, of element: XMLElement) -> String? {
        element.attributes?.first { $0.name == name }?.stringValue
    }

    /// The column a shape's title names (`#12 …`, after an intent's glyph).
    private func column(of element: XMLElement) -> Int? {
        guard let text = element.stringValue, let mark = text.firstIndex(of: "#") else { return nil }
        return Int(text[text.index(after: mark)...].prefix { $0.isNumber })
    }

    @Test(
        "each copy lane: ^ where o subscribed, ! where o bound back, a line between, every position sent to the copy, its colours where they changed"
    )
    func copyLanes() throws {
        let bytes = try Self.recordedTour()
        let (lived, subscribed, unsubscribed) = try Self.copies(bytes)
        #expect(subscribed == 3 && unsubscribed == 3, "\(subscribed) \(unsubscribed)")
        #expect(lived.contains { $0.lowerBound < MarbleSVG.perBlock && $0.upperBound >= MarbleSVG.perBlock })
        for framing in [MarbleFraming.perIntent, .time(microseconds: 1_000)] {
            var svg: [UInt8] = []
            try MarbleSVG.run(reader: .inMemory(bytes), framing: framing) { svg += $0 }
            let root = try #require(try XMLDocument(data: Data(svg)).rootElement())
            func elements(_ lane: String) throws -> [XMLElement] {
                let groups = try root.nodes(forXPath: "//*[local-name()='g'][@data-lane='\(lane)']")
                return groups.flatMap { ($0.children ?? []).compactMap { $0 as? XMLElement } }
            }
            // The positions the position subject published, by column (per intent) or frame.
            let positions = try elements("position").filter { $0.name == "circle" }
            let published = Dictionary(positions.compactMap { circle in column(of: circle).map { ($0, circle) } }) {
                $1
            }
            // (An intent's title follows its glyph: `→12 → arrow right 1`.)
            let intentFrames = try elements("intents").filter { attribute("class", of: $0) == "intent" }
                .compactMap { $0.stringValue.flatMap { Int($0.dropFirst().prefix { $0.isNumber }) } }
            // Column k of the recording is frame `intentFrames[k - 1]` on a time axis.
            let frame = { (column: Int) in framing == .perIntent ? column : intentFrames[column - 1] }
            let balls = try elements("ballColour").filter { attribute("class", of: $0) == "colour" }
            for stream in CopyStream.allCases {
                let lane = StreamLane.copy(stream).label
                let shapes = try elements(lane)
                #expect(
                    shapes.first.map { $0.name == "text" && $0.stringValue?.hasPrefix(lane) == true } == true,
                    "\(lane): labelled")
                let carets = shapes.filter { attribute("class", of: $0) == "mark" && $0.stringValue?.first == "^" }
                let cancels = shapes.filter { attribute("class", of: $0) == "cancel" }
                #expect(carets.count == subscribed && cancels.count == unsubscribed, "\(lane) \(framing)")
                // A line from each ^ (at its x), and to each ! (but one right after its ^, after
                // one intent: the line between them).
                let lines = shapes.filter { $0.name == "line" }
                let starts = Set(lines.compactMap { attribute("x1", of: $0) })
                let ends = Set(lines.compactMap { attribute("x2", of: $0) })
                for caret in carets {
                    #expect(starts.contains(attribute("x", of: caret) ?? "?"), "\(lane) \(framing)")
                }
                for cancel in cancels {
                    #expect(ends.contains(attribute("x", of: cancel) ?? "?"), "\(lane) \(framing)")
                }
                // The copy under way across the first block's end: a line to its right edge, and
                // from the next one's left edge.
                let edge = String(MarbleSVG.centre(of: 0) - 7)
                let right = String(MarbleSVG.centre(of: MarbleSVG.perBlock - 1) + 7)
                if framing == .perIntent {
                    #expect(starts.contains(edge) && ends.contains(right), "\(lane): \(starts) \(ends)")
                }
                // Its values: every position published while a copy lived, the same position.
                let values = shapes.filter { $0.name == "circle" || $0.name == "rect" }
                let shown = Dictionary(values.compactMap { shape in column(of: shape).map { ($0, shape) } }) { $1 }
                switch stream {
                case .subject:
                    let expected = lived.flatMap { $0.map(frame) }.filter { published[$0] != nil }
                    #expect(shown.keys.sorted() == expected.sorted(), "\(lane) \(framing)")
                    for (column, circle) in shown {
                        #expect(circle.stringValue == published[column]?.stringValue, "\(lane) #\(column)")
                    }
                case .ball:
                    // A colour where the copy's subject had a position: that position's colour
                    // (as the chain's ballColour drew it at the latest), or `·` where unchanged.
                    for (column, circle) in shown where attribute("class", of: circle) == "colour" {
                        let colour = balls.last { (self.column(of: $0) ?? .max) <= column }
                        #expect(attribute("fill", of: circle) == colour.flatMap { attribute("fill", of: $0) })
                    }
                    let subjects = try elements("copy.subject").filter { $0.name == "circle" }.compactMap(column(of:))
                    #expect(Set(shown.keys) == Set(subjects), "a colour or a · for each position: \(framing)")
                case .screen:
                    let colours = try elements("copy.ball").filter { attribute("class", of: $0) == "colour" }
                        .compactMap(column(of:))
                    #expect(!shown.isEmpty && Set(shown.keys).isSubset(of: Set(colours)), "\(framing)")
                }
            }
        }
        // A play session's picture has none.
        var play: [UInt8] = []
        try MarbleSVG.run(reader: .inMemory(StageLaneExportTests.bytes)) { play += $0 }
        #expect(!String(decoding: play, as: UTF8.self).contains("copy."))
    }
}

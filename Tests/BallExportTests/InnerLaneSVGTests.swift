import BallExport
import BallModel
import BallRendering
import BallReplay
import BallStreams
import BallTestSupport
import Foundation
import FoundationXML
import Testing

/// `replay --marbles --svg`: the lanes of flatMap's and flatMapLatest's inner subscriptions, drawn
/// as the text export draws them: a line while each lives, `^` where a press subscribed it, `!`
/// where it was disposed of, `|` where the position completed.
@Suite("The inner lanes in the SVG")
struct InnerLaneSVGTests {
    /// flatMapLatest (each release disposes of the press's inner), then flatMap put in with the
    /// button down (disposes of the live inner, subscribes a new one), whose inners live on to the
    /// quit; 140 intents, so that a lane goes on from one block into the next.
    static let recording: [UInt8] = {
        var lines = [
            #"{"format":"colourful-ball-replay","version":6,"terminal":{"columns":80,"rows":24},"colourRules":1}"#,
            #"{"t":0.1,"event":"operator","name":"flatMapLatest"}"#,
        ]
        var time = 0.1
        func event(_ body: String) {
            time += 0.1
            lines.append(#"{"t":\#(String(format: "%.1f", time)),\#(body)}"#)
        }
        var column = 40
        for press in 0..<12 {
            event(#""event":"pressed","cell":[\#(column),11]"#)
            for _ in 0..<(press % 3) {
                column += 1
                event(#""event":"dragged","cell":[\#(column),11]"#)
            }
            event(#""event":"released","cell":[\#(column),11]"#)
        }
        event(#""event":"pressed","cell":[\#(column),11]"#)
        event(#""event":"dragged","cell":[\#(column + 1),11]"#)
        event(#""event":"operator","name":"flatMap""#)
        column += 1
        while lines.count < 130 {
            event(#""event":"dragged","cell":[\#(column % 2 == 0 ? column + 1 : column - 1),11]"#)
            column = column % 2 == 0 ? column + 1 : column - 1
            if lines.count % 20 == 0 {
                event(#""event":"released","cell":[\#(column),11]"#)
                event(#""event":"pressed","cell":[\#(column),11]"#)
            }
        }
        event(#""event":"quit""#)
        return Array(lines.map { $0 + "\n" }.joined().utf8)
    }()

    /// The inner lanes' groups (`<g data-lane="inner 1">`) of an SVG block.
    static func innerLanes(of block: XMLElement) -> [XMLElement] {
        (block.children ?? []).compactMap { $0 as? XMLElement }.filter {
            $0.name == "g" && (attribute("data-lane", of: $0) ?? "").hasPrefix("inner")
        }
    }

    /// The marks `shape` of inner lane `lane` draws in the block whose first column is `first`:
    /// its `^`, `!` or `|` where it stands, and the columns its line covers (`─`).
    static func marks(of shape: XMLElement, lane: String, first: Int) -> (marks: Set<Mark>, covered: Set<Mark>) {
        // The column whose centre is `x` plus `offset`.
        func column(_ name: String, _ offset: Int) -> Int {
            first + ((Int(attribute(name, of: shape) ?? "") ?? .min) - offset - MarbleSVG.centre(of: 0)) / 14
        }
        switch (shape.name, attribute("class", of: shape)) {
        case ("text", "mark"): return ([Mark(lane: lane, glyph: "^", column: column("x", -9))], [])
        case ("text", "cancel"): return ([Mark(lane: lane, glyph: "!", column: column("x", 7))], [])
        case ("line", "end"): return ([Mark(lane: lane, glyph: "|", column: column("x1", 7))], [])
        case ("line", "lane"):
            let (from, to) = (Int(attribute("x1", of: shape)!)!, Int(attribute("x2", of: shape)!)!)
            let covered = (0..<MarbleSVG.perBlock).filter { (from...to).contains(MarbleSVG.centre(of: $0)) }
            return ([], Set(covered.map { Mark(lane: lane, glyph: "─", column: first + $0) }))
        default: return ([], [])
        }
    }

    /// A mark on a lane: its glyph and its column.
    struct Mark: Hashable, CustomStringConvertible {
        var lane: String
        var glyph: Character
        var column: Int
        var description: String { "\(lane) \(glyph) \(column)" }
    }

    /// The attribute `name` of `element` (FoundationXML finds none by name in SVG's namespace).
    static func attribute(_ name: String, of element: XMLElement) -> String? {
        element.attributes?.first { $0.name == name }?.stringValue
    }

    @Test(
        "per intent, each inner lane's ^, ! and | in the SVG are where the text export draws them, and its line covers the columns the text draws it in"
    )
    func marksAsTheText() throws {
        var svg: [UInt8] = []
        try MarbleSVG.run(reader: .inMemory(Self.recording)) { svg += $0 }
        let root = try #require(try XMLDocument(data: Data(svg)).rootElement())
        // A text block as wide as an SVG block: the same columns in each.
        let width = StreamPanel.labelWidth + 1 + 2 * MarbleSVG.perBlock
        #expect(StreamPanel.pageSize(width: width) == MarbleSVG.perBlock)
        var text: [String] = []
        try MarbleDiagram.run(reader: .inMemory(Self.recording), width: width) { text.append($0) }
        let textBlocks = text.split(separator: "", omittingEmptySubsequences: false).map(Array.init)
        let blocks = try root.nodes(forXPath: "//*[local-name()='g'][@class='block']").compactMap { $0 as? XMLElement }
        #expect(blocks.count == 2 && textBlocks.count == 2, "\(blocks.count) SVG blocks, \(textBlocks.count) text")
        var (svgMarks, textMarks): (Set<Mark>, Set<Mark>) = ([], [])
        var (svgCovered, textCovered): (Set<Mark>, Set<Mark>) = ([], [])
        for (number, (block, lines)) in zip(blocks, textBlocks).enumerated() {
            let first = number * MarbleSVG.perBlock
            for lane in Self.innerLanes(of: block) {
                let label = Self.attribute("data-lane", of: lane)!
                for shape in (lane.children ?? []).compactMap({ $0 as? XMLElement }) {
                    if Self.attribute("class", of: shape) == "mark" { #expect(shape.stringValue?.first == "^") }
                    let drawn = Self.marks(of: shape, lane: label, first: first)
                    svgMarks.formUnion(drawn.marks)
                    svgCovered.formUnion(drawn.covered)
                }
            }
            for line in lines where line.hasPrefix(" inner") {
                // The lane's own name, first in its label (`inner 1, 14`: the lane of each pipe's
                // first inner subscription, two of them on this page).
                let label = String(line.prefix(StreamPanel.labelWidth).prefix { $0 != "," })
                    .trimmingCharacters(in: .whitespaces)
                let cells = Array(line.dropFirst(StreamPanel.labelWidth))
                for (offset, cell) in cells.enumerated() where cell != " " {
                    // A column's two cells; a third mark spills into the next column's first.
                    let spilled = offset % 2 == 0 && "!|".contains(cell)
                    let at = first + offset / 2 - (spilled ? 1 : 0)
                    textCovered.insert(Mark(lane: label, glyph: "─", column: at))
                    if "^!|".contains(cell) { textMarks.insert(Mark(lane: label, glyph: cell, column: at)) }
                }
            }
        }
        #expect(textMarks.contains { $0.glyph == "^" } && textMarks.contains { $0.glyph == "!" })
        #expect(textMarks.contains { $0.glyph == "|" })
        #expect(
            svgMarks == textMarks,
            "SVG only: \(svgMarks.subtracting(textMarks)), text only: \(textMarks.subtracting(svgMarks))")
        #expect(
            svgCovered == textCovered,
            "SVG only: \(svgCovered.subtracting(textCovered).sorted { $0.column < $1.column }), text only: \(textCovered.subtracting(svgCovered).sorted { $0.column < $1.column })"
        )
    }

    /// A seeded recording of presses, drags and releases at random times, some closer than a
    /// millisecond, with flatMap or flatMapLatest in the slot (chosen again now and then, the
    /// button up or down), then a quit; its intents' times in microseconds.
    static func pressesAtRandomTimes(using generator: inout SeededGenerator) -> [UInt8] {
        var lines = [
            #"{"format":"colourful-ball-replay","version":6,"terminal":{"columns":80,"rows":24},"colourRules":1}"#
        ]
        var time = 100_000
        func event(_ body: String) {
            lines.append(#"{"t":\#(String(format: "%.6f", Double(time) / 1_000_000)),\#(body)}"#)
            // Mostly a few milliseconds apart, some within one, some after a long quiet.
            time +=
                [100 + generator.below(800), 1_000 + generator.below(30_000), 150_000][
                    generator.below(6) % 3 == 2 ? 2 : generator.below(2)]
        }
        var (column, down) = (40, false)
        for _ in 0..<(150 + generator.below(100)) {
            switch generator.below(10) {
            case 0: event(#""event":"operator","name":"\#(generator.below(2) == 0 ? "flatMap" : "flatMapLatest")""#)
            case 1...3:
                event(#""event":"\#(down ? "released" : "pressed")","cell":[\#(column),11]"#)
                down.toggle()
            default:
                column = min(70, max(10, column + generator.below(5) - 2))
                event(#""event":"\#(down ? "dragged" : "pressed")","cell":[\#(column),11]"#)
                down = true
            }
        }
        event(#""event":"quit""#)
        return Array(lines.map { $0 + "\n" }.joined().utf8)
    }

    @Test(
        "on a time axis of 1 ms, each inner lane is in every block where it lives, its line over each frame it lives in, ^ and ! in the frames of its subscription and disposal, and the last position it received in each frame, as the per-intent columns say"
    )
    func innersOnATimeAxis() throws {
        var generator = SeededGenerator()
        print("InnerLaneSVGTests.innersOnATimeAxis: \(generator)")
        for _ in 0..<4 {
            try Self.innersOnATimeAxis(of: Self.pressesAtRandomTimes(using: &generator), context: "\(generator)")
        }
    }

    @Test(
        "on a time axis of 1 ms, flatMap chosen again, a press and its release in one frame: the press's new inner lives on after the frame, its line drawn until the quit"
    )
    func innerMadeAfterADisposalInOneFrame() throws {
        let lines = [
            #"{"format":"colourful-ball-replay","version":6,"terminal":{"columns":80,"rows":24},"colourRules":1}"#,
            #"{"t":0.100000,"event":"operator","name":"flatMap"}"#,
            #"{"t":0.110000,"event":"pressed","cell":[40,11]}"#,
            #"{"t":0.120000,"event":"released","cell":[40,11]}"#,
            // In one frame: inner 1 disposed of, a new inner 1 subscribed, the release (flatMap keeps it).
            #"{"t":0.130200,"event":"operator","name":"flatMap"}"#,
            #"{"t":0.130400,"event":"pressed","cell":[42,11]}"#,
            #"{"t":0.130800,"event":"released","cell":[42,11]}"#,
            #"{"t":0.150000,"event":"pressed","cell":[43,11]}"#,
            #"{"t":0.160000,"event":"dragged","cell":[44,11]}"#,
            #"{"t":0.170000,"event":"quit"}"#,
        ]
        try Self.innersOnATimeAxis(of: Array(lines.map { $0 + "\n" }.joined().utf8), context: "a fixed recording")
    }

    /// Checks the SVG of `bytes` on a time axis of 1 ms against the columns a recorder made per
    /// intent: each inner lane's marks, line and last value in each frame; `context` names the
    /// recording in what fails.
    static func innersOnATimeAxis(of bytes: [UInt8], context: String) throws {
        let length = 1_000
        // What each inner lane did in each frame, from the columns a recorder made per intent.
        let player = try ReplayPlayer(reader: .inMemory(bytes))
        let recorder = StreamRecorder(session: player.session, capacity: 100_000)
        while try player.step() {}
        var expected: (marks: Set<Mark>, covered: Set<Mark>, values: [Mark: String]) = ([], [], [:])
        var endsIn: Set<Mark> = []
        for column in recorder.columns {
            let frame = Int((column.time ?? .start).microseconds) / length
            for lane in StreamLane.inners(in: [column]) {
                guard let marble = column.marble(lane) else { continue }
                expected.covered.insert(Mark(lane: lane.label, glyph: "─", column: frame))
                // Whether the frame's last marble of the lane ends it (a `!` then a new `^` lives on).
                switch marble {
                case .unsubscribed, .ended, .subscribed(_, _?):
                    endsIn.insert(Mark(lane: lane.label, glyph: "─", column: frame))
                default: endsIn.remove(Mark(lane: lane.label, glyph: "─", column: frame))
                }
                switch marble {
                case .subscribed(_, let ending):
                    if column.index > 0 { expected.marks.insert(Mark(lane: lane.label, glyph: "^", column: frame)) }
                    if ending == .unsubscribed {
                        expected.marks.insert(Mark(lane: lane.label, glyph: "!", column: frame))
                    }
                case .unsubscribed: expected.marks.insert(Mark(lane: lane.label, glyph: "!", column: frame))
                case .ended: expected.marks.insert(Mark(lane: lane.label, glyph: "|", column: frame))
                default: break
                }
                if case .value(.position(let position))? = column.emission(lane) {
                    expected.values[Mark(lane: lane.label, glyph: "○", column: frame)] =
                        "\(position.centre.column),\(position.centre.row)"
                }
            }
        }
        // Between two frames of a lane's, the frames it lives through.
        for mark in expected.covered {
            guard !endsIn.contains(mark),
                let next = expected.covered.filter({ $0.lane == mark.lane && $0.column > mark.column }).map(
                    \.column
                ).min()
            else { continue }
            for frame in (mark.column + 1)..<next where next - mark.column > 1 {
                expected.covered.insert(Mark(lane: mark.lane, glyph: "─", column: frame))
            }
        }
        var svg: [UInt8] = []
        try MarbleSVG.run(reader: .inMemory(bytes), framing: .time(microseconds: Int64(length))) { svg += $0 }
        let root = try #require(try XMLDocument(data: Data(svg)).rootElement())
        let blocks = try root.nodes(forXPath: "//*[local-name()='g'][@class='block']").compactMap {
            $0 as? XMLElement
        }
        var found: (marks: Set<Mark>, covered: Set<Mark>, values: [Mark: String]) = ([], [], [:])
        for (number, block) in blocks.enumerated() {
            let first = number * MarbleSVG.perBlock
            for lane in Self.innerLanes(of: block) {
                let label = Self.attribute("data-lane", of: lane)!
                let shapes = (lane.children ?? []).compactMap { $0 as? XMLElement }
                for shape in shapes {
                    let drawn = Self.marks(of: shape, lane: label, first: first)
                    found.marks.formUnion(drawn.marks)
                    found.covered.formUnion(drawn.covered)
                    switch (shape.name, Self.attribute("class", of: shape)) {
                    case ("circle", "position"):
                        // `#12 41,12 on 80×24`, its frame and its value.
                        let title = (shape.stringValue ?? "").split(separator: " ")
                        guard title.count > 1, let at = Int(title[0].dropFirst()) else { continue }
                        found.values[Mark(lane: label, glyph: "○", column: at)] = String(title[1])
                    default: break
                    }
                }
            }
        }
        // The first few of what differs (the sets hold thousands).
        func first(_ marks: Set<Mark>) -> String { "\(marks.sorted { $0.column < $1.column }.prefix(8))" }
        for (name, shown, wanted) in [
            ("marks", found.marks, expected.marks), ("lines", found.covered, expected.covered),
        ] {
            #expect(
                shown == wanted,
                "\(name): SVG only \(first(shown.subtracting(wanted))), columns only \(first(wanted.subtracting(shown))), \(context)"
            )
        }
        let differing = Set(found.values.keys).union(expected.values.keys).filter {
            found.values[$0] != expected.values[$0]
        }
        #expect(
            differing.isEmpty,
            "values: \(first(differing).prefix(400)) SVG \(differing.prefix(4).map { found.values[$0] ?? "none" }), columns \(differing.prefix(4).map { expected.values[$0] ?? "none" }), \(context)"
        )
        #expect(
            expected.marks.contains { $0.glyph == "!" } && expected.marks.contains { $0.glyph == "^" }, "\(context)"
        )
    }
}

import BallExport
import BallModel
import BallReplay
import BallStreams
import BallTestSupport
import Foundation
import Testing

/// A lane per stage of the pipe in every export: the text diagram, RxJS's and RxPY's marbles
/// (with and without `--frame 1ms`), the SVG picture; what the writer writes, the reader reads.
@Suite("A lane per stage in the exports")
struct StageLaneExportTests {
    /// `filter,debounce` chosen at 0.1 s, moves right (41, 42) 50 ms apart, a quiet 400 ms,
    /// ten cells left (32: filter stops it), a quiet, then the counter and three moves, a quit.
    static let recording = [
        #"{"format":"colourful-ball-replay","version":6,"terminal":{"columns":80,"rows":24},"colourRules":1}"#,
        #"{"t":0.1,"event":"operator","name":"filter,debounce"}"#,
        #"{"t":0.15,"event":"arrow","direction":"right","distance":1}"#,
        #"{"t":0.2,"event":"arrow","direction":"right","distance":1}"#,
        #"{"t":0.6,"event":"arrow","direction":"left","distance":10}"#,
        #"{"t":1.0,"event":"operator","name":"map,scan"}"#,
        #"{"t":1.1,"event":"arrow","direction":"right","distance":1}"#,
        #"{"t":1.2,"event":"arrow","direction":"right","distance":1}"#,
        #"{"t":1.3,"event":"arrow","direction":"right","distance":1}"#, #"{"t":1.4,"event":"quit"}"#,
    ]
    static var bytes: [UInt8] { Array(recording.map { $0 + "\n" }.joined().utf8) }

    /// The export's JSON lines of `bytes` (this recording's), by lane.
    static func lanes(
        _ syntax: MarbleSyntax, bytes: [UInt8] = bytes, framing: MarbleFraming = .perIntent
    ) throws -> [String: [String: Any]] {
        var written: [UInt8] = []
        try MarbleTestExport.run(reader: .inMemory(bytes), syntax: syntax, framing: framing) { written += $0 }
        var lanes: [String: [String: Any]] = [:]
        for line in written.split(separator: UInt8(ascii: "\n")) {
            let object = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any]
            if let object, let name = object["lane"] as? String { lanes[name] = object }
        }
        return lanes
    }

    @Test(
        "the text diagram: filter's lane over debounce's, then map's 1 1 1 over scan's 1 2 3, each part where its pipe was"
    )
    func text() throws {
        var lines: [String] = []
        try MarbleDiagram.run(reader: .inMemory(Self.bytes), width: 80) { lines.append($0) }
        // Two pipes' parts on each lane, each named in the row above: the lanes are named by
        // their place (no one stage's code is true of both parts). filter's passes 40, 41, 42 on
        // (a b c) and stops 32; debounce passes 42 on 300 ms after it came, in its column.
        #expect(lines.contains(" in the slot      ├.filte…├.map.scan"), "\(lines)")
        #expect(lines.contains(" stage 1          ├a─b─c──├1─1─1─1─|"), "\(lines)")
        #expect(lines.contains(" slotted        ^a├────c──├1─2─3─4─|"), "\(lines)")
        // One pipe after the empty slot: the stage lane is labelled with its code; the slot's
        // lane holds the empty slot's part too, so it is `slotted`.
        var counter: [String] = []
        let alone = Array(Self.recording.prefix(1)) + Self.recording.suffix(5)
        try MarbleDiagram.run(reader: .inMemory(Array(alone.map { $0 + "\n" }.joined().utf8)), width: 80) {
            counter.append($0)
        }
        #expect(counter.contains { $0.hasPrefix(" .map {_ in 1}  ") }, "\(counter)")
        #expect(counter.contains { $0.hasPrefix(" slotted  ") }, "\(counter)")
    }

    @Test(
        "RxJS's and RxPY's marbles, a frame an intent and a frame a millisecond: stage1 written with its values, its segments naming the stage of each pipe, its completion at the quit",
        arguments: [MarbleSyntax.rxjs, .rxpy])
    func marbles(syntax: MarbleSyntax) throws {
        let perIntent = try Self.lanes(syntax)
        let stage = try #require(perIntent["stage1"])
        #expect(perIntent["stage3"] == nil, "no pipe of three stages")
        // The last stage's own lane (the inner switchToLatest subscribes to): what slotted gets
        // from it, and its own end at the quit.
        let last = try #require(perIntent["stage2"])
        let lastSegments = try #require(last["segments"] as? [[String: Any]])
        #expect(lastSegments[0]["operator"] is NSNull)
        #expect(lastSegments.dropFirst().map { $0["operator"] as? String } == ["debounce", "scan"], "\(last)")
        let slotted = try #require(perIntent["slotted"]?["marbles"] as? String)
        let lastMarbles = try #require(last["marbles"] as? String)
        #expect(lastMarbles.hasSuffix("|") && slotted.hasSuffix("|"), "\(lastMarbles) \(slotted)")
        let frames = syntax.framesPerIntent
        // filter passes 40,11 (a) at the build (#1), 41 and 42 (#2, #3), nothing at #4; map a 1
        // for each of #5–#8; completed at the quit (#9).
        let dash = { (count: Int) in String(repeating: "-", count: count) }
        let expected =
            dash(frames) + "a" + dash(frames - 1) + "b" + dash(frames - 1) + "c" + dash(2 * frames - 1) + "1"
            + dash(frames - 1) + "1" + dash(frames - 1) + "1" + dash(frames - 1) + "1" + dash(frames - 1) + "|"
        #expect(stage["marbles"] as? String == expected, "\(stage)")
        let values = try #require(stage["values"] as? [String: Any])
        #expect((values["1"] as? Int) == 1 && (values["a"] as? [String: Any])?["cell"] as? [Int] == [40, 11])
        let segments = try #require(stage["segments"] as? [[String: Any]])
        #expect(segments.map { $0["frame"] as? Int } == [0, frames, 5 * frames])
        #expect(segments[0]["operator"] is NSNull)
        #expect(segments[1]["operator"] as? String == "filter")
        #expect(segments[1]["code"] as? String == ".filter { $0.isInRightHalf }")
        #expect(segments[2]["operator"] as? String == "mapToOne" && segments[2]["code"] as? String == ".map { _ in 1 }")
        // On the session's clock: each value at its own time.
        let timed = try #require(try Self.lanes(syntax, framing: .time(microseconds: 1_000))["stage1"])
        let marbles = try #require(timed["marbles"] as? String)
        if syntax == .rxpy {
            let at = marbles.enumerated().filter { $0.element != "-" }.map(\.offset)
            #expect(at == [100, 150, 200, 1_000, 1_100, 1_200, 1_300, 1_400], "\(marbles)")
        } else {
            #expect(marbles.hasPrefix(" 100ms a 49ms b 49ms c 799ms 1 99ms 1"), "\(marbles)")
        }
    }

    @Test("the SVG picture: a lane per stage, labelled with its code, the full code in its title")
    func svg() throws {
        var svg = ""
        try MarbleSVG.run(reader: .inMemory(Self.bytes)) { svg += String(decoding: $0, as: UTF8.self) }
        #expect(svg.contains(#"data-lane="stage1""#), "stage1's lane")
        // filter's part and map's on the first stage's lane, debounce's and scan's on the slot's.
        #expect(svg.contains(#"class="label">stage 1</text>"#), "the first stage's lane")
        #expect(svg.contains(#"class="label">slotted</text>"#), "the slot's")
        var timed = ""
        try MarbleSVG.run(reader: .inMemory(Self.bytes), framing: .time(microseconds: 100_000)) {
            timed += String(decoding: $0, as: UTF8.self)
        }
        #expect(timed.contains(#"data-lane="stage1""#), "stage1's lane on the session's clock")
    }
}

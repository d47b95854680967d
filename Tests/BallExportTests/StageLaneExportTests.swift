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

    /// The export's JSON lines of `bytes` for the stages' subscriptions (`stage1`, `stage2`), in
    /// the order written.
    static func stageRuns(
        _ syntax: MarbleSyntax, bytes: [UInt8] = bytes, framing: MarbleFraming = .perIntent
    ) throws -> [[String: Any]] {
        var written: [UInt8] = []
        try MarbleTestExport.run(reader: .inMemory(bytes), syntax: syntax, framing: framing) { written += $0 }
        return try written.split(separator: UInt8(ascii: "\n")).compactMap {
            try JSONSerialization.jsonObject(with: Data($0)) as? [String: Any]
        }.filter { ($0["lane"] as? String)?.hasPrefix("stage") == true }
    }

    @Test(
        "the text diagram: filter's lane over debounce's, then map's 1 1 1 over scan's 1 2 3, each part where its pipe was"
    )
    func text() throws {
        var lines: [String] = []
        try MarbleDiagram.run(reader: .inMemory(Self.bytes), width: 80) { lines.append($0) }
        // Each operator's part a row of its own, labelled with its code: filter's passes 40, 41,
        // 42 on (a b c) and stops 32; debounce passes 42 on 300 ms after it came, in its column;
        // map's row begins where its pipe went in.
        #expect(lines.contains(" in the slot      ├.filte…├.map.scan"), "\(lines)")
        #expect(lines.contains(" .filter { … }    ├a─b─c──"), "\(lines)")
        #expect(lines.contains(" .map {_ in 1}            ├1─1─1─1─|"), "\(lines)")
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
        "RxJS's and RxPY's marbles, a frame an intent and a frame a millisecond: each stage's subscription a lane of its own, named by its operator, the first pipe's cancelled where the second was built, the second's completed at the quit",
        arguments: [MarbleSyntax.rxjs, .rxpy])
    func marbles(syntax: MarbleSyntax) throws {
        let runs = try Self.stageRuns(syntax)
        let frames = syntax.framesPerIntent
        // Two pipes of two stages: four subscriptions, those that ended first (by stage), then
        // those under way as the quit completed them.
        #expect(runs.map { $0["lane"] as? String } == ["stage1", "stage2", "stage1", "stage2"], "\(runs)")
        #expect(runs.map { $0["operator"] as? String } == ["filter", "debounce", "mapToOne", "scan"])
        #expect(runs[0]["code"] as? String == ".filter { $0.isInRightHalf }")
        #expect(runs[2]["code"] as? String == ".map { _ in 1 }")
        #expect(runs.map { $0["subscribedFrame"] as? Int } == [frames, frames, 5 * frames, 5 * frames])
        // The first pipe cancelled where the second was built; the second completed at the quit (#9),
        // which ends its subscription too, as RxJS's subscription log has it (`^---|` is `^---!`).
        #expect(runs.map { $0["unsubscribedFrame"] as? Int } == [5 * frames, 5 * frames, 9 * frames, 9 * frames])
        let dash = { (count: Int) in String(repeating: "-", count: count) }
        #expect(runs[0]["subscription"] as? String == dash(frames) + "^" + dash(4 * frames - 1) + "!")
        #expect(runs[2]["subscription"] as? String == dash(5 * frames) + "^" + dash(4 * frames - 1) + "!")
        // filter passes 40,11 (a) at the build (#1), 41 and 42 (#2, #3), nothing at #4, and is
        // cancelled at #5; map passes a 1 for each of #5–#8, and completes at the quit (#9).
        let filter = try #require(runs[0]["marbles"] as? String)
        let head = dash(frames) + "a" + dash(frames - 1) + "b" + dash(frames - 1) + "c"
        #expect(filter.hasPrefix(head) && filter.dropFirst(head.count).allSatisfy { $0 == "-" }, "\(filter)")
        #expect(
            runs[2]["marbles"] as? String
                == dash(5 * frames) + "1" + dash(frames - 1) + "1" + dash(frames - 1) + "1" + dash(frames - 1) + "1"
                + dash(frames - 1) + "|", "\(runs[2])")
        let values = try #require(runs[2]["values"] as? [String: Any])
        #expect((values["1"] as? Int) == 1)
        #expect(((runs[0]["values"] as? [String: Any])?["a"] as? [String: Any])?["cell"] as? [Int] == [40, 11])
        // The last stage's own lanes: scan's ends at the quit, as slotted does.
        let slotted = try #require(try Self.lanes(syntax)["slotted"]?["marbles"] as? String)
        #expect((runs[3]["marbles"] as? String)?.hasSuffix("|") == true && slotted.hasSuffix("|"), "\(slotted)")
        // On the session's clock: each value at its own time.
        let timed = try Self.stageRuns(syntax, framing: .time(microseconds: 1_000))
        let (filtered, mapped) = try (
            #require(timed[0]["marbles"] as? String), #require(timed[2]["marbles"] as? String)
        )
        if syntax == .rxpy {
            let at = { (marbles: String) in marbles.enumerated().filter { $0.element != "-" }.map(\.offset) }
            #expect(at(filtered) == [100, 150, 200], "\(filtered)")
            #expect(at(mapped) == [1_000, 1_100, 1_200, 1_300, 1_400], "\(mapped)")
        } else {
            #expect(filtered.hasPrefix(" 100ms a 49ms b 49ms c "), "\(filtered)")
            #expect(mapped.hasPrefix(" 1000ms 1 99ms 1 99ms 1 99ms 1 99ms |"), "\(mapped)")
        }
        #expect(timed.map { $0["unsubscribedFrame"] as? Int } == [1_000, 1_000, 1_400, 1_400])
    }

    @Test(
        "RxJS's and RxPY's marbles: tryMap's lane ends with # where it threw (catch's with the fallback and |), and each pipe built after is a lane of its own, thrown at once where the ball is still in the corner",
        arguments: [MarbleSyntax.rxjs, .rxpy])
    func error(syntax: MarbleSyntax) throws {
        // tryMap,catch; left to the edge; up into the corner (it throws); built again in the
        // corner (it throws on what it is handed); recentred; built again; a quit.
        let recording = [
            #"{"format":"colourful-ball-replay","version":7,"terminal":{"columns":80,"rows":24},"colourRules":1}"#,
            #"{"t":0.1,"event":"operator","name":"tryMap,catch"}"#,
            #"{"t":0.2,"event":"arrow","direction":"left","distance":40}"#,
            #"{"t":0.3,"event":"arrow","direction":"up","distance":20}"#,
            #"{"t":0.4,"event":"operator","name":"tryMap,catch"}"#, #"{"t":0.5,"event":"recentred"}"#,
            #"{"t":0.6,"event":"operator","name":"tryMap,catch"}"#, #"{"t":0.7,"event":"quit"}"#,
        ]
        let bytes = Array(recording.map { $0 + "\n" }.joined().utf8)
        let runs = try Self.stageRuns(syntax, bytes: bytes)
        let frames = syntax.framesPerIntent
        let dash = { (count: Int) in String(repeating: "-", count: count) }
        let (group, end) = syntax == .rxjs ? ("(a|)", "|") : ("(a,|)", "|")
        #expect(
            runs.map { "\($0["lane"] as? String ?? "?") \($0["marbles"] as? String ?? "?")" } == [
                "stage1 " + dash(frames) + "a" + dash(frames - 1) + "b" + dash(frames - 1) + "#",
                "stage2 " + dash(frames) + "a" + dash(frames - 1) + "b" + dash(frames - 1) + group,
                "stage1 " + dash(4 * frames) + "#",
                "stage2 " + dash(4 * frames) + group,
                "stage1 " + dash(6 * frames) + "a" + dash(frames - 1) + end,
                "stage2 " + dash(6 * frames) + "a" + dash(frames - 1) + end,
            ], "\(runs)")
        // An error or a completion ends the subscription in its frame, as RxJS's subscription log
        // has it (`cold('-a--#')` is subscribed `^---!`): a group's frame is where it opens.
        let ends = runs.map { run in
            (run["marbles"] as? String).flatMap { marbles in
                (marbles.lastIndex(of: "(") ?? marbles.lastIndex { $0 == "#" || $0 == "|" })
                    .map { marbles.distance(from: marbles.startIndex, to: $0) }
            }
        }
        #expect(runs.map { $0["unsubscribedFrame"] as? Int } == ends, "\(runs)")
        #expect(
            runs.allSatisfy {
                ($0["subscription"] as? String).map { $0.hasSuffix("!") || $0.hasSuffix("(^!)") } == true
            },
            "\(runs)")
        #expect(runs.map { $0["operator"] as? String } == ["tryMap", "catch", "tryMap", "catch", "tryMap", "catch"])
        // At --frame 1ms, tryMap's # at the time it threw.
        let timed = try Self.stageRuns(syntax, bytes: bytes, framing: .time(microseconds: 1_000))
        let thrown = try #require(timed[0]["marbles"] as? String)
        if syntax == .rxjs {
            #expect(thrown == " 100ms a 99ms b 99ms #", "\(thrown)")
        } else {
            #expect(thrown.enumerated().filter { $0.element != "-" }.map(\.offset) == [100, 200, 300], "\(thrown)")
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

    @Test(
        "flatMap,tryMap,retry released in a corner: the text diagram and the SVG draw each subscription retry made anew on a row of its own under its stage, as the rxjs export writes a lane each"
    )
    func retried() throws {
        // As MarbleSyntaxTests' retryAtARelease: a press on the ball, its release in the corner
        // (tryMap throws at each of retry's three subscriptions), a move, a quit.
        let recording = [
            #"{"format":"colourful-ball-replay","version":7,"terminal":{"columns":80,"rows":24},"colourRules":1}"#,
            #"{"t":0.1,"event":"operator","name":"flatMap,tryMap,retry"}"#,
            #"{"t":0.2,"event":"pressed","cell":[40,11]}"#, #"{"t":0.3,"event":"released","cell":[79,23]}"#,
            #"{"t":0.4,"event":"arrow","direction":"left","distance":5}"#, #"{"t":0.5,"event":"quit"}"#,
        ]
        let bytes = Array(recording.map { $0 + "\n" }.joined().utf8)
        let runs = try Self.stageRuns(.rxjs, bytes: bytes)
        let thrown = runs.filter { $0["lane"] as? String == "stage2" }
        #expect(thrown.count == 3, "\(runs)")
        var lines: [String] = []
        try MarbleDiagram.run(reader: .inMemory(bytes), width: 80) { lines.append($0) }
        let text = lines.joined(separator: "\n")
        // Under each stage's own lane, one row a subscription retry made: flatMap's disposed of
        // by the error after it (^!), tryMap's thrown (^#), all in the release's column.
        let rows = lines.filter { $0.hasPrefix(" └ retry's ") }
        #expect(rows.count == 2 * (thrown.count - 1), "\(text)")
        #expect(rows.filter { $0.hasSuffix(" ^#") }.count == thrown.count - 1, "\(text)")
        #expect(rows.filter { $0.hasSuffix("!") && $0.contains("^") }.count == thrown.count - 1, "\(text)")
        let own = try #require(lines.first { $0.hasPrefix(" .map { … }") }, "\(text)")
        #expect(own.hasSuffix("─#") && !own.contains("^"), "\(own)")
        // Each ^ in the cell of the # that made it, never before it.
        #expect(rows.filter { $0.hasSuffix(" ^#") }.allSatisfy { $0.count == own.count + 1 }, "\(text)")
        var svg = ""
        try MarbleSVG.run(reader: .inMemory(bytes)) { svg += String(decoding: $0, as: UTF8.self) }
        for ordinal in ["2nd", "3rd"] {
            let groups = svg.components(separatedBy: #"<g class="lane" data-lane="└ retry's \#(ordinal)">"#).dropFirst()
                .map { $0.components(separatedBy: "</g>")[0] }
            #expect(groups.count == 2, "\(ordinal): \(svg)")
            #expect(groups.allSatisfy { $0.contains(#"class="mark">^<title>#3 "#) }, "\(groups)")
            #expect(groups.filter { $0.contains(#"class="error">#<title>#3 an error"#) }.count == 1, "\(groups)")
            #expect(groups.filter { $0.contains(#"class="cancel">!<title>#3 "#) }.count == 1, "\(groups)")
        }
    }
}

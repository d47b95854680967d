import BallExport
import BallModel
import BallReplay
import BallStreams
import BallTestSupport
import Foundation
import Testing

/// A timed stage's interval in every export: the text diagram, RxJS's and RxPY's marbles (with
/// and without `--frame`), the SVG picture.
@Suite("A timed stage's interval in the exports")
struct IntervalExportTests {
    /// `debounce,map` with debounce waiting 1000 ms, chosen at 0.1 s (handed 40,11), a move at
    /// 0.2 s (41,11), quiet until a quit at 1.5 s: debounce lets 41,11 through at 1.2 s.
    static let recording = [
        #"{"format":"colourful-ball-replay","version":7,"terminal":{"columns":80,"rows":24},"colourRules":1}"#,
        #"{"t":0.1,"event":"operator","name":"debounce,map","interval":1000}"#,
        #"{"t":0.2,"event":"arrow","direction":"right","distance":1}"#,
        #"{"t":1.5,"event":"quit"}"#,
    ]
    static var bytes: [UInt8] { Array(recording.map { $0 + "\n" }.joined().utf8) }
    /// Debounce's code as the chain has it, its interval in it.
    static let code = ".debounce(.milliseconds(1000), scheduler: clock)"

    @Test("the text diagram names the part .debounce(1000ms).map; the stage's label is its code, cut")
    func text() throws {
        var lines: [String] = []
        try MarbleDiagram.run(reader: .inMemory(Self.bytes), width: 80) { lines.append($0) }
        #expect(lines.contains { $0.hasPrefix(" in the slot ") && $0.contains("├.debounce(1000ms).map") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix(" .debounce(…) ") }, "\(lines)")
    }

    @Test(
        "RxJS's and RxPY's marbles: the intent, the slot's segments and the stage's lane carry the interval; at --frame 1ms the stage passes 1000 ms after the move",
        arguments: [MarbleSyntax.rxjs, .rxpy])
    func marbles(syntax: MarbleSyntax) throws {
        let perIntent = try StageLaneExportTests.lanes(syntax, bytes: Self.bytes)
        let intents = try #require(perIntent["intents"]?["values"] as? [String: Any])
        #expect(
            intents.values.contains {
                ($0 as? [String: Any])?["name"] as? String == "debounce,map"
                    && ($0 as? [String: Any])?["interval"] as? Int == 1000
            }, "\(intents)")
        let slotted = try #require(perIntent["slotted"]?["segments"] as? [[String: Any]])
        #expect(slotted.last?["operator"] as? String == "debounce,map" && slotted.last?["interval"] as? Int == 1000)
        #expect(slotted.last?["label"] as? String == ".debounce(1000ms).map")
        let stage = try #require(perIntent["stage1"])
        #expect(stage["operator"] as? String == "debounce" && stage["interval"] as? Int == 1000)
        #expect(stage["code"] as? String == Self.code)
        let timed = try #require(
            try StageLaneExportTests.lanes(syntax, bytes: Self.bytes, framing: .time(microseconds: 1_000))["stage1"])
        let marbles = try #require(timed["marbles"] as? String)
        if syntax == .rxpy {
            let at = marbles.enumerated().filter { $0.element != "-" }.map(\.offset)
            #expect(at == [1_200, 1_500], "\(marbles)")
        } else {
            #expect(marbles.hasPrefix(" 1200ms a 299ms |"), "\(marbles)")
        }
    }

    @Test(
        "the SVG picture: the stage's label with its full code, interval and all, in its title, with and without --frame"
    )
    func svg() throws {
        for framing in [MarbleFraming.perIntent, .time(microseconds: 100_000)] {
            var svg = ""
            try MarbleSVG.run(reader: .inMemory(Self.bytes), framing: framing) {
                svg += String(decoding: $0, as: UTF8.self)
            }
            #expect(svg.contains("<title>\(Self.code)</title>"), "\(framing)")
            #expect(svg.contains(#"data-segment=".debounce(1000ms).map""#), "\(framing)")
        }
    }
}

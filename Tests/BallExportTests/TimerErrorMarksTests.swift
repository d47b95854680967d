import BallExport
import BallModel
import BallPlayer
import BallProgram
import BallRendering
import BallTestSupport
import Foundation
import FoundationXML
import Testing

/// An error a timer sets off inside flatMap's pipe (`debounce` between the head and `tryMap`, the
/// ball in the corner) disposes of the head's inner subscription when the timer goes off, 100 ms
/// after the intent: the timed SVG and the player's time view put the inner's `!`, and the
/// slot's `#`, in the frame the text export gives them, the timer's, never the intent's.
@Suite("A timer's error: the inner's ! at the timer's time in every view")
struct TimerErrorMarksTests {
    /// The recordings on 80×24 (its corner: the centre at 70,17), each with when the timer goes
    /// off: flatMapLatest put in with the ball held in the corner (its inner subscribed then,
    /// 400 ms); flatMap's inner outliving the release that drops the ball in the corner (400 ms).
    /// In both the error comes at 500 ms.
    static let recordings: [(name: String, bytes: [UInt8])] = {
        let header =
            #"{"format":"colourful-ball-replay","version":7,"terminal":{"columns":80,"rows":24},"colourRules":1}"#
        let held = [
            header, #"{"t":0.1,"event":"pressed","cell":[40,11]}"#, #"{"t":0.2,"event":"dragged","cell":[70,17]}"#,
            #"{"t":0.4,"event":"operator","name":"flatMapLatest,debounce,tryMap","interval":100}"#,
            #"{"t":1.5,"event":"quit"}"#,
        ]
        let released = [
            header, #"{"t":0.1,"event":"operator","name":"flatMap,debounce,tryMap","interval":100}"#,
            #"{"t":0.2,"event":"pressed","cell":[40,11]}"#, #"{"t":0.3,"event":"dragged","cell":[60,15]}"#,
            #"{"t":0.4,"event":"released","cell":[70,17]}"#, #"{"t":1.5,"event":"quit"}"#,
        ]
        return [("flatMapLatest held", held), ("flatMap released", released)].map {
            ($0.0, Array($0.1.map { $0 + "\n" }.joined().utf8))
        }
    }()

    /// 50 ms a frame: the intent's (400 ms) and the timer's (500 ms) frames two apart.
    static let span = 50_000

    /// The frame the text export (`--marbles --frame 50ms`) ends inner 1 at.
    static func textFrame(_ bytes: [UInt8]) throws -> Int {
        var written: [UInt8] = []
        try MarbleTestExport.run(reader: .inMemory(bytes), syntax: .rxjs, framing: .time(microseconds: Int64(span))) {
            written += $0
        }
        let lanes = try written.split(separator: UInt8(ascii: "\n")).map {
            try #require(try JSONSerialization.jsonObject(with: Data($0)) as? [String: Any])
        }
        let inner = try #require(lanes.first { $0["lane"] as? String == "inner 1" }, "\(lanes)")
        return try #require(inner["unsubscribedFrame"] as? Int, "\(inner)")
    }

    /// The frames the SVG's marks of class `mark` on lane `lane` name in their titles (`#10 …`).
    static func svgFrames(_ svg: XMLElement, lane: String, mark: String) throws -> [Int] {
        try svg.nodes(forXPath: "//*[local-name()='g'][@data-lane='\(lane)']/*[@class='\(mark)']").compactMap {
            let title = ($0 as? XMLElement)?.children?.compactMap { $0 as? XMLElement }.first { $0.name == "title" }
            return title?.stringValue.flatMap { Int($0.dropFirst().prefix { $0.isNumber }) }
        }
    }

    @Test(
        "the text export ends the inner at the timer's frame (500 ms); the timed SVG draws its ! there, and the slot's #, not at the intent's (400 ms)"
    )
    func svg() throws {
        for (name, bytes) in Self.recordings {
            let frame = try Self.textFrame(bytes)
            #expect(frame == 500_000 / Self.span, "\(name): the text export")
            var written: [UInt8] = []
            try MarbleSVG.run(reader: .inMemory(bytes), framing: .time(microseconds: Int64(Self.span))) {
                written += $0
            }
            let svg = try #require(try XMLDocument(data: Data(written)).rootElement())
            #expect(try Self.svgFrames(svg, lane: "inner 1", mark: "cancel") == [frame], "\(name)")
            #expect(try Self.svgFrames(svg, lane: "slotted", mark: "error") == [frame], "\(name)")
        }
    }

    @Test(
        "the player's time view at 50 ms (End, s, T, <): the inner's ! and the #s of slotted and the colours stand in the cell of the text export's frame, the lane living up to it"
    )
    func timeView() throws {
        for (name, bytes) in Self.recordings {
            let frame = try Self.textFrame(bytes)
            let player = try Pilot<ReplayProgram>(bytes, screen: ScreenSize(columns: 80, rows: 24))
            player.run([.bytes(TerminalBytes.end)])
            if !player.player.streamsOpen { player.type("s") }
            player.type("T")
            player.type("<")
            #expect(player.player.panelAxis == PanelAxis(time: true, span: .microseconds(Self.span)))
            let rows = player.lines
            let context = "\(name)\n" + rows.joined(separator: "\n")
            // The page begins at the start: span n stands in the label's width plus n.
            let cell = StreamPanel.labelWidth + frame
            let row = { (label: String) in
                Array(rows.first { $0.hasPrefix(" \(label) ") } ?? "") + Array(repeating: " ", count: 80)
            }
            let inner = row("inner 1")
            #expect(inner[cell] == "!", "\(context)")
            // Living up to it: its line in the cell before, nothing after.
            #expect(inner[cell - 1] == "─", "\(context)")
            #expect(inner[(cell + 1)...].allSatisfy { $0 == " " }, "\(context)")
            for lane in ["slotted", "ballColour", "background"] {
                let drawn = row(lane)
                #expect(drawn[cell] == "#" && drawn[cell - 1] == "─", "\(lane)\n\(context)")
            }
        }
    }
}

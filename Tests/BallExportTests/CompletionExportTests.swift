import BallExport
import BallModel
import BallProgram
import BallRendering
import BallStreams
import BallTestSupport
import Foundation
import FoundationXML
import Testing

/// A recorded Completion lesson (``CompletionTour``) in every export: each late subscription made
/// after `e` drawn, and on a time axis (`--frame`) in the frame of its own time, the axis running
/// on to the last thing recorded: Behavior and Publish the completion alone, Replay its three
/// then the completion, the relay its value and no end (RxSwift's subjects, as RxPY's give them).
@Suite("Completion's late lanes after e in the exports")
struct CompletionExportTests {
    /// The recording's bytes, each subscription after `e` (its kind as the lanes name it, and
    /// its time), and the positions the session published, oldest first, as `x,y`.
    static func recorded() throws -> (bytes: [UInt8], after: [(lane: String, time: SessionTime)], shown: Frame) {
        let (tour, shown) = try CompletionTour.recorded()
        let events = try tour.file.lines.dropFirst().map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
        let completed = try #require(events.firstIndex { $0["event"] as? String == "completed" })
        let names = ["behavior": "late Behavior", "publish": "late Publish", "replay": "late Replay(3)"]
        let after = events[(completed + 1)...].filter { $0["event"] as? String == "subscribed" }.map { event in
            let subject = event["subject"] as? String ?? "?"
            return (lane: names[subject] ?? "late Relay", time: SessionTime(seconds: event["t"] as? Double ?? -1))
        }
        #expect(after.map(\.lane) == ["late Behavior", "late Publish", "late Replay(3)", "late Relay"], "\(after)")
        return (tour.file.bytes, after, shown)
    }

    /// The frame of `time` at 100 ms a frame.
    static func frame(_ time: SessionTime) -> Int { Int(time.microseconds / 100_000) }

    @Test(
        "--syntax rxpy --frame 100ms: each subscription after e in the frame of its own time; Behavior and Publish | there, Replay (a,b,c,|) with the last three positions, the relay its latest, never ended"
    )
    func syntaxOnATimeAxis() throws {
        let (bytes, after, _) = try Self.recorded()
        var written: [UInt8] = []
        try MarbleTestExport.run(reader: .inMemory(bytes), syntax: .rxpy, framing: .time(microseconds: 100_000)) {
            written += $0
        }
        let lanes = try written.split(separator: UInt8(ascii: "\n")).map {
            try #require(try JSONSerialization.jsonObject(with: Data($0)) as? [String: Any])
        }
        let position = try #require(lanes.first { $0["lane"] as? String == "position" })
        let positions = try #require(position["values"] as? [String: [String: Any]])
        // The positions published, by frame: the last three, and the latest.
        let published = try #require(position["marbles"] as? String).enumerated().compactMap { frame, mark in
            positions[String(mark)].map { (frame, ($0["cell"] as? [Int]) ?? []) }
        }
        #expect(published.count >= 3, "\(published)")
        for (lane, time) in after {
            let frame = Self.frame(time)
            let exported = lanes.first { $0["lane"] as? String == lane && $0["subscribedFrame"] as? Int == frame }
            let context = "\(lane) at \(time): \(lanes.filter { $0["lane"] as? String == lane })"
            let marbles = try #require(exported?["marbles"] as? String, "\(context)")
            let values = (exported?["values"] as? [String: [String: Any]]) ?? [:]
            let cells = { (letters: String) in letters.map { values[String($0)]?["cell"] as? [Int] ?? [] } }
            let quiet = String(repeating: "-", count: frame)
            switch lane {
            case "late Replay(3)":
                #expect(marbles == quiet + "(a,b,c,|)", "\(context)")
                #expect(cells("abc") == published.suffix(3).map(\.1), "\(context)")
            case "late Relay":
                #expect(marbles == quiet + "a", "\(context)")
                #expect(cells("a") == [published.last!.1], "\(context)")
                #expect(exported?["unsubscribedFrame"] is NSNull, "\(context)")
            default: #expect(marbles == quiet + "|", "\(context)")
            }
        }
    }

    /// Each `g` of `svg` whose lane is `lane`, its marks left to right: `^` (with the frame its
    /// title names), a value's letter or count, `|`, `!`.
    static func svgLanes(_ svg: [UInt8], lane: String) throws -> [[(mark: String, frame: Int?)]] {
        let root = try #require(try XMLDocument(data: Data(svg)).rootElement())
        return try root.nodes(forXPath: "//*[local-name()='g'][@data-lane='\(lane)']").map { group in
            let shapes = (group.children ?? []).compactMap { $0 as? XMLElement }
            let marks: [(x: Double, mark: String, frame: Int?)] = shapes.compactMap { shape in
                let attribute = { (name: String) in shape.attributes?.first { $0.name == name }?.stringValue }
                let x = Double(attribute(shape.name == "line" ? "x1" : "x") ?? "") ?? -1
                // A mark's title: `#61 subscribed`.
                let title = (shape.children ?? []).compactMap { $0 as? XMLElement }.first { $0.name == "title" }
                let frame = title?.stringValue.flatMap { Int($0.dropFirst().prefix { $0.isNumber }) }
                switch (shape.name, attribute("class")) {
                case ("text", "mark"): return (x, "^", frame)
                case ("text", "count"): return (x, String((shape.stringValue ?? "").prefix(1)), nil)
                case ("text", "cancel"): return (x, "!", nil)
                case ("line", "end"): return (x, "|", nil)
                default: return nil
                }
            }
            return marks.sorted { $0.x < $1.x }.map { ($0.mark, $0.frame) }
        }
    }

    @Test(
        "--svg --frame 100ms: each subscription after e drawn at its own frame, ^| ^| ^³| and the relay's ^ with its value, the blocks running on to the relay's; per intent, in e's column"
    )
    func svg() throws {
        let (bytes, after, _) = try Self.recorded()
        for framing in [MarbleFraming.time(microseconds: 100_000), .perIntent] {
            var svg: [UInt8] = []
            try MarbleSVG.run(reader: .inMemory(bytes), framing: framing) { svg += $0 }
            for (lane, time) in after {
                let groups = try Self.svgLanes(svg, lane: lane)
                let wanted: [String] =
                    switch lane {
                    case "late Replay(3)": ["^", "³", "|"]
                    case "late Relay": ["^", "c"]
                    default: ["^", "|"]
                    }
                // The subscription after e: the last `^` of its kind (per intent in e's column, 3).
                let frame = framing == .perIntent ? 3 : Self.frame(time)
                let drawn = groups.compactMap { marks -> [String]? in
                    guard let at = marks.firstIndex(where: { $0.mark == "^" && $0.frame == frame }) else { return nil }
                    return marks[at...].map(\.mark)
                }
                #expect(drawn.count == 1, "\(framing) \(lane) at frame \(frame): \(groups)")
                let marks = drawn.first ?? []
                // The relay's value is a letter of the page: the latest position's (per intent c,
                // the third published).
                #expect(marks.prefix(wanted.count).elementsEqual(wanted), "\(framing) \(lane) at \(frame): \(marks)")
                // Nothing of it after: the relay never ends, the others ended there.
                #expect(marks.count == wanted.count, "\(framing) \(lane) at \(frame): \(marks)")
            }
        }
    }

    @Test("the cast's last frame draws the late lanes after e as the tour drew them at its end")
    func cast() throws {
        let (bytes, _, shown) = try Self.recorded()
        let (width, height, events) = try TourCastTests.parse(try TourCastTests.cast(bytes))
        var terminal = TerminalEmulator(columns: width, rows: height)
        for event in events where event.code == "o" { terminal.receive(Array(event.text.utf8)) }
        let lateRows = { (rows: [String]) in
            rows.filter { $0.hasPrefix(" late ") }.map { String($0.dropFirst(StreamPanel.labelWidth)) }
                .map { String($0.reversed().drop { $0 == " " }.reversed()) }
        }
        let tour = lateRows(shown.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        #expect(tour.contains { $0.hasSuffix("^|") } && tour.contains { $0.hasSuffix("^³|") }, "\(tour)")
        #expect(lateRows(terminal.rowTexts) == tour, "\(terminal.rowTexts.joined(separator: "\n"))")
    }
}

import BallExport
import BallModel
import BallProgram
import BallRendering
import BallReplay
import BallTestSupport
import Foundation
import Testing

/// A recorded tour's lessons in every export: where each began, named `Lesson 4 · Publish`; what
/// `learn --record` writes, each export reads, with its markers at their frames and columns.
@Suite("A tour's lessons in the exports")
struct LessonMarkerExportTests {
    /// A tour recorded through the real loop, as `learn --record` records it: lesson 4 (Publish)
    /// with a guess and two moves, `N` to lesson 3 and a move, `N` to lesson 2 and two moves, a
    /// quit; 50 ms between keys, so that each event has its own millisecond.
    static func recordedTour() throws -> (bytes: [UInt8], lines: [String]) {
        let tour = try RecordedTour(first: Lesson.all.firstIndex { $0.id == "publish" }!)
        // (Each lesson's guess first: the ball moves after it.)
        for key: Unicode.Scalar in ["1", "→", "→", "N", "1", "←", "N", "2", "→", "→", "q"] {
            tour.pilot.pass(.milliseconds(50))
            switch key {
            case "→": tour.pilot.press(.right)
            case "←": tour.pilot.press(.left)
            default: tour.pilot.type(key)
            }
        }
        return (tour.file.bytes, tour.file.lines)
    }

    /// The recording's lesson markers, each with the intents before it: (intents before, time in
    /// microseconds, number, title).
    static func markers(_ lines: [String]) throws -> [(before: Int, microseconds: Int64, number: Int, title: String)] {
        var markers: [(Int, Int64, Int, String)] = []
        var intents = 0
        let observations: Set<String> = ["subscribed", "unsubscribed", "panel", "lesson", "screen", "mapCopies"]
        for line in lines.dropFirst() {
            let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let kind = try #require(event["event"] as? String)
            if kind == "lesson" {
                let time = try #require(event["t"] as? Double)
                markers.append(
                    (
                        intents, Int64((time * 1_000_000).rounded()), try #require(event["number"] as? Int),
                        try #require(event["title"] as? String)
                    ))
            } else if !observations.contains(kind) {
                intents += 1
            }
        }
        return markers
    }

    @Test(
        "--syntax rxjs and rxpy list the tour's lessons on the intents lane, each in the frame of the intent before it, or of its own time at --frame 1ms"
    )
    func syntaxes() throws {
        let tour = try Self.recordedTour()
        let markers = try Self.markers(tour.lines)
        // Three lessons, each begun after intents of the one before (a frame of its own).
        #expect(markers.map(\.number) == [4, 3, 2], "\(tour.lines)")
        #expect(markers.map(\.before) == markers.map(\.before).sorted() && Set(markers.map(\.before)).count == 3)
        let framings: [(MarbleFraming, String)] = [(.perIntent, "per intent"), (.time(microseconds: 1_000), "1ms")]
        for syntax in MarbleSyntax.allCases {
            for (framing, name) in framings {
                let lanes = try StageLaneExportTests.lanes(syntax, bytes: tour.bytes, framing: framing)
                let listed = try #require(lanes["intents"]?["lessons"] as? [[String: Any]], "\(syntax) \(name)")
                let frames = listed.map { $0["frame"] as? Int }
                let expected = markers.map { marker in
                    switch framing {
                    case .perIntent: marker.before * syntax.framesPerIntent
                    case .time(let microseconds): Int(marker.microseconds / microseconds)
                    }
                }
                #expect(frames == expected, "\(syntax) \(name): \(listed)")
                #expect(listed.map { $0["number"] as? Int } == markers.map(\.number), "\(syntax) \(name)")
                #expect(listed.map { $0["title"] as? String } == markers.map(\.title), "\(syntax) \(name)")
                #expect(
                    listed.map { $0["label"] as? String } == markers.map { "Lesson \($0.number) · \($0.title)" },
                    "\(syntax) \(name)")
                // On no other lane, and the marbles stay a marble test's.
                #expect(lanes.filter { $0.value["lessons"] != nil }.keys.sorted() == ["intents"])
            }
        }
        // A play session's export has none.
        let play = try StageLaneExportTests.lanes(.rxjs)
        #expect(play["intents"] != nil && play["intents"]?["lessons"] == nil)
    }

    @Test("--marbles heads each block with the lesson row: ├ where each lesson began, named as far as the next")
    func text() throws {
        let tour = try Self.recordedTour()
        let markers = try Self.markers(tour.lines)
        var lines: [String] = []
        try MarbleDiagram.run(reader: .inMemory(tour.bytes), width: 200) { lines.append($0) }
        let row = try #require(lines.first, "\(lines)")
        #expect(row.hasPrefix(" lesson "), "\(lines.joined(separator: "\n"))")
        #expect(lines.dropFirst().first?.hasPrefix(" streams") == true)
        // Each marker's `├` in the column of the intent before it (two cells a column).
        let cells = Array(row.unicodeScalars)
        let starts = cells.indices.filter { cells[$0] == "├" }
        #expect(starts == markers.map { StreamPanel.labelWidth + 2 * $0.before }, "\(row)")
        // The last named in full; each before it as far as the next allows (at least its number).
        #expect(row.hasSuffix("├Lesson 2 · A ghost"), "\(row)")
        for (number, start) in starts.enumerated().dropLast() {
            let name = String(String.UnicodeScalarView(cells[(start + 1)..<starts[number + 1]]))
                .trimmingCharacters(in: .whitespaces)
            #expect(
                ["Lesson \(markers[number].number) · \(markers[number].title)", "Lesson \(markers[number].number)"]
                    .contains(name) || name == "\(markers[number].number)", "\(row)")
        }
        // In narrow blocks, a block that starts inside a lesson names it from its first column.
        var narrow: [String] = []
        try MarbleDiagram.run(reader: .inMemory(tour.bytes), width: MarbleDiagram.minimumWidth + 4) {
            narrow.append($0)
        }
        let lessonRows = narrow.filter { $0.hasPrefix(" lesson ") }
        #expect(lessonRows.count > 1, "\(narrow.joined(separator: "\n"))")
        #expect(lessonRows.last?.dropFirst(StreamPanel.labelWidth).first != " ", "\(lessonRows)")
        // A play session's diagram has no such row.
        var play: [String] = []
        try MarbleDiagram.run(reader: .inMemory(StageLaneExportTests.bytes), width: 80) { play.append($0) }
        #expect(!play.contains { $0.hasPrefix(" lesson") })
    }

    @Test("--svg labels each lesson above the ruler at the column where it began, its full name in data-lesson")
    func svg() throws {
        let tour = try Self.recordedTour()
        let markers = try Self.markers(tour.lines)
        var bytes: [UInt8] = []
        try MarbleSVG.run(reader: .inMemory(tour.bytes)) { bytes += $0 }
        let svg = String(decoding: bytes, as: UTF8.self)
        // A bar at each marker's column's left edge, and its name.
        for marker in markers {
            let x = MarbleSVG.centre(of: marker.before) - 7  // (Half a column.)
            #expect(svg.contains(#"<line x1="\#(x)" "#) && svg.contains(#"x2="\#(x)""#), "\(marker)")
            #expect(svg.contains(#"data-lesson="Lesson \#(marker.number) · \#(marker.title)""#), "\(marker)")
        }
        #expect(svg.components(separatedBy: #"class="lesson-start""#).count - 1 == markers.count)
        // On a time axis, in the column of its own time.
        var timed: [UInt8] = []
        try MarbleSVG.run(reader: .inMemory(tour.bytes), framing: .time(microseconds: 100_000)) { timed += $0 }
        let picture = String(decoding: timed, as: UTF8.self)
        for marker in markers {
            let x = MarbleSVG.centre(of: Int(marker.microseconds / 100_000)) - 7
            #expect(picture.contains(#"<line x1="\#(x)" "#), "\(marker)")
        }
    }
}

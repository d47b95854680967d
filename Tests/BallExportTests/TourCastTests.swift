import BallExport
import BallModel
import BallProgram
import BallRendering
import BallReplay
import BallTestSupport
import Foundation
import Testing

/// A recorded tour's cast: what `learn --record` wrote, `replay --asciicast` makes a cast of, and
/// the cast, read back as asciicast v2 and played in a terminal emulator, shows what the tour
/// showed of it: the lesson at the top, the ball's area, the lanes.
@Suite("A recorded tour's cast")
struct TourCastTests {
    /// One event of a cast: its time, code and text.
    struct CastEvent {
        var time: Double
        var code: String
        var text: String
    }

    /// `lines` read as an asciicast v2 file: its header's width and height, and its events.
    static func parse(_ lines: [String]) throws -> (width: Int, height: Int, events: [CastEvent]) {
        let first = try #require(lines.first)
        let header = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
        #expect(header["version"] as? Int == 2)
        let events = try lines.dropFirst().map { line in
            let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any], "\(line)")
            #expect(event.count == 3, "\(line)")
            return CastEvent(
                time: try #require(event[0] as? Double), code: try #require(event[1] as? String),
                text: try #require(event[2] as? String))
        }
        return (try #require(header["width"] as? Int), try #require(header["height"] as? Int), events)
    }

    /// The cast of the recording in `bytes`, as `replay --asciicast` writes it.
    static func cast(_ bytes: [UInt8]) throws -> [String] {
        var lines: [String] = []
        try AsciicastExport.run(reader: .inMemory(bytes), lessonLanes: TourLessonLanes.recorded(number:title:)) {
            lines.append($0)
        }
        return lines
    }

    /// Rows `rows` of the tour's frame as text, each from column `from`.
    static func texts(_ frame: Frame, rows: Range<Int>, from: Int = 0) -> [String] {
        let lines = frame.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return rows.map { String(String.UnicodeScalarView(Array(lines[$0].unicodeScalars).dropFirst(from))) }
    }

    @Test(
        "the cast of a recorded tour shows each lesson's name on its top row, the ball's area and the lanes as the tour drew them, frame by frame"
    )
    func tourCast() throws {
        let tour = try RecordedTour(first: Lesson.all.firstIndex { $0.id == "why-behavior" }!)
        let pilot = tour.pilot
        // Each key at its own 50 ms, and what the tour showed after it.
        var shown: [(time: Double, frame: Frame, lesson: Int)] = []
        func act(_ key: String) {
            pilot.pass(.milliseconds(50))
            switch key {
            case "→": pilot.press(.right)
            case "←": pilot.press(.left)
            case "↓": pilot.press(.down)
            case "resize": pilot.resize(columns: 90, rows: 26)
            default: for character in key.unicodeScalars { pilot.type(character) }
            }
            shown.append((pilot.learn.play.session.now.seconds, pilot.frame, pilot.learn.lesson))
        }
        pilot.openStreams()
        // Why Behavior: a guess, a move, `o`, moves through the Publish copy, `o` again; back to
        // Publish with `N`; a resize; then the filter lesson from the lessons box, filter in the
        // slot, moves.
        for key in ["2", "→", "o", "→", "↓", "o", "→", "N", "1", "←", "resize", "→", "m10", "f2", "←", "→", "←"] {
            act(key)
        }
        let lesson = { (index: Int) in "Lesson \(index + 1) · \(Lesson.all[index].title)" }
        let (width, height, events) = try Self.parse(try Self.cast(tour.file.bytes))
        let area = ScreenSize(columns: 80, rows: Learn.layout(of: ScreenSize(columns: 80, rows: 24)).area.rows)
        #expect(width == 80 && height == AsciicastExport.tourRows(area: area), "\(width)x\(height)")
        #expect(height == 1 + area.rows + StreamPanel.tourRows)
        var terminal = TerminalEmulator(columns: width, rows: height)
        var next = events.startIndex
        var chapters: [String] = []
        for (step, live) in shown.enumerated() {
            // Everything the cast holds up to the key's time (each key has 50 ms of its own).
            // (The last event is the ending, which shows the cursor again after the last frame.)
            while next < events.endIndex - 1, events[next].time < live.time + 0.025 {
                let event = events[next]
                switch event.code {
                case "o": terminal.receive(Array(event.text.utf8))
                case "r":
                    let size = event.text.split(separator: "x").compactMap { Int($0) }
                    terminal = TerminalEmulator(columns: size[0], rows: size[1])
                case "m": if event.text.hasPrefix("Lesson ") { chapters.append(event.text) }
                default: Issue.record("an event of code \(event.code)")
                }
                next += 1
            }
            let card = Learn.layout(of: pilot.size).cardRows
            let rows = terminal.rowTexts
            let place = "step \(step):\n\(rows.joined(separator: "\n"))\n--- the tour:\n\(live.frame.text)"
            #expect(terminal.rows == live.frame.size.rows - card + 1, "\(place)")
            #expect(terminal.columns == live.frame.size.columns, "\(place)")
            // The lesson on the top row.
            #expect(rows[0].hasPrefix(" \(lesson(live.lesson))"), "\(place)")
            // The ball's area and the lanes as the tour drew them, cell for cell, but for the late
            // lanes' labels (the tour names them plainly until its question is answered) and the
            // status line (the tour's notices are no part of the recording).
            let areaAndLanes = 1..<(terminal.rows - 1)
            let tourFrame = live.frame
            var live = Self.texts(live.frame, rows: (card)..<(live.frame.size.rows - 1))
            var cast = Array(rows[areaAndLanes])
            for index in live.indices where live[index].hasPrefix(" late ") {
                live[index] = String(live[index].unicodeScalars.dropFirst(StreamPanel.labelWidth).map(Character.init))
                cast[index] = String(cast[index].unicodeScalars.dropFirst(StreamPanel.labelWidth).map(Character.init))
            }
            #expect(cast == live, "\(place)")
            // And in the tour's colours (the screen's through the Publish copy while `o` is on).
            var expected = Frame(size: ScreenSize(columns: terminal.columns, rows: terminal.rows), fill: .flatWhite)
            for row in areaAndLanes {
                for column in 0..<terminal.columns { expected[column, row] = tourFrame[column, row - 1 + card] }
            }
            let lateRows = Set(areaAndLanes.filter { rows[$0].hasPrefix(" late ") })
            let differences = terminal.differences(from: expected, colours: .direct).filter { cell in
                let at = cell.split(separator: ",").compactMap { Int($0) }
                return areaAndLanes.contains(at[1]) && !(lateRows.contains(at[1]) && at[0] < StreamPanel.labelWidth)
            }
            #expect(differences.isEmpty, "\(place)")
        }
        #expect(next == events.endIndex - 1, "only the ending after the last key")
        terminal.receive(Array(try #require(events.last).text.utf8))
        #expect(terminal.cursorVisible && terminal.penIsReset)
        #expect(terminal.problems.isEmpty, "\(terminal.problems)")
        let ids = ["why-behavior", "publish", "filter"]
        #expect(chapters == ids.map { id in lesson(Lesson.all.firstIndex { $0.id == id }!) })
    }

    @Test(
        "the cast draws lesson 1's lanes as the tour did, without background's, its late rows labelled by name alone; lesson 2's with background's"
    )
    func lessonOneCast() throws {
        let tour = try RecordedTour(first: Lesson.all.firstIndex { $0.id == "one-subject" }!)
        let pilot = tour.pilot
        // Across a colour band, then s: the lanes the tour drew at the end of lesson 1.
        let start = pilot.learn.binding.model.appearance.ball
        var moves = 0
        while pilot.learn.binding.model.appearance.ball == start, moves < 60 {
            pilot.pass(.milliseconds(50))
            pilot.press(.right)
            moves += 1
        }
        pilot.pass(.milliseconds(50))
        pilot.type("s")
        let card = Learn.layout(of: pilot.size).cardRows
        let live = Self.texts(pilot.frame, rows: card..<(pilot.frame.size.rows - 1)).filter { !$0.hasPrefix(" #") }
        #expect(
            live.contains { $0.hasPrefix(" late Replay    r: subscribe") }
                && !live.contains { $0.hasPrefix(" background") },
            "\(live.joined(separator: "\n"))")
        pilot.pass(.milliseconds(50))
        pilot.type("n")
        pilot.pass(.milliseconds(50))
        tour.pilot.type("q")
        let (width, height, events) = try Self.parse(try Self.cast(tour.file.bytes))
        // The cast up to lesson 2's first frame (its chapter follows it): lesson 1's last frame.
        var terminal = TerminalEmulator(columns: width, rows: height)
        let chapter = try #require(events.firstIndex { $0.code == "m" && $0.text.hasPrefix("Lesson 2") })
        #expect(events[chapter - 1].code == "o")
        for event in events[..<(chapter - 1)] where event.code == "o" { terminal.receive(Array(event.text.utf8)) }
        let cast = Array(terminal.rowTexts[1..<(terminal.rows - 1)]).filter { !$0.hasPrefix(" #") }
        #expect(cast == live, "the cast:\n\(cast.joined(separator: "\n"))\nthe tour:\n\(live.joined(separator: "\n"))")
        // Lesson 2 draws background's.
        for event in events[(chapter - 1)...].dropLast() where event.code == "o" {
            terminal.receive(Array(event.text.utf8))
        }
        #expect(terminal.rowTexts.contains { $0.hasPrefix(" background") }, "\(terminal.rowTexts)")
    }

    @Test(
        "a tour whose first marker comes after an intent (begun on the closing card, its marker left out): the cast grows there, an r event; with it, the cast is the tour's from the start"
    )
    func lateFirstLesson() throws {
        let tour = try RecordedTour(first: Lesson.all.count)
        for key: Unicode.Scalar in ["→", "N", "←", "q"] {
            tour.pilot.pass(.milliseconds(50))
            switch key {
            case "→": tour.pilot.press(.right)
            case "←": tour.pilot.press(.left)
            default: tour.pilot.type(key)
            }
        }
        // As recorded: the closing card's marker first, the tour's rows from the start.
        let (fullWidth, fullHeight, full) = try Self.parse(try Self.cast(tour.file.bytes))
        let closing = try #require(full.first { $0.code == "m" }, "\(full.map(\.code))")
        #expect(closing.text == "The closing card · after lesson \(Lesson.all.count)", "\(closing.text)")
        #expect(!full.contains { $0.code == "r" } && fullWidth == 80, "\(fullWidth)x\(fullHeight)")
        // Its marker left out, the first marker comes after an intent.
        var lines = String(decoding: tour.file.bytes, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false)
        let marker = try #require(lines.firstIndex { $0.contains(#""event":"lesson""#) })
        lines.remove(at: marker)
        let (width, height, events) = try Self.parse(try Self.cast(Array(lines.joined(separator: "\n").utf8)))
        let area = Learn.layout(of: ScreenSize(columns: 80, rows: 24)).area
        #expect(width == area.columns && height == area.rows, "no lesson before the first intent: \(width)x\(height)")
        let grown = try #require(events.firstIndex { $0.code == "r" }, "\(events.map(\.code))")
        #expect(events[grown].text == "80x\(AsciicastExport.tourRows(area: area))")
        #expect(events[..<grown].contains { $0.code == "o" }, "frames before it, of the area alone")
        var terminal = TerminalEmulator(columns: width, rows: height)
        for event in events[..<grown] where event.code == "o" { terminal.receive(Array(event.text.utf8)) }
        terminal = TerminalEmulator(columns: 80, rows: AsciicastExport.tourRows(area: area))
        for event in events[grown...].dropLast() where event.code == "o" { terminal.receive(Array(event.text.utf8)) }
        let last = Lesson.all.count
        let name = " Lesson \(last) · \(Lesson.all[last - 1].title)"
        #expect(terminal.rowTexts[0].hasPrefix(name), "\(terminal.rowTexts)")
        #expect(terminal.rowTexts.contains { $0.hasPrefix(" streams ") }, "\(terminal.rowTexts)")
        #expect(terminal.problems.isEmpty, "\(terminal.problems)")
    }

    @Test("the docs give a tour's cast's size as the code lays it out")
    func docsNumbers() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let replay = try String(contentsOf: root.appendingPathComponent("docs/replay.md"), encoding: .utf8)
        let format = try String(contentsOf: root.appendingPathComponent("docs/replay-format.md"), encoding: .utf8)
        let area = Learn.layout(of: ScreenSize(columns: 80, rows: 24)).area
        let rows = AsciicastExport.tourRows(area: area)
        #expect(
            replay.contains("area is \(area), so its cast is 80×\(rows)"), "docs/replay.md: \(area), cast 80×\(rows)")
        #expect(
            replay.contains("the lanes' \(StreamPanel.tourRows) rows"),
            "docs/replay.md: \(StreamPanel.tourRows) lane rows")
        #expect(
            format.replacingOccurrences(of: "\n  ", with: " ").contains("\(rows - area.rows) rows taller"),
            "docs/replay-format.md: \(rows - area.rows) rows taller")
    }

    @Test(
        "a tour that quit after e: its cast ends at the quit (format 8), the wait after the last late subscriber shown; one without the quit ends at its last line"
    )
    func castEndsAtTheQuit() throws {
        let tour = try RecordedTour(first: Lesson.all.firstIndex { $0.id == "completion" }!)
        for key: Unicode.Scalar in ["2", "e", "v"] { tour.pilot.type(key) }
        tour.pilot.pass(.milliseconds(2_500))
        tour.pilot.type("q")
        let lines = tour.file.lines
        func time(_ line: String) throws -> Double {
            try #require(Double(line.dropFirst(#"{"t":"#.count).prefix { $0 != "," }), "\(line)")
        }
        let (quit, before) = (try time(lines[lines.count - 1]), try time(lines[lines.count - 2]))
        #expect(quit - before >= 2.5, "\(lines)")
        let cast = try Self.parse(Self.cast(tour.file.bytes))
        #expect(cast.events.last.map { abs($0.time - quit) < 1e-6 } == true, "\(cast.events.suffix(2).map(\.time))")
        let cut = Array((lines.dropLast().joined(separator: "\n") + "\n").utf8)
        let shorter = try Self.parse(Self.cast(cut))
        #expect(
            shorter.events.last.map { abs($0.time - before) < 1e-6 } == true, "\(shorter.events.suffix(2).map(\.time))")
    }

    @Test(
        "the closing card is no lesson: the text diagram's lesson row and the player's steps call it the closing card, never Lesson 19"
    )
    func closingCardNamed() throws {
        // As learn --record writes it: Completion done, n to the closing card, b there.
        let last = Lesson.all.count
        let lines = [
            #"{"format":"colourful-ball-replay","version":8,"terminal":{"columns":80,"rows":7},"colourRules":1}"#,
            #"{"t":0,"event":"panel","open":true}"#,
            #"{"t":0,"event":"lesson","number":\#(last),"title":"\#(Lesson.all[last - 1].title)"}"#,
            #"{"t":0.5,"event":"arrow","direction":"right","distance":1}"#,
            #"{"t":1,"event":"completed"}"#,
            #"{"t":1.5,"event":"subscribed","subject":"relay"}"#,
            #"{"t":2,"event":"lesson","number":\#(last + 1),"title":"The closing card"}"#,
            #"{"t":2.5,"event":"subscribed","subject":"behavior"}"#,
            #"{"t":3,"event":"quit"}"#,
        ]
        let bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
        let past = "Lesson \(last + 1)"
        // At each width the marker's name is cut to: in full, in short, at its shortest.
        for width in [40, 44, 48, 56, 80] {
            var text: [String] = []
            try MarbleDiagram.run(reader: .inMemory(bytes), width: width) { text.append($0) }
            let lessons = try #require(text.first { $0.hasPrefix(" lesson ") }, "\(text.joined(separator: "\n"))")
            #expect(
                !lessons.contains(past) && (lessons.contains("losing card") || lessons.hasSuffix("├end")),
                "\(width): \(text.joined(separator: "\n"))")
        }
        // Each step of the player across it, forward and back.
        let player = try Pilot<ReplayProgram>(bytes, screen: ScreenSize(columns: 80, rows: 24))
        player.run([.bytes(TerminalBytes.home)])
        var said: [String] = []
        for direction in [Direction.right, .left] {
            for _ in 0..<6 {
                player.press(direction)
                said += [player.player.change?.words, player.player.change?.shortWords].compactMap { $0 }
            }
        }
        #expect(!said.contains { $0.contains(past) }, "\(said)")
        #expect(said.contains { $0.contains("The closing card after lesson \(last)") }, "\(said)")
        #expect(said.contains { $0.hasSuffix("before Closing card") }, "\(said)")
    }
}

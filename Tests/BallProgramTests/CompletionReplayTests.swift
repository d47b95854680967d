import BallModel
import BallPlayer
import BallProgram
import BallRendering
import BallReplay
import BallStreams
import BallTestSupport
import Foundation
import Testing
import TextFormats

/// A recorded Completion lesson in the player (``CompletionTour``): each late subscription made
/// after `e` drawn in a column of its own after `e`'s in the intent view, in the order they came
/// (a cancel's column among them), and at its own time on the time axis,
/// which runs on to the last thing recorded, as RxSwift's subjects hand it over: a
/// BehaviorSubject or PublishSubject subscribed after its completion the completion alone (`^|`),
/// a ReplaySubject its buffer then the completion (`^³|`), the relay, which never completes, its
/// value (`^c`).
@Suite("Completion's late lanes after e in the player")
struct CompletionReplayTests {
    /// What the recording says of the tour: its bytes, the time of `e`, each subscription made
    /// after it (its kind and time, in order, and how many subscriptions and cancels came after
    /// `e` up to it, itself included), the tour's quit after them (the recording's end), and the
    /// position the session ended at.
    struct Recorded {
        var bytes: [UInt8]
        var end: SessionTime
        var quit: SessionTime
        var after: [(kind: String, time: SessionTime, moment: Int)]
        var position: String
        var shown: Frame
    }

    /// The tour recorded (``CompletionTour/steps`` unless `steps` are given), and what its
    /// recording says.
    static func recorded(_ steps: [CompletionTour.Step] = CompletionTour.steps) throws -> Recorded {
        let (tour, shown) = try CompletionTour.recorded(steps)
        let events = try tour.file.lines.dropFirst().map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
        let time = { (event: [String: Any]) in SessionTime(seconds: event["t"] as? Double ?? -1) }
        let completed = try #require(events.firstIndex { $0["event"] as? String == "completed" }, "\(tour.file.lines)")
        let moments = events[(completed + 1)...].filter {
            ["subscribed", "unsubscribed"].contains($0["event"] as? String)
        }
        let after = moments.enumerated().filter { $0.element["event"] as? String == "subscribed" }.map {
            (kind: $0.element["subject"] as? String ?? "?", time: time($0.element), moment: $0.offset + 1)
        }
        let quit = try #require(events.last.map(time), "\(tour.file.lines)")
        #expect(events.last?["event"] as? String == "quit", "the tour's quit, its last line: \(tour.file.lines)")
        let index = try ReplayIndex(reader: .inMemory(tour.file.bytes))
        try index.readAll()
        let centre = index.state(at: index.count).position.centre
        return Recorded(
            bytes: tour.file.bytes, end: time(events[completed]), quit: quit, after: after,
            position: "\(centre.column),\(centre.row)", shown: shown)
    }

    /// The player of `recorded` at its end, the streams open, on the time axis when `time`.
    static func player(_ recorded: Recorded, time: Bool) throws -> Pilot<ReplayProgram> {
        let player = try Pilot<ReplayProgram>(recorded.bytes, screen: ScreenSize(columns: 80, rows: 24))
        player.run([.bytes(TerminalBytes.end)])
        if !player.player.streamsOpen { player.type("s") }
        if time { player.type("T") }
        return player
    }

    /// A lane's row from its first lane cell on, as characters (a row shorter than the page is
    /// blank to the right).
    static func cells(_ row: String) -> [Character] {
        Array(row.dropFirst(StreamPanel.labelWidth)) + Array(repeating: " ", count: 80)
    }

    /// The rows of `frame` labelled `label` (a kind's late lanes may take several).
    static func rows(_ label: String, in frame: Frame) -> [String] {
        LearnRecordingTests.rows(frame).filter { $0.hasPrefix(" \(label) ") || $0 == " \(label)" }
    }

    /// The letter the values line of `frame` gives `value` (`c` for `c=42,3`).
    static func letter(of value: String, in frame: Frame) -> Character? {
        let line = LearnRecordingTests.rows(frame).first { $0.hasPrefix(" values") } ?? ""
        return line.split(separator: " ").first { $0.hasSuffix("=\(value)") }?.first
    }

    /// What each late kind subscribed after `e` shows, by the recording's name for it.
    static let handed: [String: String] = ["behavior": "^|", "publish": "^|", "replay": "^³|"]

    /// The panel's label for a late kind, by the recording's name for it.
    static func label(_ kind: String) -> String {
        switch kind {
        case "behavior": "late Behavior"
        case "publish": "late Publish"
        case "replay": "late Replay(3)"
        default: "late Relay"
        }
    }

    @Test(
        "the time view (T) at the end: the axis runs on to the tour's quit, the recording's end; b and p after e draw ^| at their own times, r ^³| at its, v ^ and the latest position at its, no end, its line to the quit; nothing of them before"
    )
    func timeView() throws {
        let recorded = try Self.recorded()
        #expect(recorded.after.map(\.kind) == ["behavior", "publish", "replay", "relay"], "\(recorded.after)")
        let player = try Self.player(recorded, time: true)
        let frame = player.frame
        let context = LearnRecordingTests.rows(frame).joined(separator: "\n")
        let span = { (time: SessionTime) in TimeSpans.number(of: time, length: PanelAxis.defaultSpan) }
        // `e` on the intents lane, its completion after it, and nothing later: the lane has ended.
        let intents = Self.cells(try #require(Self.rows("intents", in: frame).first, "\(context)"))
        let e = try #require(intents.lastIndex(of: "e"), "\(context)")
        #expect(intents[(e + 1)...].prefix(2) == ["|", " "], "\(context)")
        let letter = try #require(Self.letter(of: recorded.position, in: frame), "\(context)")
        // The quit's span: the axis's last, on this page or past its end (the page is the one of
        // the last subscription).
        let quit = e + span(recorded.quit) - span(recorded.end)
        #expect(quit > e + span(recorded.after.last!.time) - span(recorded.end), "the quit after the last v")
        let drawnTo = min(quit, StreamPanel.pageSize(width: 80, time: true) - 1)
        for (kind, time, _) in recorded.after {
            // The span of its own time, `^` in the cell before (the lane is blank before).
            let at = e + span(time) - span(recorded.end)
            let drawn = Self.handed[kind] ?? "^\(letter)"
            let rows = Self.rows(Self.label(kind), in: frame).map(Self.cells)
            let row = rows.first { String($0[(at - 1)...].prefix(drawn.count)) == drawn }
            #expect(row != nil, "\(kind) at \(time): \(drawn) at cell \(at - 1)\n\(context)")
            #expect(row?[..<(at - 1)].allSatisfy { $0 == " " } == true, "\(kind): blank before\n\(context)")
            // The relay never ends: its line runs on to the quit, the recording's end; the rest
            // ended as they subscribed.
            let after = row.map { Array($0[(at - 1 + drawn.count)...]) } ?? []
            let line = kind == "relay" ? drawnTo - (at - 1 + drawn.count) + 1 : 0
            #expect(
                after.prefix(line).allSatisfy { $0 == "─" } && after.dropFirst(line).allSatisfy { $0 == " " },
                "\(kind): \(line) cells of line after\n\(context)")
        }
        // The axis ends with the quit's span: nothing of the lanes after it.
        #expect(
            LearnRecordingTests.rows(frame).allSatisfy { row in
                !row.hasPrefix(" late ") && !row.hasPrefix(" intents")
                    || Self.cells(row)[(drawnTo + 1)...].allSatisfy { $0 == " " }
            }, "\(context)")
    }

    @Test(
        "the time view (T) at the end, r pressed last and long after e: the page keeps the cell after r's span, so its ^³| is whole (never ^», its | cut off); the status line's t is the tour's quit's, the recording's end, as the cast ends there"
    )
    func timeViewEndsWhole() throws {
        // Up to e as the tour goes, then b, p and v (which cancels the relay), a long wait, r:
        // the page turns to r's span.
        let before = Array(CompletionTour.steps.prefix { $0 != .key("e") })
        let recorded = try Self.recorded(
            before + [.key("e"), .key("b"), .key("p"), .key("v"), .wait(.seconds(15)), .key("r")])
        let last = try #require(recorded.after.last, "\(recorded.after)")
        #expect(last.kind == "replay" && recorded.after.count == 3, "\(recorded.after)")
        let player = try Self.player(recorded, time: true)
        let rows = LearnRecordingTests.rows(player.frame)
        let context = rows.joined(separator: "\n")
        let replay = Self.rows(Self.label("replay"), in: player.frame).map { String(Self.cells($0)) }
        #expect(replay.contains { $0.contains("^³|") }, "\(context)")
        // Each late lane whole to its end: no group mark stands for a cut-off end.
        #expect(!rows.contains { $0.hasPrefix(" late ") && $0.contains("»") }, "\(context)")
        // The status line's time is the quit's, after r: the recording's end.
        #expect(recorded.quit > last.time, "\(recorded.quit) after r")
        let status = try #require(rows.last, "\(context)")
        let shown = "t \(recorded.quit.seconds.decimals(2)) s"
        #expect(status.contains(shown), "\(shown) in \(status)\n\(context)")
        // The page's time: pointed at, r's span is named by the times it covers (the tour's rows
        // leave the axis out).
        let row = try #require(rows.lastIndex { $0.contains("^³|") }, "\(context)")
        let cell = try #require(Array(rows[row]).firstIndex(of: "³"), "\(context)")
        player.run([.bytes(TerminalBytes.move(Cell(column: cell, row: row)))])
        let span = TimeSpans.number(of: last.time, length: PanelAxis.defaultSpan)
        let words =
            StreamPanel.secondsWords(.milliseconds(100 * span)) + "–"
            + StreamPanel.secondsWords(.milliseconds(100 * (span + 1)))
        let pointed = LearnRecordingTests.rows(player.frame).joined(separator: "\n")
        #expect(pointed.contains(words), "\(words)\n\(pointed)")
    }

    @Test(
        "the intent view at the end: each late subscription after e in a column of its own after e's, in the order they came, ^| ^| ^³| and the relay's ^ with the latest position, as the tour drew them"
    )
    func intentView() throws {
        let recorded = try Self.recorded()
        let player = try Self.player(recorded, time: false)
        let frame = player.frame
        let context = LearnRecordingTests.rows(frame).joined(separator: "\n")
        let intents = Self.cells(try #require(Self.rows("intents", in: frame).first, "\(context)"))
        // e's column: two cells, `─e`; after it a column each subscription or cancel.
        let ended = try #require(intents.lastIndex(of: "e"), "\(context)") - 1
        let letter = try #require(Self.letter(of: recorded.position, in: frame), "\(context)")
        for (kind, _, moment) in recorded.after {
            let column = ended + 2 * moment
            let drawn = Self.handed[kind] ?? "^\(letter)"
            let rows = Self.rows(Self.label(kind), in: frame).map(Self.cells)
            let row = rows.first { String($0[column...].prefix(drawn.count)) == drawn }
            #expect(row != nil, "\(kind): \(drawn) at cell \(column)\n\(context)")
            #expect(row?[..<column].allSatisfy { $0 == " " } == true, "\(kind): blank before\n\(context)")
        }
        // The tour's own late rows at its end, drawn alike (a row the tour kept idle aside).
        let live = LearnRecordingTests.lateRows(recorded.shown).filter { !$0.contains(": subscribe") }
        for row in live where row.contains("^|") || row.contains("^³|") {
            #expect(LearnRecordingTests.lateRows(frame).contains(row), "the tour's \(row)\n\(context)")
        }
    }
}

import BallModel
import BallPlayer
import BallProgram
import BallReplay
import BallStreams
import BallTestSupport
import Testing

/// `learn --record`: a tour's recording holds what the tour showed, and replays whole.
@Suite("A recorded tour replays whole")
struct LearnRecordingTests {
    /// A tour driven through the real loop, recorded as `learn --record` records it.
    final class RecordedTour {
        let pilot: Pilot<Learn>
        let file = MemoryLines()
        let recorder: ReplayRecorder

        init(first: Int) throws {
            pilot = Pilot<Learn>(first: first)
            recorder = try ReplayRecorder(
                session: pilot.learn.play.session, observations: pilot.learn.play.streams.observations, writer: file,
                program: "test", started: "2026-11-28T00:00:00Z")
            pilot.learn.recordingStarted()
        }
    }

    /// The late lanes as the panel draws them: kind, first column, what each was handed, where
    /// it ended.
    static func drawn(_ lanes: [LateLane]) -> [String] {
        lanes.map { "\($0.kind) from \($0.start) handed \($0.handed) to \($0.end.map { "\($0.column)" } ?? "now")" }
            .sorted()
    }

    @Test(
        "e is recorded as completed (format 5), and the player draws it e, not a quit; a version 4 file's quit before late subscribers reads as it did"
    )
    func completion() throws {
        let tour = try RecordedTour(first: LearnTests.index("completion"))
        for key: Unicode.Scalar in ["e", "b", "v", "q"] { tour.pilot.type(key) }
        let lines = tour.file.lines
        #expect(lines.first?.contains(#""version":5"#) == true)
        #expect(lines.contains { $0.hasSuffix(#""event":"completed"}"#) } && !lines.contains { $0.contains("quit") })
        // The late subscribers after it are observations, read and drawn.
        let index = try ReplayIndex(reader: .inMemory(tour.file.bytes))
        try index.readAll()
        #expect(index.readingStopped == nil && index.count == 1 && index.observations.count >= 4, "\(lines)")
        let player = try Pilot<ReplayProgram>(tour.file.bytes, screen: ScreenSize(columns: 80, rows: 24))
        player.run([.bytes(TerminalBytes.end)])
        #expect(
            player.lines.contains { $0.contains("e position completed") }, "\(player.lines.joined(separator: "\n"))")
        #expect(!player.lines.contains { $0.contains("q quit ·") || $0.contains(": quit") })

        // Version 4 wrote e as a quit; such a file reads as it did: the quit, then the late lanes.
        let older = [
            #"{"format":"colourful-ball-replay","version":4,"terminal":{"columns":80,"rows":8},"colourRules":1}"#,
            #"{"t":0,"event":"panel","open":true}"#, #"{"t":0,"event":"lesson","number":15,"title":"Completion"}"#,
            #"{"t":1,"event":"quit"}"#, #"{"t":1.5,"event":"subscribed","subject":"behavior"}"#,
            #"{"t":2,"event":"subscribed","subject":"relay"}"#,
        ]
        let read = try ReplayIndex(reader: .inMemory(Array((older.joined(separator: "\n") + "\n").utf8)))
        try read.readAll()
        #expect(read.readingStopped == nil && read.count == 1 && read.observations.count == 4)
        #expect(read.state(at: 1).position == read.state(at: 0).position)
        // A completed in a version 4 file is the writer's mistake, said in one sentence.
        let mislabelled = older.prefix(3) + [#"{"t":1,"event":"completed"}"#]
        let refused = try ReplayIndex(reader: .inMemory(Array((mislabelled.joined(separator: "\n") + "\n").utf8)))
        let error = #expect(throws: ReplayError.self) { try refused.readAll() }
        #expect(
            error?.description
                == "session.jsonl, line 4: a completed event needs format version 5, but the header says version 4.")
    }

    @Test(
        "in the player a place is labelled with the lesson its intent was made in, not the one begun after it"
    )
    func lessonOfAPlace() throws {
        let tour = try RecordedTour(first: LearnTests.index("ghost"))
        tour.pilot.press(.right)  // Intent 1, in lesson 2.
        for key: Unicode.Scalar in ["m", "3"] { tour.pilot.type(key) }  // Lesson 3 begins after it.
        tour.pilot.press(.left)  // Intent 2, in lesson 3.
        tour.pilot.type("q")
        let player = try Pilot<ReplayProgram>(tour.file.bytes, screen: ScreenSize(columns: 96, rows: 40))
        var said: [String?] = [player.player.tourWords]
        for _ in 0..<2 {
            player.press(.arrow(.right, shifted: false))
            said.append(player.player.tourWords)
        }
        #expect(player.player.place == 2)
        #expect(said == ["Lesson 2 · A ghost", "Lesson 2 · A ghost", "Lesson 3 · Behavior"], "\(said)")
        // The status line says it, at 80×24 beside the keys.
        let narrow = try Pilot<ReplayProgram>(tour.file.bytes, screen: ScreenSize(columns: 80, rows: 24))
        narrow.press(.arrow(.right, shifted: false))
        let status = narrow.lines.last ?? ""
        #expect(status.contains("Lesson 2 · A ghost") && status.contains("? keys  q quit"), "\(status)")
    }

    @Test(
        "random tours (lessons, boxes, N, m, digits, o, u, e, keys, resizes) record files that read back whole: every event, the same ball, the lesson markers, the late lanes in the player",
        .tags(.slow), .skippedInQuickRuns
    )
    func randomTours() throws {
        var generator = SeededGenerator()
        let keys: [Unicode.Scalar] = [
            "h", "j", "k", "l", "H", "L", "s", "b", "p", "r", "v", "o", "u", "e", "n", "N", "m", "t", "?", "f", "i",
            "c", "1", "2", "3", "9", "\r",
        ]
        var lanesCompared = 0
        for run in 0..<40 {
            let tour = try RecordedTour(first: generator.below(Lesson.all.count))
            var shown = [tour.pilot.learn.lesson]
            for _ in 0..<(10 + generator.below(50)) {
                switch generator.below(12) {
                case 0:
                    let sizes = [ScreenSize(columns: 80, rows: 24), ScreenSize(columns: 96, rows: 30)]
                    tour.pilot.run([.resize(sizes[generator.below(sizes.count)])])
                case 1: tour.pilot.input([0x1B])
                default: tour.pilot.type(keys[generator.below(keys.count)])
                }
                if tour.pilot.learn.isFinished { break }
                if tour.pilot.learn.lesson != shown.last { shown.append(tour.pilot.learn.lesson) }
            }
            if !tour.pilot.learn.isFinished { tour.pilot.type("q") }
            let context = "run \(run), \(generator):\n\(tour.file.lines.joined(separator: "\n"))"
            let index = try ReplayIndex(reader: .inMemory(tour.file.bytes))
            try index.readAll()
            #expect(index.readingStopped == nil, "\(String(describing: index.readingStopped)) \(context)")
            #expect(index.count == tour.recorder.intentsWritten, "\(context)")
            #expect(
                index.observations.count == tour.recorder.eventsWritten - tour.recorder.intentsWritten, "\(context)")
            // The same ball and colours (the live clock ran on after the last event: its time differs).
            let (end, played) = (index.state(at: index.count), tour.pilot.learn.play.session.state)
            #expect(end.appearance == played.appearance && end.slot == played.slot, "\(context)")
            // Each lesson shown has its marker, in order (a lesson begun again, again).
            var markers: [Int] = []
            for entry in index.observations {
                guard case .lessonBegan(let number, _) = entry.event.observation, markers.last != number - 1 else {
                    continue
                }
                markers.append(number - 1)
            }
            #expect(markers == shown.filter { $0 < Lesson.all.count }, "\(context)")
            // The player at the end: the late lanes the tour drew (after an `e` too).
            let player = try Pilot<ReplayProgram>(tour.file.bytes, screen: ScreenSize(columns: 96, rows: 40))
            player.run([.bytes(TerminalBytes.end)])
            #expect(player.player.place == index.count, "\(context)")
            let live = tour.pilot.learn.play.streams.lateLanes.filter { $0.start >= 0 }
            let replayed = player.player.view.panel?.lateLanes ?? []
            if player.player.view.panel != nil {
                #expect(Self.drawn(replayed) == Self.drawn(live), "\(context)")
                lanesCompared += 1
            }
        }
        #expect(lanesCompared > 10, "the player's lanes compared in \(lanesCompared) runs of 40, \(generator)")
    }
}

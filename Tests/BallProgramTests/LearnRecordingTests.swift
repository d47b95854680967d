import BallModel
import BallPlayer
import BallProgram
import BallRendering
import BallReplay
import BallStreams
import BallTestSupport
import ColourCore
import TerminalIO
import Testing

/// `learn --record`: a tour's recording holds what the tour showed, and replays whole.
@Suite("A recorded tour replays whole")
struct LearnRecordingTests {
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
        for key: Unicode.Scalar in ["2", "e", "b", "v", "q"] { tour.pilot.type(key) }
        let lines = tour.file.lines
        #expect(lines.first?.contains(#""version":8"#) == true)
        // The quit after it is the tour's end (version 8), the last line, not an intent.
        #expect(
            lines.contains { $0.hasSuffix(#""event":"completed"}"#) }
                && lines.filter { $0.contains("quit") } == [lines.last!] && lines.last!.hasSuffix(#""event":"quit"}"#))
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
        "a quit after e is the recording's end (format 8): written at the quit's time, last, read back, the replay's session ends there and the edited copy keeps it; a line after it, or one in a version 7 file, is refused; a version 7 file ends with its last line"
    )
    func quitAfterCompletion() throws {
        let tour = try RecordedTour(first: LearnTests.index("completion"))
        tour.pilot.press(.right)
        for key: Unicode.Scalar in ["2", "e", "b", "p", "r", "v"] { tour.pilot.type(key) }
        tour.pilot.pass(.milliseconds(2_500))
        tour.pilot.type("q")
        #expect(tour.pilot.learn.isFinished && tour.recorder.quitAfterCompletionWritten)
        let lines = tour.file.lines
        func time(_ line: String) throws -> Double {
            try #require(Double(line.dropFirst(#"{"t":"#.count).prefix { $0 != "," }), "\(line)")
        }
        let quit = try #require(lines.last)
        #expect(quit.hasSuffix(#","event":"quit"}"#), "\(lines)")
        // Written at the quit's own time: the 2.5 s the tour waited after the last late subscriber.
        let waited = try time(quit) - time(lines[lines.count - 2])
        #expect(waited >= 2.5 && waited < 2.6, "\(lines)")
        // Read back: the events before it, then the end; the replay's session at the quit's time.
        let reader = ReplayReader.inMemory(tour.file.bytes)
        let player = try ReplayPlayer(reader: reader)
        var intents: [Intent] = []
        while let event = try player.nextEvent() {
            player.apply(event)
            intents.append(event.intent)
        }
        #expect(intents.last == .completionRequested && !intents.contains(.quitRequested), "\(intents)")
        #expect(try reader.quitAfterCompletion == time(quit))
        #expect(try player.time == time(quit) && player.session.now == SessionTime(seconds: time(quit)))
        // The player's `w` copies it, last, as it was.
        let watched = try Pilot<ReplayProgram>(tour.file.bytes, screen: ScreenSize(columns: 80, rows: 24))
        #expect(try watched.editedLines() == lines)

        // A line after the tour's quit: the writer's mistake, one sentence.
        let after = lines + [#"{"t":99,"event":"subscribed","subject":"behavior"}"#]
        let refusedAfter = ReplayReader.inMemory(Array((after.joined(separator: "\n") + "\n").utf8))
        let afterError = #expect(throws: ReplayError.self) { while try refusedAfter.next() != nil {} }
        #expect(
            afterError?.description
                == "session.jsonl, line \(after.count): an event after the tour's quit: the recording ended there.")
        // Version 7 had no quit after completed: one there is refused as before; without it the
        // file ends with its last line, where the session's clock stays.
        let older = [lines[0].replacing(#""version":8"#, with: #""version":7"#)] + lines.dropFirst()
        let refusedOlder = ReplayReader.inMemory(Array((older.joined(separator: "\n") + "\n").utf8))
        let olderError = #expect(throws: ReplayError.self) { while try refusedOlder.next() != nil {} }
        #expect(
            olderError?.description
                == "session.jsonl, line \(older.count): an intent after the session's end (a quit or completed): it had ended."
        )
        let ended = older.dropLast()
        let olderReader = ReplayReader.inMemory(Array((ended.joined(separator: "\n") + "\n").utf8))
        let olderPlayer = try ReplayPlayer(reader: olderReader)
        while let event = try olderPlayer.nextEvent() { olderPlayer.apply(event) }
        #expect(olderReader.quitAfterCompletion == nil && olderReader.header?.version == 7)
        #expect(try olderPlayer.session.now == SessionTime(seconds: time(ended.last!)), "\(ended)")
    }

    @Test(
        "the tour's end cancels no late subscriber: the player draws Completion's relay ^b with no end, as the tour did"
    )
    func relayAtTheTourEnd() throws {
        let tour = try RecordedTour(first: LearnTests.index("completion"))
        tour.pilot.openStreams()
        tour.pilot.press(.right)
        for key: Unicode.Scalar in ["2", "e", "b", "p", "r", "v"] { tour.pilot.type(key) }
        let live = Self.rows(tour.pilot.frame).first { $0.hasPrefix(" late Relay") }
        #expect(live?.hasSuffix("^b") == true, "\(Self.rows(tour.pilot.frame).joined(separator: "\n"))")
        // n: the closing card, the tour's end; then q.
        tour.pilot.type("n")
        tour.pilot.type("q")
        #expect(!tour.file.lines.contains { $0.contains(#""event":"unsubscribed""#) }, "\(tour.file.lines)")
        let player = try Pilot<ReplayProgram>(tour.file.bytes, screen: ScreenSize(columns: 80, rows: 24))
        player.run([.bytes(TerminalBytes.end)])
        if !player.player.streamsOpen { player.type("s") }
        let rows = Self.rows(player.frame)
        #expect(rows.first { $0.hasPrefix(" late Relay") } == live, "\(rows.joined(separator: "\n"))")
    }

    @Test(
        "the player draws a lesson's lanes from where it began, as the tour did: the mirror's lane the subject's, no ^F where combineLatest went in"
    )
    func lanesFromTheLesson() throws {
        let tour = try RecordedTour(first: LearnTests.index("publish"))
        tour.pilot.openStreams()
        tour.pilot.press(.right)
        tour.pilot.press(.right)
        tour.pilot.type("b")
        let lesson4 = Self.rows(tour.pilot.frame).filter { $0.hasPrefix(" position") || $0.hasPrefix(" late Behavior") }
        for key in ["m"] + "\(LearnTests.index("combine-latest") + 1)".unicodeScalars + ["2", "f", "6", "i"] {
            tour.pilot.type(key)
        }
        tour.pilot.press(.right)
        let rows = Self.rows(tour.pilot.frame)
        let lanes = [" intents", " position", " mirror", " slotted"]
        let live = lanes.map { label in
            rows.first { $0.hasPrefix(label + " ") }.map { Self.resolved($0, in: tour.pilot.frame) }
        }
        // The lesson began, combineLatest went in (handed the mirror's F: its own, not a value the
        // mirror sent), the flip, the move.
        #expect(live[2]?.hasSuffix(" ─────T──") == true, "\(rows.joined(separator: "\n"))")
        tour.pilot.type("q")
        let player = try Pilot<ReplayProgram>(tour.file.bytes, screen: ScreenSize(columns: 80, rows: 24))
        player.run([.bytes(TerminalBytes.end)])
        if !player.player.streamsOpen { player.type("s") }
        // At the place before the quit, the tour's last frame (the quit after it, the future).
        player.press(.arrow(.left, shifted: false))
        let replayed = Self.rows(player.frame)
        let shown = lanes.map { label in
            replayed.first { $0.hasPrefix(label + " ") }.map { Self.resolved($0, in: player.frame) }
        }
        for (label, (seen, drawn)) in zip(lanes, zip(live, shown)) {
            #expect(drawn?.hasPrefix(seen ?? "?") == true, "\(label):\n\(replayed.joined(separator: "\n"))")
        }
        #expect(replayed.first { $0.hasPrefix(" mirror ") }?.contains("^") == false, "\(replayed)")
        // Back in lesson 4: its lanes, and its late Behavior, as the tour drew them there.
        player.run([.bytes(TerminalBytes.home)])
        player.press(.arrow(.right, shifted: false))
        player.press(.arrow(.right, shifted: false))
        let earlier = Self.rows(player.frame).filter { $0.hasPrefix(" position") || $0.hasPrefix(" late Behavior") }
        // (The lesson's change after it cancelled the late Behavior: `!` at its end.)
        #expect(earlier.count == 2 && zip(earlier, lesson4).allSatisfy { $0.hasPrefix($1) }, "\(earlier) \(lesson4)")
    }

    @Test(
        "the slot emptied as the next lesson began is that lesson's: the player ends combineLatest's lesson where the tour did, its operator named whole, and begins the next at the emptying, as the tour drew it"
    )
    func slotEmptiedByTheNextLesson() throws {
        let tour = try RecordedTour(first: LearnTests.index("combine-latest"))
        tour.pilot.openStreams()
        for key: Unicode.Scalar in ["2", "f", "6", "i"] { tour.pilot.type(key) }
        tour.pilot.press(.right)
        tour.pilot.type("i")
        let lanes = [" intents", " in the slot", " slotted"]
        func shown(_ frame: Frame) -> [String?] {
            let rows = Self.rows(frame)
            return lanes.map { label in rows.first { $0.hasPrefix(label + " ") } }
        }
        let live = (place: tour.pilot.learn.play.streams.latestIndex, rows: shown(tour.pilot.frame))
        #expect(live.rows[1]?.hasSuffix("├.combineLatest") == true, "\(live.rows)")
        // The next lesson takes combineLatest out of the slot as it begins: an intent.
        for key in ["m"] + "\(LearnTests.index("flat-map") + 1)".unicodeScalars { tour.pilot.type(key) }
        let next = (place: tour.pilot.learn.play.streams.latestIndex, rows: shown(tour.pilot.frame))
        #expect(next.place == live.place + 1)
        tour.pilot.type("q")
        let player = try Pilot<ReplayProgram>(tour.file.bytes, screen: ScreenSize(columns: 80, rows: 24))
        if !player.player.streamsOpen { player.type("s") }
        for _ in 0..<live.place { player.press(.arrow(.right, shifted: false)) }
        #expect(shown(player.frame) == live.rows, "\(Self.rows(player.frame).joined(separator: "\n"))")
        // (Then the quit: the player's future, after what the tour drew.)
        player.press(.arrow(.right, shifted: false))
        let begun = shown(player.frame)
        #expect(
            zip(begun, next.rows).allSatisfy { drawn, seen in drawn?.hasPrefix(seen ?? "?") == true },
            "\(next.rows)\n\(Self.rows(player.frame).joined(separator: "\n"))")
    }

    @Test(
        "in the player a place's intent is labelled with the lesson it was made in, and a lesson begun after it is a stop of its own, labelled with it"
    )
    func lessonOfAPlace() throws {
        let tour = try RecordedTour(first: LearnTests.index("ghost"))
        tour.pilot.type("2")  // The guess: the ball moves after it.
        tour.pilot.press(.right)  // Intent 1, in lesson 2.
        for key: Unicode.Scalar in ["m", "3"] { tour.pilot.type(key) }  // Lesson 3 begins after it.
        tour.pilot.press(.left)  // Intent 2, in lesson 3.
        tour.pilot.type("q")
        let player = try Pilot<ReplayProgram>(tour.file.bytes, screen: ScreenSize(columns: 96, rows: 40))
        var said: [String?] = [player.player.tourWords]
        for _ in 0..<3 {
            player.press(.arrow(.right, shifted: false))
            said.append(player.player.tourWords)
        }
        #expect(player.player.place == 2)
        // Place 1 shows intent 1, made in lesson 2; then, a step on, lesson 3 begun after it.
        #expect(
            said == ["Lesson 2 · A ghost", "Lesson 2 · A ghost", "Lesson 3 · Behavior", "Lesson 3 · Behavior"],
            "\(said)")
        // And back.
        var back: [String?] = []
        for _ in 0..<3 {
            player.press(.arrow(.left, shifted: false))
            back.append(player.player.tourWords)
        }
        #expect(back == ["Lesson 3 · Behavior", "Lesson 2 · A ghost", "Lesson 2 · A ghost"], "\(back)")
        #expect(player.player.place == 0)
        // At 80×24 the words have a row of their own, whole, and the status line keeps its keys.
        let narrow = try Pilot<ReplayProgram>(tour.file.bytes, screen: ScreenSize(columns: 80, rows: 24))
        Self.step(narrow, to: 2)
        let rows = Self.rows(narrow.frame)
        #expect(rows.contains(" Lesson 3 · Behavior"), "\(rows.joined(separator: "\n"))")
        #expect(rows.last?.contains("? keys  q quit") == true && rows.last?.contains("…") == false, "\(rows)")
    }

    @Test("a tour begun on its closing card is a tour's recording: the player says where it is, on its row")
    func closingCardMarked() throws {
        let tour = try RecordedTour(first: Lesson.all.count)
        tour.pilot.press(.right)
        tour.pilot.type("q")
        let player = try Pilot<ReplayProgram>(tour.file.bytes, screen: ScreenSize(columns: 80, rows: 24))
        let words = "The closing card · after lesson \(Lesson.all.count)"
        Self.step(player, to: 1)
        #expect(player.player.tourWords == words, "\(player.player.tourWords ?? "nil")")
        let rows = Self.rows(player.frame)
        #expect(rows.contains(" \(words)"), "\(rows.joined(separator: "\n"))")
        // Every mark told there, as on the tour's closing card.
        #expect(player.program.legendUntold.isEmpty, "\(player.program.legendUntold)")
    }

    /// The lanes' rows of `frame`, from the ruler's (`streams`) to the last lane's, as a terminal
    /// shows them.
    static func laneRows(_ frame: Frame) -> [String] {
        let rows = Self.rows(frame)
        guard let first = rows.firstIndex(where: { $0.hasPrefix(" streams ") }) else { return [] }
        return Array(rows[first...].prefix { !$0.hasPrefix(" values") && !$0.isEmpty })
    }

    @Test(
        "a lesson made of no intent (lesson 6: its guess and r) is a stop of the player's, with its own header and its lanes as the tour drew them, late Replay's ^³ among them"
    )
    func lessonWithoutIntents() throws {
        let tour = try RecordedTour(first: LearnTests.index("why-behavior"))
        for _ in 0..<3 { tour.pilot.press(.right) }
        let lesson5 = Self.laneRows(tour.pilot.frame)
        for key in ["m"] + "\(LearnTests.index("replay") + 1)".unicodeScalars + ["3", "r"] { tour.pilot.type(key) }
        let lesson6 = Self.laneRows(tour.pilot.frame)
        // (r in a column of its own after the lesson's first.)
        #expect(lesson6.contains { $0.hasPrefix(" late Replay(3)   ^³") }, "\(lesson6.joined(separator: "\n"))")
        tour.pilot.type("n")
        let lesson7 = Self.laneRows(tour.pilot.frame)
        tour.pilot.press(.left)
        tour.pilot.type("q")
        let player = try Pilot<ReplayProgram>(tour.file.bytes, screen: ScreenSize(columns: 80, rows: 24))
        // Every step from the start to the end: one lesson named at each, lesson 6 among them.
        var said: [(place: Int, stop: Int?, words: String?, lanes: [String])] = []
        while true {
            let rows = Self.rows(player.frame)
            #expect(!rows[0].contains("then"), "\(rows.joined(separator: "\n"))")
            said.append((player.player.place, player.player.stop, player.player.tourWords, Self.laneRows(player.frame)))
            if player.player.place == player.player.index.count && player.player.stop == nil { break }
            player.press(.arrow(.right, shifted: false))
        }
        let context = said.map { "\($0.place) \($0.stop.map(String.init) ?? "whole") \($0.words ?? "-")" }
            .joined(separator: "\n")
        #expect(
            said.map { $0.words ?? "" }.reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
                == ["Lesson 5 · Why Behavior", "Lesson 6 · Replay", "Lesson 7 · Cancel"], "\(context)")
        // Intent 3, made in lesson 5, then lesson 6 begun after it, then lesson 7: three stops of
        // place 3, each with the lanes the tour drew there (the panel opened with lesson 6).
        let third = said.filter { $0.place == 3 }
        #expect(
            third.map(\.words) == ["Lesson 5 · Why Behavior", "Lesson 6 · Replay", "Lesson 7 · Cancel"], "\(context)")
        #expect(lesson5.isEmpty && third.first?.lanes == [], "\(third.first?.lanes ?? [])")
        #expect(third.dropFirst().first?.lanes == lesson6, "\(lesson6)\n\(third.dropFirst().first?.lanes ?? [])")
        // Lesson 7's, with the quit after the move drawn as the player's future (its ruler
        // says so, where the tour's has no future).
        let later = " streams " + StreamPanel.laterWords
        let whole = (third.last?.lanes ?? []).map {
            $0.hasPrefix(later)
                ? " streams " + String(repeating: " ", count: later.count - 9) + $0.dropFirst(later.count) : $0
        }
        #expect(third.last?.lanes.first?.hasPrefix(later) == true, "\(third.last?.lanes ?? [])")
        #expect(
            whole.count == lesson7.count && zip(whole, lesson7).allSatisfy { $0.hasPrefix($1) },
            "\(lesson7)\n\(whole)")
        // And back: each stop again, lesson 6's lanes as before.
        player.press(.arrow(.left, shifted: false))
        player.press(.arrow(.left, shifted: false))
        player.press(.arrow(.left, shifted: false))
        #expect(player.player.tourWords == "Lesson 6 · Replay" && player.player.place == 3)
        if !player.player.streamsOpen { player.type("s") }
        #expect(Self.laneRows(player.frame) == lesson6, "\(Self.rows(player.frame).joined(separator: "\n"))")
    }

    @Test(
        "the player's ? gives no lesson's answer the tour had not given by the lesson shown: the relay's never-ending, Replay's three, ^'s handing, until their lessons; a recording of play says them all"
    )
    func helpTellsNoAnswer() throws {
        let tour = try RecordedTour(first: LearnTests.index("why-behavior"))
        tour.pilot.press(.right)
        tour.pilot.type("q")
        let player = try Pilot<ReplayProgram>(tour.file.bytes, screen: ScreenSize(columns: 80, rows: 24))
        if !player.player.streamsOpen { player.type("s") }
        player.type("?")
        // The box's pages, read one after the other.
        var help: [String] = []
        for _ in 0..<4 {
            help += Self.rows(player.frame)
            player.type(" ")
        }
        let text = help.joined(separator: "\n")
        #expect(player.player.tourLesson?.number == 5)
        // Lesson 3 (Behavior) came before: its answer is told; lessons 6 and 18 come after.
        #expect(text.contains("late Behavior: \(LateSubscriber.behavior.handedWords)"), "\(text)")
        #expect(
            !text.contains("never ends") && !text.contains(LateSubscriber.replay.handedWords), "\(text)")
        #expect(text.contains("a late Relay subscriber (again: cancel)"), "\(text)")
        #expect(!text.contains("what it was handed at once follows") && text.contains("subscribed here"), "\(text)")
        // A recording of play: every key says what it does.
        let play = Array(
            """
            {"format":"colourful-ball-replay","version":7,"terminal":{"columns":80,"rows":24},"colourRules":1}
            {"t":0.1,"event":"arrow","direction":"left","distance":1}

            """.utf8)
        let plain = try Pilot<ReplayProgram>(play, screen: ScreenSize(columns: 80, rows: 24))
        plain.type("?")
        #expect(Self.rows(plain.frame).contains { $0.contains("late Relay: the latest, never ends") })
    }

    @Test("lesson 1 draws no background lane in the tour, nor in the player; lesson 2 draws it in both")
    func lessonOneLanes() throws {
        let tour = try RecordedTour(first: LearnTests.index("one-subject"))
        // Across a colour band, then s: lesson 1 done.
        let start = tour.pilot.learn.binding.model.appearance.ball
        var moves = 0
        while tour.pilot.learn.binding.model.appearance.ball == start, moves < 60 {
            tour.pilot.press(.right)
            moves += 1
        }
        tour.pilot.type("s")
        let lesson1 = Self.laneRows(tour.pilot.frame)
        #expect(!lesson1.isEmpty && !lesson1.contains { $0.hasPrefix(" background") }, "\(lesson1)")
        tour.pilot.type("n")
        tour.pilot.type("2")
        tour.pilot.press(.right)
        let lesson2 = Self.laneRows(tour.pilot.frame)
        #expect(lesson2.contains { $0.hasPrefix(" background") }, "\(lesson2)")
        tour.pilot.type("q")
        let player = try Pilot<ReplayProgram>(tour.file.bytes, screen: ScreenSize(columns: 80, rows: 24))
        Self.step(player, to: moves)
        player.press(.arrow(.left, shifted: false))
        #expect(player.player.tourWords == "Lesson 1 · One subject")
        if !player.player.streamsOpen { player.type("s") }
        let replayed = Self.laneRows(player.frame)
        #expect(replayed == lesson1, "\(lesson1)\n\(Self.rows(player.frame).joined(separator: "\n"))")
        Self.step(player, to: moves + 1)
        #expect(player.player.tourWords == "Lesson 2 · A ghost")
        #expect(Self.laneRows(player.frame).contains { $0.hasPrefix(" background") }, "\(Self.laneRows(player.frame))")
    }

    @Test(
        "a replayed tour reads as the tour did: its lesson on the top row where the card was, the ball's area under it as the tour drew it, then what the area is, at 80×24 and 120×40"
    )
    func tourLaidOutInThePlayer() throws {
        let tour = try RecordedTour(first: LearnTests.index("one-subject"))
        tour.pilot.press(.right)
        tour.pilot.press(.down)
        // The disc's rows in the tour, counted from the area's first row (under the card).
        let ball = tour.pilot.learn.binding.model.appearance.ball
        let cardRows = Learn.layout(of: tour.pilot.terminal.size).cardRows
        let live = tour.pilot.frame.discRows(ball: ball).map { $0 - cardRows }
        // The rows the tour drew its ball's area in: those in the screen's colour.
        let screen = tour.pilot.learn.binding.model.appearance.background
        let areaRows = Self.screenRows(tour.pilot.frame, colour: screen)
        tour.pilot.type("q")
        // The tour's ball area, as the recording's header gives it.
        let area = try ReplayIndex(reader: .inMemory(tour.file.bytes)).header.terminal
        for size in [ScreenSize(columns: 80, rows: 24), ScreenSize(columns: 120, rows: 40)] {
            let player = try Pilot<ReplayProgram>(tour.file.bytes, screen: size)
            player.run([.bytes(TerminalBytes.end)])
            let rows = Self.rows(player.frame)
            let context = "\(size)\n\(rows.joined(separator: "\n"))"
            #expect(rows[0] == " Lesson 1 · One subject", "\(context)")
            // The ball where the tour drew it in its area, the area a row down.
            #expect(!live.isEmpty && player.frame.discRows(ball: ball) == live.map { $0 + 1 }, "\(context)")
            // Under the area (its last row, the status line's in play), what it is; then, as the
            // tour had its streams closed, what was in the lanes' rows.
            // The rows the tour drew, as many in the player; the words say the size recorded, the
            // size of every position on the lanes (the drawn rows and the words' own).
            #expect(areaRows.count == area.rows - 1, "\(areaRows)")
            #expect(Self.screenRows(player.frame, colour: screen) == areaRows.map { $0 - cardRows + 1 }, "\(context)")
            let position = tour.pilot.learn.play.session.state.position.screen
            #expect(position == area, "\(position) \(area)")
            let said = " ▲ the tour's ball area as recorded, \(area), this its last row"
            #expect(rows[area.rows].hasPrefix(said), "\(context)")
            #expect(
                rows[area.rows + 1].hasPrefix(" The streams were closed here in the tour: s opens them"), "\(context)")
            #expect(!rows.contains { $0.contains("Lesson 1 · One subject") && $0 != rows[0] }, "\(context)")
            // s opens them: the lanes at the bottom, and nothing says they are closed.
            player.type("s")
            let opened = Self.rows(player.frame)
            #expect(opened.contains { $0.hasPrefix(" intents") }, "\(opened.joined(separator: "\n"))")
            #expect(!opened.contains { $0.contains("streams were closed") }, "\(opened.joined(separator: "\n"))")
        }
        // A play session's recording in a larger window: the row under it says what it is; in a
        // window of its own size, the player's rows cover it, and there is nothing to say.
        let play = Array(
            """
            {"format":"colourful-ball-replay","version":7,"terminal":{"columns":80,"rows":24},"colourRules":1}
            {"t":0.1,"event":"arrow","direction":"left","distance":1}

            """.utf8)
        let larger = Self.rows(try Pilot<ReplayProgram>(play, screen: ScreenSize(columns: 100, rows: 40)).frame)
        #expect(larger[23] == " ▲ the recorded area, 80×24: the player's rows are at the bottom", "\(larger)")
        #expect(!larger[0].contains("Lesson"))
        let own = Self.rows(try Pilot<ReplayProgram>(play, screen: ScreenSize(columns: 80, rows: 24)).frame)
        #expect(!own.contains { $0.contains("▲") }, "\(own.joined(separator: "\n"))")
    }

    /// The frame's rows whose first cell is in the screen's `colour` (the ball's area).
    static func screenRows(_ frame: Frame, colour: ColourCore.FlatColour) -> [Int] {
        (0..<frame.size.rows).filter { frame[0, $0].background == colour && frame[0, $0].glyph == " " }
    }

    /// A lane's row with each letter of its marbles written as the value the values line of
    /// `frame` names (a page's letters are its own).
    static func resolved(_ row: String, in frame: Frame) -> String {
        String(row.prefix(StreamPanel.labelWidth))
            + PublishCopyLaneTests.resolved(String(row.dropFirst(StreamPanel.labelWidth)), in: frame)
    }

    /// The frame's rows as a terminal shows them (through the rasteriser), without trailing blanks.
    static func rows(_ frame: Frame) -> [String] {
        var rasteriser = Rasteriser(sequences: .xterm(palette: .xterm256, backColourErase: true))
        return TerminalEmulator.showing(frame, through: &rasteriser).rowTexts.map {
            String($0.reversed().drop { $0 == " " }.reversed())
        }
    }

    /// The late rows of `frame` (its rows that begin with a late kind's label).
    static func lateRows(_ frame: Frame) -> [String] {
        rows(frame).filter { $0.hasPrefix(" late ") }
    }

    /// Steps the player from the start with its key to `place`: whole (past its stops: the `o`,
    /// `u` and lessons begun after its intent), or at its first stop (`whole` false: what the tour
    /// showed right after the intent, in the lesson it was made in).
    static func step(_ player: Pilot<ReplayProgram>, to place: Int, whole: Bool = true) {
        player.run([.bytes(TerminalBytes.home)])
        while player.player.place < place || whole && player.player.stop != nil {
            player.press(.arrow(.right, shifted: false))
        }
    }

    @Test(
        "one label rule, live and replayed: a tour begun at lesson 7 (6 not done) labels its idle Replay row by name alone, and so does the player; a lane subscribed says Replay(3) in both"
    )
    func labelsOneRule() throws {
        let tour = try RecordedTour(first: LearnTests.index("cancel"))
        tour.pilot.openStreams()
        tour.pilot.press(.right)
        let idle = (tour.pilot.learn.play.streams.latestIndex, Self.lateRows(tour.pilot.frame))
        #expect(idle.1.contains { $0.hasPrefix(" late Replay ") }, "\(idle.1)")
        // A move on, lesson 6's question answered on the card (r asks it), then r subscribes.
        tour.pilot.press(.right)
        for key: Unicode.Scalar in ["r", "3"] { tour.pilot.type(key) }
        let lane = (tour.pilot.learn.play.streams.latestIndex, Self.lateRows(tour.pilot.frame))
        #expect(lane.1.contains { $0.hasPrefix(" late Replay(3) ") }, "\(lane.1)")
        tour.pilot.press(.right)
        tour.pilot.type("q")
        let player = try Pilot<ReplayProgram>(tour.file.bytes, screen: ScreenSize(columns: 80, rows: 24))
        if !player.player.streamsOpen { player.type("s") }
        for (place, live) in [idle, lane] {
            Self.step(player, to: place)
            let drawn = Self.lateRows(player.frame)
            let label = StreamPanel.labelWidth
            #expect(
                drawn.map { $0.prefix(label) } == live.map { $0.prefix(label) },
                "place \(place): the tour's \(live), the player's \(drawn)")
        }
    }

    @Test(
        "the player's late rows in a tour's lessons are the tour's: the same kinds in the same rows, labelled alike, an idle row naming its key alone (never what its kind hands: lessons 3, 4 and 6 ask it), each lane as the tour drew it"
    )
    func lateRowsAsTheTourDrew() throws {
        let tour = try RecordedTour(first: LearnTests.index("behavior"))
        tour.pilot.openStreams()
        // Each lesson's late rows as the tour drew them last, at the place they were drawn at
        // (the player draws the lesson's future: a lane subscribed later in it is on its page).
        var seen: [(place: Int, rows: [String])] = []
        func look() { seen.append((tour.pilot.learn.play.streams.latestIndex, Self.lateRows(tour.pilot.frame))) }
        func go(to id: String) {
            for key in ["m"] + "\(LearnTests.index(id) + 1)".unicodeScalars { tour.pilot.type(key) }
        }
        for key: Unicode.Scalar in ["2", "b"] { tour.pilot.type(key) }
        tour.pilot.press(.right)
        look()
        go(to: "publish")
        tour.pilot.type("1")
        tour.pilot.type("p")
        tour.pilot.press(.left)
        look()
        go(to: "replay")
        for _ in 0..<3 { tour.pilot.press(.right) }
        for key: Unicode.Scalar in ["3", "r"] { tour.pilot.type(key) }
        tour.pilot.press(.up)
        look()
        go(to: "filter")
        for key: Unicode.Scalar in ["f", "2"] { tour.pilot.type(key) }
        for _ in 0..<3 { tour.pilot.press(.left, shifted: true) }
        look()
        go(to: "completion")
        tour.pilot.press(.right)
        for key: Unicode.Scalar in ["2", "e", "b", "p", "r", "v"] { tour.pilot.type(key) }
        look()
        tour.pilot.type("q")
        let all = seen.flatMap(\.rows).joined(separator: "\n")
        #expect(
            all.contains(" late Replay    r: subscribe") && !all.contains("(\(LateSubscriber.replay.handedWords))"),
            "\(all)")
        let player = try Pilot<ReplayProgram>(tour.file.bytes, screen: ScreenSize(columns: 80, rows: 24))
        if !player.player.streamsOpen { player.type("s") }
        for (place, live) in seen {
            // (The next lesson began after the look's place: a stop after it.)
            Self.step(player, to: place, whole: false)
            let drawn = Self.lateRows(player.frame)
            let context =
                "place \(place): the tour's\n\(live.joined(separator: "\n"))\nthe player's\n\(drawn.joined(separator: "\n"))"
            #expect(drawn.count == live.count, "\(context)")
            for (tourRow, playerRow) in zip(live, drawn) {
                // Every label as the tour's; an idle row whole (where the tour's was idle, the
                // player may draw the lane subscribed later in the lesson: its future); a lane as
                // far as the tour had drawn it (the player draws its future after it).
                let label = StreamPanel.labelWidth
                #expect(playerRow.prefix(label) == tourRow.prefix(label), "\(context)")
                if playerRow.contains(": subscribe") {
                    #expect(playerRow == tourRow, "\(context)")
                } else if !tourRow.contains(": subscribe") {
                    #expect(playerRow.hasPrefix(tourRow), "\(context)")
                }
            }
        }
        // At every place, no idle row says what its kind hands (the tour's rows name the key
        // alone), and Replay's size is not on its label before lesson 6's own lane.
        let replayLesson = try #require(seen.indices.dropFirst(2).first)
        player.run([.bytes(TerminalBytes.home)])
        while true {
            let (place, drawn) = (player.player.place, Self.lateRows(player.frame))
            #expect(!drawn.contains { $0.contains("subscribe (") }, "place \(place): \(drawn)")
            // (r was pressed a move before that lesson's look.)
            if place < seen[replayLesson].place - 1 {
                #expect(!drawn.contains { $0.hasPrefix(" late Replay(3)") }, "place \(place): \(drawn)")
            }
            if place == player.player.index.count && player.player.stop == nil { break }
            player.press(.arrow(.right, shifted: false))
        }
    }

    @Test(
        "the player draws lesson 3's late Behavior in lesson 3's lanes, and Completion's ^| in Completion's, as the tour did"
    )
    func everyLateLaneOfAKind() throws {
        let tour = try RecordedTour(first: LearnTests.index("behavior"))
        tour.pilot.type("2")
        tour.pilot.type("b")
        tour.pilot.press(.right)
        let completion = "\(LearnTests.index("completion") + 1)".unicodeScalars
        for key: Unicode.Scalar in ["m"] + completion + ["2", "e", "b", "p", "r", "v", "q"] { tour.pilot.type(key) }
        let player = try Pilot<ReplayProgram>(tour.file.bytes, screen: ScreenSize(columns: 80, rows: 24))
        // At the start (the future drawn dim) lesson 3's lanes, to where the lesson ended (not the
        // cancel the next lesson's start made, on its own fresh lanes); at the end Completion's,
        // from where it began.
        // (Each subscription in a column of its own after the intent it came after.)
        for (keys, drawn) in [([], " late Behavior    ^a─b"), ([TerminalBytes.end], " late Behavior      ^|")] {
            player.run(keys.map { .bytes($0) })
            let rows = Self.rows(player.frame)
            let behavior = rows.first { $0.hasPrefix(" late Behavior") }
            #expect(behavior == drawn, "\(rows.joined(separator: "\n"))")
        }
    }

    @Test(
        "a tour's lesson's dim future in the player ends where the lesson ends: lessons 3 to 6's late and copy lanes at the lesson's first place are those at its last, no ! of the next lesson's start"
    )
    func futureEndsWithTheLesson() throws {
        let tour = try RecordedTour(first: LearnTests.index("behavior"))
        tour.pilot.openStreams()
        func go(to id: String) {
            for key in ["m"] + "\(LearnTests.index(id) + 1)".unicodeScalars { tour.pilot.type(key) }
        }
        for key: Unicode.Scalar in ["2", "b"] { tour.pilot.type(key) }
        for _ in 0..<2 { tour.pilot.press(.right) }
        go(to: "publish")
        for key: Unicode.Scalar in ["1", "p"] { tour.pilot.type(key) }
        tour.pilot.press(.left)
        tour.pilot.press(.right)
        go(to: "why-behavior")
        for key: Unicode.Scalar in ["2", "o"] { tour.pilot.type(key) }
        tour.pilot.press(.right)
        tour.pilot.press(.left)
        go(to: "replay")
        for _ in 0..<3 { tour.pilot.press(.right) }
        for key: Unicode.Scalar in ["3", "r"] { tour.pilot.type(key) }
        tour.pilot.press(.up)
        go(to: "cancel")
        tour.pilot.type("q")
        let player = try Pilot<ReplayProgram>(tour.file.bytes, screen: ScreenSize(columns: 80, rows: 24))
        if !player.player.streamsOpen { player.type("s") }
        // Each lesson's late and copy lanes (past their labels) at every place and stop shown in it.
        var shown: [Int: [(place: Int, lanes: [String])]] = [:]
        player.run([.bytes(TerminalBytes.home)])
        while true {
            if let lesson = player.player.tourLesson?.number {
                let lanes = Self.rows(player.frame).filter { $0.hasPrefix(" late ") || $0.hasPrefix(" copy.") }
                shown[lesson, default: []].append(
                    (player.player.place, lanes.map { String($0.dropFirst(StreamPanel.labelWidth)) }))
            }
            if player.player.place == player.player.index.count && player.player.stop == nil { break }
            player.press(.arrow(.right, shifted: false))
        }
        let numbers = ["behavior", "publish", "why-behavior", "replay"].map { LearnTests.index($0) + 1 }
        for number in numbers {
            let seen = try #require(shown[number], "lesson \(number) not shown: \(shown.keys.sorted())")
            // The first place that draws a lane (lesson 5's copy lanes from its o on) draws it whole.
            let drawing = seen.first { $0.lanes.contains { !$0.contains(": subscribe") } }
            let (first, last) = (try #require(drawing), try #require(seen.last))
            let context =
                "lesson \(number): at \(first.place)\n\(first.lanes.joined(separator: "\n"))\nat \(last.place)\n"
                + last.lanes.joined(separator: "\n")
            #expect(first.place < last.place && first.lanes == last.lanes, "\(context)")
            for (place, lanes) in seen {
                #expect(!lanes.contains { $0.hasSuffix("!") }, "lesson \(number) at \(place): \(lanes)")
            }
        }
    }

    @Test(
        "the player stops at each o after a move: the white ball where the tour showed it, the copy's colours, the chain's again, each change line true"
    )
    func screenThroughPublish() throws {
        let tour = try RecordedTour(first: LearnTests.index("why-behavior"))
        var shown: [ScreenColours] = []
        func look() {
            let appearance = tour.pilot.learn.binding.model.appearance
            shown.append(ScreenColours(ball: appearance.ball, background: appearance.background))
        }
        tour.pilot.type("2")  // The lesson's guess: o waits for it.
        tour.pilot.press(.right)  // Place 1: the chain itself.
        look()
        tour.pilot.type("o")  // After intent 1: the white view, until the next position.
        look()
        for _ in 0..<3 {
            tour.pilot.press(.right)
            look()
        }
        tour.pilot.type("o")  // Back to the chain, after intent 4.
        look()
        tour.pilot.type("q")
        #expect(shown[1] == ScreenColours(ball: .flatWhite, background: .flatWhite) && shown[0] != shown[1])
        let player = try Pilot<ReplayProgram>(tour.file.bytes, screen: ScreenSize(columns: 80, rows: 24))
        var replayed: [ScreenColours] = []
        var places: [String] = []
        var lines: [String] = []
        for step in 0..<6 {
            player.press(.arrow(.right, shifted: false))
            let appearance = player.watch.binding.model.appearance
            replayed.append(ScreenColours(ball: appearance.ball, background: appearance.background))
            places.append("\(player.player.place)\(player.player.stop.map { ".\($0)" } ?? "")")
            lines.append(player.player.change?.text ?? "")
            let row = Self.rows(player.frame).contains { $0.contains("o: the screen through Publish") }
            #expect(row == (1...4).contains(step), "\(places): the tour's row")
        }
        // Each o after a move is a place of its own: 1.0 is intent 1 before o, 1 after it.
        #expect(places == ["1.0", "1", "2", "3", "4.0", "4"], "\(places)")
        #expect(replayed == shown, "tour \(shown), player \(replayed)")
        // Where o bound the screen, the change line says so, and what the screen showed.
        let (white, chain) = (shown[1], shown[0])
        #expect(
            lines[1].hasPrefix("#1 o: the screen bound through a Publish copy of the chain:")
                && lines[1].contains("ballColour \(chain.ball.name) (unchanged)")
                && lines[1].hasSuffix(
                    "the screen, through a Publish copy: ● \(chain.ball.name) ■ \(chain.background.name)"
                        + " → ● \(white.ball.name) ■ \(white.background.name)"
                ), "\(lines[1])")
        #expect(
            lines[5].hasPrefix("#4 o: the screen bound back to the chain") && lines[5].contains("through the chain"))
        #expect(Self.rows(player.frame).contains { $0.hasPrefix(" #4 o") }, "\(Self.rows(player.frame))")
        // Back: before the o, through the copy again.
        player.press(.arrow(.left, shifted: false))
        #expect(player.player.place == 4 && player.player.stop == 0)
        let appearance = player.watch.binding.model.appearance
        #expect(ScreenColours(ball: appearance.ball, background: appearance.background) == shown[4])
        #expect(player.player.change?.text.hasPrefix("#4 before o:") == true)
        player.press(.arrow(.right, shifted: false))
        player.press(.arrow(.right, shifted: false))
        #expect(
            !Self.rows(player.frame).contains { $0.contains("o: the screen through") }, "after it, the chain itself")
    }

    @Test("the player says what u counted where the tour's card did: map's runs, shared and not")
    func mapCopiesCounted() throws {
        let tour = try RecordedTour(first: LearnTests.index("share"))
        tour.pilot.type("u")
        for _ in 0..<3 { tour.pilot.press(.right) }
        let counted = try #require(tour.pilot.learn.facts.mapRuns)
        tour.pilot.type("q")
        let player = try Pilot<ReplayProgram>(tour.file.bytes, screen: ScreenSize(columns: 80, rows: 24))
        player.run([.bytes(TerminalBytes.end)])
        let rows = Self.rows(player.frame)
        #expect(
            rows.contains(" Lesson \(LearnTests.index("share") + 1) · share · u: \(counted.words)"),
            "\(counted.words)\n\(rows.joined(separator: "\n"))")
    }

    @Test("at 80 columns the longest lesson name is whole in the player, and the status line keeps its keys")
    func longestLessonName() throws {
        let longest = try #require(Lesson.all.indices.max { Lesson.all[$0].title.count < Lesson.all[$1].title.count })
        let tour = try RecordedTour(first: longest)
        // An operator in the slot: the panel takes its most rows.
        for key: Unicode.Scalar in ["f", "8"] { tour.pilot.type(key) }
        tour.pilot.press(.right)
        tour.pilot.type("q")
        let player = try Pilot<ReplayProgram>(tour.file.bytes, screen: ScreenSize(columns: 80, rows: 24))
        for _ in 0..<2 {
            let rows = Self.rows(player.frame)
            #expect(
                rows.contains(" Lesson \(longest + 1) · \(Lesson.all[longest].title)"),
                "\(rows.joined(separator: "\n"))")
            #expect(rows.last?.hasSuffix("? keys  q quit") == true && rows.last?.contains("…") == false, "\(rows)")
            player.type(" ")  // Playing: the row stays where it covers nothing.
        }
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
        var (lanesCompared, quitsAfterCompletion) = (0, 0)
        for run in 0..<40 {
            // One in four from Completion, whose e ends the session while the tour runs on, to its
            // quit: the recording's end.
            let first = generator.below(4) == 0 ? LearnTests.index("completion") : generator.below(Lesson.all.count)
            let tour = try RecordedTour(first: first)
            // There, the card's question answered first, as a learner does before `e`.
            if tour.pilot.learn.lesson == LearnTests.index("completion") { tour.pilot.type("2") }
            var shown = [tour.pilot.learn.lesson]
            // The late lanes of the last lesson shown: its floor's first subscription.
            var floor = 0
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
                if tour.pilot.learn.lesson < Lesson.all.count { floor = tour.pilot.learn.floor.subscription }
            }
            if !tour.pilot.learn.isFinished { tour.pilot.type("q") }
            let context = "run \(run), \(generator):\n\(tour.file.lines.joined(separator: "\n"))"
            let index = try ReplayIndex(reader: .inMemory(tour.file.bytes))
            try index.readAll()
            #expect(index.readingStopped == nil, "\(String(describing: index.readingStopped)) \(context)")
            #expect(index.count == tour.recorder.intentsWritten, "\(context)")
            // (The tour's quit after e is the file's end: neither intent nor observation.)
            let ended = tour.recorder.quitAfterCompletionWritten
            #expect(
                index.observations.count == tour.recorder.eventsWritten - tour.recorder.intentsWritten
                    - (ended ? 1 : 0),
                "\(context)")
            // A tour that quit after e ends with that quit (format 8), read as its end: the replay's
            // session ends at its time.
            #expect(ended == tour.file.lines.contains { $0.hasSuffix(#""event":"completed"}"#) }, "\(context)")
            if ended {
                let reader = ReplayReader.inMemory(tour.file.bytes)
                let replayed = try ReplayPlayer(reader: reader)
                while let event = try replayed.nextEvent() { replayed.apply(event) }
                let quit = try #require(tour.file.lines.last)
                #expect(quit.hasSuffix(#","event":"quit"}"#), "\(context)")
                let time = try #require(Double(quit.dropFirst(#"{"t":"#.count).prefix { $0 != "," }))
                #expect(
                    replayed.session.now == SessionTime(seconds: time) && replayed.time == reader.quitAfterCompletion,
                    "\(context)")
                quitsAfterCompletion += 1
            }
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
            // The player at the end: the late lanes the tour drew in its last lesson (after an `e`
            // too; the closing card is no lesson: the last lesson's lanes are the picture's end).
            let player = try Pilot<ReplayProgram>(tour.file.bytes, screen: ScreenSize(columns: 96, rows: 40))
            player.run([.bytes(TerminalBytes.end)])
            #expect(player.player.place == index.count, "\(context)")
            // (The tour and the player's page keep a kind's ended lanes beside its newest: the
            // newest compared.)
            let lanes = tour.pilot.learn.play.streams.lateLanes.filter { $0.start >= 0 && $0.id >= floor }
            let live = LateSubscriber.allCases.compactMap { kind in lanes.last { $0.kind == kind } }
            let replayed = LateSubscriber.allCases.compactMap { kind in
                player.player.view.panel?.lateLanes.last { $0.kind == kind }
            }
            if player.player.view.panel != nil {
                #expect(Self.drawn(replayed) == Self.drawn(live), "\(context)")
                lanesCompared += 1
            }
        }
        #expect(lanesCompared > 10, "the player's lanes compared in \(lanesCompared) runs of 40, \(generator)")
        print("random tours: \(quitsAfterCompletion) of 40 quit after e, \(generator)")
    }
}

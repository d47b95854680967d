import BallExport
import BallModel
import BallProgram
import BallReplay
import BallStreams
import BallTestSupport
import ColourCore
import Testing
import TextFormats

/// `--trace`: RxSwift's debug() lines for the four publishers, against the panel's lanes.
@Suite("The debug trace")
struct TraceTests {
    @Test(
        "on random recordings, each publisher's events in the trace are its lane's, column by column, at the intent's time (what debounce lets through, at its timer's)"
    )
    func agreesWithTheLanes() throws {
        var generator = SeededGenerator()
        for _ in 0..<20 {
            var lines = String(
                decoding: RandomRecording.bytes(count: 1 + generator.below(300), operators: true, using: &generator),
                as: UTF8.self
            )
            .split(separator: "\n").map(String.init)
            if Bool.random(using: &generator) { lines.removeLast() }  // Half do not quit.
            let bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
            var trace: [String] = []
            try TraceExport.run(reader: .inMemory(bytes)) { trace.append($0) }
            // The lanes, as the panel records them, and each intent's time.
            let player = try ReplayPlayer(reader: .inMemory(bytes))
            let recorder = StreamRecorder(session: player.session, capacity: 100_000)
            var times = [0.0]
            while let event = try player.nextEvent() {
                player.apply(event)
                times.append(event.time)
            }
            // RxSwift's time: the recording's `started`, 2026-11-23T00:00:00Z (1,795,392,000 s
            // since 1970, as Python's datetime says), and the event's time, in milliseconds.
            func stamp(_ seconds: Double) -> String {
                Timestamp.debugText(milliseconds: 1_795_392_000_000 + Int64((seconds * 1_000).rounded()))
            }
            #expect(trace.first?.hasPrefix("2026-11-23 00:00:00.000: intents -> subscribed") == true)
            for name in DebugTrace.names {
                let said = trace.filter { $0.contains(": \(name) -> ") }
                var expected = ["\(stamp(0)): \(name) -> subscribed"]
                // The mirror has no lane: it completes with the position, at the quit.
                let lanes: [String: StreamLane] = [
                    "intents": .intents, "position": .position, "mirror": .position, "slotted": .slotted,
                    "ballColour": .ballColour, "background": .background, "mouse": .mouse, "keys": .keys,
                    "grabbed": .grabbed,
                ]
                // The colours each lane last emitted: a column where the slot passed several values
                // on (flatMap's inner subscriptions, a scan after it) emits a colour for each new one.
                var (lastBall, lastBackground): (FlatColour?, FlatColour?) = (nil, nil)
                for column in recorder.columns {
                    // What the slot passed on, and the colours that followed, came when it passed it
                    // on: a timed operator's timer comes after the intent.
                    let passed = ["slotted", "ballColour", "background"].contains(name) ? column.passedAt : nil
                    let time = stamp(passed?.seconds ?? times[column.index])
                    let value: String? =
                        switch name {
                        case "intents": column.intent.map(DebugTrace.describe)
                        case "position": column.position.map(DebugTrace.describe)
                        // The mirror hands its value at the start, then sends each flip.
                        case "mirror": column.index == 0 || column.intent == .mirrorFlipped ? "\(column.mirror)" : nil
                        case "mouse": column.mouse.map(DebugTrace.describe)
                        case "keys": column.keys.map(DebugTrace.describe)
                        // It hands what it holds at the start, then sends each press and release that
                        // changes it.
                        case "grabbed": column.grabbed.map { String($0) }
                        case "slotted": column.slotted.map { _ in "" }
                        case "ballColour": column.ballColour?.name
                        default: column.background?.name
                        }
                    // flatMap's inner subscriptions each pass the position on: each value the column
                    // holds, and each colour worked out from them that is new (removeDuplicates),
                    // each at the time the slot passed its value on (throttle after flatMap passes
                    // the first copy on at once, the second at its window's end).
                    var values = value.map { [(time, $0)] } ?? []
                    if name == "slotted" {
                        values = zip(column.slottedTimes, column.slottedValues).map {
                            (stamp($0.seconds), DebugTrace.describe($1))
                        }
                    }
                    if column.slottedValues.count > 1, name == "ballColour" || name == "background" {
                        values = []
                        for (at, output) in zip(column.slottedTimes, column.slottedValues)
                        where output.ballColour != lastBall {
                            let ball = output.ballColour
                            if name == "ballColour" { values.append((stamp(at.seconds), ball.name)) }
                            // The screen's scan runs on each new ball colour.
                            let screen = lastBackground.map { screenColour($0, ball) } ?? ball
                            if screen != lastBackground, name == "background" {
                                values.append((stamp(at.seconds), screen.name))
                            }
                            (lastBall, lastBackground) = (ball, screen)
                        }
                    }
                    if let colour = column.ballColour { lastBall = colour }
                    if let colour = column.background { lastBackground = colour }
                    for (at, value) in values { expected.append("\(at): \(name) -> Event next(\(value))") }
                    if column.completed.contains(lanes[name]!) {
                        expected.append("\(time): \(name) -> Event completed")
                    }
                    // tryMap threw for the position in a corner: RxSwift's debug writes the error,
                    // and the subscription is disposed of there.
                    // (In a pipe, a timer's value may throw after what the slot passed on in the column.)
                    if column.failed.contains(lanes[name]!), let error = player.session.state.failure {
                        let failedAt = stamp(column.failedAt?.seconds ?? times[column.index])
                        expected.append("\(failedAt): \(name) -> Event error(\(error.words))")
                        expected.append("\(failedAt): \(name) -> isDisposed")
                    }
                }
                if !recorder.columns.contains(where: { $0.failed.contains(lanes[name]!) }) {
                    expected.append("\(stamp(times[times.count - 1])): \(name) -> isDisposed")
                }
                #expect(said == expected, "\(name), \(generator)")
                if said != expected { return }
            }
        }
    }

    @Test("RxSwift's timestamps, in UTC, and the header's `started` read back: dates Python's datetime gives")
    func timestamps() {
        // From Python: (datetime(…, tzinfo=timezone.utc) - datetime(1970, 1, 1, …)).total_seconds().
        let instants: [(String, Int64)] = [
            ("1970-01-01T00:00:00Z", 0), ("2026-11-21T09:40:19Z", 1_795_254_019),
            ("2024-02-29T23:59:59Z", 1_709_251_199), ("2000-03-01T00:00:00Z", 951_868_800),
            ("2100-02-28T12:00:00Z", 4_107_499_200), ("1969-12-31T23:59:59Z", -1),
            ("0001-01-01T00:00:00Z", -62_135_596_800), ("9999-12-31T23:59:59Z", 253_402_300_799),
            ("1900-03-01T00:00:00Z", -2_203_891_200),
        ]
        for (text, seconds) in instants {
            // A header as 0.1.0 wrote it, to the second, still reads.
            #expect(Timestamp.milliseconds(iso8601: text) == seconds * 1_000, "\(text)")
            // What the recorder writes as `started` now, to the millisecond, the reader reads back.
            let precise = text.dropLast() + ".469Z"
            #expect(Timestamp.iso8601Text(milliseconds: seconds * 1_000 + 469) == precise)
            #expect(Timestamp.milliseconds(iso8601: String(precise)) == seconds * 1_000 + 469, "\(precise)")
        }
        #expect(Timestamp.iso8601Text(milliseconds: .max) == "9999-12-31T23:59:59.999Z")
        for text in [
            "2026-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2026-11-21 09:40:19Z", "2026-11-21T09:40:19",
            "2026-11-21T24:00:00Z", "2026-13-01T00:00:00Z", "unknown", "", "2026-11-21T09:40:19.5Z",
            "0000-01-01T00:00:00Z", "2026-11-21T09:40:19,469Z", "2026-11-21T09:40:19.46xZ", "2026-11-21T09:40:19.469",
        ] {
            #expect(Timestamp.milliseconds(iso8601: text) == nil, "\(text)")
        }
        // From Python: (epoch + timedelta(milliseconds=…)).strftime("%Y-%m-%d %H:%M:%S.") and the milliseconds.
        let texts: [(Int64, String)] = [
            (0, "1970-01-01 00:00:00.000"), (1_795_772_419_494, "2026-11-27 09:40:19.494"),
            (1_709_251_199_999, "2024-02-29 23:59:59.999"), (-1, "1969-12-31 23:59:59.999"),
            (253_402_300_799_999, "9999-12-31 23:59:59.999"), (.max, "9999-12-31 23:59:59.999"),
            (.min, "0001-01-01 00:00:00.000"),
        ]
        for (milliseconds, text) in texts { #expect(Timestamp.debugText(milliseconds: milliseconds) == text) }
    }

    @Test(
        "cause before effect: within a step the lines come intents, position, ballColour, background, then the late lanes, the same in 40 runs of one recording"
    )
    func chainOrder() throws {
        var generator = SeededGenerator()
        let bytes = RandomRecording.bytes(count: 300, observations: true, using: &generator)
        var first: [String]?
        // The stages' lines go between the inputs' and the slot's.
        let slot = DebugTrace.names.firstIndex(of: "slotted")!
        let rank =
            DebugTrace.names[..<slot] + ["inner"] + (1...SlotPipe.most).map { "stage\($0)" } + DebugTrace.names[slot...]
            + CopyStream.allCases.map { "copy.\($0)" } + ["shared.map", "unshared.map", "late"]
        for run in 0..<40 {
            var trace: [String] = []
            try TraceExport.run(reader: .inMemory(bytes)) { trace.append($0) }
            if let first {
                #expect(trace == first, "run \(run), \(generator)")
                if trace != first { return }
            } else {
                first = trace
            }
            // A step begins at an intent's line: from there to the next, the ranks never go
            // back, and the times never either.
            var last = (rank: 0, time: "")
            for line in trace {
                // RxSwift's line: `yyyy-MM-dd HH:mm:ss.SSS: name -> event`.
                let time = String(line.prefix(23))
                #expect(line.dropFirst(23).hasPrefix(": "), "\(line)")
                let name = String(line.dropFirst(25).prefix { $0 != " " })
                let place = rank.firstIndex(of: name == "late" ? "late" : name)!
                if name == "intents", line.contains("Event next") { last.rank = 0 }
                #expect(place >= last.rank, "\(line) after a line of \(rank[last.rank]), \(generator)")
                #expect(time >= last.time, "\(line): time went back")
                last = (place, time)
            }
        }
        #expect(first?.contains { $0.contains(": late ") } == true, "the recording has late lanes")
    }

    @Test(
        "every stage of a pipe of several, a subscription each: lesson 17's tryMap throws (Event error, at the move into the corner), catch passes its fallback on and completes, a pipe built cancels the one before, the quit completes the last; learn's e is the intent completionRequested"
    )
    func stages() throws {
        // tryMap,catch; left to the edge; up into the corner (tryMap throws); filter,map; the slot
        // emptied (filter's and map's subscriptions cancelled); filter,map again; the quit.
        let recording = [
            #"{"format":"colourful-ball-replay","version":7,"terminal":{"columns":80,"rows":24},"colourRules":1}"#,
            #"{"t":0.1,"event":"operator","name":"tryMap,catch"}"#,
            #"{"t":0.2,"event":"arrow","direction":"left","distance":40}"#,
            #"{"t":0.3,"event":"arrow","direction":"up","distance":20}"#,
            #"{"t":0.4,"event":"operator","name":"filter,map"}"#, #"{"t":0.5,"event":"operator","name":"none"}"#,
            #"{"t":0.6,"event":"operator","name":"filter,map"}"#, #"{"t":0.7,"event":"quit"}"#,
        ]
        var trace: [String] = []
        try TraceExport.run(reader: .inMemory(Array(recording.map { $0 + "\n" }.joined().utf8))) {
            trace.append($0)
        }
        // No header's `started`: the times count from 1970-01-01 00:00:00 UTC.
        let stages = trace.filter { $0.contains(": stage") }.map { String($0.dropFirst("1970-01-01 00:00:".count)) }
        let corner = try #require(
            trace.first { $0.contains("position -> Event next(") && $0.hasPrefix("1970-01-01 00:00:00.300") })
        let cornered = String(corner.drop { $0 != "(" }.dropFirst().prefix { $0 != " " })
        #expect(
            stages == [
                "00.100: stage1 tryMap -> subscribed", "00.100: stage1 tryMap -> Event next(40,11 on 80×24)",
                "00.100: stage2 catch -> subscribed", "00.100: stage2 catch -> Event next(40,11 on 80×24)",
                "00.200: stage1 tryMap -> Event next(9,11 on 80×24)",
                "00.200: stage2 catch -> Event next(9,11 on 80×24)",
                "00.300: stage1 tryMap -> Event error(out of bounds at \(cornered))",
                "00.300: stage1 tryMap -> isDisposed",
                "00.300: stage2 catch -> Event next(40,11 on 80×24)", "00.300: stage2 catch -> Event completed",
                "00.300: stage2 catch -> isDisposed",
                "00.400: stage1 filter -> subscribed", "00.400: stage2 map -> subscribed",
                "00.500: stage1 filter -> isDisposed", "00.500: stage2 map -> isDisposed",
                "00.600: stage1 filter -> subscribed", "00.600: stage2 map -> subscribed",
                "00.700: stage1 filter -> Event completed", "00.700: stage1 filter -> isDisposed",
                "00.700: stage2 map -> Event completed", "00.700: stage2 map -> isDisposed",
            ], "\(trace.joined(separator: "\n"))")
        // learn's e: the intent by its own name, then the completions it asks for.
        let completion = [
            #"{"format":"colourful-ball-replay","version":7,"terminal":{"columns":80,"rows":24},"colourRules":1}"#,
            #"{"t":0.1,"event":"arrow","direction":"left","distance":1}"#, #"{"t":0.2,"event":"completed"}"#,
        ]
        var completed: [String] = []
        try TraceExport.run(reader: .inMemory(Array(completion.map { $0 + "\n" }.joined().utf8))) {
            completed.append($0)
        }
        let intents = completed.filter { $0.contains(": intents -> ") }.map { String($0.dropFirst(25)) }
        #expect(
            intents.suffix(3) == [
                "intents -> Event next(completionRequested)", "intents -> Event completed", "intents -> isDisposed",
            ], "\(intents)")
    }

    /// The trace's lines of `recording` (its header first) that name a lane starting with
    /// `prefix`, without the date and hour (`00.200: inner 1 -> subscribed`).
    static func lines(of recording: [String], naming prefix: String) throws -> [String] {
        var trace: [String] = []
        try TraceExport.run(reader: .inMemory(Array(recording.map { $0 + "\n" }.joined().utf8))) { trace.append($0) }
        return trace.filter { $0.dropFirst(25).hasPrefix(prefix) }.map {
            String($0.dropFirst("1970-01-01 00:00:".count))
        }
    }

    @Test(
        "flatMap's and flatMapLatest's inner subscriptions, from the operators' own taps: each subscribed at its press, handed the position, each new one, disposed of where flatMapLatest switches away at the release or a pipe built cancels it, completed at the quit; numbered afresh with each pipe"
    )
    func inners() throws {
        let header =
            #"{"format":"colourful-ball-replay","version":8,"terminal":{"columns":80,"rows":24},"colourRules":1}"#
        // flatMap: two presses, two inner subscriptions, each passing the arrow's move on; the
        // pipe emptied cancels both.
        let flatMap = try Self.lines(
            of: [
                header, #"{"t":0.1,"event":"operator","name":"flatMap"}"#,
                #"{"t":0.2,"event":"pressed","cell":[40,11]}"#, #"{"t":0.3,"event":"dragged","cell":[42,11]}"#,
                #"{"t":0.4,"event":"released","cell":[42,11]}"#, #"{"t":0.5,"event":"pressed","cell":[42,11]}"#,
                #"{"t":0.6,"event":"released","cell":[42,11]}"#,
                #"{"t":0.7,"event":"arrow","direction":"right","distance":1}"#,
                #"{"t":0.8,"event":"operator","name":"none"}"#, #"{"t":0.9,"event":"quit"}"#,
            ], naming: "inner ")
        #expect(
            flatMap == [
                "00.200: inner 1 -> subscribed", "00.200: inner 1 -> Event next(40,11 on 80×24)",
                "00.300: inner 1 -> Event next(42,11 on 80×24)",
                "00.500: inner 2 -> subscribed", "00.500: inner 2 -> Event next(42,11 on 80×24)",
                "00.700: inner 1 -> Event next(43,11 on 80×24)", "00.700: inner 2 -> Event next(43,11 on 80×24)",
                "00.800: inner 1 -> isDisposed", "00.800: inner 2 -> isDisposed",
            ], "\(flatMap)")
        // flatMapLatest: the release's position goes through, then the switch to .empty()
        // disposes of the inner; a pipe built again numbers from 1; the quit completes the one
        // under way.
        let latest = try Self.lines(
            of: [
                header, #"{"t":0.1,"event":"operator","name":"flatMapLatest"}"#,
                #"{"t":0.2,"event":"pressed","cell":[40,11]}"#, #"{"t":0.3,"event":"released","cell":[41,11]}"#,
                #"{"t":0.4,"event":"pressed","cell":[41,11]}"#,
                #"{"t":0.5,"event":"operator","name":"flatMapLatest"}"#, #"{"t":0.6,"event":"quit"}"#,
            ], naming: "inner ")
        #expect(
            latest == [
                "00.200: inner 1 -> subscribed", "00.200: inner 1 -> Event next(40,11 on 80×24)",
                "00.300: inner 1 -> Event next(41,11 on 80×24)", "00.300: inner 1 -> isDisposed",
                "00.400: inner 2 -> subscribed", "00.400: inner 2 -> Event next(41,11 on 80×24)",
                "00.500: inner 2 -> isDisposed", "00.500: inner 1 -> subscribed",
                "00.500: inner 1 -> Event next(41,11 on 80×24)",
                "00.600: inner 1 -> Event completed", "00.600: inner 1 -> isDisposed",
            ], "\(latest)")
    }

    @Test(
        "on random recordings with operators, the inner subscriptions the trace follows from flatMap's and flatMapLatest's own taps are, by number, those the session's model holds live as each intent comes"
    )
    func innersAgreeWithTheModel() throws {
        var generator = SeededGenerator()
        var compared = 0
        for _ in 0..<30 {
            let bytes = RandomRecording.bytes(count: 1 + generator.below(300), operators: true, using: &generator)
            var trace: [String] = []
            try TraceExport.run(reader: .inMemory(bytes)) { trace.append($0) }
            // The model: the session's count of them, as the panel's inner lanes draw them.
            let player = try ReplayPlayer(reader: .inMemory(bytes))
            let recorder = StreamRecorder(session: player.session, capacity: 100_000)
            while let event = try player.nextEvent() { player.apply(event) }
            // The trace's: those subscribed and not yet disposed of, as each intent's line comes.
            var (live, asIntentsCame): (Set<Int>, [Set<Int>]) = ([], [])
            for line in trace {
                let said = line.dropFirst(25)
                if said.hasPrefix("intents -> Event next(") { asIntentsCame.append(live) }
                guard said.hasPrefix("inner "), let number = Int(said.dropFirst(6).prefix { $0 != " " }) else {
                    continue
                }
                if said.hasSuffix(" -> subscribed") { live.insert(number) }
                if said.hasSuffix(" -> isDisposed") { live.remove(number) }
            }
            let columns = recorder.columns
            #expect(asIntentsCame.count == columns.count - 1, "\(generator)")
            for (index, traced) in asIntentsCame.enumerated() where index < columns.count {
                let model = Set(columns[index].innersAfter)
                #expect(traced == model, "before intent \(index + 1), \(generator)")
                if traced != model { return }
                compared += model.count
            }
        }
        #expect(compared > 20, "\(compared) live inner subscriptions compared, \(generator)")
        print("inner subscriptions compared: \(compared), \(generator)")
    }

    @Test(
        "learn's Publish copy (o): copy.subject, copy.ball and copy.screen each subscribed where the screen is bound through it (handed nothing), each value at its time, disposed of where it is bound back; one still bound at the end disposed of there"
    )
    func copies() throws {
        let header =
            #"{"format":"colourful-ball-replay","version":8,"terminal":{"columns":80,"rows":24},"colourRules":1}"#
        let recording = [
            header, #"{"t":0,"event":"lesson","number":5,"title":"Why Behavior"}"#,
            #"{"t":0.1,"event":"arrow","direction":"right","distance":1}"#,
            #"{"t":0.2,"event":"screen","through":"publish"}"#,
            #"{"t":0.3,"event":"arrow","direction":"right","distance":1}"#,
            #"{"t":0.4,"event":"screen","through":"chain"}"#,
            #"{"t":0.5,"event":"arrow","direction":"right","distance":1}"#,
            #"{"t":0.6,"event":"screen","through":"publish"}"#, #"{"t":0.7,"event":"quit"}"#,
        ]
        let copies = try Self.lines(of: recording, naming: "copy.")
        // The colours at 42,11 by the rule, the copy's screen scanned from white: the copy's
        // subject is a Publish subject, which handed it nothing before.
        let ball = BallColourRule.ballColour(column: 42, row: 11)
        let screen = screenColour(BallState.screenBeforeTheBall, ball)
        #expect(
            copies == [
                "00.200: copy.subject -> subscribed", "00.200: copy.ball -> subscribed",
                "00.200: copy.screen -> subscribed", "00.300: copy.subject -> Event next(42,11 on 80×24)",
                "00.300: copy.ball -> Event next(\(ball.name))", "00.300: copy.screen -> Event next(\(screen.name))",
                "00.400: copy.subject -> isDisposed", "00.400: copy.ball -> isDisposed",
                "00.400: copy.screen -> isDisposed", "00.600: copy.subject -> subscribed",
                "00.600: copy.ball -> subscribed", "00.600: copy.screen -> subscribed",
                "00.700: copy.subject -> isDisposed", "00.700: copy.ball -> isDisposed",
                "00.700: copy.screen -> isDisposed",
            ], "\(copies)")
    }

    @Test(
        "learn's copies of map (u): the shared copy's map subscribed once, the unshared one's once for each of its two subscribers, each run a line (position hands its value at once, so each runs at u), all disposed of at u again, or completed at the quit"
    )
    func mapCopies() throws {
        let recording = [
            #"{"format":"colourful-ball-replay","version":8,"terminal":{"columns":80,"rows":24},"colourRules":1}"#,
            #"{"t":0,"event":"lesson","number":9,"title":"share"}"#,
            #"{"t":0.1,"event":"mapCopies","on":true}"#,
            #"{"t":0.2,"event":"arrow","direction":"right","distance":1}"#,
            #"{"t":0.3,"event":"mapCopies","on":false}"#,
            #"{"t":0.4,"event":"arrow","direction":"right","distance":1}"#,
            #"{"t":0.45,"event":"mapCopies","on":true}"#, #"{"t":0.5,"event":"quit"}"#,
        ]
        // The colours by the rule, at 40,11, 41,11 and 42,11: map runs whether the colour is new
        // or not.
        let colours = (40...42).map { BallColourRule.ballColour(column: $0, row: 11).name }
        for name in ["shared.map", "unshared.map 1", "unshared.map 2"] {
            let runs = try Self.lines(of: recording, naming: name + " ")
            #expect(
                runs == [
                    "00.100: \(name) -> subscribed", "00.100: \(name) -> Event next(\(colours[0]))",
                    "00.200: \(name) -> Event next(\(colours[1]))", "00.300: \(name) -> isDisposed",
                    "00.450: \(name) -> subscribed", "00.450: \(name) -> Event next(\(colours[2]))",
                    "00.500: \(name) -> Event completed", "00.500: \(name) -> isDisposed",
                ], "\(runs)")
        }
    }

    @Test(
        "a tour that quit after e (format 8): the late Relay, still subscribed, is disposed of at the quit's time, 2.5 s after the last line before it; a version 7 file without the quit, at its last line"
    )
    func quitAfterCompletion() throws {
        let tour = try RecordedTour(first: Lesson.all.firstIndex { $0.id == "completion" }!)
        tour.pilot.press(.right)
        for key: Unicode.Scalar in ["2", "e", "b", "p", "r", "v"] { tour.pilot.type(key) }
        tour.pilot.pass(.milliseconds(2_500))
        tour.pilot.type("q")
        let lines = tour.file.lines
        #expect(lines.last?.hasSuffix(#","event":"quit"}"#) == true, "\(lines)")
        // RxSwift's time: the tour's `started`, 2026-11-28T00:00:00Z (1,795,824,000 s since 1970,
        // as Python's datetime says), and a line's time.
        func stamp(_ line: String) throws -> String {
            let seconds = try #require(Double(line.dropFirst(#"{"t":"#.count).prefix { $0 != "," }))
            return Timestamp.debugText(milliseconds: 1_795_824_000_000 + Int64((seconds * 1_000).rounded()))
        }
        func trace(_ recording: [String]) throws -> [String] {
            var trace: [String] = []
            try TraceExport.run(reader: .inMemory(Array(recording.map { $0 + "\n" }.joined().utf8))) {
                trace.append($0)
            }
            return trace
        }
        let (quit, before) = (try stamp(lines[lines.count - 1]), try stamp(lines[lines.count - 2]))
        #expect(quit > before)
        let traced = try trace(lines)
        #expect(traced.last == "\(quit): late Relay -> isDisposed", "\(traced.suffix(4))")
        // Version 7 had no quit after completed: its tour ends with its last line.
        let older = try trace(
            [lines[0].replacing(#""version":8"#, with: #""version":7"#)] + lines.dropFirst().dropLast())
        #expect(older.last == "\(before): late Relay -> isDisposed", "\(older.suffix(4))")
    }
}

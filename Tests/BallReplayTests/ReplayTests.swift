import BallModel
import BallProgram
import BallReplay
import BallStreams
import BallTestSupport
import ColourCore
import Foundation
import Testing

/// A reader over `bytes`, handed over in chunks of `chunk` bytes.
func reader(_ bytes: [UInt8], name: String = "session.jsonl", chunk: Int = 7) -> ReplayReader {
    ReplayReader.inMemory(bytes, name: name, chunk: chunk)
}

func replaysDirectory() -> URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Replays")
}

func trace(_ bytes: [UInt8], json: Bool) throws -> [String] {
    var lines: [String] = []
    try HeadlessReplay.run(reader: reader(bytes), json: json) { lines.append($0) }
    return lines
}

@Suite("Record and replay")
struct ReplayTests {
    @Test("a scripted session recorded and replayed gives the same trace")
    func roundTrip() throws {
        let driver = Pilot<Play>(screen: ScreenSize(columns: 80, rows: 24))
        let file = MemoryLines()
        let recorder = try ReplayRecorder(
            session: driver.session, writer: file, program: "test", started: "2026-11-21T00:00:00Z")
        var live: [String] = [HeadlessReplay.traceLine(driver.appearance, time: 0, json: true)]
        func act(_ seconds: Double, _ action: () -> Void) {
            driver.passTime(to: seconds)
            let now = driver.session.now.seconds
            let before = driver.appearance.position.centre
            action()
            if driver.appearance.position.centre != before {
                live.append(HeadlessReplay.traceLine(driver.appearance, time: now, json: true))
            }
        }
        act(0.25) { driver.send(.pressed(at: Cell(column: 42, row: 11))) }
        for (step, column) in (43...60).enumerated() {
            act(Double(300 + step * 16) / 1000) { driver.send(.dragged(to: Cell(column: column, row: 12))) }
        }
        act(0.7) { driver.send(.released(at: Cell(column: 60, row: 12))) }
        act(1.0) { driver.press(.left) }
        act(1.1) { driver.press(.up, shifted: true) }
        act(1.5) { driver.resize(columns: 50, rows: 16) }
        act(2.0) { driver.type("c") }
        act(2.5) { driver.type("q") }
        #expect(recorder.failure == nil)
        #expect(file.lines.count == 1 + 1 + 18 + 1 + 4 + 1)
        let replayed = try trace(file.bytes, json: true)
        #expect(replayed == live)
        // The replay ends in the same place as the session.
        let player = try ReplayPlayer(reader: reader(file.bytes))
        while try player.step() {}
        #expect(player.session.viewModel.current == driver.appearance)
    }

    @Test("the checked-in sample replays to its golden trace, in text and JSON")
    func goldenTrace() throws {
        let bytes = try [UInt8](Data(contentsOf: replaysDirectory().appendingPathComponent("sample.jsonl")))
        let text = try trace(bytes, json: false)
        let json = try trace(bytes, json: true)
        #expect(
            snapshotMismatch(text.joined(separator: "\n") + "\n", named: "replay-sample-trace", beside: #filePath)
                == nil)
        #expect(
            snapshotMismatch(json.joined(separator: "\n") + "\n", named: "replay-sample-trace-json", beside: #filePath)
                == nil)
        #expect(try trace(bytes, json: true) == json)  // Two runs, identical.
    }

    @Test("every colour in a trace follows the colour rules")
    func traceColoursFollowTheRules() throws {
        let bytes = try [UInt8](Data(contentsOf: replaysDirectory().appendingPathComponent("sample.jsonl")))
        var background = FlatColour.flatWhite
        for line in try trace(bytes, json: true) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let points = try #require(object["points"] as? [Double])
            let ball = BallColourRule.ballColour(at: PointPosition(x: points[0], y: points[1]))
            background = BallColourRule.background(forBall: ball, current: background)
            #expect((object["ball"] as? [String: String])?["name"] == ball.name)
            #expect((object["background"] as? [String: String])?["name"] == background.name)
        }
    }

    @Test("a recording cut off mid-line replays every complete event, with a warning")
    func cutOffMidLine() throws {
        let bytes = try [UInt8](Data(contentsOf: replaysDirectory().appendingPathComponent("sample.jsonl")))
        let lastLineStart = bytes.dropLast().lastIndex(of: 0x0A)! + 1
        let cut = Array(bytes[..<(lastLineStart + 12)])  // Half of the final `quit` line.
        let cutReader = reader(cut, name: "cut.jsonl")
        var lines: [String] = []
        try HeadlessReplay.run(reader: cutReader, json: true) { lines.append($0) }
        #expect(lines == (try trace(bytes, json: true)))
        #expect(cutReader.warnings.count == 1)
        #expect(cutReader.warnings.first?.hasPrefix("cut.jsonl, line 14 is cut off") == true)
        // Cut in the middle of a drag: the drag before it still replays.
        let midDrag = Array(bytes[..<(bytes.firstIndex(of: UInt8(ascii: "]"))! + 60)])
        #expect(throws: Never.self) { try trace(midDrag, json: false) }
    }

    @Test("older versions keep replaying; newer ones are refused in one sentence")
    func versions() throws {
        // Version 1 (intents only) replays as it did.
        let older =
            #"{"format":"colourful-ball-replay","version":1,"terminal":{"columns":80,"rows":24},"colourRules":1}"#
        #expect(
            try trace(
                Array((older + "\n" + #"{"t":0.1,"event":"arrow","direction":"left","distance":1}"# + "\n").utf8),
                json: false
            ).count == 2)
        let newer =
            #"{"format":"colourful-ball-replay","version":9,"terminal":{"columns":80,"rows":24},"colourRules":1}"#
        #expect(throws: ReplayError.self) { try trace(Array((newer + "\n").utf8), json: false) }
        do {
            _ = try trace(Array((newer + "\n").utf8), json: false)
        } catch let error as ReplayError {
            #expect(
                error.description
                    == "session.jsonl, line 1: was written by a newer colourful-ball (format version 9; this one reads up to 8): update colourful-ball to replay it."
            )
        }
    }
}

extension ReplayTests {
    @Test("a UTF-8 byte-order mark before the header is accepted, as a CR before each newline is")
    func byteOrderMarkAndCRLF() throws {
        let bytes = try [UInt8](Data(contentsOf: replaysDirectory().appendingPathComponent("sample.jsonl")))
        let marked = [0xEF, 0xBB, 0xBF] + bytes
        #expect(try trace(marked, json: true) == (try trace(bytes, json: true)))
        let crlf = Array(String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\n", with: "\r\n").utf8)
        #expect(try trace([0xEF, 0xBB, 0xBF] + crlf, json: true) == (try trace(bytes, json: true)))
        // Only at the start of the file: inside, it is not JSON.
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        let rest: String = lines[1...].joined(separator: "\n")
        let inside = Array((String(lines[0]) + "\n\u{FEFF}" + rest + "\n").utf8)
        #expect(throws: ReplayError.self) { try trace(inside, json: false) }
    }
}

@Suite("The reader's fast path for canonical lines")
struct CanonicalFastPathTests {
    /// Everything a reader makes of `bytes`: its events, then its error or warnings.
    static func read(_ bytes: [UInt8], fast: Bool) -> [String] {
        var chunks = [bytes]
        let reader = ReplayReader(file: "f.jsonl", canonicalFastPath: fast) { chunks.popLast() }
        var outcome: [String] = []
        do {
            while let event = try reader.next() { outcome.append("\(event)") }
        } catch {
            outcome.append("error: \(error)")
        }
        return outcome + reader.warnings
    }

    @Test("random recordings, whole and broken in many small ways, read the same with and without the fast path")
    func sameAsTheFullParser() {
        var generator = SeededGenerator()
        let edits: [(String, String)] = [
            ("\"cell\":[", "\"cell\":[0"), ("\"cell\":[", "\"cell\":[-"), (",", ", "), ("\"t\":", "\"t\":0"),
            ("\"t\":", "\"t\":1e"), ("]}", "]} "), ("}", ",\"x\":1}"), ("\"t\":", "\"t\":9999999"),
            ("\"t\":0.", "\"t\":0.5e-3"), ("\"distance\":", "\"distance\":100"), ("right", "Right"),
            ("\"size\":[", "\"size\":[99"), ("\"event\":\"", "\"event\":\"x"), ("0", "00"), ("1", "10000"),
            (".", ".0000000000000000"), ("\"t\":", "\"t\":-"),
        ]
        for round in 0..<200 {
            var lines = String(
                decoding: RandomRecording.bytes(count: 1 + generator.below(60), operators: true, using: &generator),
                as: UTF8.self
            )
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for _ in 0..<generator.below(4) {
                let line = 1 + generator.below(max(1, lines.count - 1))
                guard line < lines.count else { continue }
                let (from, to) = edits[generator.below(edits.count)]
                if let range = lines[line].range(of: from) { lines[line].replaceSubrange(range, with: to) }
            }
            let bytes = Array(lines.joined(separator: "\n").utf8)
            let fast = Self.read(bytes, fast: true)
            #expect(fast == Self.read(bytes, fast: false), "round \(round), \(generator)")
            #expect(!fast.isEmpty)
        }
    }

    @Test("random times of up to 15 digits and more read to the same Double both ways")
    func times() {
        var generator = SeededGenerator()
        let header = ReplayFormat.headerLine(terminal: ScreenSize(columns: 80, rows: 24), program: "t", started: "s")
        for round in 0..<3_000 {
            let count = 1 + generator.below(17)
            var digits = (0..<count).map { _ in String(generator.below(10)) }.joined()
            let point = generator.below(count + 1)
            if point > 0, point < count { digits.insert(".", at: digits.index(digits.startIndex, offsetBy: point)) }
            let line = #"{"t":\#(digits),"event":"recentred"}"#
            let bytes = Array((header + "\n" + line + "\n").utf8)
            #expect(
                Self.read(bytes, fast: true) == Self.read(bytes, fast: false), "round \(round): \(line), \(generator)")
        }
    }
}

/// What the writer writes, the reader reads: whatever a user does, the recording replays.
@Suite("Every recording replays")
struct EveryRecordingReplays {
    @Test(
        "random presses, drags and releases anywhere (outside the area, on the panel, beyond the window), keys, late subscribers, the panel opened and closed, resizes: every file replays to the live state and lanes"
    )
    func randomSessions() throws {
        var generator = SeededGenerator()
        for _ in 0..<30 {
            var size = ScreenSize(columns: 24 + generator.below(120), rows: 8 + generator.below(40))
            let recorded = try RecordedPlay(screen: size)
            let (driver, file, recorder) = (recorded.pilot, recorded.file, recorded.recorder)
            for _ in 0..<200 {
                driver.run([.pass(.milliseconds(generator.below(600)))])
                // Anywhere in the window, and a little beyond it (a report read just after the
                // window shrank).
                let cell = Cell(column: generator.below(size.columns + 10), row: generator.below(size.rows + 10))
                switch generator.below(16) {
                case 0, 1: driver.run([.bytes(TerminalBytes.press(cell))])
                case 2...6: driver.run([.bytes(TerminalBytes.drag(cell))])
                case 7: driver.run([.bytes(TerminalBytes.release(cell))])
                case 8: driver.run([.bytes(TerminalBytes.move(cell))])
                case 9: driver.toggleStreams()
                case 10:
                    // (`f` then `(` or `)`: a timed stage's interval chosen, and recorded.)
                    let keys: [Unicode.Scalar] = [
                        "b", "p", "r", "v", "c", "?", "x", "f", "1", "2", "3", "4", "5", "(", ")",
                    ]
                    driver.type(keys[generator.below(keys.count)])
                case 11, 12: driver.press(Direction.allCases[generator.below(4)], shifted: generator.below(2) == 0)
                case 13:
                    // Sometimes a window larger than any recording may hold.
                    size =
                        generator.below(10) == 0
                        ? ScreenSize(columns: 1_001 + generator.below(300), rows: 20 + generator.below(1_100))
                        : ScreenSize(columns: 10 + generator.below(150), rows: 4 + generator.below(50))
                    driver.resize(columns: size.columns, rows: size.rows)
                default: driver.run([.bytes(TerminalBytes.escape)])  // Esc, then a key: Alt+key, nothing.
                }
            }
            driver.type("q")
            #expect(recorder.failure == nil && recorder.eventsWritten == file.lines.count - 1, "\(generator)")
            // Read back whole, with the fast path and without: every line is one the reader takes.
            for fast in [true, false] {
                let reader = ReplayReader(file: "random.jsonl", canonicalFastPath: fast, nextChunk: chunks(file.bytes))
                let player = try ReplayPlayer(reader: reader)
                let streams = StreamRecorder(session: player.session)
                var events = 0
                player.observed = {
                    streams.apply($0.observation, time: SessionTime(seconds: $0.time))
                    events += 1
                }
                while try player.step() { events += 1 }
                #expect(events == recorder.eventsWritten, "\(generator)")
                #expect(player.session.state == driver.session.state, "\(generator)")
                // The late subscribers were made again where they were made: the same lanes.
                #expect(streams.lateLanes == driver.streams.lateLanes, "\(generator)")
                #expect(reader.warnings.isEmpty, "\(generator)")
            }
        }
    }

    /// The bytes in chunks of 4 KiB.
    private func chunks(_ bytes: [UInt8]) -> () -> [UInt8]? {
        var offset = 0
        return {
            guard offset < bytes.count else { return nil }
            defer { offset += 4_096 }
            return Array(bytes[offset..<min(bytes.count, offset + 4_096)])
        }
    }
}

extension ReplayTests {
    @Test(
        "a pipe or stage written with its timed stage's interval reads back as written, both ways; a file before version 7 gives the usual 300 ms"
    )
    func intervalsReadBack() throws {
        var generator = SeededGenerator()
        let header = ReplayFormat.headerLine(terminal: ScreenSize(columns: 80, rows: 24), program: "t", started: "s")
        var seen = Set<SlotInterval>()
        for round in 0..<300 {
            var pipe = SlotPipe.none
            var lines = [header]
            var written: [Intent] = []
            for step in 0..<6 {
                let intent = pipe.randomChange(using: &generator)
                pipe = pipe.after(intent)
                written.append(intent)
                lines.append(ReplayFormat.line(for: intent, at: Double(step) / 10))
                if let timing = pipe.timing { seen.insert(timing) }
            }
            let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
            let read = try Self.intents(bytes)
            #expect(read == written, "round \(round): \(lines), \(generator)")
            #expect(
                CanonicalFastPathTests.read(bytes, fast: true) == CanonicalFastPathTests.read(bytes, fast: false),
                "round \(round), \(generator)")
        }
        #expect(seen == Set(SlotInterval.allCases), "\(generator)")
        // Version 6 wrote no interval: its debounce waits 300 ms.
        let older =
            #"{"format":"colourful-ball-replay","version":6,"terminal":{"columns":80,"rows":24},"colourRules":1}"#
        let read = try Self.intents(
            Array((older + "\n" + #"{"t":0.1,"event":"operator","name":"filter,debounce"}"# + "\n").utf8))
        #expect(read == [.operatorChosen([.filter, .debounce])])
        #expect(SlotPipe([.filter, .debounce]).timing == .usual)
    }

    @Test(
        "a file that names catchAndReturn by Combine's name, replaceError, as files did before, reads it as catchAndReturn, in a pipe and as a stage; the recorder writes RxSwift's"
    )
    func formerNameReads() throws {
        let header = ReplayFormat.headerLine(terminal: ScreenSize(columns: 80, rows: 24), program: "t", started: "s")
        let lines = [
            header, #"{"t":0.1,"event":"operator","name":"tryMap,replaceError"}"#,
            #"{"t":0.2,"event":"operator","name":"tryMap"}"#, #"{"t":0.3,"event":"stage","name":"replaceError"}"#,
        ]
        let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
        let read = try Self.intents(bytes)
        #expect(
            read == [
                .operatorChosen([.tryMap, .catchAndReturn]), .operatorChosen([.tryMap]), .stageAdded(.catchAndReturn),
            ])
        #expect(
            CanonicalFastPathTests.read(bytes, fast: true) == CanonicalFastPathTests.read(bytes, fast: false))
        #expect(
            ReplayFormat.line(for: .operatorChosen([.tryMap, .catchAndReturn]), at: 0.1)
                == #"{"t":0.1,"event":"operator","name":"tryMap,catchAndReturn"}"#)
    }

    /// Every intent of `bytes`, read in chunks of 7 bytes.
    static func intents(_ bytes: [UInt8]) throws -> [Intent] {
        let reader = ReplayReader.inMemory(bytes)
        var intents: [Intent] = []
        while let event = try reader.next() { intents.append(event.intent) }
        return intents
    }

    @Test("blank lines (a recording with no quit and an empty last line) and a 4,096-byte line ending in CRLF are read")
    func blankLinesAndLongCRLF() throws {
        let header = ReplayFormat.headerLine(terminal: ScreenSize(columns: 80, rows: 24), program: "t", started: "s")
        let start = #"{"t":0.1,"event":"recentred","pad":""#
        let long = start + String(repeating: "x", count: 4_096 - start.utf8.count - 2) + #""}"#
        #expect(long.utf8.count == ReplayFormat.maximumLineLength)
        let text =
            header + "\n" + ReplayFormat.line(for: .arrowPressed(.left, distance: 1), at: 0.05) + "\n\n"
            + long + "\r\n" + "  \t\n" + ReplayFormat.line(for: .arrowPressed(.up, distance: 1), at: 0.2) + "\n\n"
        for chunk in [1, 7, 4_097, 100_000] {
            let reader = ReplayReader.inMemory(Array(text.utf8), chunk: chunk)
            var intents: [Intent] = []
            while let event = try reader.next() { intents.append(event.intent) }
            #expect(
                intents == [.arrowPressed(.left, distance: 1), .recentred, .arrowPressed(.up, distance: 1)],
                "chunk \(chunk)")
            #expect(reader.warnings.isEmpty)
        }
    }
}

extension ReplayTests {
    @Test("a session longer than the reader's limit (ten years) still writes times it reads back")
    func longSessions() throws {
        let header = ReplayFormat.headerLine(terminal: ScreenSize(columns: 80, rows: 24), program: "t", started: "s")
        let lines = [
            header, ReplayFormat.line(for: .recentred, at: 700_000), ReplayFormat.line(for: .recentred, at: 4e8),
            ReplayFormat.line(for: .quitRequested, at: .infinity),
        ]
        #expect(lines[2].contains(#""t":315360000,"#))
        let reader = ReplayReader.inMemory(Array((lines.joined(separator: "\n") + "\n").utf8))
        var times: [Double] = []
        while let event = try reader.next() { times.append(event.time) }
        #expect(times == [700_000, 315_360_000, 315_360_000])
    }
}

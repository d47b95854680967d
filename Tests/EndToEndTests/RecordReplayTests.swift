import BallModel
import BallProgram
import BallStreams
import BallTestSupport
import Foundation
import Platform
import TerminalIO
import Testing
import TextFormats

/// Recording in a real terminal, and the three replays of what was recorded.
@Suite("Record and replay, end to end", .serialized)
struct RecordReplayTests {
    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("BallReplayTests/Replays/sample.jsonl").path

    func scratch(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("colourful-ball-\(getpid())-\(name)").path
    }

    @Test(
        "play --trace writes RxSwift's debug() lines as it goes, and they end with the quit; replay --trace of the recording says the same"
    )
    func playTrace() throws {
        let trace = scratch("play-trace.txt")
        let recording = scratch("play-trace.jsonl")
        defer { for file in [trace, recording] { try? FileManager.default.removeItem(atPath: file) } }
        let terminal = try Self.dragWhileTracing(trace: trace, recording: recording)
        try terminal.mouse("released", column: 44, row: 11)
        try terminal.press("q")
        #expect(try terminal.waitForExit().status == 0)
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").map(String.init)
        // RxSwift's debug() line: `yyyy-MM-dd HH:mm:ss.SSS: name -> event`, the time now, in UTC.
        let today = Self.utcDate()
        let stamp = /\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}: [a-zA-Z() 0-9]+ -> .+/
        #expect(lines.allSatisfy { $0.wholeMatch(of: stamp) != nil }, "\(lines.prefix(3))")
        #expect(lines.first?.hasPrefix(today) == true || lines.first?.hasPrefix(Self.utcDate(ago: 60)) == true)
        let events = lines.map { String($0.dropFirst(25)) }
        // Each publisher's own lines are in order (OpenCombine keeps a subject's subscribers
        // in a set: which publisher hears a value first may differ from run to run).
        func of(_ events: [String], _ name: String) -> [String] { events.filter { $0.hasPrefix("\(name) -> ") } }
        #expect(
            of(events, "position").prefix(2) == ["position -> subscribed", "position -> Event next(40,11 on 80×24)"])
        #expect(events.contains("intents -> Event next(dragged(44,11))"))
        #expect(events.contains("position -> Event next(44,11 on 80×24)"))
        for name in DebugTrace.names {
            #expect(of(events, name).suffix(2) == ["\(name) -> Event completed", "\(name) -> isDisposed"], "\(name)")
        }
        // The recording's trace, at the recording's times, has the same events.
        let replayed = try run([programPath, "replay", recording, "--trace", "-"])
        #expect(replayed.status == 0, "\(replayed.error)")
        let again = replayed.output.split(separator: "\n").map { String($0.dropFirst(25)) }
        for name in DebugTrace.names { #expect(of(again, name) == of(events, name), "\(name)") }
        // From the same start, to the millisecond: the header keeps it (`started` …T09:40:19.469Z).
        let header = try String(contentsOfFile: recording, encoding: .utf8).prefix { $0 != "\n" }
        #expect(header.firstMatch(of: /"started":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"/) != nil, "\(header)")
        #expect(
            replayed.output.prefix(23) == lines.first?.prefix(23),
            "the subscriptions at the start: live \(lines.first ?? ""), replayed \(replayed.output.prefix(40))")
    }

    @Test(
        "a signal (closing the window, kill, Ctrl-C's SIGINT) keeps the trace as it keeps the recording: every line of every intent handled",
        arguments: [SIGHUP, SIGTERM, SIGINT])
    func traceKeptOnSignal(signal: Int32) throws {
        let trace = scratch("signal-trace-\(signal).txt")
        let recording = scratch("signal-trace-\(signal).jsonl")
        defer { for file in [trace, recording] { try? FileManager.default.removeItem(atPath: file) } }
        let terminal = try Self.dragWhileTracing(trace: trace, recording: recording)
        kill(try terminal.programPID(), signal)
        #expect(try terminal.waitForExit().status == 128 + Int(signal))
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").map { $0.dropFirst(25) }
        #expect(lines.first == "intents -> subscribed")
        #expect(lines.contains("intents -> Event next(dragged(44,11))"), "\(lines.suffix(4))")
        #expect(lines.contains("position -> Event next(44,11 on 80×24)"), "\(lines.suffix(4))")
        let replayed = try run([programPath, "replay", recording, "--headless"])
        #expect(replayed.status == 0 && replayed.output.contains("cell 44,11"))
    }

    @Test(
        "a trace that fails part-way (a file-size limit) keeps what it wrote, the recording goes on, and the exit says what happened to each"
    )
    func traceFailsPartWay() throws {
        let trace = scratch("limited-trace.txt")
        let recording = scratch("limited-trace.jsonl")
        defer { for file in [trace, recording] { try? FileManager.default.removeItem(atPath: file) } }
        // 8 blocks of 512 bytes a file: the trace's five lines an intent reach it first.
        let terminal = try TerminalSession(
            arguments: [
                "-c",
                #"trap "" XFSZ; ulimit -f 8; exec "\#(programPath)" --trace "\#(trace)" --record "\#(recording)""#,
            ], program: "sh")
        try terminal.waitForScreen { $0.contains("320,176 pt") }
        try terminal.mouse("pressed", column: 10, row: 5)
        for column in 11...40 {
            try terminal.mouse("dragged", column: column, row: 5)
            // (Beside the notice, the place may be the short one.)
            try terminal.waitForScreen { $0.contains(" \(column),5 ") }
        }
        try terminal.waitForScreen { $0.contains("trace stopped") }
        try terminal.press("q")
        #expect(try terminal.waitForExit().status == 1)
        let said = try terminal.screen()
        #expect(said.contains("stopped early (it keeps the lines written before)"), "\(said)")
        #expect(said.contains("File too large") && !said.contains("The recording to"), "\(said)")
        // Cut where the limit came: perhaps inside a character.
        let kept = String(decoding: try Data(contentsOf: URL(fileURLWithPath: trace)), as: UTF8.self)
        #expect(
            (try FileManager.default.attributesOfItem(atPath: trace)[.size] as? Int) == 4_096
                && kept.contains(": intents -> Event next(dragged(12,5))"))
        let replayed = try run([programPath, "replay", recording, "--headless"])
        #expect(replayed.status == 0 && replayed.output.contains("cell 40,5"), "\(replayed.error)")
    }

    /// Plays with `--trace trace --record recording`, and drags the ball from the middle to
    /// 44,11, each step on screen before the next.
    static func dragWhileTracing(trace: String, recording: String) throws -> TerminalSession {
        let terminal = try TerminalSession(arguments: ["--trace", trace, "--record", recording])
        try terminal.waitForScreen { $0.contains("320,176 pt") }
        try terminal.mouse("pressed", column: 40, row: 11)
        for column in 41...44 {
            try terminal.mouse("dragged", column: column, row: 11)
            try terminal.waitForScreen { $0.contains(" \(column),11 ") }
        }
        return terminal
    }

    /// Today's date in UTC, `seconds` ago: `2026-11-26`.
    static func utcDate(ago seconds: Int = 0) -> String {
        var now = time(nil) - seconds
        var parts = tm()
        gmtime_r(&now, &parts)
        return String(format: "%04d-%02d-%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
    }

    @Test("a session killed with SIGKILL mid-drag still replays every event it recorded")
    func recordKillReplay() throws {
        let file = scratch("killed.jsonl")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let terminal = try TerminalSession(arguments: ["--record", file])
        try terminal.waitForScreen { $0.contains("320,176 pt") }
        try terminal.mouse("pressed", column: 40, row: 11)
        for column in 41...52 { try terminal.mouse("dragged", column: column, row: 13) }
        try terminal.waitForScreen { $0.contains(" 52,13  ● flatMaroonDark #662521  on ■ flatTealDark") }
        kill(try terminal.programPID(), SIGKILL)
        #expect(try terminal.waitForExit().status == 137)

        let text = try run([programPath, "replay", file, "--headless"])
        #expect(text.status == 0)
        #expect(text.error.isEmpty)
        let lines = text.output.split(separator: "\n")
        #expect(lines.count == 13)  // The start, then one line per cell of the drag.
        #expect(
            lines.last?.contains(
                "cell 52,13  points 416,208  ball flatMaroonDark #662521  background flatTealDark #356273") == true)
        #expect(text.output == (try run([programPath, "replay", file, "--headless"])).output)
    }

    @Test("a name the program suggests in a command is one shell word the shell reads back as the name")
    func quotedForShell() throws {
        let names = ["s1.jsonl", "/tmp/a b.jsonl", "it's.jsonl", "$HOME.jsonl", "`x`;rm", "ä ö", "", "a\"b", "--x"]
        for name in names {
            let echoed = try run(["/bin/sh", "-c", "printf '%s|' " + name.quotedForShell])
            #expect(echoed.output == name + "|", "\(name) as \(name.quotedForShell)")
        }
        #expect("s1.jsonl".quotedForShell == "s1.jsonl", "a plain name stays as it is")
    }

    @Test("quit ends the recording with a quit event; an existing file is kept without --force")
    func recordAndQuit() throws {
        let file = scratch("quit.jsonl")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let terminal = try TerminalSession(arguments: ["--record", file])
        try terminal.waitForScreen { $0.contains("320,176 pt") }
        try terminal.press("Right", "Right", "q")
        #expect(try terminal.waitForExit().status == 0)
        // Back at the shell, what was recorded and how to play it back.
        let said = try terminal.screen()
        #expect(
            said.contains("Recorded 3 intents to \(file); colourful-ball replay \(file) plays them back."), "\(said)")
        let recorded = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
        #expect(recorded.count == 4)
        #expect(
            recorded.first?.hasPrefix(
                #"{"format":"colourful-ball-replay","version":8,"terminal":{"columns":80,"rows":24}"#) == true)
        #expect(recorded.last?.hasSuffix(#""event":"quit"}"#) == true)

        let again = try run([programPath, "--record", file], environment: ["TERM": "xterm-256color"])
        #expect(again.status == 1)
        #expect(
            again.error
                == "colourful-ball: \(file) already exists: choose another name, or add --force to overwrite it.\n")
        #expect(try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").count == 4)
    }

    @Test("replay in the terminal keeps the timing, stays at the end, paused, and restores the terminal after q")
    func terminalReplay() throws {
        let terminal = try TerminalSession(rows: 25, arguments: ["replay", Self.sample, "--speed", "4"])
        // At the end, paused: the change line says what the last intent changed (over a row).
        try terminal.waitForScreen {
            $0.contains(" paused  intent 13/13  t 1.09 s  4×  1 row hidden  51,7  ? keys  q quit")
                && $0.contains("#13 q quit:")
        }
        try terminal.press("q")
        let exit = try terminal.waitForExit()
        #expect(exit.status == 0)
        #expect(exit.modesRestored)
        #expect(try terminal.modes() == restoredModes)
    }

    @Test("a replay says it is one and which keys work; space pauses it, ? lists the replay's keys")
    func replayStatusAndHelp() throws {
        // Slowed down so that it is still playing while the keys are tried; 30 rows leave room
        // for the help's rows.
        let terminal = try TerminalSession(rows: 30, arguments: ["replay", Self.sample, "--speed", "0.02"])
        try terminal.waitForScreen { $0.contains(" replay  intent 0/13  t 0.00 s  0.02×") && $0.contains("? keys") }
        try terminal.press("Space")
        try terminal.waitForScreen { $0.contains(" paused  intent 0/13") }
        try terminal.press("?")
        let help = try terminal.waitForScreen { $0.contains("colourful-ball replay: keys") }
        // Each row's keys, then what they do, on one line of the box.
        let lines = help.split(separator: "\n")
        for row in KeyMap.help(for: .replay).rows {
            let line = lines.first { $0.contains(row.does) }
            let keys = line.flatMap { $0.range(of: row.keys) }
            let does = line.flatMap { $0.range(of: row.does) }
            #expect(keys != nil && does != nil && keys!.upperBound < does!.lowerBound, "\(row.keys): \(row.does)")
        }
        #expect(!help.contains("move 1 cell"))
        try terminal.press("Escape")  // Closes the help; does not quit.
        try terminal.waitForScreen {
            !$0.contains("colourful-ball replay: keys") && $0.contains(" paused  intent 0/13")
        }
        try terminal.press("Space")
        try terminal.waitForScreen { $0.contains(" replay  intent ") }
        try terminal.press("q")
        let exit = try terminal.waitForExit()
        #expect(exit.status == 0 && exit.modesRestored)
    }

    @Test(
        "time travel on a real recording: ← goes back a step, End matches --headless, the timeline scrubs, ] changes the colour, x then w writes a file that replays"
    )
    func timeTravel() throws {
        let file = scratch("travel.jsonl")
        let edited = scratch("travel.edited.jsonl")
        let editedAgain = scratch("travel.edited-2.jsonl")
        defer { for name in [file, edited, editedAgain] { try? FileManager.default.removeItem(atPath: name) } }
        // A real recording: a drag across colour bands, an arrow, quit.
        let recording = try TerminalSession(arguments: ["--record", file])
        try recording.waitForScreen { $0.contains("320,176 pt") }
        try recording.mouse("pressed", column: 40, row: 11)
        for column in 41...60 { try recording.mouse("dragged", column: column, row: 13) }
        try recording.mouse("released", column: 60, row: 13)
        try recording.waitForScreen { $0.contains(" 60,13 ") }
        try recording.press("Left", "q")
        #expect(try recording.waitForExit().status == 0)
        let headless = try run([programPath, "replay", file, "--headless"]).output.split(separator: "\n")
        let cells = headless.map { $0.split(separator: " ", omittingEmptySubsequences: true)[2] }

        let terminal = try TerminalSession(rows: 26, arguments: ["replay", file, "--paused"])
        try terminal.waitForScreen { $0.contains(" paused  intent 0/24  t 0.00 s  1×  40,11  ● flatRed") }
        try terminal.press("End")
        // The last position is the headless replay's.
        try terminal.waitForScreen { $0.contains(" paused  intent 24/24") && $0.contains("  \(cells.last!)  ●") }
        try terminal.press("Left", "Left", "Left")
        // Three back from the end: before the quit, the arrow and the release, at the drag's end.
        try terminal.waitForScreen { $0.contains("intent 21/24") && $0.contains("  60,13  ●") }
        try terminal.press("Left")
        try terminal.waitForScreen { $0.contains("intent 20/24") && $0.contains("  59,13  ●") }
        // What changed, in the longest form that fits 80 columns.
        try terminal.waitForScreen {
            $0.contains("#20: position 60,13 → 59,13") || $0.contains("#20: 60,13 → 59,13 · ●")
        }
        // The timeline (the row above the status line): a press at its right end goes to the
        // end, a drag to its left end back to the start.
        try terminal.mouse("pressed", column: 79, row: 24)
        try terminal.waitForScreen { $0.contains("intent 24/24") }
        try terminal.mouse("dragged", column: 0, row: 24)
        try terminal.waitForScreen { $0.contains("intent 0/24") }
        try terminal.mouse("released", column: 0, row: 24)
        try terminal.press("]")
        let changed = try terminal.waitForScreen { $0.contains("ballColour flatRed → ") || $0.contains("● flatRed → ") }
        #expect(!changed.contains("intent 0/24"))
        // Skip the first drag step, write, and the file replays without it.
        try terminal.press("Home", "Right", "Right", "x")
        try terminal.waitForScreen { $0.contains("skip #2:") }
        try terminal.press("w")
        try terminal.waitForScreen { $0.contains("wrote ") && $0.contains("travel.edited.jsonl") }
        try terminal.press("w")
        try terminal.waitForScreen { $0.contains("already written as ") }
        // Unskipped, it is another log: the next name, with every line.
        try terminal.press("x", "w")
        try terminal.waitForScreen { $0.contains("travel.edited-2.jsonl") }
        try terminal.press("q")
        let exit = try terminal.waitForExit()
        #expect(exit.status == 0 && exit.modesRestored)
        #expect(try terminal.modes() == restoredModes)
        let replayed = try run([programPath, "replay", edited, "--headless"])
        #expect(replayed.status == 0, "\(replayed.error)")
        #expect(try String(contentsOfFile: edited, encoding: .utf8).split(separator: "\n").count == 24)
        // The same end: the skipped drag step was overtaken by the ones after it.
        #expect(replayed.output.split(separator: "\n").last?.contains(" \(cells.last!) ") == true)
        #expect(
            try String(contentsOfFile: editedAgain, encoding: .utf8) == String(contentsOfFile: file, encoding: .utf8))
    }

    @Test(
        "--record --streams in a real terminal: the panel's opening and a late subscriber's subscribe and cancel are in the file, and every export draws the lane"
    )
    func recordedSubscriptions() throws {
        let file = scratch("observed.jsonl")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let terminal = try TerminalSession(arguments: ["--record", file, "--streams"])
        try terminal.waitForScreen { $0.contains(" intents ") }
        try terminal.press("Left", "r")
        try terminal.waitForScreen { $0.contains(" late Replay(3) ") && $0.contains("^²") }
        try terminal.press("Left", "r", "q")
        #expect(try terminal.waitForExit().status == 0)
        let recorded = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init)
        let events = recorded.dropFirst().map { line in
            line.replacingOccurrences(of: #"^\{"t":[0-9.]+,"#, with: "{", options: .regularExpression)
        }
        #expect(
            events == [
                #"{"event":"panel","open":true}"#, #"{"event":"arrow","direction":"left","distance":1}"#,
                #"{"event":"subscribed","subject":"replay"}"#, #"{"event":"arrow","direction":"left","distance":1}"#,
                #"{"event":"unsubscribed","subject":"replay"}"#, #"{"event":"quit"}"#,
            ], "\(recorded)")
        let marbles = try run([programPath, "replay", file, "--marbles", "--width", "80"])
        #expect(marbles.output.contains(" late Replay(3)     ^²─c─!"), "\(marbles.output)")
        let syntax = try run([programPath, "replay", file, "--marbles", "--syntax", "rxjs"])
        #expect(
            syntax.output.contains(
                #""lane":"late Replay(3)","syntax":"rxjs","framesPerIntent":5,"subscription":"-----^----!""#))
        let trace = try run([programPath, "replay", file, "--trace", "-"])
        #expect(
            trace.output.contains(": late Replay(3) -> subscribed\n")
                && trace.output.contains(": late Replay(3) -> isDisposed\n"))
        let svg = try run([programPath, "replay", file, "--marbles", "--svg", "-"])
        #expect(svg.output.contains(#"<g class="lane" data-lane="late Replay(3)">"#))
        let cast = try run([programPath, "replay", file, "--asciicast", "-", "--streams"])
        #expect(cast.status == 0 && cast.output.contains("late Replay(3)"), "\(cast.error)")
    }

    @Test("replay --marbles prints the lanes as plain text into a pipe, --width sets the blocks; bad uses say so")
    func marbles() throws {
        let plain = try run([programPath, "replay", Self.sample, "--marbles", "--width", "40"])
        #expect(plain.status == 0, "\(plain.error)")
        #expect(plain.output.hasPrefix(" streams         0"))
        #expect(plain.output.contains(" ballColour     ^●───●─·─●─●─·─·─·───·"))
        #expect(!plain.output.contains("\u{1B}"))
        #expect(plain.output.split(separator: "\n").allSatisfy { $0.unicodeScalars.count <= 40 })
        let wide = try run([programPath, "replay", Self.sample, "--marbles"])
        #expect(wide.output.split(separator: "\n").first?.hasPrefix(" streams") == true)
        for (arguments, message) in [
            (["--marbles", "--headless"], "had already been set with flag '--marbles'"),
            (["--width", "50"], "--width goes with --marbles (got 50)."),
            (["--marbles", "--width", "5"], "--width must be a number of characters from 19 to 100000; got 5."),
            (["--marbles", "--streams"], "--streams opens the panel of a replay in the terminal"),
        ] {
            let result = try run([programPath, "replay", Self.sample] + arguments)
            #expect(result.status == 64 && result.error.contains(message), "\(arguments): \(result.error)")
        }
    }

    @Test(
        "Ctrl-Z during a replay gives the terminal back; after fg the replay plays on to the end", .tags(.slow),
        .skippedInQuickRuns)
    func suspendReplay() throws {
        let terminal = try TerminalSession(
            rows: 25, arguments: ["replay", Self.sample, "--speed", "0.25"], interactiveShell: true)
        try terminal.waitForScreen { $0.contains(" replay  intent ") }
        try terminal.press("C-z")
        try terminal.waitForScreen { $0.contains("Stopped") }
        #expect(try terminal.modes() == restoredModes)
        try terminal.send("fg\n")
        try terminal.waitForScreen {
            $0.contains(" paused  intent 13/13  t 1.09 s  0.25×  1 row hidden  51,7  ? keys  q quit")
        }
        try terminal.press("q")
        try terminal.waitForModes { $0 == restoredModes }
    }

    @Test("replay in a smaller terminal says so instead of showing something else")
    func terminalTooSmall() throws {
        let terminal = try TerminalSession(columns: 60, rows: 20, arguments: ["replay", Self.sample])
        let screen = try terminal.waitForScreen { $0.contains("--headless") }
        #expect(
            screen.contains(
                "was recorded in a terminal of 80×24 and this one is 60×20: the player needs 80×24 (its rows go over the recording where there are none to spare), so make the window at least 80×24, or use --headless or --marbles."
            ))
        #expect(try terminal.waitForExit().status == 2)
    }

    @Test("a malformed file: one sentence naming the file and the line, exit status 65")
    func malformedFile() throws {
        let file = scratch("bad.jsonl")
        defer { try? FileManager.default.removeItem(atPath: file) }
        var text = try String(contentsOfFile: Self.sample, encoding: .utf8)
        text = text.replacingOccurrences(of: #""event":"released""#, with: #""event":"levitated""#)
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try run([programPath, "replay", file, "--headless"])
        #expect(result.status == 65)
        #expect(
            result.error
                == "colourful-ball: \(file), line 10: the event \"levitated\" is not one this colourful-ball knows.\n")
        let missing = try run([programPath, "replay", scratch("missing.jsonl"), "--headless"])
        #expect(missing.status == 66)
        #expect(missing.error.hasSuffix("missing.jsonl: No such file or directory.\n"))
    }

    @Test("the asciicast export is asciicast v2 and holds the renderer's frames")
    func asciicast() throws {
        let cast = scratch("session.cast")
        defer { try? FileManager.default.removeItem(atPath: cast) }
        let result = try run([programPath, "replay", Self.sample, "--asciicast", cast])
        #expect(result.status == 0)
        let lines = try String(contentsOfFile: cast, encoding: .utf8).split(separator: "\n")
        let header = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(header["version"] as? Int == 2)
        #expect(header["width"] as? Int == 80)
        #expect(header["height"] as? Int == 24)
        #expect(header["title"] as? String == "colourful-ball replay of sample.jsonl")
        var last = -1.0
        for line in lines.dropFirst() {
            let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any])
            let time = try #require(event[0] as? Double)
            #expect(time >= last)
            last = time
            #expect(["o", "m"].contains(event[1] as? String))
        }
        // The header, the first frame, one per position change, the ending, and a marker per
        // change of the ball's colour.
        #expect(lines.count == 13 + 4)
        #expect(lines.filter { $0.contains(#", "m", "#) }.count == 4)
        // The first frame is whole: the screen as the session started.
        #expect(lines[1].contains("40,11 · 320,176 pt"))
    }

    static let hasAsciinema = (try? run(["asciinema", "--version"]))?.status == 0

    @Test(
        "asciinema itself plays the exported cast",
        .enabled(if: hasAsciinema, "asciinema is not installed (scripts/setup --tests installs it with pip)"))
    func asciinemaPlaysTheCast() throws {
        let cast = scratch("played.cast")
        defer { try? FileManager.default.removeItem(atPath: cast) }
        #expect(try run([programPath, "replay", Self.sample, "--asciicast", cast]).status == 0)
        for command in [["cat"], ["play", "--speed", "1000"]] {
            let played = try run(["asciinema"] + command + [cast])
            #expect(played.status == 0)
            #expect(played.output.hasPrefix("\u{1B}[?25l"))
            #expect(played.output.contains("flatTealDark"))
            // What it leaves on a terminal: the cursor shown, the attributes reset.
            var terminal = TerminalEmulator(columns: 80, rows: 24)
            terminal.receive(Array(played.output.utf8))
            #expect(terminal.cursorVisible && terminal.penIsReset, "asciinema \(command[0])")
            #expect(terminal.problems.isEmpty, "\(terminal.problems.prefix(3))")
        }
    }

    @Test(
        "asciinema play -m pauses at each colour change, shows that colour, and leaves the terminal clean",
        .enabled(if: hasAsciinema, "asciinema is not installed (scripts/setup --tests installs it with pip)"),
        .enabled(if: hasTerminfo("xterm-direct"), Comment(rawValue: ncursesTermMissing)))
    func asciinemaPausesAtEachChapter() throws {
        let cast = scratch("chapters.cast")
        defer { try? FileManager.default.removeItem(atPath: cast) }
        #expect(try run([programPath, "replay", Self.sample, "--asciicast", cast]).status == 0)
        // The ball's colours in the headless replay, each change a chapter.
        var colours: [String] = []
        for line in try run([programPath, "replay", Self.sample, "--headless"]).output.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            let ball = String(fields[fields.firstIndex(of: "ball")! + 1])
            if colours.last != ball { colours.append(ball) }
        }
        let chapters = Array(colours.dropFirst())
        #expect(chapters.count == 4)
        let terminal = try TerminalSession(
            term: "xterm-direct", arguments: ["-c", "asciinema play -m \"\(cast)\"; printf \"plain text after\""],
            program: "sh")
        for chapter in chapters {
            // Paused at the chapter: its colour is on the status line; space plays on.
            try terminal.waitForScreen { $0.contains("● \(chapter) #") }
            try terminal.press("Space")
        }
        let after = try terminal.waitForScreen { $0.contains("plain text after") }
        #expect(after.contains("? keys"))  // The cast's last frame stays, as the program leaves it.
        // Then the cursor is shown and the text after the cast has no colour or attribute.
        try terminal.waitForModes { $0.contains("cursor=1") }
        let coloured = try terminal.screenWithColours().split(separator: "\n").first { $0.contains("plain text after") }
        var line = String(try #require(coloured))
        // tmux marks the default colours; any other sequence would be a colour or attribute left on.
        for plain in ["\u{1B}[39m", "\u{1B}[49m", "\u{1B}[0m", "\u{1B}[m"] {
            line = line.replacingOccurrences(of: plain, with: "")
        }
        #expect(line.hasPrefix("plain text after"), "\(line.debugDescription)")  // On a line of its own, plain.
    }
}

extension RecordReplayTests {
    @Test(
        "stepping across a recording's resizes in a real terminal leaves nothing of an earlier frame: one status line")
    func resizedRecordingLeavesNothing() throws {
        let file = scratch("shrinks.jsonl")
        defer { try? FileManager.default.removeItem(atPath: file) }
        var lines = [
            #"{"format":"colourful-ball-replay","version":1,"terminal":{"columns":90,"rows":30},"colourRules":1}"#
        ]
        var time = 0.0
        for event in [
            #""event":"pressed","cell":[45,14]"#, #""event":"dragged","cell":[80,25]"#,
            #""event":"released","cell":[80,25]"#, #""event":"resized","size":[50,16]"#,
            #""event":"arrow","direction":"left","distance":5"#, #""event":"resized","size":[70,22]"#,
        ] {
            time += 0.1
            lines.append("{\"t\":\(time),\(event)}")
        }
        try lines.joined(separator: "\n").appending("\n").write(toFile: file, atomically: true, encoding: .utf8)
        // As tmux itself names its terminal: no back-colour erase, so every cell must be drawn.
        let terminal = try TerminalSession(
            columns: 100, rows: 34, term: "screen-256color", arguments: ["replay", file, "--paused"])
        try terminal.waitForScreen { $0.contains("intent 0/6") }
        // Across the shrink to 50×16 (after intent 4), then back and forth.
        for (keys, place) in [(["End", "Home", "l", "l", "l", "l", "l"], 5), (["h", "h", "h"], 2), (["End"], 6)] {
            for key in keys { try terminal.press(key) }
            let screen = try terminal.waitForScreen { $0.contains("intent \(place)/6") }
            #expect(screen.split(separator: "\n").filter { $0.contains("intent ") }.count == 1, "\(screen)")
            #expect(screen.split(separator: "\n").last?.contains("intent \(place)/6") == true)
        }
        try terminal.press("q")
        #expect(try terminal.waitForExit().status == 0)
    }
}

extension RecordReplayTests {
    @Test(
        "w copies the recording's own lines (unknown header fields, times as written) but the skipped one; held, it writes one file"
    )
    func editedLogIsTheRecordingsOwnLines() throws {
        let file = scratch("own-lines.jsonl")
        let edited = scratch("own-lines.edited.jsonl")
        let editedAgain = scratch("own-lines.edited-2.jsonl")
        defer { for name in [file, edited, editedAgain] { try? FileManager.default.removeItem(atPath: name) } }
        let lines = [
            #"{"format":"colourful-ball-replay","version":1,"terminal":{"columns":80,"rows":24},"colourRules":1,"note":"made by hand","program":"0.1.0"}"#,
            #"{"event":"arrow","t":0.50000,"direction":"left","distance":1}"#,
            #"{"t":1.25e0,"event":"arrow","direction":"up","distance":2}"#,
            #"{"t":2,"event":"recentred","comment":"kept"}"#,
        ]
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let terminal = try TerminalSession(rows: 26, arguments: ["replay", file, "--paused"])
        try terminal.waitForScreen { $0.contains("intent 0/3") }
        try terminal.press("l", "l", "x")
        try terminal.waitForScreen { $0.contains("skip #2") }
        // Held down: one file, then "already written".
        for _ in 0..<6 { try terminal.press("w") }
        try terminal.waitForScreen { $0.contains("already written as") }
        try terminal.press("q")
        #expect(try terminal.waitForExit().status == 0)
        let written = try String(contentsOfFile: edited, encoding: .utf8)
        #expect(written == [lines[0], lines[1], lines[3]].joined(separator: "\n") + "\n")
        #expect(!FileManager.default.fileExists(atPath: editedAgain))
    }
}

extension RecordReplayTests {
    @Test("a recording named in wide characters: w's message fits its row by width, and nothing scrolls")
    func wideNameFits() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cb-wide-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/" + String(repeating: "とても長い名前の記録ファイルです", count: 3) + ".jsonl"
        try FileManager.default.copyItem(atPath: Self.sample, toPath: file)
        let terminal = try TerminalSession(columns: 80, rows: 26, arguments: ["replay", file, "--paused"])
        let before = try terminal.waitForScreen { $0.contains("intent 0/13") }
        try terminal.press("l", "l", "x", "w")
        let after = try terminal.waitForScreen { $0.contains("wrote ") }
        let rows = after.split(separator: "\n", omittingEmptySubsequences: false)
        let message = try #require(rows.first { $0.contains("wrote ") })
        #expect(String(message).terminalWidth <= 80, "\(message)")
        #expect(message.hasSuffix("…") || message.contains(".edited.jsonl"), "\(message)")
        // Nothing scrolled: the first rows are as they were, the status line last.
        #expect(rows.prefix(3) == before.split(separator: "\n", omittingEmptySubsequences: false).prefix(3))
        #expect(rows.last(where: { !$0.isEmpty })?.contains("intent 2/13") == true, "\(after)")
        try terminal.press("q")
        #expect(try terminal.waitForExit().status == 0)
    }
}

extension RecordReplayTests {
    @Test("a click on the streams panel while recording, and a window over 1,000 columns: the recording replays")
    func recordingsThatReplay() throws {
        let file = scratch("panel-click.jsonl")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let terminal = try TerminalSession(arguments: ["--record", file, "--streams"])
        try terminal.waitForScreen { $0.contains(" streams ") }
        try terminal.mouse("pressed", column: 10, row: 20)  // On the panel, below the ball's area.
        try terminal.mouse("released", column: 10, row: 20)
        try terminal.mouse("pressed", column: 30, row: 5)
        try terminal.mouse("dragged", column: 60, row: 23)  // Past the area's edge, onto the panel.
        try terminal.mouse("released", column: 60, row: 23)
        try terminal.press("q")
        #expect(try terminal.waitForExit().status == 0)
        let replayed = try run([programPath, "replay", file, "--headless"])
        #expect(replayed.status == 0, "\(replayed.error)")

        let wide = scratch("wide-window.jsonl")
        defer { try? FileManager.default.removeItem(atPath: wide) }
        let large = try PseudoTerminal(
            [programPath, "--record", wide], size: ScreenSize(columns: 1_200, rows: 40),
            environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        #expect(large.readUntil(Array("quit".utf8), limit: 10) != nil)
        large.write(Array("\u{1B}[C".utf8) + Array("q".utf8))
        #expect(large.waitForExit() == 0)
        let replayedWide = try run([programPath, "replay", wide, "--headless"])
        #expect(replayedWide.status == 0, "\(replayedWide.error)")
    }
}

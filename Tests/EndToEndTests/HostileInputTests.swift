import BallModel
import BallTestSupport
import Foundation
import Platform
import Testing

/// What an adversarial user tried: absurd numbers, outputs that fail, control characters in
/// names. Each ends with one clear sentence and an honest exit status.
@Suite("Hostile input and faults", .serialized)
struct HostileInputTests {
    static let sample = RecordReplayTests.sample

    /// Whether `text` holds a control character a terminal would act on: C0 but the newlines
    /// that end its lines, DEL, or C1.
    static func hasRawControl(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0 != "\n" && ($0.value < 0x20 || (0x7F...0x9F).contains($0.value)) }
    }

    @Test(
        "absurd --speed and --max-idle values get one sentence and exit 64, never a trap",
        arguments: [
            ["--speed", "1e-300"], ["--speed", "1e-10"], ["--speed", "-1"], ["--speed", "0"], ["--speed", "nan"],
            ["--speed", "inf"], ["--speed", "1e300"], ["--max-idle", "-1"], ["--max-idle", "1e400"],
            ["--max-idle", "0.01", "--speed", "1e-300"],
        ])
    func absurdTiming(arguments: [String]) throws {
        for output in [["--headless"], ["--asciicast", "/tmp/colourful-ball-\(getpid())-absurd.cast"]] {
            let result = try run([programPath, "replay", Self.sample] + arguments + output)
            #expect(result.status == 64, "\(arguments + output): \(result.error)")
            let flag = arguments.count > 2 ? "--speed" : arguments[0]
            #expect(result.error.hasPrefix("Error: \(flag) must be a number"), "\(result.error)")
            #expect(!result.error.contains("Missing value"))
            #expect(!FileManager.default.fileExists(atPath: "/tmp/colourful-ball-\(getpid())-absurd.cast"))
        }
    }

    @Test(
        "a bad --operator gets one sentence, what is wrong and what to do, and exits 64, without the option's help",
        arguments: [
            ("zzz", "--operator zzz: 'zzz' is no operator: give one of none, filter,"),
            ("filter,scan", "--operator filter,scan: scan takes counts, but the stage before it passes on positions"),
            (
                "catch",
                "--operator catch: catch recovers from an error, but no stage before it can fail (tryMap,catch)."
            ),
            ("tryMap,debounce", "--operator tryMap,debounce: debounce cannot go after tryMap:"),
        ])
    func badOperator(names: String, sentence: String) throws {
        let result = try run([programPath, "--operator", names])
        #expect(result.status == 64, "\(names): \(result.error)")
        let lines = result.error.split(separator: "\n")
        #expect(lines.first?.hasPrefix("Error: \(sentence)") == true, "\(result.error)")
        #expect(
            lines.first?.hasSuffix(".") == true && lines.first?.dropLast().contains(". ") == false, "\(result.error)")
        #expect(!result.error.contains("Help:") && !result.error.contains("is invalid for"), "\(result.error)")
    }

    @Test("the slowest speed gives finite, moderate cast times")
    func slowestCast() throws {
        let cast = "/tmp/colourful-ball-\(getpid())-slow.cast"
        defer { try? FileManager.default.removeItem(atPath: cast) }
        #expect(try run([programPath, "replay", Self.sample, "--speed", "0.01", "--asciicast", cast]).status == 0)
        let lines = try String(contentsOfFile: cast, encoding: .utf8).split(separator: "\n").dropFirst()
        let times = lines.compactMap { Double($0.dropFirst().prefix { $0 != "," }) }
        #expect(times.count == lines.count)
        #expect(times.allSatisfy { $0.isFinite && $0 <= 604_800 / 0.01 })
        #expect(times.last! > 100)  // The sample lasts seconds: at 1/100 of its speed, minutes.
    }

    @Test(
        "a full or closed standard output is an error that says so, exit 74",
        arguments: [
            ["colour", "--palette"], ["colour", "1", "2"], ["colour", "--flatten", "#123456", "--json"],
            ["replay", RecordReplayTests.sample, "--headless"],
        ])
    func failedWrites(arguments: [String]) throws {
        let full = try run([programPath] + arguments, stdout: .file("/dev/full"))
        #expect(full.status == 74, "\(full.error)")
        #expect(full.error == "colourful-ball: Cannot write standard output: No space left on device.\n")
        let closed = try run([programPath] + arguments, stdout: .closed)
        #expect(closed.status == 74, "\(closed.error)")
        #expect(closed.error.hasPrefix("colourful-ball: Cannot write standard output: it is closed"))
        #expect(closed.error.split(separator: "\n").count == 1)
    }

    /// Every C0 control, DEL and some C1 controls, as they might hide in a name.
    static let controls: String = {
        var text = ""
        for value in Array(0x01..<0x20) + [0x7F, 0x80, 0x85, 0x9B, 0x9F] {
            text.unicodeScalars.append(Unicode.Scalar(UInt32(value))!)
        }
        return text
    }()

    @Test("control characters in names and arguments come back as escapes, in one line")
    func controlCharactersInMessages() throws {
        let name = "/tmp/missing\u{1B}[31mred\u{1B}]2;PWNED\u{07}" + Self.controls + ".jsonl"
        // Each message's first line holds the whole sentence, the text escaped (ArgumentParser's
        // usage lines may follow).
        let cases: [([String], String)] = [
            (["replay", name, "--headless"], #"colourful-ball: Cannot read /tmp/missing\e[31mred\e]2;PWNED\a\x01"#),
            (["colour", "--flatten", "#\u{1B}[31mAB"], #"Error: '#\e[31mAB' is not a colour"#),
            (["colour", "\u{1B}[2J", "1"], #"Error: '\e[2J' is not a number"#),
            (["--\u{1B}]2;PWNED\u{07}"], #"Error: Unknown option '--\e]2;PWNED\a'"#),
            (
                ["replay", Self.sample, "--asciicast", "/nonexistent/\u{1B}[31m\n.cast"],
                #"colourful-ball: Cannot write /nonexistent/\e[31m\n.cast: No such file or directory."#
            ),
        ]
        for (arguments, sentence) in cases {
            let result = try run([programPath] + arguments)
            #expect(result.status != 0)
            #expect(!Self.hasRawControl(result.error), "\(arguments): \(Array(result.error.utf8))")
            #expect(result.error.split(separator: "\n").first.map { $0.hasPrefix(sentence) } == true, "\(result.error)")
            #expect(result.output.isEmpty)
        }
        let replay = try run([programPath, "replay", name, "--headless"])
        #expect(replay.error.contains(#"missing\e[31mred\e]2;PWNED\a\x01\x02"#), "\(replay.error)")
        #expect(replay.error.contains(#"\x1F\x7F\u{80}\u{85}\u{9B}\u{9F}.jsonl"#), "\(replay.error)")
        #expect(replay.error.split(separator: "\n").count == 1)
        // A malformed file's line prefix too.
        let bad = "/tmp/colourful-ball-\(getpid())-\u{1B}[31mbad\n.jsonl"
        defer { try? FileManager.default.removeItem(atPath: bad) }
        try "not json\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let malformed = try run([programPath, "replay", bad, "--headless"])
        #expect(malformed.status == 65)
        #expect(malformed.error.contains(#"-\e[31mbad\n.jsonl, line 1: is not a colourful-ball replay file"#))
        #expect(!Self.hasRawControl(malformed.error))
    }

    @Test("a TERM with control characters is shown as escapes, in a terminal")
    func controlCharactersInTerm() throws {
        let terminal = try PseudoTerminal(
            [programPath], size: ScreenSize(columns: 80, rows: 24),
            environment: ["TERM": "\u{1B}[31mx\u{1B}]2;PWNED\u{07}", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
        let (bytes, _) = terminal.readUntilQuiet(quiet: 0.5)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains(#"The terminal type '\e[31mx\e]2;PWNED\a' (TERM) is unknown to ncurses"#), "\(text)")
        #expect(!bytes.contains(0x1B) && !bytes.contains(0x07))
        let status = terminal.waitForExit()
        #expect(status >> 8 & 0xFF == 2)
    }

    // MARK: - Files kept

    /// A fresh folder holding `keep.jsonl` and `keep.cast`, each with known contents.
    static func folderWithFiles() throws -> String {
        let folder = "/tmp/colourful-ball-\(getpid())-files-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "precious recording\n".write(toFile: folder + "/keep.jsonl", atomically: true, encoding: .utf8)
        try "precious cast\n".write(toFile: folder + "/keep.cast", atomically: true, encoding: .utf8)
        return folder
    }

    static func contents(_ folder: String) throws -> [String: String] {
        try Dictionary(
            uniqueKeysWithValues: FileManager.default.contentsOfDirectory(atPath: folder).map {
                ($0, try String(contentsOfFile: folder + "/" + $0, encoding: .utf8))
            })
    }

    @Test("a failed start (no terminal, an unknown TERM) leaves an existing recording as it was, and no new file")
    func recordingKeptOnFailedStart() throws {
        let folder = try Self.folderWithFiles()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let before = try Self.contents(folder)
        let noTerminal = try run([programPath, "--record", folder + "/keep.jsonl", "--force"])
        #expect(noTerminal.status == 2)
        #expect(try run([programPath, "--record", folder + "/new.jsonl"]).status == 2)
        let terminal = try PseudoTerminal(
            [programPath, "--record", folder + "/keep.jsonl", "--force"], size: ScreenSize(columns: 80, rows: 24),
            environment: ["TERM": "nonexistent", "PATH": "/usr/bin:/bin"])
        #expect(terminal.waitForExit() >> 8 & 0xFF == 2)
        #expect(try Self.contents(folder) == before)
    }

    @Test("a cast or a recording of a bad replay leaves the existing output as it was")
    func castKeptOnFailure() throws {
        let folder = try Self.folderWithFiles()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "not a replay\n".write(toFile: folder + "/bad.jsonl", atomically: true, encoding: .utf8)
        let before = try Self.contents(folder)
        let result = try run([
            programPath, "replay", folder + "/bad.jsonl", "--asciicast", folder + "/keep.cast", "--force",
        ])
        #expect(result.status == 65)
        #expect(try Self.contents(folder) == before)
        // A good one takes its place.
        #expect(
            try run([programPath, "replay", Self.sample, "--asciicast", folder + "/keep.cast", "--force"]).status == 0)
        #expect(try Self.contents(folder)["keep.cast"]?.hasPrefix(#"{"version":2"#) == true)
        #expect(try Self.contents(folder).count == before.count)
    }

    @Test("two recordings of one file at once: the second refuses in one sentence, the first replays")
    func twoRecorders() throws {
        let folder = try Self.folderWithFiles()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/same.jsonl"
        let first = try TerminalSession(arguments: ["--record", file, "--force"])
        try first.waitForScreen { $0.contains("320,176 pt") }
        try first.press("Right")  // The first event: the recording takes its place, locked.
        try first.waitForScreen { $0.contains(" 41,11 ") }
        let second = try TerminalSession(arguments: ["--record", file, "--force"])
        let screen = try second.waitForScreen { $0.contains("colourful-ball:") }
        #expect(screen.contains("same.jsonl is being written by another colourful-ball"), "\(screen)")
        #expect(try second.waitForExit().status == 1)
        try first.press("Left", "q")
        #expect(try first.waitForExit().status == 0)
        let replay = try run([programPath, "replay", file, "--headless"])
        #expect(replay.status == 0)
        #expect(replay.output.split(separator: "\n").count == 3)  // Start, right, left.
    }

    @Test("recording into a FIFO whose reader goes away: the ball plays on, the exit says what was kept")
    func fifoReaderGoesAway() throws {
        let folder = try Self.folderWithFiles()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fifo = folder + "/ff"
        #expect(mkfifo(fifo, 0o600) == 0)
        // A reader that takes the header and the first event or so, then leaves.
        let reader = try TerminalSession(arguments: [])
        try reader.tmux(["new-window", "-d", "sh", "-c", "head -c 200 '\(fifo)' > /dev/null"])
        let terminal = try TerminalSession(arguments: ["--record", fifo, "--force"])
        try terminal.waitForScreen { $0.contains("320,176 pt") }
        for _ in 0..<30 { try terminal.press("Right") }
        try terminal.press("Left")
        let playing = try terminal.waitForScreen { $0.contains(" 69,11 ") }  // Still playing after the pipe broke.
        #expect(playing.contains("recording stopped after"), "\(playing)")
        try terminal.press("q")
        let screen = try terminal.waitForScreen { $0.contains("stopped early") }
        #expect(screen.contains("ff stopped early, after"), "\(screen)")
        #expect(screen.contains("Broken pipe.") && !screen.contains(".."), "\(screen)")
        let exit = try terminal.waitForExit()
        #expect(exit.status == 1)
        #expect(exit.modesRestored)
        #expect(try terminal.modes() == restoredModes)
    }

    // MARK: - Inputs that are not regular files

    @Test("a FIFO nobody writes to: one sentence and exit 65 at once, headless or in the terminal")
    func fifoWithoutWriter() throws {
        let folder = try Self.folderWithFiles()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fifo = folder + "/ff"
        #expect(mkfifo(fifo, 0o600) == 0)
        let headless = try run([programPath, "replay", fifo, "--headless"])
        #expect(headless.status == 65)
        #expect(headless.error == "colourful-ball: \(fifo): is empty, not a colourful-ball replay file.\n")
        let terminal = try TerminalSession(arguments: ["replay", fifo])
        let screen = try terminal.waitForScreen { $0.contains("colourful-ball:") }
        #expect(screen.contains("Replaying in the terminal needs a regular file"), "\(screen)")
        #expect(try terminal.waitForExit().status == 65)
    }

    @Test("`-` reads the replay from standard input, for the headless outputs")
    func standardInput() throws {
        let piped = try run(["sh", "-c", "cat '\(Self.sample)' | '\(programPath)' replay - --headless --json"])
        let direct = try run([programPath, "replay", Self.sample, "--headless", "--json"])
        #expect(piped.status == 0)
        #expect(piped.output == direct.output)
        let broken = try run(["sh", "-c", "echo nonsense | '\(programPath)' replay - --headless"])
        #expect(broken.status == 65)
        #expect(broken.error.hasPrefix("colourful-ball: standard input, line 1: is not a colourful-ball replay file"))
    }

    @Test(
        "a bad line after good ones: every export to standard output gives what came before it, then one sentence, exit 65",
        arguments: [
            ["--headless"], ["--headless", "--json"], ["--marbles"], ["--marbles", "--syntax", "rxjs"],
            ["--marbles", "--syntax", "rxpy"], ["--marbles", "--svg", "-"], ["--trace", "-"], ["--asciicast", "-"],
        ])
    func badLineAfterGoodOnes(arguments: [String]) throws {
        let file = "/tmp/colourful-ball-\(getpid())-bad-line.jsonl"
        defer { try? FileManager.default.removeItem(atPath: file) }
        var lines = try String(contentsOfFile: Self.sample, encoding: .utf8).split(separator: "\n")
        lines.removeLast()  // The quit.
        try (lines.joined(separator: "\n") + "\n{\"t\":9,\"event\":\"flew\"}\n").write(
            toFile: file, atomically: false, encoding: .utf8)
        let result = try run(
            [programPath, "replay", file] + arguments
                + ["--width", "80"].filter { _ in
                    arguments == ["--marbles"]
                })
        #expect(result.status == 65)
        #expect(result.error.contains("line \(lines.count + 1)"), "\(result.error)")
        #expect(result.error.split(separator: "\n").count == 1)
        // What came before: the drag's colours, as each output names or draws them.
        // flatPlumDark is #4F2B4F: (79, 43, 79) in the cast's sequences.
        let expected =
            arguments == ["--marbles"]
            ? "b─c─d"
            : arguments.contains("--svg")
                ? "#4F2B4F" : arguments.contains("--asciicast") ? "2;79;43;79m" : "flatPlumDark"
        #expect(result.output.contains(expected), "\(arguments): \(result.output.prefix(300))")
    }

    @Test(
        "a temporary file that cannot take the lanes (a full TMPDIR, a file-size limit): one sentence, exit 74, never short lanes and exit 0",
        arguments: [["--marbles", "--syntax", "rxjs"], ["--marbles", "--svg", "-"]])
    func fullTemporaryFolder(arguments: [String]) throws {
        let command = ([programPath, "replay", Self.sample] + arguments).map { "'\($0)'" }.joined(separator: " ")
        // A file-size limit of 0: every write to a file fails (EFBIG), the last one only when
        // stdio flushes it. The output goes through a pipe, which has no such limit.
        let limited = try run(["sh", "-c", "trap '' XFSZ; (ulimit -f 0; \(command) 2>&1; echo \"status $?\") | cat"])
        #expect(limited.output.hasSuffix("status 74\n"), "\(limited.output.suffix(300))")
        #expect(limited.output.contains("colourful-ball: Cannot write the lanes to a temporary file (File too large)"))
        // A TMPDIR with 4 KB of room (a tmpfs of 16 KB, 12 KB taken), where one can be mounted.
        let folder = "/tmp/colourful-ball-\(getpid())-full"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let full = try run([
            "unshare", "-m", "sh", "-c",
            "mount -t tmpfs -o size=16k tmpfs '\(folder)' || exit 99; head -c 12288 /dev/zero > '\(folder)/taken'; TMPDIR='\(folder)' \(command)",
        ])
        guard full.status != 99, !full.error.contains("unshare:") else {
            print(
                "skipped: a full TMPDIR needs a tmpfs mounted in a private namespace (unshare -m), not allowed here: \(full.error)"
            )
            return
        }
        #expect(full.status == 74, "\(full.error)")
        #expect(
            full.error.contains("Cannot write the lanes to a temporary file (No space left on device)"), "\(full.error)"
        )
    }

    @Test("a missing file or a directory is exit 66 (EX_NOINPUT), as the format's documentation says")
    func missingOrDirectory() throws {
        let missing = try run([programPath, "replay", "/nonexistent/x.jsonl", "--headless"])
        #expect(missing.status == 66)
        #expect(missing.error == "colourful-ball: Cannot read /nonexistent/x.jsonl: No such file or directory.\n")
        let directory = try run([programPath, "replay", "/tmp", "--headless"])
        #expect(directory.status == 66)
        #expect(directory.error == "colourful-ball: /tmp is a directory, not a replay file.\n")
    }

    @Test("a cell too large for --cells says so")
    func cellTooLarge() throws {
        let result = try run([programPath, "colour", "--cells", "99999999999999999999", "1"])
        #expect(result.status == 64)
        #expect(result.error.hasPrefix("Error: '99999999999999999999' is too large for a cell"))
    }

    // MARK: - Random bytes

    @Test(
        "megabytes of random bytes into the terminal, again and again: every ending is honest, never a crash, and what it recorded replays"
    )
    func randomPaste() throws {
        var generator = SeededGenerator()
        var endings: [String: Int] = [:]
        let recording = "/tmp/colourful-ball-\(getpid())-random.jsonl"
        defer { try? FileManager.default.removeItem(atPath: recording) }
        for attempt in 0..<10 {
            let terminal = try PseudoTerminal(
                [programPath, "--record", recording, "--force"], size: ScreenSize(columns: 80, rows: 24),
                environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
            #expect(terminal.readUntil(Array("quit".utf8)) != nil, "run \(attempt): no first frame")
            // 3 MB in 64 KB pieces: Ctrl-C, Ctrl-\\, Ctrl-Z and q among them, so quits and
            // signals come in quick succession (signals once the program has given the terminal
            // its modes back on the way out).
            for _ in 0..<48 {
                let piece = (0..<65536).map { _ in UInt8.random(in: 0...255, using: &generator) }
                guard terminal.feed(piece) else { break }
            }
            var ending = terminal.waitForEnding(seconds: 10)
            if ending == nil {
                _ = terminal.feed(Array("q".utf8))
                ending = terminal.waitForEnding(seconds: 10)
            }
            let status = try #require(ending, "run \(attempt): the program never ended; \(generator)")
            let signal = status & 0x7F
            let name = signal == 0 ? "exit \(status >> 8 & 0xFF)" : "signal \(signal)"
            endings[name, default: 0] += 1
            // An exit, or death by a signal the bytes asked for: Ctrl-C, Ctrl-\\ (Ctrl-Z is
            // discarded by the kernel for a program with no job-control shell).
            #expect(
                (signal == 0 && status >> 8 & 0xFF == 0) || signal == SIGINT || signal == SIGQUIT,
                "run \(attempt) ended by \(name); \(generator)")
            // Whatever the bytes did (mouse reports anywhere, resizes, the panel, signals), the
            // recording replays: every line it holds is one the reader takes.
            if FileManager.default.fileExists(atPath: recording) {
                let replayed = try run([programPath, "replay", recording, "--headless"])
                #expect(replayed.status == 0, "run \(attempt): \(replayed.error); \(generator)")
            }
        }
    }

    // MARK: - Large terminals

    @Test(
        "in a terminal larger than its terminfo entry says, every way out leaves the whole screen scrolling",
        arguments: ["xterm-256color", "vt100"])
    func largerThanTerminfo(term: String) throws {
        // ncurses is told the terminfo size (to keep its own screens small) and sets its scroll
        // region for that size: the program must give the real one back.
        func wholeScreenScrolls(_ terminal: TerminalSession) throws -> Bool {
            try terminal.tmux(["display-message", "-p", "#{scroll_region_upper} #{scroll_region_lower}"])
                .trimmingCharacters(in: .whitespacesAndNewlines) == "0 39"
        }
        let quit = try TerminalSession(columns: 100, rows: 40, term: term)
        try quit.waitForScreen { $0.contains(" 50,19 ") }
        try quit.press("Right", "q")
        let exit = try quit.waitForExit()
        #expect(exit.status == 0 && exit.modesRestored)
        #expect(try wholeScreenScrolls(quit))

        let killed = try TerminalSession(columns: 100, rows: 40, term: term)
        try killed.waitForScreen { $0.contains(" 50,19 ") }
        kill(try killed.programPID(), SIGTERM)
        #expect(try killed.waitForExit().status == 143)
        #expect(try wholeScreenScrolls(killed))

        let suspended = try TerminalSession(columns: 100, rows: 40, term: term, interactiveShell: true)
        try suspended.waitForScreen { $0.contains(" 50,19 ") }
        try suspended.press("C-z")
        try suspended.waitForScreen { $0.contains("Stopped") }
        #expect(try wholeScreenScrolls(suspended))
        try suspended.send("fg\n")
        try suspended.press("Right")
        try suspended.waitForScreen { $0.contains(" 51,19 ") }
        try suspended.press("q")
        try suspended.waitForModes { $0 == restoredModes }
        #expect(try wholeScreenScrolls(suspended))
    }
}

extension HostileInputTests {
    @Test(
        "--help, --version, help replay and a completion script into a full disk: one sentence and exit 74",
        arguments: [["--help"], ["--version"], ["help", "replay"], ["--generate-completion-script", "bash"]])
    func helpIntoAFullDisk(arguments: [String]) throws {
        let result = try run([programPath] + arguments, stdout: .file("/dev/full"))
        #expect(result.status == 74, "\(arguments): \(result.status)")
        #expect(result.error == "colourful-ball: Cannot write standard output: No space left on device.\n")
    }

    @Test(
        "it starts on terminals whose entry gives no size (the Linux console, PuTTY, Cygwin), at the window's size",
        .enabled(if: hasTerminfo("putty-256color"), Comment(rawValue: ncursesTermMissing)),
        arguments: ["linux", "putty", "putty-256color", "cygwin"])
    func entriesWithoutASize(term: String) throws {
        let terminal = try PseudoTerminal(
            [programPath], size: ScreenSize(columns: 100, rows: 30),
            environment: ["TERM": term, "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        // The middle of a 100×30 window: the window's size, not 80×24.
        #expect(terminal.readUntil(Array("50,14 ".utf8)) != nil, "\(term): no frame at the window's size")
        terminal.write(Array("q".utf8))
        #expect(terminal.waitForExit() == 0, "\(term)")
    }

    @Test("a signal the program was started with ignored (nohup, trap '') stays ignored: SIGHUP does not end it")
    func ignoredSignalsStayIgnored() throws {
        let terminal = try PseudoTerminal(
            ["/bin/sh", "-c", "trap '' HUP; exec \"$0\"", programPath], size: ScreenSize(columns: 80, rows: 24),
            environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        #expect(terminal.readUntil(Array("quit".utf8)) != nil)
        kill(terminal.pid, SIGHUP)
        #expect(terminal.waitForEnding(seconds: 1) == nil, "SIGHUP ended it")
        terminal.write(Array("q".utf8))
        #expect(terminal.waitForExit() == 0)
    }
}

extension HostileInputTests {
    @Test("a 65535×65535 window: the ball plays in 1000×1000 of it and says so; q exits 0")
    func hugeWindow() throws {
        let terminal = try PseudoTerminal(
            [programPath], size: ScreenSize(columns: 65_535, rows: 65_535),
            environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        #expect(terminal.readUntil(Array("the ball plays in 1000×1000".utf8), limit: 20) != nil)
        terminal.write(Array("q".utf8))
        #expect(terminal.waitForExit() == 0)
    }

    @Test("a recording made at 1×1 replays with its rows and status line, and says the part is too small for the ball")
    func tinyRecording() throws {
        let file = "/tmp/colourful-ball-\(getpid())-tiny.jsonl"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try """
        {"format":"colourful-ball-replay","version":1,"terminal":{"columns":1,"rows":1},"colourRules":1}
        {"t":0.1,"event":"recentred"}

        """.write(toFile: file, atomically: true, encoding: .utf8)
        let terminal = try TerminalSession(columns: 60, rows: 12, arguments: ["replay", file, "--paused"])
        let screen = try terminal.waitForScreen { $0.contains("intent 0/1") }
        #expect(screen.contains("this part was recorded at 1×1"), "\(screen)")
        #expect(!screen.contains("terminal too small"))
        try terminal.press("q")
        #expect(try terminal.waitForExit().status == 0)
    }

    @Test("--width -1 says what --width takes, not 'Missing value'")
    func negativeWidth() throws {
        let result = try run([programPath, "replay", Self.sample, "--marbles", "--width", "-1"])
        #expect(result.status == 64)
        #expect(result.error.hasPrefix("Error: --width must be a number of characters from 19 to 100000; got -1."))
    }
}

// MARK: - Output files: names, links, modes, locks, signals

extension HostileInputTests {
    /// A scratch directory of its own for one test.
    static func directory(_ name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cb-\(getpid())-\(name)").path
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The hidden temporary files left in `directory`.
    static func leftovers(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains(".colourful-ball-") }
    }

    @Test(
        "--record to a dangling symbolic link or to '' is refused before anything starts; a link to a file is written through"
    )
    func linksAndEmptyNames() throws {
        let directory = try Self.directory("links")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let link = directory + "/dangling.jsonl"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: directory + "/nowhere/x.jsonl")
        let dangling = try run([programPath, "--record", link])
        #expect(dangling.status == 1)
        #expect(
            dangling.error
                == "colourful-ball: \(link) is a symbolic link to \(directory)/nowhere/x.jsonl, which does not exist: name the file itself, or remove the link.\n"
        )
        let empty = try run([programPath, "--record", ""])
        #expect(empty.status == 64 && empty.error.hasPrefix("Error: --record needs a file name"))
        // Through a link to a cast: the link stays, its target is the cast.
        let target = directory + "/target.cast"
        try "old".write(toFile: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: directory + "/link.cast", withDestinationPath: target)
        let cast = try run([programPath, "replay", Self.sample, "--asciicast", directory + "/link.cast", "--force"])
        #expect(cast.status == 0, "\(cast.error)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory + "/link.cast") == target)
        #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix(#"{"version":2"#))
    }

    @Test("a new output takes the umask's mode; --force keeps the mode of the file it replaces")
    func modes() throws {
        let directory = try Self.directory("modes")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fresh = directory + "/fresh.cast"
        let result = try run([
            "/bin/sh", "-c", "umask 027; exec \"$0\" replay \"$1\" --asciicast \"$2\"", programPath, Self.sample, fresh,
        ])
        #expect(result.status == 0, "\(result.error)")
        #expect((try FileManager.default.attributesOfItem(atPath: fresh)[.posixPermissions] as? Int) == 0o640)
        let kept = directory + "/kept.cast"
        try "old".write(toFile: kept, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: kept)
        #expect(try run([programPath, "replay", Self.sample, "--asciicast", kept, "--force"]).status == 0)
        #expect((try FileManager.default.attributesOfItem(atPath: kept)[.posixPermissions] as? Int) == 0o600)
    }

    @Test("a lock another program holds on the output's folder is waited for briefly, then said, naming the holder")
    func lockedDirectory() throws {
        let directory = try Self.directory("locked")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fd = open(directory, O_RDONLY)
        defer { _ = closeDescriptor(fd) }
        #expect(flock(fd, LOCK_EX) == 0)
        let started = ContinuousClock.now
        let result = try run([
            "timeout", "20", programPath, "replay", Self.sample, "--asciicast", directory + "/out.cast",
        ])
        #expect(started.duration(to: .now) < .seconds(5), "it waited for the lock")
        #expect(result.status == 1, "\(result.error)")
        #expect(result.error.contains("cannot take its place: process \(getpid())"), "\(result.error)")
        #expect(result.error.contains("holds a lock on its directory"))
        #expect(try Self.leftovers(in: directory).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: directory + "/out.cast"))
    }

    @Test("--record into a FIFO nobody reads is refused at once, not a silent wait")
    func fifoWithoutReader() throws {
        let directory = try Self.directory("fifo")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = directory + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let result = try run(["timeout", "10", programPath, "--record", fifo])
        #expect(result.status == 1)
        #expect(
            result.error.hasPrefix("colourful-ball: \(fifo) is a FIFO that no program reads: start its reader first"))
    }

    @Test(
        "names of any bytes (not UTF-8, near the 255-byte limit) are written as given; --asciicast - is standard output"
    )
    func names() throws {
        let directory = try Self.directory("names")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Made and checked by the shell: Swift strings cannot hold the byte 0xFF.
        let script = """
            cd "$1" || exit 9
            name=$(printf 'out\\377.cast')
            "$0" replay "$2" --asciicast "$name" || exit 1
            test -f "$name" || exit 2
            cp "$2" "$(printf 'in\\377.jsonl')" && "$0" replay "$(printf 'in\\377.jsonl')" --headless > trace || exit 3
            test -s trace || exit 4
            long=$(printf 'x%.0s' $(seq 1 250)).cast
            "$0" replay "$2" --asciicast "$long" || exit 5
            test -f "$long" || exit 6
            "$0" replay "$2" --asciicast - > stdout.cast || exit 7
            test ! -e ./- && grep -q '"version":2' stdout.cast || exit 8
            """
        let result = try run(["/bin/sh", "-c", script, programPath, directory, Self.sample])
        #expect(result.status == 0, "step \(result.status): \(result.error)")
        #expect(try Self.leftovers(in: directory).isEmpty)
    }

    @Test("a signal during --asciicast, or a recording ended by SIGHUP before its first event, leaves no hidden file")
    func signalsLeaveNothing() throws {
        let directory = try Self.directory("signals")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A long recording, so the cast is still being written when the signal comes.
        var lines = [
            #"{"format":"colourful-ball-replay","version":1,"terminal":{"columns":80,"rows":24},"colourRules":1}"#
        ]
        for step in 0..<200_000 {
            lines.append(
                #"{"t":\#(Double(step) / 100),"event":"arrow","direction":"\#(step % 2 == 0 ? "left" : "right")","distance":1}"#
            )
        }
        try (lines.joined(separator: "\n") + "\n").write(
            toFile: directory + "/long.jsonl", atomically: true, encoding: .utf8)
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            // Spawned with every signal at its default (a shell's background job ignores SIGINT).
            let cast = try PseudoTerminal(
                [programPath, "replay", directory + "/long.jsonl", "--asciicast", directory + "/out-\(signal).cast"],
                size: ScreenSize(columns: 80, rows: 24), environment: ["PATH": "/usr/bin:/bin"])
            usleep(300_000)
            #expect(cast.ending() == nil, "signal \(signal): the cast was already written")
            kill(cast.pid, signal)
            let status = try #require(cast.waitForEnding(seconds: 10))
            #expect(status & 0x7F == signal, "signal \(signal): ended by \(status)")
            #expect(try Self.leftovers(in: directory).isEmpty, "signal \(signal)")
            #expect(!FileManager.default.fileExists(atPath: directory + "/out-\(signal).cast"))
        }
        let terminal = try PseudoTerminal(
            [programPath, "--record", directory + "/session.jsonl"], size: ScreenSize(columns: 80, rows: 24),
            environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        #expect(terminal.readUntil(Array("quit".utf8)) != nil)
        kill(terminal.pid, SIGHUP)
        #expect(terminal.waitForEnding(seconds: 5) != nil)
        #expect(try Self.leftovers(in: directory).isEmpty)
    }

    @Test(
        "an export over its own recording is refused, whatever its name (itself, ./F, a link to it), --force or not; --record and --trace on one file too"
    )
    func exportOverItsInput() throws {
        let directory = try Self.directory("over-input")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let recording = directory + "/s.jsonl"
        try FileManager.default.copyItem(atPath: Self.sample, toPath: recording)
        try FileManager.default.createSymbolicLink(atPath: directory + "/link.jsonl", withDestinationPath: recording)
        let before = try Data(contentsOf: URL(fileURLWithPath: recording))
        for output in [
            ["--trace", recording], ["--trace", directory + "/./s.jsonl"], ["--marbles", "--svg", recording],
            ["--asciicast", directory + "/link.jsonl"],
        ] {
            for force in [[], ["--force"]] {
                let result = try run([programPath, "replay", recording] + output + force)
                #expect(result.status == 64, "\(output) \(force): \(result.error)")
                #expect(result.error.contains("is the recording being read"), "\(result.error)")
                #expect(try Data(contentsOf: URL(fileURLWithPath: recording)) == before)
            }
        }
        let both = try run(
            [programPath, "--record", directory + "/a.jsonl", "--trace", directory + "/./a.jsonl"],
            environment: ["TERM": "xterm-256color", "PATH": "/usr/bin:/bin"])
        #expect(both.status == 64 && both.error.contains("--record and --trace need two files"), "\(both.error)")
        // An empty cast name is a usage error, as for the other outputs.
        #expect(try run([programPath, "replay", recording, "--asciicast", ""]).status == 64)
    }
}

extension HostileInputTests {
    @Test(
        "a Ctrl-S (XOFF) typed just before q cannot stop the terminal's output and hang the exit: the program reads it as a key"
    )
    func controlSBeforeQuit() throws {
        for arguments in [[], ["--streams"]] {
            // A new pseudo-terminal has output flow control (IXON) on, as a shell's terminal has.
            let terminal = try PseudoTerminal(
                [programPath, "--no-animation"] + arguments, size: ScreenSize(columns: 80, rows: 24),
                environment: ["TERM": "xterm-256color", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
            _ = terminal.readUntilQuiet(quiet: 0.5)
            // Ctrl-S, a move (a frame to draw after it) and q, in one write, then Ctrl-S alone
            // while the program leaves.
            terminal.write([0x13, UInt8(ascii: "h"), 0x13, UInt8(ascii: "q")])
            terminal.write([0x13])
            let status = try #require(terminal.waitForEnding(seconds: 10), "\(arguments): still running 10 s after q")
            #expect(status == 0, "\(arguments)")
            #expect(terminal.lineModes().map { $0.echo && $0.canonical } == true, "\(arguments): modes restored")
        }
    }
}

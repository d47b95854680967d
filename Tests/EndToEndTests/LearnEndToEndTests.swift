import BallProgram
import ColourfulBallCommands
import Foundation
import Testing

/// `colourful-ball learn` in a real terminal: a lesson done with real keys is kept in
/// `$XDG_STATE_HOME`, `--list` says so, the next run starts after it, `--reset` forgets.
@Suite("learn, end to end", .serialized)
struct LearnEndToEndTests {
    @Test(
        "a lesson done in tmux is kept; --list shows it; learn starts after it; --reset forgets; bad numbers are refused"
    )
    func progress() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("learn-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: state) }
        let environment = ["XDG_STATE_HOME": state]
        var processEnvironment = ProcessInfo.processInfo.environment
        processEnvironment["XDG_STATE_HOME"] = state
        // Lesson 3 (Behavior), done with a guess and b.
        let terminal = try TerminalSession(arguments: ["learn", "3"], environment: environment)
        try terminal.waitForScreen { $0.contains("Lesson 3 of \(Lesson.all.count) · Behavior") }
        try terminal.press("2", "b")
        try terminal.waitForScreen { $0.contains("Done: ^ and a letter: a Behavior subject hands") }
        try terminal.press("n")
        try terminal.waitForScreen { $0.contains("Lesson 4 of \(Lesson.all.count) · Publish") }
        try terminal.press("q")
        let exit = try terminal.waitForExit()
        #expect(exit.status == 0 && exit.modesRestored)
        let file = try String(contentsOfFile: state + "/colourful-ball/learn.json", encoding: .utf8)
        #expect(file == "{\"version\":2,\"done\":[\"behavior\"]}\n")
        let listed = try run([programPath, "learn", "--list"], environment: processEnvironment)
        #expect(listed.output.contains("2. A ghost\n3. Behavior  (done)\n4. Publish\n"), "\(listed.output)")
        // The next run starts at the first lesson not done: 1.
        let again = try TerminalSession(arguments: ["learn"], environment: environment)
        try again.waitForScreen { $0.contains("Lesson 1 of \(Lesson.all.count) · One subject") }
        try again.press("q")
        #expect(try again.waitForExit().status == 0)
        // --reset with a number forgets that one lesson.
        let one = try run([programPath, "learn", "--reset", "3"], environment: processEnvironment)
        #expect(one.status == 0 && one.output == "Lesson 3 forgotten: learn comes to it as not done.\n", "\(one)")
        #expect(
            try String(contentsOfFile: state + "/colourful-ball/learn.json", encoding: .utf8)
                == "{\"version\":2,\"done\":[]}\n")
        let reset = try run([programPath, "learn", "--reset"], environment: processEnvironment)
        #expect(reset.status == 0 && !FileManager.default.fileExists(atPath: state + "/colourful-ball/learn.json"))
        for (arguments, message) in [
            (
                ["learn", "\(Lesson.all.count + 1)"],
                "There are lessons 1 to \(Lesson.all.count); got \(Lesson.all.count + 1)."
            ),
            (["learn", "--list", "--reset"], "Give --list or --reset, not both."),
        ] {
            let refused = try run([programPath] + arguments)
            #expect(refused.status == 64 && refused.error.contains(message), "\(refused.error)")
        }
    }

    @Test("learn --record keeps the tour's session: said back at the shell, and it replays to where the ball was")
    func recordTheTour() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("learn-record-\(getpid())").path
        let file = state + "/tour.jsonl"
        defer { try? FileManager.default.removeItem(atPath: state) }
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let terminal = try TerminalSession(
            arguments: ["learn", "1", "--record", file, "--no-animation"], environment: ["XDG_STATE_HOME": state])
        try terminal.waitForScreen { $0.contains("Lesson 1 of \(Lesson.all.count) · One subject") }
        try terminal.press("Right", "Right", "l")
        let moved = try terminal.waitForScreen { $0.contains(" 43,3 · ") }
        try terminal.press("q")
        #expect(try terminal.waitForExit().status == 0)
        let said = try terminal.screen()
        #expect(
            said.contains("Recorded 4 intents to \(file); colourful-ball replay \(file) plays them back."), "\(said)")
        // The recorded area is the ball's, between the card and the lanes: 80×7 at 80×24.
        let recorded = try String(contentsOfFile: file, encoding: .utf8)
        #expect(
            recorded.hasPrefix(#"{"format":"colourful-ball-replay","version":8,"terminal":{"columns":80,"rows":7}"#),
            "\(recorded)")
        // What the tour showed: its first lesson's marker (its panel is closed: no panel event).
        #expect(recorded.contains(#"{"t":0,"event":"lesson","number":1,"title":"One subject"}"#), "\(recorded)")
        let replayed = try run([programPath, "replay", file, "--headless"])
        #expect(replayed.status == 0 && replayed.output.contains("cell 43,3"), "\(replayed.output)\n\(moved)")
        // Refused before anything starts: an existing file without --force, --record with --list.
        let again = try run([programPath, "learn", "--record", file])
        #expect(again.status == 1 && again.error.contains("already exists"), "\(again.error)")
        let listed = try run([programPath, "learn", "--list", "--record", file])
        #expect(listed.status == 64 && listed.error.contains("--record goes without --list and --reset."))
    }

    @Test(
        "a signal after a save (a lesson's progress, the player's w) restores the terminal as before the first: every ending mode off, the status honest",
        arguments: [(SIGTERM, 143), (SIGHUP, 129), (SIGINT, 130), (SIGQUIT, 131)])
    func signalAfterSave(signal: Int32, status: Int) throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("learn-signal-\(getpid())-\(signal)")
            .path
        defer { try? FileManager.default.removeItem(atPath: state) }
        let terminal = try TerminalSession(arguments: ["learn", "3"], environment: ["XDG_STATE_HOME": state])
        try terminal.waitForScreen { $0.contains("Lesson 3 of \(Lesson.all.count) · Behavior") }
        try terminal.press("2", "b")
        try terminal.waitForScreen { $0.contains("Done: ^ and a letter: a Behavior subject hands") }
        #expect(FileManager.default.fileExists(atPath: state + "/colourful-ball/learn.json"), "saved")
        kill(try terminal.programPID(), signal)
        let exit = try terminal.waitForExit()
        #expect(exit.status == status)
        #expect(exit.modesRestored)
        #expect(try terminal.modes() == restoredModes)
        // The player's w, then the signal.
        let recording = FileManager.default.temporaryDirectory.appendingPathComponent("w-signal-\(getpid())-\(signal)")
            .path
        try FileManager.default.createDirectory(atPath: recording, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: recording) }
        let sample = recording + "/s.jsonl"
        try FileManager.default.copyItem(atPath: MarbleSyntaxTests.sample, toPath: sample)
        let player = try TerminalSession(arguments: ["replay", sample, "--paused"])
        try player.waitForScreen { $0.contains("intent 0/13") }
        try player.press("w")
        try player.waitForScreen { $0.contains("wrote") }
        kill(try player.programPID(), signal)
        let ended = try player.waitForExit()
        #expect(ended.status == status && ended.modesRestored)
        #expect(try player.modes() == restoredModes)
    }

    /// A state folder of its own, and the environment that points learn at it.
    static func state(_ name: String) -> (folder: String, file: String, environment: [String: String]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("learn-\(name)-\(getpid())").path
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = folder
        return (folder, folder + "/colourful-ball/learn.json", environment)
    }

    @Test(
        "a progress file that cannot be read is said, kept, and never overwritten: corrupt, too large, a directory, a FIFO (no wait), unreadable"
    )
    func unreadableProgress() throws {
        let (folder, file, environment) = Self.state("unreadable")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(
            atPath: folder + "/colourful-ball", withIntermediateDirectories: true)
        let cases: [(String, () throws -> Void, String)] = [
            ("corrupt", { try "{\"done\":[1,2".write(toFile: file, atomically: true, encoding: .utf8) }, "is not the"),
            (
                "too large",
                {
                    try ("{\"done\":[1]}" + String(repeating: " ", count: 5_000)).write(
                        toFile: file, atomically: true, encoding: .utf8)
                },
                "more than the progress ever takes"
            ),
            (
                "a directory",
                { try FileManager.default.createDirectory(atPath: file, withIntermediateDirectories: true) },
                "not a regular file"
            ),
            ("a FIFO", { _ = mkfifo(file, 0o600) }, "not a regular file"),
            (
                "a lesson 12", { try "{\"done\":[12]}\n".write(toFile: file, atomically: true, encoding: .utf8) },
                "numbers lessons"
            ),
        ]
        for (name, make, why) in cases {
            try? FileManager.default.removeItem(atPath: file)
            try make()
            let before = try? Data(contentsOf: URL(fileURLWithPath: file))
            for arguments in [["learn", "--list"], ["learn"]] {
                let started = Date()
                let result = try run([programPath] + arguments, environment: environment)
                #expect(Date().timeIntervalSince(started) < 5, "\(name): no wait")
                #expect(result.status == 1, "\(name) \(arguments): \(result.error)")
                #expect(
                    result.error.contains("cannot be read as your progress (") && result.error.contains(why),
                    "\(name): \(result.error)")
                #expect(result.error.contains("it is kept as it is"))
            }
            #expect((try? Data(contentsOf: URL(fileURLWithPath: file))) == before, "\(name): the file is as it was")
        }
        // Unreadable by its mode: root reads anything, so only a user is refused.
        try? FileManager.default.removeItem(atPath: file)
        try "{\"done\":[1]}\n".write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0)
        if getuid() == 0 {
            print("skipped: mode 000 is readable by root, and these tests run as root")
        } else {
            let result = try run([programPath, "learn", "--list"], environment: environment)
            #expect(result.status == 1 && result.error.contains("Permission denied"))
        }
        chmod(file, 0o600)
    }

    @Test("HOME unset, empty or relative, and no absolute XDG_STATE_HOME: one sentence saying which, nothing written")
    func noHome() throws {
        let said = [
            nil: "HOME is not set,", "": "HOME is set but empty,",
            "relative/home": "HOME is \"relative/home\", not an absolute path,",
        ]
        for (home, what) in said {
            var environment = ["PATH": "/usr/bin:/bin", "XDG_STATE_HOME": "also/relative"]
            if let home { environment["HOME"] = home }
            let result = try run([programPath, "learn", "--list"], environment: environment)
            #expect(
                result.status == 1
                    && result.error
                        == "colourful-ball: There is no place for your progress: \(what) and XDG_STATE_HOME gives no absolute path either: set one of them.\n",
                "\(result.error)")
        }
    }

    @Test(
        "two tours keep both their lessons; the folders are private (0700); a save killed part-way leaves nothing a later one keeps"
    )
    func mergedAndPrivate() throws {
        let (folder, file, _) = Self.state("merged")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let progress = LearnProgress(file: file)
        // Two tours that read the file at their start, each before the other saved.
        let first = try progress.load()
        let second = try progress.load()
        _ = try progress.save(first.union(["why-behavior"]))
        let kept = try progress.save(second.union(["one-subject"]))
        #expect(kept == ["one-subject", "why-behavior"])
        // In the tour's order, by name.
        #expect(
            try String(contentsOfFile: file, encoding: .utf8)
                == "{\"version\":2,\"done\":[\"one-subject\",\"why-behavior\"]}\n")
        var status = stat()
        stat(folder + "/colourful-ball", &status)
        #expect(status.st_mode & 0o777 == 0o700)
        stat(folder, &status)
        #expect(status.st_mode & 0o777 == 0o700)
        // A leftover of a save killed part-way: removed by the next.
        let leftover = folder + "/colourful-ball/.learn.json.colourful-ball-AbC123"
        _ = FileManager.default.createFile(atPath: leftover, contents: Data("{\"done\":[".utf8))
        _ = try progress.save(["behavior"])
        #expect(!FileManager.default.fileExists(atPath: leftover))
        #expect(try progress.load() == ["one-subject", "behavior", "why-behavior"])
    }

    @Test(
        "a progress file of numbers (written before lessons had names, in three orders) is refused and kept; names with no version read; a name this program does not know is kept; a reset is never undone by a tour's save"
    )
    func namesAndNumbers() throws {
        let (folder, file, _) = Self.state("names")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/colourful-ball", withIntermediateDirectories: true)
        let progress = LearnProgress(file: file)
        // Behavior, Replay and Cancel in the eight-lesson tour; Publish, Replay, Cancel in the
        // last numbered one: the file does not say which.
        try "{\"done\":[4,6,7]}\n".write(toFile: file, atomically: true, encoding: .utf8)
        let refused = try #require(throws: (any Error).self) { try progress.load() }
        #expect("\(refused)".contains("numbers lessons") && "\(refused)".contains("learn --reset"), "\(refused)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "{\"done\":[4,6,7]}\n", "kept as it is")
        // A later program's lesson, with no version, and a save: both kept, by name.
        try "{\"done\":[\"behavior\",\"flat-map-latest-2\",\"ghost\"]}\n".write(
            toFile: file, atomically: true, encoding: .utf8)
        #expect(try progress.save(["scan"]) == ["ghost", "behavior", "scan", "flat-map-latest-2"])
        #expect(
            try String(contentsOfFile: file, encoding: .utf8)
                == "{\"version\":2,\"done\":[\"ghost\",\"behavior\",\"scan\",\"flat-map-latest-2\"]}\n")
        // A later version: refused, and kept.
        try "{\"version\":3,\"done\":[]}\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(throws: (any Error).self) { try progress.load() }
        // Not a name: refused, and kept as it is.
        for bad in [#"{"done":["Behavior"]}"#, #"{"done":[""]}"#, #"{"done":[true]}"#, #"{"done":["a\u001b[2J"]}"#] {
            try (bad + "\n").write(toFile: file, atomically: true, encoding: .utf8)
            #expect(throws: (any Error).self, "\(bad)") { try progress.load() }
        }
        // A tour saves only the lesson it just did: a reset between two saves stays a reset.
        try FileManager.default.removeItem(atPath: file)
        _ = try progress.save(["ghost"])
        try progress.reset()
        #expect(try progress.save(["scan"]) == ["scan"])
    }

    @Test(
        "learn --reset with standard output closed refuses before removing anything; learn without a terminal points at --list"
    )
    func resetClosedAndNoTerminal() throws {
        let (folder, file, environment) = Self.state("reset")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try LearnProgress(file: file).save(["ghost"])
        let closed = try run([programPath, "learn", "--reset"], environment: environment, stdout: .closed)
        #expect(closed.status == 74)
        #expect(FileManager.default.fileExists(atPath: file), "still there")
        let noTerminal = try run([programPath, "learn"], environment: environment)
        #expect(
            noTerminal.status == 2 && noTerminal.error.contains("colourful-ball learn --list"), "\(noTerminal.error)")
    }

    @Test("a save that fails is said at once on the status line, not only at exit")
    func failedSaveSaidAtOnce() throws {
        // /proc takes no new folder: every save fails.
        let terminal = try TerminalSession(
            arguments: ["learn", "3"], environment: ["XDG_STATE_HOME": "/proc/colourful-ball-\(getpid())"])
        try terminal.waitForScreen { $0.contains("Lesson 3 of \(Lesson.all.count) · Behavior") }
        try terminal.press("2", "b")
        try terminal.waitForScreen { $0.contains("Done: ^ and a letter") && $0.contains("progress not kept") }
        try terminal.press("q")
        let exit = try terminal.waitForExit()
        #expect(exit.status == 1 && exit.modesRestored)
    }
}

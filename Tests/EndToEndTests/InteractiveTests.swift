import BallModel
import BallProgram
import BallRendering
import BallStreams
import BallTestSupport
import Foundation
import Platform
import TerminalIO
import Testing

/// The real program in a real terminal (tmux): real mouse bytes and keys in, the screen read
/// back, and the terminal checked after every way of ending.
@Suite("End to end in a terminal", .serialized)
struct InteractiveTests {
    /// The status line (the last line on screen).
    func statusLine(_ screen: String) -> String {
        screen.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }.last.map(String.init)
            ?? ""
    }

    @Test("dragging with the mouse moves the ball cell by cell and changes its colours; q restores the terminal")
    func dragAndQuit() throws {
        let terminal = try TerminalSession()
        let start = try terminal.waitForScreen { $0.contains("320,176 pt") }
        #expect(statusLine(start).contains("40,11 · 320,176 pt  ● flatRed #E84E3C  on ■ flatMint #1ABD9C"))
        // Drag reporting (1002) with SGR coordinates, on the alternate screen, cursor hidden.
        let modes = try terminal.modes()
        #expect(modes.contains("mouse_button=1 mouse_sgr=1 mouse_all=0 alternate=1 cursor=0"), "\(modes)")

        // Grab the ball two cells right of its centre and drag it left, cell by cell.
        try terminal.mouse("pressed", column: 42, row: 11)
        for column in stride(from: 41, through: 32, by: -1) {
            try terminal.mouse("dragged", column: column, row: 11)
            // The place in cells (its points go before the keys do, with long colour names).
            let screen = try terminal.waitForScreen { $0.contains(" \(column - 2),11 ") }
            #expect(statusLine(screen).hasPrefix(" \(column - 2),11 "))
            #expect(statusLine(screen).contains("? keys  q quit"), "\(statusLine(screen))")
        }
        try terminal.mouse("released", column: 32, row: 11)
        // 30,11 is 240 + 176 = 416 points (161 mod 255): flatRedDark on flatGray. The status line
        // says it at once (the place without its points, which go before the keys do); the disc
        // glides there over a tenth of a second: its top row (7 cells) ends over columns 27...33.
        let moved = try terminal.waitForScreen {
            $0.contains(" 30,11  ● flatRedDark #BF392A  on ■ flatGray #95A5A6  ? keys  q quit")
                && $0.split(separator: "\n", omittingEmptySubsequences: false)[6].trimmingCharacters(
                    in: .whitespaces) == "▄▄▄▄▄▄▄"
                && $0.split(separator: "\n", omittingEmptySubsequences: false)[6].hasPrefix(
                    String(repeating: " ", count: 27) + "▄")
        }
        // The ball's disc is centred on column 30: its widest rows span columns 21...39.
        // Whole cells are blanks in the ball's colour: flatRedDark (160) on flatGray (247) in
        // the 256-colour table; the half cells at the top and bottom are glyphs.
        #expect(moved.contains("▄▄▄▄▄▄▄") && !moved.contains("█") && !moved.contains("▀"))
        // Its colours fade in over the glide's tenth of a second too: wait for the final ones.
        let settled = try terminal.waitFor("the disc's final colours", read: terminal.screenWithAllCells) {
            TerminalEmulator.capture($0, columns: 80, rows: 24).cells[11][30].background == 160
        }
        let shown = TerminalEmulator.capture(settled, columns: 80, rows: 24)
        let middle = shown.cells[11]
        #expect([21, 30, 39].allSatisfy { middle[$0].glyph == " " && middle[$0].background == 160 })
        // (The last frame of a glide that changed the screen's colour is an erase in flatGray,
        // then the disc: tmux's capture says nothing of the erased cells after the disc.)
        #expect(middle[20].background == 247 && (!middle[40].known || middle[40].background == 247))
        #expect(shown.cells[6].contains { $0.glyph == "▄" && $0.foreground == 160 && $0.background == 247 })
        #expect(shown.cells[16].contains { $0.glyph == "▄" && $0.foreground == 247 && $0.background == 160 })

        // Arrow keys: one cell, Shift five.
        try terminal.press("Right")
        try terminal.waitForScreen { $0.contains(" 31,11 ") }
        try terminal.press("S-Down")
        try terminal.waitForScreen { $0.contains(" 31,16 ") }
        try terminal.press("c")
        try terminal.waitForScreen { $0.contains(" 40,11 · 320,176 pt") }

        try terminal.press("q")
        let exit = try terminal.waitForExit()
        #expect(exit.status == 0)
        #expect(exit.modesRestored)
        #expect(try terminal.modes() == restoredModes)
    }

    @Test(
        "? shows every key of play over the ball; any key (even Esc or a click) but q closes it and does nothing else")
    func helpOverlay() throws {
        let terminal = try TerminalSession()
        try terminal.waitForScreen { $0.contains("320,176 pt") && $0.contains("? keys  q quit") }
        try terminal.press("?")
        let help = try terminal.waitForScreen { $0.contains("colourful-ball: keys") }
        for row in KeyMap.help(for: .play).rows { #expect(help.contains("  \(row.does)"), "\(row.does)") }
        #expect(help.contains(KeyMap.helpFooter))
        #expect(!help.contains("pause and resume"))
        try terminal.press("Escape")  // Closes the help; does not quit.
        try terminal.waitForScreen { !$0.contains("colourful-ball: keys") }
        try terminal.press("Right")
        try terminal.waitForScreen { $0.contains(" 41,11 · 328,176 pt") }
        try terminal.press("?")
        try terminal.waitForScreen { $0.contains("colourful-ball: keys") }
        try terminal.mouse("pressed", column: 10, row: 3)  // Closes it; the ball stays.
        try terminal.mouse("released", column: 10, row: 3)
        let closed = try terminal.waitForScreen { !$0.contains("colourful-ball: keys") }
        #expect(closed.contains(" 41,11 · 328,176 pt"))
        try terminal.press("q")
        #expect(try terminal.waitForExit().status == 0)
    }

    @Test("s opens the streams panel; a real drag fills its lanes; b adds a late lane; q restores the terminal")
    func streamsPanel() throws {
        let terminal = try TerminalSession()
        try terminal.waitForScreen { $0.contains("320,176 pt") }
        try terminal.press("s")
        // The panel lies over the ball's area: the ball stays at 40,11 (no intent), and the view
        // follows it so that it is drawn whole above the panel, its centre at row 6.
        let opened = try terminal.waitForScreen {
            $0.contains(" intents ") && $0.contains("lanes hide 11 rows  40,11  ")
        }
        for label in [" streams ", " intents ", " position ", " ballColour ", " background "] {
            #expect(opened.contains(label), "\(label)")
        }
        func lane(_ screen: String, _ label: String) -> String {
            String(screen.split(separator: "\n").first { $0.hasPrefix(" \(label) ") } ?? "")
        }
        // Each new position is a letter on its lane (the values line names it).
        func values(_ lane: String) -> Int {
            lane.unicodeScalars.dropFirst(StreamPanel.labelWidth).filter(MarbleValue.letters.contains).count
        }
        let before = values(lane(opened, "position"))
        try terminal.mouse("pressed", column: 40, row: 6)
        for column in 41...46 {
            try terminal.mouse("dragged", column: column, row: 6)
            try terminal.waitForScreen { $0.contains("  \(column),11  ") }
        }
        try terminal.mouse("released", column: 46, row: 6)
        let dragged = try terminal.waitForScreen { lane($0, "intents").contains("▲") }
        #expect(values(lane(dragged, "position")) == before + 6)
        #expect(lane(dragged, "intents").filter { $0 == "•" }.count == 6)
        #expect(lane(dragged, "ballColour").contains("●"))
        try terminal.press("b")
        // The row is always there (its hint until the key): wait for the hint to give way.
        let late = try terminal.waitForScreen { !lane($0, "late Behavior").contains("b: subscribe") }
        #expect(lane(late, "late Behavior").contains("^"))
        // Handed the latest position: position's letter in the column it subscribed in.
        let handed = lane(late, "late Behavior").unicodeScalars.drop { $0 != "^" }.dropFirst().first
        #expect(handed.map(MarbleValue.letters.contains) == true, "\(lane(late, "late Behavior"))")
        // With the panel open the pointer is followed with no button down (mode 1003): resting
        // over intent 2's column (the intents lane, the row below the panel's top; 1 was the
        // press, the panel's opening no intent) describes it.
        #expect(try terminal.modes().contains("mouse_all=1"))
        let intentsRow = 24 - StreamPanel.rows(slot: false) + 1  // From 1, as the terminal counts.
        try terminal.send("\u{1B}[<35;\(StreamPanel.labelWidth + 2 * 2 + 2);\(intentsRow)M")
        try terminal.waitForScreen { $0.contains(" #2 • dragged to 41,11 · 41,11 · ● ") }
        try terminal.press("s")
        try terminal.waitForScreen { !$0.contains(" intents ") && $0.contains(" 46,") }
        try terminal.waitForModes { $0.contains("mouse_all=0") && $0.contains("mouse_button=1") }
        try terminal.press("q")
        let exit = try terminal.waitForExit()
        #expect(exit.status == 0 && exit.modesRestored)
    }

    static let hasScreen = (try? run(["screen", "-v"]))?.status == 0

    @Test(
        "under GNU screen in a 250-column terminal the drag reaches columns beyond 223 exactly; q restores the terminal",
        .enabled(if: hasScreen, "GNU screen is not installed (scripts/setup --tests installs it)"))
    func gnuScreen() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("screen-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let rc = directory.appendingPathComponent("screenrc").path
        try "startup_message off\nterm screen-256color\n".write(toFile: rc, atomically: true, encoding: .utf8)
        let recording = directory.appendingPathComponent("screen.jsonl").path
        // A session of its own name, quit in any case: a failed run leaves no detached screen.
        let name = "colourful-ball-test-\(getpid())"
        defer { _ = try? run(["screen", "-S", name, "-X", "quit"]) }
        let terminal = try TerminalSession(
            columns: 250, rows: 24, arguments: ["-S", name, "-c", rc, programPath, "--record", recording],
            program: "screen")
        try terminal.waitForScreen { $0.contains(" 125,11 · 1000,176 pt") }
        try terminal.mouse("pressed", column: 125, row: 11)
        for column in [180, 223, 224, 225, 228] {
            try terminal.mouse("dragged", column: column, row: 11)
            try terminal.waitForScreen { $0.contains(" \(column),11 · \(column * 8),176 pt") }
        }
        // Further right the ball is held at 231, where it stays whole (a 38-column disc: the
        // short window leaves it rows to move up and down in); the pointer's cell still
        // arrives exactly (the recording below).
        try terminal.mouse("dragged", column: 245, row: 11)
        try terminal.mouse("released", column: 245, row: 11)
        try terminal.press("Left")
        try terminal.waitForScreen { $0.contains(" 230,11 ") }
        try terminal.press("q")
        let exit = try terminal.waitForExit()
        #expect(exit.status == 0 && exit.modesRestored)
        let cells = try String(contentsOfFile: recording, encoding: .utf8).split(separator: "\n").compactMap { line in
            line.contains("dragged") ? line.split(separator: "[").last?.split(separator: ",").first : nil
        }
        #expect(cells == ["180", "223", "224", "225", "228", "245"])
    }

    @Test("after q the cursor is where the program found it: what the shell writes next follows the prompt")
    func cursorWhereFound() throws {
        let terminal = try TerminalSession(
            arguments: ["-c", "printf \"line one\\nprompt> \"; \"$0\" && printf after", programPath], program: "/bin/sh"
        )
        try terminal.waitForScreen { $0.contains("320,176 pt") }
        try terminal.press("Right")
        try terminal.waitForScreen { $0.contains("328,176 pt") }
        try terminal.press("q")
        let screen = try terminal.waitForScreen { $0.contains("after") }
        #expect(screen.split(separator: "\n").prefix(2) == ["line one", "prompt> after"], "\(screen)")
    }

    @Test(
        "under GNU screen as Debian ships it (no alternate screen, Esc held until the next key): Esc then a key quits, and no frame stays",
        .enabled(if: hasScreen, "GNU screen is not installed (scripts/setup --tests installs it)"))
    func gnuScreenAsShipped() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("screen-shipped-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Only what /etc/screenrc says (altscreen off, its default), and no start-up message.
        let rc = directory.appendingPathComponent("screenrc").path
        try "startup_message off\n".write(toFile: rc, atomically: true, encoding: .utf8)
        let name = "colourful-ball-shipped-\(getpid())"
        defer { _ = try? run(["screen", "-S", name, "-X", "quit"]) }
        let terminal = try TerminalSession(
            rows: 30,
            arguments: [
                "-S", name, "-c", rc, "sh", "-c", "echo before; '\(programPath)'; echo \"exit $?\"; sleep 600",
            ],
            program: "screen")
        try terminal.waitForScreen { $0.contains(" 40,14 ") && $0.contains("q quit") }
        // screen holds the Esc (mouse reporting is on) until the j: they arrive together.
        try terminal.press("Escape")
        try terminal.press("j")
        let screen = try terminal.waitForScreen { $0.contains("exit 0") }
        #expect(!screen.contains(" pt ") && !screen.contains("keys"), "\(screen)")
        let painted = try terminal.screenWithColours().contains("\u{1B}[48;5;")
        #expect(!painted, "no cell keeps a colour of the program's")
        // Cleared as `clear` would: what the shell says next is at the top.
        #expect(screen.split(separator: "\n").first == "exit 0", "\(screen)")
    }

    @Test(
        "after drags in every direction the terminal shows exactly the frame the renderer built, colours too",
        .enabled(if: hasTerminfo("xterm-direct"), Comment(rawValue: ncursesTermMissing)))
    func incrementalUpdatesMatchTheFrame() throws {
        // Each direction takes a different path through the rasteriser (a shift left deletes a
        // cell, a shift right inserts one, a vertical move rewrites rows): all must end in the
        // same picture as the headless renderer's, in the exact flat colours (xterm-direct).
        let terminal = try TerminalSession(term: "xterm-direct")
        try terminal.waitForScreen { $0.contains("320,176 pt") }
        let driver = Pilot<Play>()
        var cell = Cell(column: 40, row: 11)
        try terminal.mouse("pressed", column: cell.column, row: cell.row)
        driver.send(.pressed(at: cell))
        let moves =
            Array(repeating: (1, 0), count: 6) + Array(repeating: (-1, 0), count: 10)
            + Array(repeating: (0, 1), count: 3) + Array(repeating: (-1, -1), count: 4)
            + Array(repeating: (0, -1), count: 2) + Array(repeating: (1, 1), count: 5)
        for (columns, rows) in moves {
            cell = Cell(column: cell.column + columns, row: cell.row + rows)
            try terminal.mouse("dragged", column: cell.column, row: cell.row)
            driver.send(.dragged(to: cell))
            var differences: [String] = []
            do {
                try terminal.waitFor("the frame", read: terminal.screenWithAllCells) { capture in
                    let shown = TerminalEmulator.capture(capture, columns: 80, rows: 24)
                    differences = shown.differences(from: driver.frame, colours: .direct) + shown.problems
                    return differences.isEmpty
                }
            } catch {
                Issue.record("at \(cell) these cells differ: \(differences.prefix(12))")
                throw error
            }
        }
        try terminal.press("q")
        #expect(try terminal.waitForExit().status == 0)
    }

    @Test("resizing keeps the ball whole; too small shows a notice until the window grows")
    func resize() throws {
        let terminal = try TerminalSession()
        try terminal.waitForScreen { $0.contains("320,176 pt") }
        try terminal.press("L", "L", "L", "L", "L", "L")  // To the right edge: 70,11.
        try terminal.waitForScreen { $0.contains(" 70,11 ") }
        try terminal.resize(columns: 60, rows: 20)
        // 60 columns: the ball is 15 across (half width 7), so its centre can reach 52.
        try terminal.waitForScreen { $0.contains(" 52,11 ") }
        try terminal.resize(columns: 20, rows: 6)
        try terminal.waitForScreen { $0.contains("terminal too small") && $0.contains("need 24×7") }
        try terminal.resize(columns: 80, rows: 24)
        try terminal.waitForScreen { $0.contains(" 52,11 ") && !$0.contains("too small") }
        try terminal.press("Escape")
        let exit = try terminal.waitForExit()
        #expect(exit.status == 0)
        #expect(exit.modesRestored)
    }

    @Test(
        "a signal restores the terminal and the exit status tells which", .tags(.slow), .skippedInQuickRuns,
        arguments: [
            (SIGTERM, 143), (SIGINT, 130), (SIGHUP, 129), (SIGQUIT, 131), (SIGSEGV, 139), (SIGILL, 132),
            (SIGUSR1, 138), (SIGUSR2, 140), (SIGALRM, 142), (SIGVTALRM, 154), (SIGPROF, 155), (SIGXCPU, 152),
            (SIGXFSZ, 153), (SIGSYS, 159), (30 /* SIGPWR */, 158), (16 /* SIGSTKFLT */, 144),
        ])
    func signals(signal: Int32, status: Int) throws {
        let terminal = try TerminalSession()
        try terminal.waitForScreen { $0.contains("320,176 pt") }
        try terminal.mouse("pressed", column: 40, row: 11)  // Mid-drag, mouse modes on.
        kill(try terminal.programPID(), signal)
        let exit = try terminal.waitForExit()
        #expect(exit.status == status)
        #expect(exit.modesRestored)
        #expect(try terminal.modes() == restoredModes)
    }

    @Test(
        "with standard error redirected (2>FILE, 2>/dev/null) the terminal is in the program's modes all the same: no echo, so the start-up questions' answers never show; messages still go to the file",
        arguments: [false, true])
    func standardErrorRedirected(toNull: Bool) throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("stderr-\(getpid())-\(toNull).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let terminal = try TerminalSession(
            arguments: ["--record", "/nonexistent-folder-\(getpid())/r.jsonl"],
            standardError: toNull ? "/dev/null" : log)
        // The recording cannot be made: one sentence to standard error, which is the file.
        #expect(try terminal.waitForExit().status == 1)
        if !toNull {
            #expect(try String(contentsOfFile: log, encoding: .utf8).hasPrefix("colourful-ball: Cannot write"))
        }
        let playing = try TerminalSession(standardError: toNull ? "/dev/null" : log)
        try playing.waitForScreen { $0.contains("320,176 pt") }
        let settings = try playing.lineSettings()
        #expect(settings.contains("-echo ") && settings.contains("-icanon"), "\(settings)")
        // The glyph questions' answers come back as input, never shown.
        try playing.press("Right")
        let screen = try playing.waitForScreen { $0.contains(" 41,11 · 328,176 pt") }
        #expect(!screen.contains("R^[") && !screen.contains(";2R"), "\(screen)")
        try playing.press("q")
        let exit = try playing.waitForExit()
        #expect(exit.status == 0 && exit.modesRestored)
    }

    @Test("Ctrl-Z gives the terminal back to the shell; fg takes it again")
    func suspendAndResume() throws {
        let terminal = try TerminalSession(interactiveShell: true)
        try terminal.waitForScreen { $0.contains("320,176 pt") }
        try terminal.press("C-z")
        try terminal.waitForScreen { $0.contains("Stopped") }
        #expect(try terminal.modes() == restoredModes)
        try terminal.send("fg\n")
        try terminal.waitForModes { $0.contains("mouse_button=1 mouse_sgr=1 mouse_all=0 alternate=1 cursor=0") }
        try terminal.press("Right")
        try terminal.waitForScreen { $0.contains(" 41,11 · 328,176 pt") }
        try terminal.press("q")
        try terminal.waitForModes { $0 == restoredModes }
    }

    @Test(
        "without an alternate screen (GNU screen's default), Ctrl-Z, q and a signal leave no frame behind",
        arguments: ["C-z", "q", "SIGTERM"])
    func withoutAlternateScreen(leaving: String) throws {
        let terminal = try TerminalSession(rows: 30, interactiveShell: true, alternateScreen: false)
        try terminal.waitForScreen { $0.contains(" 40,14 ") && $0.contains("q quit") }
        switch leaving {
        case "SIGTERM": kill(try terminal.programPID(), SIGTERM)
        default: try terminal.press(leaving)
        }
        let screen = try terminal.waitForScreen { $0.contains("$ ") && !$0.contains(" pt ") }
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        // What the shell writes after it (a prompt, "Stopped", "Terminated") from the top
        // down, where `clear` would leave them; nothing of the frame, no painted cell.
        #expect(lines.first.map { $0.hasPrefix("$ ") || $0.hasPrefix("[1]") || $0.isEmpty } == true, "\(screen)")
        #expect(!screen.contains("quit") && !screen.contains("keys"), "\(screen)")
        let painted = try terminal.screenWithColours().contains("\u{1B}[48;5;")
        #expect(!painted, "no cell keeps a colour of the program's")
        #expect(
            try terminal.tmux(["display", "-p", "#{cursor_y}"]).trimmingCharacters(in: .whitespacesAndNewlines) != "29")
        if leaving == "C-z" {
            try terminal.send("fg\n")
            try terminal.waitForScreen { $0.contains(" 40,14 ") && $0.contains("q quit") }
            try terminal.press("q")
            try terminal.waitForScreen { !$0.contains(" pt ") }
        }
    }

    @Test("SIGTSTP from outside stops it as Ctrl-Z does; fg takes the terminal again")
    func stopSignal() throws {
        let terminal = try TerminalSession(interactiveShell: true)
        try terminal.waitForScreen { $0.contains("320,176 pt") }
        kill(try terminal.programPID(), SIGTSTP)
        try terminal.waitForScreen { $0.contains("Stopped") }
        #expect(try terminal.modes() == restoredModes)
        try terminal.send("fg\n")
        try terminal.waitForModes { $0.contains("mouse_button=1 mouse_sgr=1 mouse_all=0 alternate=1 cursor=0") }
        try terminal.waitForScreen { $0.contains("320,176 pt") }
        try terminal.press("q")
        try terminal.waitForModes { $0 == restoredModes }
    }

    @Test("pasted text is not taken as keys: a pasted q does not quit")
    func pasteIsNotKeys() throws {
        let terminal = try TerminalSession()
        try terminal.waitForScreen { $0.contains("320,176 pt") }
        try terminal.tmux(["set-buffer", "q\u{1B}[Cjjjq"])
        try terminal.tmux(["paste-buffer", "-p"])  // Bracketed, as the program asked for.
        try terminal.press("Right")
        let screen = try terminal.waitForScreen { $0.contains(" 41,11 ") }
        #expect(screen.contains(" 41,11 · 328,176 pt"))  // Only the real Right moved the ball.
        try terminal.press("q")
        let exit = try terminal.waitForExit()
        #expect(exit.status == 0)
        #expect(exit.modesRestored)
    }

    @Test("Ctrl-C quits cleanly")
    func controlC() throws {
        let terminal = try TerminalSession()
        try terminal.waitForScreen { $0.contains("320,176 pt") }
        try terminal.press("C-c")
        let exit = try terminal.waitForExit()
        #expect(exit.status == 0)
        #expect(exit.modesRestored)
        #expect(try terminal.modes() == restoredModes)
    }

    @Test(
        "with direct colour (TERM=xterm-direct, or COLORTERM=truecolor as kitty sets) the exact flat colours reach the terminal",
        .enabled(if: hasTerminfo("xterm-direct"), Comment(rawValue: ncursesTermMissing)),
        arguments: [("xterm-direct", [:]), ("xterm-256color", ["COLORTERM": "truecolor"])])
    func directColour(term: String, environment: [String: String]) throws {
        let terminal = try TerminalSession(term: term, environment: environment)
        try terminal.waitForScreen { $0.contains("320,176 pt") }
        let colours = try terminal.screenWithColours()
        #expect(colours.contains("38;2;232;78;60"))  // flatRed #E84E3C, the ball.
        #expect(colours.contains("38;2;26;189;156") || colours.contains("48;2;26;189;156"))  // flatMint #1ABD9C.
        try terminal.press("q")
        #expect(try terminal.waitForExit().status == 0)
    }

    @Test("an unknown TERM gets one sentence and a non-zero exit")
    func unknownTerm() throws {
        let terminal = try TerminalSession(term: "no-such-terminal")
        let screen = try terminal.waitForScreen { $0.contains("TERM") }
        #expect(screen.contains("The terminal type 'no-such-terminal' (TERM) is unknown to ncurses"))
        #expect(try terminal.waitForExit().status == 2)
    }

    @Test("a terminal that cannot move its cursor (TERM=dumb) gets one sentence, its modes untouched")
    func dumbTerminal() throws {
        let terminal = try TerminalSession(term: "dumb")
        let screen = try terminal.waitForScreen { $0.contains("TERM") }
        #expect(screen.contains("The terminal type 'dumb' (TERM) cannot move its cursor"))
        let exit = try terminal.waitForExit()
        #expect(exit.status == 2 && exit.modesRestored)
    }

    @Test(
        "without colour (a monochrome terminal, or NO_COLOR) the ball still shows, in shapes",
        arguments: [
            ("vt100", [:]), ("xterm-256color", ["NO_COLOR": "1"]),
            ("xterm-256color", ["NO_COLOR": "1", "COLORTERM": "truecolor"]),
        ])
    func monochrome(term: String, environment: [String: String]) throws {
        let terminal = try TerminalSession(term: term, environment: environment)
        let screen = try terminal.waitForScreen { $0.contains("320,176 pt") }
        let colours = try terminal.screenWithColours()
        // The disc's whole cells are blanks in reverse video: 19 of them in its widest row.
        let shown = TerminalEmulator.capture(try terminal.screenWithAllCells(), columns: 80, rows: 24)
        #expect(shown.cells[11].filter { $0.reverse && $0.glyph == " " }.count == 19)
        #expect(shown.cells[16].filter { $0.reverse && $0.glyph == "▄" }.count == 7)
        #expect(screen.contains("▄▄▄▄▄▄▄"))
        #expect(!colours.contains("38;5;"))
        #expect(colours.contains("\u{1B}[7m") || colours.contains(";7m"))  // The status line in reverse video.
        try terminal.press("q")
        #expect(try terminal.waitForExit().status == 0)
    }
}

/// Without a terminal: one clear sentence, a non-zero exit, nothing drawn.
@Suite("Without a terminal")
struct NoTerminalTests {
    @Test(
        "colour takes negative numbers with or without --, wherever the options stand",
        arguments: [
            ["colour", "-300", "10", "--json"], ["colour", "--", "-300", "10"],
            ["colour", "--json", "--", "-300", "10"],
        ])
    func negativeCoordinates(arguments: [String]) throws {
        let result = try run([programPath] + arguments)
        #expect(result.status == 0)
        #expect(result.output.contains("flatBlackDark"))
        #expect(result.output.contains("-300"))
        let cells = try run([programPath, "colour", "--cells", "--json", "--", "-3", "12"])
        #expect(
            cells.output
                == ##"{"points":[-24,192],"ball":{"name":"flatRedDark","hex":"#BF392A"},"background":{"name":"flatGray","hex":"#95A5A6"}}"##
                + "\n")
    }

    @Test("stdin and stdout not a terminal")
    func notATerminal() throws {
        let result = try run([programPath], environment: ["TERM": "xterm-256color", "PATH": "/usr/bin:/bin"])
        #expect(result.status == 2)
        #expect(result.output.isEmpty)
        #expect(
            result.error.hasPrefix(
                "colourful-ball: It needs a terminal on stdin and stdout; without one, try `colourful-ball colour X Y`")
        )
        #expect(result.error.split(separator: "\n").count == 1)
    }
}

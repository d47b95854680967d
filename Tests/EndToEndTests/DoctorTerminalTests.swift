import BallModel
import BallTestSupport
import Foundation
import Testing
import TextFormats

/// `colourful-ball doctor` in a pseudo-terminal that plays the terminal's part with scripted
/// answers: it asks, reads the answers, and reports them; the terminal's modes come back.
@Suite("colourful-ball doctor in a terminal")
struct DoctorTerminalTests {
    /// Runs `doctor` at 80×24 in `TERM=xterm-256color`, answering its questions with `answer`
    /// (given the questions it wrote) once its last question (device attributes) has come;
    /// the report's lines.
    static func report(_ answer: ([UInt8]) -> String?) throws -> [String] {
        let terminal = try PseudoTerminal(
            [programPath, "doctor"], size: ScreenSize(columns: 80, rows: 24),
            environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        let (questions, _) = terminal.readUntilQuiet(quiet: 0.3)
        #expect(String(decoding: questions, as: UTF8.self).contains("\u{1B}[c"), "it asks for device attributes")
        if let answer = answer(questions) { terminal.write(Array(answer.utf8)) }
        let (output, _) = terminal.readUntilQuiet(quiet: 0.5, limit: 5)
        let status = terminal.waitForExit()
        let lines = Self.unwrapped(
            String(decoding: questions + output, as: UTF8.self).split(separator: "\r\n").map(String.init))
        // Exit status 0 only when every check is ok, 1 when one needs a look (as brew doctor's).
        let allOK = lines.contains { $0.contains("colourful-ball doctor: all ") && $0.hasSuffix(" checks ok.") }
        let toLookAt = lines.contains { $0.contains(" to look at: ") }
        #expect(allOK != toLookAt, "the summary says one or the other")
        #expect(status == (allOK ? 0 : 1 << 8), "wait status \(status): exit 0 when all is ok, 1 when not")
        return lines
    }

    /// The report's lines with each check's continuation lines (indented) joined to it.
    static func unwrapped(_ lines: [String]) -> [String] {
        var joined: [String] = []
        for line in lines {
            if line.hasPrefix(" "), let last = joined.popLast() {
                joined.append(last + " " + line.trimmingCharacters(in: .whitespaces))
            } else {
                joined.append(line)
            }
        }
        return joined
    }

    /// The cursor-position answers for every glyph the program asks about, each one cell wide
    /// but those in `wide`.
    static func positions(wide: Set<Unicode.Scalar> = []) -> String {
        Glyph.all.map { "\u{1B}[1;\(wide.contains($0) ? 3 : 2)R" }.joined()
    }

    /// The report's line for `check`.
    static func line(_ lines: [String], _ check: String) -> String? {
        lines.first { $0.hasPrefix(check + " ") }
    }

    @Test("a terminal that has it all: 2026, 1016, 2004 set; every glyph one cell")
    func supported() throws {
        let lines = try Self.report { questions in
            // It asked about each mode and each glyph.
            let asked = String(decoding: questions, as: UTF8.self)
            #expect(["\u{1B}[?2026$p", "\u{1B}[?1016$p", "\u{1B}[?2004$p"].allSatisfy(asked.contains))
            #expect(asked.components(separatedBy: "\u{1B}[6n").count - 1 == Glyph.all.count)
            // Device attributes as xterm 379 answers them (35 bytes).
            return "\u{1B}[?2026;2$y\u{1B}[?1016;2$y\u{1B}[?2004;2$y" + Self.positions()
                + "\u{1B}[?64;1;2;6;9;15;16;17;18;21;22;28c"
        }
        #expect(
            Self.line(lines, "synchronized output (2026)")?.hasSuffix("yes: each frame is shown whole — ok") == true)
        #expect(Self.line(lines, "bracketed paste (2004)")?.hasSuffix("yes: pasted text stays text — ok") == true)
        #expect(Self.line(lines, "glyph widths")?.hasSuffix("all 29 one cell wide — ok") == true)
        #expect(Self.line(lines, "device attributes")?.hasSuffix("64;1;2;6;9;15;16;17;18;21;22;28 — ok") == true)
        #expect(Self.line(lines, "window")?.hasSuffix("80×24 — ok") == true)
    }

    @Test("a terminal that has none of the modes (0) says so, with what it means")
    func unsupported() throws {
        let lines = try Self.report { _ in
            "\u{1B}[?2026;0$y\u{1B}[?1016;0$y\u{1B}[?2004;0$y" + Self.positions() + "\u{1B}[?1;2c"
        }
        #expect(
            Self.line(lines, "synchronized output (2026)")?.contains("no — a fast drag may show a frame in pieces")
                == true)
        #expect(
            Self.line(lines, "bracketed paste (2004)")?.hasSuffix("no — pasted text arrives as keys: a pasted q quits")
                == true)
    }

    @Test("a silent terminal: it waits its second, then says the terminal answered nothing")
    func silent() throws {
        let lines = try Self.report { _ in nil }
        #expect(Self.line(lines, "answers")?.contains("none within 1 s — the terminal answered no question") == true)
        #expect(Self.line(lines, "glyph widths") == nil)
    }

    @Test("a terminal that draws ↔ and ◘ two cells wide: named, and what to do")
    func wideGlyphs() throws {
        let lines = try Self.report { _ in
            "\u{1B}[?2026;2$y" + Self.positions(wide: [Glyph.resized, Glyph.place]) + "\u{1B}[?62c"
        }
        let widths = try #require(Self.line(lines, "glyph widths"))
        #expect(
            widths.contains("not one cell: ↔ (2) ◘ (2) — this terminal draws these wider than one cell"), "\(widths)")
    }

    /// Starts `doctor` (and `arguments`) at `size` in `term`, with no answers coming.
    static func start(
        _ arguments: [String] = [], term: String = "xterm-256color",
        size: ScreenSize = ScreenSize(columns: 80, rows: 24)
    ) throws -> PseudoTerminal {
        try PseudoTerminal(
            [programPath, "doctor"] + arguments, size: size,
            environment: ["TERM": term, "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
    }

    @Test(
        "Ctrl-C or Ctrl-\\ while it waits for answers: it ends by that signal with echo and line input back, no backtrace",
        arguments: [(UInt8(0x03), SIGINT), (UInt8(0x1C), SIGQUIT)])
    func interrupted(key: UInt8, signal: Int32) throws {
        let terminal = try Self.start()
        let (questions, _) = terminal.readUntilQuiet(quiet: 0.2)
        #expect(String(decoding: questions, as: UTF8.self).contains("\u{1B}[c"))
        #expect(terminal.lineModes().map { !$0.echo && !$0.canonical } == true, "raw while it waits")
        terminal.write([key])
        let (after, _) = terminal.readUntilQuiet(quiet: 0.3)
        let status = terminal.waitForExit()
        #expect(status & 0x7F == signal, "ended by the signal (wait status \(status))")
        #expect(terminal.lineModes().map { $0.echo && $0.canonical } == true, "echo and line input back")
        #expect(!String(decoding: after, as: UTF8.self).contains("Backtracing"))
    }

    @Test(
        "a hostile answer (a column of -2^63, of 2^63-1, of 0) is no crash: those glyphs are unmeasured, the rest reported"
    )
    func hostileAnswer() throws {
        let lines = try Self.report { _ in
            "\u{1B}[1;-9223372036854775808R\u{1B}[1;9223372036854775807R\u{1B}[1;0R"
                + Glyph.all.dropFirst(3).map { _ in "\u{1B}[1;2R" }.joined() + "\u{1B}[?62c"
        }
        #expect(
            Self.line(lines, "glyph widths")?.contains("\(Glyph.all.count - 3) of \(Glyph.all.count) measured") == true,
            "\(lines)")
    }

    @Test("8-bit answers (CSI as 0x9B) are read as the 7-bit ones are")
    func eightBitAnswers() throws {
        let lines = try Self.report { _ in
            "\u{9B}?2026;2$y" + Glyph.all.map { _ in "\u{9B}1;2R" }.joined() + "\u{9B}?62c"
        }
        #expect(Self.line(lines, "synchronized output (2026)")?.contains("yes") == true, "\(lines)")
        #expect(Self.line(lines, "device attributes")?.contains("62 — ok") == true)
    }

    @Test("answers that come after the budget are read or thrown away, never left for the shell to run")
    func lateAnswers() throws {
        let leftover = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-late-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: leftover) }
        // After doctor, what the terminal's input still holds is what the shell would read: the
        // shell here reads it into a file (for half a second, then it takes what is there).
        let terminal = try PseudoTerminal(
            [
                "/bin/sh", "-c",
                "'\(programPath)' doctor > /dev/null; stty -icanon min 0 time 5; cat > '\(leftover)'",
            ],
            size: ScreenSize(columns: 80, rows: 24),
            environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        // Nothing for 1.2 s (past the 1 s budget), then the answers, as a slow link delivers them.
        let (questions, _) = terminal.readUntilQuiet(quiet: 1.2)
        #expect(String(decoding: questions, as: UTF8.self).contains("\u{1B}[c"), "it asked")
        terminal.write(Array(("\u{1B}[?2026;2$y" + Self.positions() + "\u{1B}[?62c").utf8))
        _ = terminal.readUntilQuiet(quiet: 1, limit: 5)
        _ = terminal.waitForExit()
        let left = try String(contentsOfFile: leftover, encoding: .utf8)
        #expect(left.isEmpty, "the shell would have read \(left.debugDescription)")
    }

    @Test("TERM=dumb: no question written, and it says the program does not run there")
    func dumb() throws {
        let terminal = try Self.start(term: "dumb")
        let (output, _) = terminal.readUntilQuiet(quiet: 0.5)
        #expect(terminal.waitForExit() == 1 << 8, "exit 1: TERM=dumb needs a look")
        let text = String(decoding: output, as: UTF8.self)
        #expect(!text.contains("\u{1B}["), "no question, no escape: \(text.debugDescription)")
        let lines = Self.unwrapped(text.split(separator: "\r\n").map(String.init))
        #expect(Self.line(lines, "answers")?.contains("colourful-ball does not run on TERM=dumb") == true, "\(lines)")
    }

    @Test("doctor --json > FILE in a terminal asks the terminal it is in (/dev/tty) and writes the answers to the file")
    func jsonIntoAFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-\(getpid()).json").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let terminal = try PseudoTerminal(
            ["/bin/sh", "-c", "exec '\(programPath)' doctor --json > '\(file)'"],
            size: ScreenSize(columns: 80, rows: 24),
            environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        let (questions, _) = terminal.readUntilQuiet(quiet: 0.3)
        #expect(String(decoding: questions, as: UTF8.self).contains("\u{1B}[c"), "it asked the terminal")
        terminal.write(Array(("\u{1B}[?2026;2$y" + Self.positions() + "\u{1B}[?62c").utf8))
        let status = terminal.waitForExit()
        let json = try String(contentsOfFile: file, encoding: .utf8)
        #expect(status == (json.contains(#""ok":false"#) ? 1 << 8 : 0), "exit 1 when a check is not ok, else 0")
        #expect(json.contains(#"{"check":"device attributes","value":"62","ok":true"#), "\(json)")
        #expect(json.contains(#""value":"80×24""#))
    }

    @Test("a window of 0×0 (docker exec -t, some IDE terminals) is a terminal with no size, said so")
    func noSize() throws {
        let terminal = try Self.start(size: ScreenSize(columns: 0, rows: 0))
        let (questions, _) = terminal.readUntilQuiet(quiet: 0.3)
        terminal.write(Array((Self.positions() + "\u{1B}[?62c").utf8))
        let (output, _) = terminal.readUntilQuiet(quiet: 0.5)
        #expect(terminal.waitForExit() == 1 << 8, "exit 1: a window with no size needs a look")
        let lines = Self.unwrapped(
            String(decoding: questions + output, as: UTF8.self).split(separator: "\r\n").map(String.init))
        #expect(Self.line(lines, "window")?.contains("0×0: the terminal gives no size") == true, "\(lines)")
        #expect(Self.line(lines, "terminal") == nil)
    }
}

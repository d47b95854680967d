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
        #expect(terminal.waitForExit() == 0)
        return String(decoding: questions + output, as: UTF8.self).split(separator: "\r\n").map(String.init)
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
        #expect(Self.line(lines, "glyph widths")?.hasSuffix("all 22 one cell wide — ok") == true)
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
}

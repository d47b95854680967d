import BallModel
import BallTestSupport
import Foundation
import Testing
import TextFormats

/// Synchronized output (DEC mode 2026), in a pseudo-terminal that plays the terminal's part:
/// the program asks once with its first frame and never waits for the answer; a terminal that
/// says it has the mode gets every later frame between `ESC [ ? 2026 h` and `ESC [ ? 2026 l`,
/// any other gets none, and every ending turns the mode off.
@Suite("Synchronized output")
struct SynchronizedOutputTests {
    static let question = Array("\u{1B}[?2026$p".utf8)
    static let begin = Array("\u{1B}[?2026h".utf8)
    static let end = Array("\u{1B}[?2026l".utf8)

    /// Where `marker` starts in `bytes`, every time.
    static func places(of marker: [UInt8], in bytes: [UInt8]) -> [Int] {
        guard bytes.count >= marker.count else { return [] }
        return (0...(bytes.count - marker.count)).filter { bytes[$0..<($0 + marker.count)].elementsEqual(marker) }
    }

    /// Starts the program (with the ball jumping: a key, a frame), reads its first frame (the
    /// question with it), answers `answer` (nil: says nothing), presses Right three times and
    /// reads the frames, then q; the bytes after the answer.
    static func session(answer: String?) throws -> (first: [UInt8], later: [UInt8], status: Int32) {
        let terminal = try PseudoTerminal(
            [programPath, "--no-animation"], size: ScreenSize(columns: 80, rows: 24),
            environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        // The first frame comes whatever the terminal says (here: nothing yet).
        let (first, _) = terminal.readUntilQuiet(quiet: 0.3)
        if let answer { terminal.write(Array(answer.utf8)) }
        var later: [UInt8] = []
        for _ in 0..<3 {
            terminal.write(Array("\u{1B}[C".utf8))
            later += terminal.readUntilQuiet(quiet: 0.2).bytes
        }
        terminal.write(Array("q".utf8))
        later += terminal.readUntilQuiet(quiet: 0.3).bytes
        return (first, later, terminal.waitForExit())
    }

    @Test(
        "the glide in a real pseudo-terminal: a click 30 cells away is a few frames, each whole, over a tenth of a second, then nothing"
    )
    func glideFrames() throws {
        let terminal = try PseudoTerminal(
            [programPath], size: ScreenSize(columns: 80, rows: 24),
            environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        let (first, _) = terminal.readUntilQuiet(quiet: 0.3)
        var screen = TerminalEmulator(columns: 80, rows: 24)
        screen.receive(first)
        terminal.write(Array("\u{1B}[?2026;2$y".utf8))
        let start = ContinuousClock.now
        terminal.write(Array("\u{1B}[<0;71;12M\u{1B}[<0;71;12m".utf8))
        let (glide, _) = terminal.readUntilQuiet(quiet: 0.4)
        let took = start.duration(to: .now)
        screen.receive(glide)
        let frames = Self.places(of: Self.begin, in: glide).count
        #expect((4...8).contains(frames), "\(frames) frames")
        #expect(took >= .milliseconds(90), "the glide lasted \(took) (with the quiet after it)")
        // Where it ended: the disc around column 71 (70 from 0), the status line saying so.
        #expect(screen.rowTexts[23].contains("70,11"), "\(screen.rowTexts[23])")
        terminal.write(Array("q".utf8))
        #expect(terminal.waitForExit() == 0)
    }

    @Test("a terminal that answers 2 (reset: it has the mode) gets every later frame wrapped")
    func supported() throws {
        let (first, later, status) = try Self.session(answer: "\u{1B}[?2026;2$y")
        #expect(Self.places(of: Self.question, in: first).count == 1, "asked once, with the first frame")
        #expect(String(decoding: first, as: UTF8.self).contains("320,176 pt"), "the first frame came unasked")
        let begins = Self.places(of: Self.begin, in: later)
        let ends = Self.places(of: Self.end, in: later)
        // Three frames wrapped, then the ending turns the mode off once more.
        #expect(begins.count == 3, "\(begins)")
        #expect(ends.count == 4, "\(ends)")
        for (start, stop) in zip(begins, ends) {
            #expect(start < stop)
            let frame = String(decoding: later[start..<stop], as: UTF8.self)
            // The whole frame between: the disc's rows and the status line's (row 24).
            #expect(frame.contains("\u{1B}[24;") && frame.contains("\u{1B}[10;"), "\(frame.debugDescription)")
        }
        #expect(status == 0)
    }

    @Test("a terminal that answers 0 (not known), or says nothing, gets no frame wrapped", arguments: ["0", "none"])
    func unsupported(answer: String) throws {
        let (first, later, status) = try Self.session(answer: answer == "none" ? nil : "\u{1B}[?2026;0$y")
        #expect(Self.places(of: Self.question, in: first).count == 1)
        #expect(String(decoding: first, as: UTF8.self).contains("320,176 pt"))
        #expect(Self.places(of: Self.begin, in: later).isEmpty)
        // Only the ending's reset, which every ending sends.
        #expect(Self.places(of: Self.end, in: later).count == 1)
        #expect(String(decoding: later, as: UTF8.self).contains("\u{1B}[24;"), "the frames came")
        #expect(status == 0)
    }
}

/// The glyphs' widths, measured with the first frame (each glyph at the start of the line, then
/// the cursor's place asked for): a terminal that draws one two cells wide gets the streams
/// panel in ASCII, so that its columns line up.
@Suite("Glyph widths measured")
struct GlyphWidthTests {
    /// Starts the program, answers each cursor question with column 2 (one cell) but column 3
    /// for the glyphs in `wide`, opens the panel, and returns the screen's rows.
    static func panel(wide: Set<Unicode.Scalar>) throws -> [String] {
        let terminal = try PseudoTerminal(
            [programPath], size: ScreenSize(columns: 80, rows: 24),
            environment: ["TERM": "xterm-256color", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"])
        var screen = TerminalEmulator(columns: 80, rows: 24)
        let (first, _) = terminal.readUntilQuiet(quiet: 0.3)
        screen.receive(first)
        let questions = SynchronizedOutputTests.places(of: Array("\u{1B}[6n".utf8), in: first).count
        #expect(questions == Glyph.all.count, "one question a glyph")
        terminal.write(Array(Glyph.all.map { "\u{1B}[1;\(wide.contains($0) ? 3 : 2)R" }.joined().utf8))
        terminal.write(Array("s".utf8))
        screen.receive(terminal.readUntilQuiet(quiet: 0.3).bytes)
        terminal.write(Array("q".utf8))
        #expect(terminal.waitForExit() == 0)
        return screen.cells.map { String(String.UnicodeScalarView($0.map(\.glyph))) }
    }

    @Test("every glyph one cell: the panel's lanes in their glyphs")
    func narrow() throws {
        let rows = try Self.panel(wide: [])
        #expect(rows.contains { $0.hasPrefix(" position       ^a") }, "\(rows)")
    }

    @Test("↔ two cells wide: the panel's lanes in ASCII")
    func wide() throws {
        let rows = try Self.panel(wide: [Glyph.resized])
        #expect(rows.contains { $0.hasPrefix(" position       ^a") }, "\(rows)")
        #expect(rows.contains { $0.hasPrefix(" intents        ^- ") }, "\(rows)")
        #expect(!rows.joined().contains("○"))
    }
}

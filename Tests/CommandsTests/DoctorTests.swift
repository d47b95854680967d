import BallModel
import BallTerminal
import ColourfulBallCommands
import Testing
import TextFormats

/// The doctor's rules, facts in, the whole report out: each line ends in ok or in what to do.
@Suite("colourful-ball doctor's rules")
struct DoctorTests {
    static let xterm256 = TerminfoFacts(
        colours: 256, directColour: false, repeats: true, movesCursor: true, alternateScreen: true)

    /// A terminal that has everything: kitty as it starts.
    static func kitty() -> DoctorFacts {
        DoctorFacts(
            term: "xterm-kitty", terminfo: xterm256, colourTerm: "truecolor", noColour: nil, characterSet: "UTF-8",
            localeVariable: "LANG=C.UTF-8", window: ScreenSize(columns: 80, rows: 24),
            answers: ProbeAnswers(
                deviceAttributes: "62;22", modes: [2026: 2, 1016: 2, 2004: 2],
                glyphWidths: Dictionary(uniqueKeysWithValues: Glyph.all.map { ($0, 1) })))
    }

    @Test("a terminal with everything: every line ok, the whole report")
    func everything() {
        #expect(
            Doctor.text(Doctor.checks(Self.kitty())) == """
                colourful-ball doctor: all 13 checks ok.
                TERM                        xterm-kitty — ok
                terminfo                    256 colours, no RGB flag, rep, alternate screen — ok
                COLORTERM                   truecolor — ok
                NO_COLOR                    not set — ok
                colour                      direct colour (COLORTERM=truecolor) — ok
                motion                      jumps glide over 0.1 s, the colours fade in exact
                                            RGB; --no-animation jumps — ok
                locale                      UTF-8 (LANG=C.UTF-8) — ok
                window                      80×24 — ok
                device attributes           62;22 — ok
                synchronized output (2026)  yes: each frame is shown whole — ok
                pixel mouse (1016)          yes (not needed: the program works in cells) — ok
                bracketed paste (2004)      yes: pasted text stays text — ok
                glyph widths                all 29 one cell wide — ok
                """)
    }

    @Test("each fault says what to do: 256 colours only, NO_COLOR, a latin-1 locale, a small window")
    func faults() {
        var facts = Self.kitty()
        facts.colourTerm = nil
        facts.noColour = "1"
        facts.characterSet = "ISO-8859-1"
        facts.localeVariable = "LANG=de_DE"
        facts.window = ScreenSize(columns: 20, rows: 6)
        let advice = Dictionary(uniqueKeysWithValues: Doctor.checks(facts).map { ($0.check, $0.advice) })
        #expect(advice["NO_COLOR"] == "the program draws without colour; unset NO_COLOR for colour")
        #expect(advice["colour"]! == nil, "no colour is what NO_COLOR asked for")
        let values = Dictionary(uniqueKeysWithValues: Doctor.checks(facts).map { ($0.check, $0.value) })
        #expect(
            values["motion"]
                == "jumps glide over 0.1 s, the colours switch at once (too few to fade); --no-animation jumps")
        #expect(
            advice["locale"]! == "the program's glyphs are UTF-8: set LANG=C.UTF-8 (or your language's .UTF-8 locale)")
        #expect(advice["window"]! == "the program needs at least 24×7: make the window larger")
        facts.noColour = nil
        let colour = Doctor.checks(facts).first { $0.check == "colour" }!
        #expect(colour.value == "256 colours (terminfo: 256, no RGB; no COLORTERM=truecolor)")
        #expect(colour.advice?.contains("COLORTERM=truecolor colourful-ball") == true)
    }

    @Test("unknown TERM, no terminal, a silent terminal, wide glyphs, modes it lacks")
    func terminals() {
        var facts = Self.kitty()
        facts.term = "wonderterm"
        facts.terminfo = nil
        #expect(Doctor.checks(facts)[0].advice?.hasPrefix("install its terminfo entry") == true)
        // As play does with that TERM: no colours, it does not start (not "16 colours").
        let unknown = Doctor.checks(facts)
        #expect(
            unknown.first { $0.check == "colour" }?.value
                == "none: without a terminfo entry for TERM, play, learn and replay do not start (exit 2)")
        #expect(unknown.first { $0.check == "motion" } == nil)
        facts = Self.kitty()
        facts.window = nil
        facts.answers = nil
        #expect(Doctor.checks(facts).last?.check == "terminal")
        facts = Self.kitty()
        facts.answers = ProbeAnswers()
        let silent = Doctor.checks(facts).last!
        #expect(silent.check == "answers" && silent.value == "none within 1 s")
        facts = Self.kitty()
        facts.answers!.glyphWidths[Glyph.resized] = 2
        facts.answers!.modes = [2026: 0, 2004: 4]
        let checks = Dictionary(uniqueKeysWithValues: Doctor.checks(facts).map { ($0.check, $0) })
        #expect(checks["glyph widths"]?.value == "not one cell: ↔ (2)")
        #expect(checks["glyph widths"]?.advice?.contains("ambiguous-width characters to narrow") == true)
        #expect(checks["synchronized output (2026)"]?.value == "no")
        #expect(checks["pixel mouse (1016)"]?.value == "not answered (not needed)")
        #expect(checks["bracketed paste (2004)"]?.advice == "pasted text arrives as keys: a pasted q quits")
    }

    @Test(
        "hostile or odd facts: an entry without colours has none, a 0×0 window, a window larger than the largest area, some answers but no device attributes, tmux with xterm's TERM, TERM=dumb not asked"
    )
    func oddFacts() {
        var facts = Self.kitty()
        facts.colourTerm = nil
        facts.terminfo = TerminfoFacts(
            colours: nil, directColour: false, repeats: false, movesCursor: true, alternateScreen: false)
        facts.term = "vt100"
        let colour = Doctor.checks(facts).first { $0.check == "colour" }!
        #expect(colour.value == "no colour (its terminfo entry has 0 colours)")
        #expect(colour.advice?.contains("set TERM to a type that says so") == true)
        facts = Self.kitty()
        facts.window = ScreenSize(columns: 0, rows: 0)
        let window = Doctor.checks(facts).first { $0.check == "window" }!
        #expect(window.value == "0×0: the terminal gives no size" && window.advice?.contains("docker exec -it") == true)
        facts.window = ScreenSize(columns: 65_535, rows: 65_535)
        let huge = Doctor.checks(facts).first { $0.check == "window" }!
        #expect(huge.value == "65535×65535: the ball plays in 1000×1000 of it" && huge.advice == nil)
        facts = Self.kitty()
        facts.answers!.deviceAttributes = nil
        let partial = Dictionary(uniqueKeysWithValues: Doctor.checks(facts).map { ($0.check, $0) })
        #expect(partial["device attributes"]?.value == "not answered within 1 s")
        #expect(partial["glyph widths"]?.value == "all 29 one cell wide", "the widths it did answer are kept")
        #expect(partial["answers"] == nil)
        facts = Self.kitty()
        facts.insideTmux = true
        facts.term = "xterm-256color"
        #expect(Doctor.checks(facts).first { $0.check == "tmux" }?.advice?.contains("tmux-256color") == true)
        facts.term = "tmux-256color"
        #expect(Doctor.checks(facts).first { $0.check == "tmux" }?.advice == nil)
        facts = Self.kitty()
        facts.term = "dumb"
        facts.answers = nil
        let dumb = Doctor.checks(facts).last!
        #expect(dumb.check == "answers" && dumb.value.hasPrefix("not asked: TERM=dumb"))
        #expect(dumb.advice?.hasPrefix("colourful-ball does not run on TERM=dumb") == true)
        // The text: a summary first, then every line within 80 columns, wrapped between words.
        let text = Doctor.text(Doctor.checks(facts), width: 80)
        let lines = text.split(separator: "\n")
        #expect(lines[0].hasPrefix("colourful-ball doctor: 1 of "))
        #expect(lines.allSatisfy { String($0).terminalWidth <= 80 })
        #expect(!text.contains("mid-wo\nrd"))
    }

    @Test("the terminal's answers are read as what they can be: hostile numbers, 8-bit CSI, modes not asked")
    func hostileAnswers() {
        let glyphs = Array(Glyph.all.prefix(4))
        let answers = TerminalProbe.parse(
            Array(
                ("\u{1B}[1;-9223372036854775808R\u{1B}[1;9223372036854775807R\u{1B}[1;0R\u{1B}[1;2R"
                    + "\u{1B}[?2026;2$y\u{1B}[?2026;9$y\u{1B}[?1234;1$y\u{1B}[?64;1;2c").utf8), modes: [2026, 1016],
            glyphs: glyphs)
        #expect(answers.glyphWidths == [glyphs[3]: 1], "only the sensible answer, for its own glyph")
        #expect(answers.modes == [2026: 2])
        #expect(answers.deviceAttributes == "64;1;2")
        // The 8-bit CSI (0x9B) introduces answers as ESC [ does.
        let eightBit = TerminalProbe.parse([0x9B] + Array("?2026;1$y".utf8) + [0x9B] + Array("?62c".utf8), glyphs: [])
        #expect(eightBit.modes == [2026: 1] && eightBit.deviceAttributes == "62")
        // A device attributes answer that is not one.
        #expect(TerminalProbe.parse(Array("\u{1B}[?6\u{1B}2;x;c".utf8), glyphs: []).deviceAttributes == nil)
    }

    @Test("inside GNU screen: what screen does with a lone Esc, and what to press")
    func insideScreen() {
        var facts = Self.kitty()
        facts.insideScreen = true
        let screen = Doctor.checks(facts).first { $0.check == "GNU screen" }
        #expect(screen?.advice?.hasPrefix("screen holds a lone Esc while mouse reporting is on") == true)
        #expect(!Doctor.checks(Self.kitty()).contains { $0.check == "GNU screen" })
    }

    @Test("--json: one object per check, ok where there is no advice")
    func json() {
        var facts = Self.kitty()
        facts.answers!.modes[2026] = nil
        let json = Doctor.json(Doctor.checks(facts))
        #expect(json.hasPrefix(#"[{"check":"TERM","value":"xterm-kitty","ok":true,"advice":null},"#))
        #expect(
            json.contains(
                #"{"check":"synchronized output (2026)","value":"not answered","ok":false,"advice":"a fast drag"#))
        #expect(json.hasSuffix(#"{"check":"glyph widths","value":"all 29 one cell wide","ok":true,"advice":null}]"#))
    }
}

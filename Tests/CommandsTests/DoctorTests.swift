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
                TERM                        xterm-kitty — ok
                terminfo                    256 colours, no RGB flag, rep, alternate screen — ok
                COLORTERM                   truecolor — ok
                NO_COLOR                    not set — ok
                colour                      direct colour (COLORTERM=truecolor) — ok
                motion                      moves glide over 0.1 s, the colours fade in exact RGB; --no-animation jumps — ok
                locale                      UTF-8 (LANG=C.UTF-8) — ok
                window                      80×24 — ok
                device attributes           62;22 — ok
                synchronized output (2026)  yes: each frame is shown whole — ok
                pixel mouse (1016)          yes (not needed: the program works in cells) — ok
                bracketed paste (2004)      yes: pasted text stays text — ok
                glyph widths                all 22 one cell wide — ok
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
                == "moves glide over 0.1 s, the colours switch at once (too few to fade); --no-animation jumps")
        #expect(
            advice["locale"]! == "the program's glyphs are UTF-8: set LANG=C.UTF-8 (or your language's .UTF-8 locale)")
        #expect(advice["window"]! == "the program needs at least 24×8: make the window larger")
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
        #expect(json.hasSuffix(#"{"check":"glyph widths","value":"all 22 one cell wide","ok":true,"advice":null}]"#))
    }
}

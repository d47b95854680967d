import ArgumentParser
import BallModel
import BallTerminal
import ColourCore
import Platform
import TextFormats

/// `colourful-ball doctor`: what this terminal can do, and what to do where something is not
/// right, as `brew doctor` and `flutter doctor` do.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Say what this terminal can do for the program, and what to do where something is not right.",
        discussion: """
            Reads TERM and its terminfo entry, COLORTERM, NO_COLOR, the locale and the window's \
            size; asks the terminal (for at most a second) its device attributes, whether it has \
            synchronized output (2026), pixel mouse positions (1016) and bracketed paste (2004), \
            and how wide it draws each glyph the program uses. Each line ends in ok or in what \
            to do.
            """)

    @Flag(help: "Print JSON (an array of checks: check, value, ok, advice) instead of text.")
    var json = false

    func run() throws {
        let facts = DoctorFacts.gather()
        let checks = Doctor.checks(facts)
        let width = facts.window.flatMap { $0.columns > 0 ? $0.columns : nil } ?? 80
        let text = json ? Doctor.json(checks) : Doctor.text(checks, width: width)
        try DescriptorOutput.standardOutput.writeAll(Array((text + "\n").utf8))
        if checks.contains(where: { $0.advice != nil }) { throw ExitCode(ExitStatus.failure.rawValue) }
    }
}

// MARK: - The facts

/// Everything the doctor looks at, gathered once: from the environment, terminfo, the kernel
/// and the terminal's answers.
package struct DoctorFacts {
    /// `TERM`; nil when unset.
    package var term: String?
    /// Its terminfo entry's facts; nil when this system has no entry for it.
    package var terminfo: TerminfoFacts?
    /// `COLORTERM`.
    package var colourTerm: String?
    /// `NO_COLOR`.
    package var noColour: String?
    /// The locale's character set (`UTF-8`, `ANSI_X3.4-1968`), and the variable that set it.
    package var characterSet: String
    /// `LC_ALL`, `LC_CTYPE` or `LANG`, the first set, as `LANG=C.UTF-8`; nil: none is.
    package var localeVariable: String?
    /// The window's size; nil when standard output is not a terminal.
    package var window: ScreenSize?
    /// What the terminal answered; nil when it was not asked (not a terminal).
    package var answers: ProbeAnswers?
    /// Whether this runs inside GNU screen (`STY` is set).
    package var insideScreen = false
    /// Whether this runs inside tmux (`TMUX` is set).
    package var insideTmux = false

    /// Facts from their parts.
    package init(
        term: String?, terminfo: TerminfoFacts?, colourTerm: String?, noColour: String?, characterSet: String,
        localeVariable: String?, window: ScreenSize?, answers: ProbeAnswers?
    ) {
        self.term = term
        self.terminfo = terminfo
        self.colourTerm = colourTerm
        self.noColour = noColour
        self.characterSet = characterSet
        self.localeVariable = localeVariable
        self.window = window
        self.answers = answers
    }

    /// The modes asked about: synchronized output, pixel mouse positions, bracketed paste.
    static let modes = [2026, 1016, 2004]
    /// How long the terminal has to answer.
    static let budget = Duration.seconds(1)

    /// The facts of this process's environment and terminal: the terminal it is in (standard
    /// input and output, or `/dev/tty` when the report goes to a file or a pipe), asked only
    /// where its description says it can take the questions (not `TERM=dumb`, not a type this
    /// system does not know, not one that cannot move its cursor).
    static func gather() -> DoctorFacts {
        let term = environmentValue("TERM")
        setlocale(LC_CTYPE, "")
        let characterSet = String(cString: nl_langinfo(nl_item(CODESET)))
        let localeVariable = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { name in
            environmentValue(name).flatMap { $0.isEmpty ? nil : "\(name)=\($0)" }
        }.first
        let terminfo = term.flatMap { TerminfoFacts.of(term: $0) }
        let terminal = TerminalProbe.terminal()
        defer { if let terminal, terminal.owned { Platform.close(terminal.fd) } }
        let canAsk = term != "dumb" && terminfo?.movesCursor == true
        var facts = DoctorFacts(
            term: term, terminfo: terminfo, colourTerm: environmentValue("COLORTERM"),
            noColour: environmentValue("NO_COLOR"), characterSet: characterSet, localeVariable: localeVariable,
            window: terminal.map { NcursesTerminal.windowSize(fd: $0.fd) ?? ScreenSize(columns: 0, rows: 0) },
            answers: terminal.flatMap { terminal in
                canAsk ? TerminalProbe.ask(modes: modes, glyphs: Glyph.all, budget: budget, fd: terminal.fd) : nil
            })
        facts.insideScreen = environmentValue("STY").map { !$0.isEmpty } ?? false
        facts.insideTmux = environmentValue("TMUX").map { !$0.isEmpty } ?? false
        return facts
    }
}

// MARK: - The checks

/// One line of the doctor's report.
package struct DoctorCheck: Hashable {
    /// What is checked: `TERM`, `colour`, `synchronized output`.
    package var check: String
    /// What was found.
    package var value: String
    /// What to do; nil: nothing, it is ok.
    package var advice: String?
}

/// The doctor's rules: facts in, checks out (no input or output of their own).
package enum Doctor {
    /// The checks, in the order the report gives them.
    package static func checks(_ facts: DoctorFacts) -> [DoctorCheck] {
        var checks: [DoctorCheck] = []
        func add(_ check: String, _ value: String, _ advice: String? = nil) {
            checks.append(DoctorCheck(check: check, value: value, advice: advice))
        }
        // TERM and terminfo.
        let term = facts.term ?? ""
        if term.isEmpty {
            add("TERM", "not set", "set TERM to your terminal's type, such as TERM=xterm-256color")
        } else if let terminfo = facts.terminfo {
            add("TERM", term.visibleInMessage)
            let colours =
                terminfo.colours.map { "\($0 >= 0x100_0000 ? "16777216" : String($0)) colours" } ?? "no colours"
            let parts = [
                colours, terminfo.directColour ? "RGB (direct colour)" : "no RGB flag",
                terminfo.repeats ? "rep" : "no rep",
                terminfo.alternateScreen ? "alternate screen" : "no alternate screen",
            ]
            add(
                "terminfo", parts.joined(separator: ", "),
                terminfo.movesCursor ? nil : "this entry cannot move the cursor: set TERM to your terminal's real type")
        } else {
            add(
                "TERM", "\(term.visibleInMessage), unknown to this system",
                "install its terminfo entry (apt install ncurses-term) or set TERM to a type this system knows, such as xterm-256color"
            )
        }
        add("COLORTERM", facts.colourTerm.map { $0.visibleInMessage } ?? "not set")
        add(
            "NO_COLOR", facts.noColour.map { $0.isEmpty ? "set, empty (ignored)" : "set" } ?? "not set",
            facts.noColour?.isEmpty == false ? "the program draws without colour; unset NO_COLOR for colour" : nil)
        // The colour tier, and why.
        // An entry that names no colours has none (vt100, vt52, xterm-mono), as the program sees it.
        let depth = ColourDepth(
            noColour: facts.noColour, colourTerm: facts.colourTerm, term: term,
            terminfoColours: facts.terminfo.map { $0.colours ?? 0 }, terminfoRGB: facts.terminfo?.directColour ?? false)
        let why: String
        let colourAdvice: String?
        switch depth {
        case .direct:
            why =
                facts.terminfo?.directColour == true
                ? "the terminfo entry's RGB flag"
                : facts.colourTerm == "truecolor" || facts.colourTerm == "24bit"
                    ? "COLORTERM=\(facts.colourTerm!)" : "TERM ends in -direct"
            colourAdvice = nil
        case .palette(let palette):
            why = "terminfo: \(palette.rawValue), no RGB; no COLORTERM=truecolor"
            colourAdvice =
                "if your terminal draws 24-bit colour, run COLORTERM=truecolor colourful-ball (or TERM=xterm-direct) for the exact flat colours"
        case .monochrome:
            why =
                facts.noColour?.isEmpty == false
                ? "NO_COLOR is set"
                : facts.terminfo.map { "its terminfo entry has \($0.colours ?? 0) colours" } ?? "no colours known"
            colourAdvice =
                facts.noColour?.isEmpty == false || facts.terminfo == nil
                ? nil
                : "if your terminal shows colours, set TERM to a type that says so, such as xterm-256color"
        }
        // The original's motion, at this depth.
        let fades =
            switch depth {
            case .direct: "the colours fade in exact RGB"
            case .palette(.xterm256): "the colours fade through the palette's nearest entries"
            default: "the colours switch at once (too few to fade)"
            }
        if facts.terminfo == nil {
            // Without a terminfo entry play, learn and the player stop at once (exit status 2):
            // there is no tier, and no motion, to say.
            add(
                "colour", "none: without a terminfo entry for TERM, play, learn and replay do not start (exit 2)",
                "set TERM first (above)")
        } else {
            add("colour", "\(depth.description) (\(why))", colourAdvice)
            add("motion", "jumps glide over 0.1 s, \(fades); --no-animation jumps")
        }
        // The locale.
        let utf8 = facts.characterSet.uppercased().filter { $0 != "-" } == "UTF8"
        add(
            "locale",
            "\(facts.characterSet)" + (facts.localeVariable.map { " (\($0.visibleInMessage))" } ?? " (no LANG)"),
            utf8 ? nil : "the program's glyphs are UTF-8: set LANG=C.UTF-8 (or your language's .UTF-8 locale)")
        // What the program cannot change: tmux is the terminal it talks to; GNU screen holds a
        // lone Esc.
        if facts.insideTmux {
            let tmuxType = term.hasPrefix("tmux") || term.hasPrefix("screen")
            add(
                "tmux", "inside it (TMUX is set): tmux is the terminal the program talks to, and it draws in yours",
                tmuxType
                    ? nil
                    : "TERM=\(term.visibleInMessage) inside tmux claims that terminal's abilities for tmux: set tmux's default-terminal to tmux-256color"
            )
        }
        if facts.insideScreen {
            add(
                "GNU screen", "inside it (STY is set)",
                "screen holds a lone Esc while mouse reporting is on, until the next key: press Esc then any key, or q, to quit"
            )
        }
        // The window.
        guard let window = facts.window else {
            add(
                "terminal", "standard input or output is not a terminal",
                "run colourful-ball doctor in the terminal itself, not through a pipe or a file")
            return checks
        }
        let (minimum, largest) = (ScreenSize.minimum, ScreenSize.largest)
        if window.columns == 0 || window.rows == 0 {
            add(
                "window", "\(window.columns)×\(window.rows): the terminal gives no size",
                "the program takes its size from the kernel: run it in a terminal that sets one (docker exec -it, not -t alone; an IDE's full terminal)"
            )
        } else if window.columns > largest.columns || window.rows > largest.rows {
            add("window", "\(window.columns)×\(window.rows): the ball plays in \(largest) of it")
        } else {
            add(
                "window", "\(window.columns)×\(window.rows)",
                window.columns >= minimum.columns && window.rows >= minimum.rows
                    ? nil : "the program needs at least \(minimum.columns)×\(minimum.rows): make the window larger")
        }
        // The terminal's answers.
        guard let answers = facts.answers else {
            add(
                "answers",
                "not asked: \(term.isEmpty ? "no TERM" : "TERM=\(term.visibleInMessage)") cannot take the questions",
                term == "dumb"
                    ? "colourful-ball does not run on TERM=dumb: run it in a full-screen terminal, such as xterm"
                    : "set TERM to your terminal's real type")
            return checks
        }
        let answered = !answers.modes.isEmpty || !answers.glyphWidths.isEmpty
        let seconds = Int(DoctorFacts.budget.components.seconds)
        guard answered || answers.deviceAttributes != nil else {
            add(
                "answers", "none within \(seconds) s",
                "the terminal answered no question (device attributes included): the program still runs, without synchronized output"
            )
            return checks
        }
        if let attributes = answers.deviceAttributes {
            add("device attributes", attributes.visibleInMessage)
        } else {
            add(
                "device attributes", "not answered within \(seconds) s",
                "the terminal answered some questions but not this one, which every terminal should: its answers may come late"
            )
        }
        /// What the terminal said about a mode: yes (it has it), no (0: not known, 4: off for
        /// good), or nil when it did not answer.
        func mode(_ number: Int) -> Bool? {
            answers.modes[number].map { $0 == 1 || $0 == 2 || $0 == 3 }
        }
        switch mode(2026) {
        case true?: add("synchronized output (2026)", "yes: each frame is shown whole")
        case let has:
            add(
                "synchronized output (2026)", has == nil ? "not answered" : "no",
                "a fast drag may show a frame in pieces (kitty, foot, WezTerm, Alacritty and tmux 3.4 have it)")
        }
        switch mode(1016) {
        case true?: add("pixel mouse (1016)", "yes (not needed: the program works in cells)")
        case let has: add("pixel mouse (1016)", (has == nil ? "not answered" : "no") + " (not needed)")
        }
        switch mode(2004) {
        case true?: add("bracketed paste (2004)", "yes: pasted text stays text")
        case false?: add("bracketed paste (2004)", "no", "pasted text arrives as keys: a pasted q quits")
        case nil: add("bracketed paste (2004)", "not answered (asked for anyway)")
        }
        // The glyphs' widths.
        let asked = Glyph.all
        let unanswered = asked.filter { answers.glyphWidths[$0] == nil }
        let wide = asked.filter { (answers.glyphWidths[$0] ?? 1) != 1 }
        if !unanswered.isEmpty {
            add(
                "glyph widths", "\(asked.count - unanswered.count) of \(asked.count) measured",
                "the terminal did not report the cursor's place after each glyph: their widths are unknown")
        } else if wide.isEmpty {
            add("glyph widths", "all \(asked.count) one cell wide")
        } else {
            let list = wide.map { "\($0) (\(answers.glyphWidths[$0]!))" }.joined(separator: " ")
            add(
                "glyph widths", "not one cell: \(list)",
                "this terminal draws these wider than one cell: the program finds that too and draws the streams panel in ASCII marbles (o @ # - S), so its columns line up; for the glyphs themselves, set the terminal's ambiguous-width characters to narrow (xterm: -cjk_width off; urxvt, kitty: a Latin locale or font)"
            )
        }
        return checks
    }

    /// The report as text, for a window `width` cells wide: a line that sums it up, then each
    /// check as `check  value — ok` (or `— what to do`), wrapped at word boundaries with its
    /// continuation lines under the value.
    package static func text(_ checks: [DoctorCheck], width: Int = 80) -> String {
        let labelWidth = checks.map(\.check.terminalWidth).max() ?? 0
        let indent = labelWidth + 2
        let toFix = checks.filter { $0.advice != nil }.map(\.check)
        let summary =
            toFix.isEmpty
            ? "colourful-ball doctor: all \(checks.count) checks ok."
            : "colourful-ball doctor: \(toFix.count) of \(checks.count) to look at: \(toFix.joined(separator: ", "))."
        let lines = checks.flatMap { check -> [String] in
            let label = check.check + String(repeating: " ", count: labelWidth - check.check.terminalWidth) + "  "
            let body = check.value + " \(Glyph.dash) " + (check.advice ?? "ok")
            let wrapped = body.wrapped(toWidth: max(20, width - indent))
            return wrapped.enumerated().map { index, line in
                (index == 0 ? label : String(repeating: " ", count: indent)) + line
            }
        }
        return (summary.wrapped(toWidth: max(20, width)) + lines).joined(separator: "\n")
    }

    /// The report as JSON: `[{"check":…,"value":…,"ok":true,"advice":null}, …]`.
    package static func json(_ checks: [DoctorCheck]) -> String {
        "["
            + checks.map { check in
                #"{"check":\#(check.check.jsonQuoted),"value":\#(check.value.jsonQuoted),"ok":\#(check.advice == nil),"advice":\#(check.advice.map(\.jsonQuoted) ?? "null")}"#
            }.joined(separator: ",") + "]"
    }
}

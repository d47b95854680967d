import BallModel
import BallProgram
import BallRendering
import BallReplay
import CNcurses
import ColourCore
import Platform
import TerminalIO
import TextFormats

// MARK: - Opening the terminal

/// Why the interactive program cannot start, in one sentence for the user.
package struct TerminalError: Error, CustomStringConvertible {
    /// The sentence.
    package let description: String
}

/// The ncurses terminal: the only code that talks to ncurses, and the run loop's
/// ``TerminalDevice`` in a real terminal. ncurses opens the terminal (its modes, the alternate
/// screen, mouse reporting, the terminfo entry) and puts everything back on close; frames are
/// turned into bytes by the ``Rasteriser``, with this terminal's sequences from terminfo, and
/// leave in one `write(2)` each; input is waited for with `poll` (``TerminalInput``).
package final class NcursesTerminal: TerminalDevice {
    /// How colours are shown (the renderer keeps swatches visible at this depth).
    package let colourDepth: ColourDepth
    private var screen: OpaquePointer?
    private var rasteriser: Rasteriser
    /// Each frame's bytes (the storage is kept from frame to frame).
    private var output: [UInt8] = []
    /// The sequence that turns attributes and colours off, for suspending and closing.
    private let resetAttributes: [UInt8]
    private var isOpen = false
    /// Whether ncurses has made its first update (modes, alternate screen, mouse set-up).
    private var started = false
    /// How long a lone Esc waits for the rest of a sequence (`ESCDELAY`, as ncurses reads it).
    package let escapeWait = RunLoop.escapeWait(escapeDelay: environmentValue("ESCDELAY"))
    /// Whether the next frame must be drawn whole (the terminal lost what it showed).
    private var drawWhole = true
    private var outputFD: Int32 = STDOUT_FILENO
    /// Input, and the signals that wake the loop (made when the terminal is opened for real).
    private var input: TerminalInput?
    /// The terminfo entry's size (80×24 where it has none): the size where the kernel has none.
    private var entrySize = ScreenSize(columns: 80, rows: 24)

    /// Opens the terminal on stdin/stdout: checks they are a terminal and that `TERM` is
    /// known, starts ncurses (cbreak-like raw input, no echo, hidden cursor), turns on mouse
    /// drag reporting (modes 1002 and SGR 1006), and guards the terminal against every way
    /// the program can end.
    package convenience init() throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw TerminalError(
                description:
                    "It needs a terminal on stdin and stdout; without one, try `colourful-ball colour X Y` or `colourful-ball replay FILE --headless`."
            )
        }
        guard let term = environmentValue("TERM"), !term.isEmpty else {
            throw TerminalError(
                description: "TERM is not set: set it to your terminal's type, such as `TERM=xterm-256color`.")
        }
        var status: Int32 = 0
        // The terminfo entry's own size, not the window's (see below).
        use_env(false)
        guard setupterm(term, STDOUT_FILENO, &status) == OK else {
            throw TerminalError(
                description:
                    "The terminal type '\(term.visibleInMessage)' (TERM) is unknown to ncurses: set TERM to a type this system knows, such as xterm-256color."
            )
        }
        // Checked before ncurses changes the terminal's modes, so the error leaves them alone.
        guard Self.string("cup") != nil else { throw Self.cannotMoveCursor(term) }
        // No setlocale: the program writes its own UTF-8 and reads its own input; ncurses only
        // sets the terminal's modes, which no locale changes (the locale's tables took some
        // 270 KB while playing; `doctor` reads the locale's character set itself).
        TerminalGuard.saveModes(fd: STDIN_FILENO)
        WakePipe.shared.takeStopSignal()
        // ncurses keeps three screens of its own at the size it believes in (some 80 bytes a
        // cell: 160 KB at 80×24, 25 MB at 1000×300), which nothing draws into any more: it is
        // told the terminal is 2×2, through LINES and COLUMNS, which it reads again each time
        // it resumes (the first frame, after a suspend): they say 2×2 while the terminal is
        // open and are put back as they were when it closes. Our frames take the real size from
        // the kernel, or where the kernel has none, the terminfo entry's (80×24 for an entry
        // without one: linux, putty, cygwin).
        let (entryLines, entryColumns) = (tigetnum("lines"), tigetnum("cols"))
        let entry = ScreenSize(
            columns: entryColumns > 0 ? Int(entryColumns) : 80, rows: entryLines > 0 ? Int(entryLines) : 24)
        let userSize = (lines: environmentValue("LINES"), columns: environmentValue("COLUMNS"))
        use_env(true)
        setenv("LINES", "2", 1)
        setenv("COLUMNS", "2", 1)
        // What ncurses writes while it starts (the alternate screen, entered and left again by
        // the `endwin` in ``start(_:term:)``, and a carriage return on the user's screen after
        // it) goes nowhere: the first frame enters the alternate screen once, from where the
        // user's cursor is, so that leaving it puts the cursor back there.
        // ncurses sets the terminal's modes (raw input, no echo) through standard output, or
        // through standard error where standard output is not a terminal, as it is not while
        // silenced here: with standard error redirected (`2>log`) the modes would never be set,
        // and the terminal would echo its own answers onto the screen. So standard error is the
        // terminal while the program has it, and goes back where it was when it lets go.
        var savedError: Int32 = -1
        if isatty(STDERR_FILENO) != 1 {
            savedError = dup(STDERR_FILENO)
            dup2(STDIN_FILENO, STDERR_FILENO)
        }
        let silenced = Self.silenceOutput()
        let started = newterm(nil, cb_stdout(), cb_stdin())
        guard let screen = started else {
            Self.putBackSize(userSize)
            Self.restoreOutput(silenced)
            Self.giveBackStandardError(savedError)
            throw TerminalError(
                description: "ncurses could not start on this terminal (TERM=\(term.visibleInMessage)).")
        }
        do {
            try self.init(started: screen, term: term, output: STDOUT_FILENO)
            entrySize = entry
            sizeEnvironment = userSize
        } catch {
            Self.putBackSize(userSize)
            Self.restoreOutput(silenced)
            Self.giveBackStandardError(savedError)
            throw error
        }
        savedStandardError = savedError
        Self.restoreOutput(silenced)
        input = TerminalInput()
        // As ``leavingBytes()``, for a signal handler (which cannot ask terminfo for the size).
        TerminalGuard.install(
            restore: TerminalGuard.modesOff + "\u{1B}[0m" + Self.capability("clear") + Self.capability("cnorm")
                + Self.capability("rmcup") + TerminalGuard.wholeScrollRegion + "\r\n")
    }

    /// An ncurses screen that writes to `output` (any file) as a terminal of type `term` and
    /// `size`: for measuring what reaches a terminal. No terminal checks, no signal guards.
    package convenience init(measuringTerm term: String, output: Int32, size: ScreenSize) throws {
        guard let file = fdopen(output, "w"), let input = fopen("/dev/null", "r"),
            let screen = newterm(term, file, input)
        else { throw TerminalError(description: "ncurses could not start as \(term.visibleInMessage).") }
        try self.init(started: screen, term: term, output: output)
        resizeterm(Int32(size.rows), Int32(size.columns))
        entrySize = size
    }

    /// Sets up the ncurses screen just made (``start(_:term:)``) for frames written to `output`.
    private init(started screen: OpaquePointer, term: String, output: Int32) throws {
        let (depth, sequences) = try Self.start(screen, term: term)
        colourDepth = depth
        rasteriser = Rasteriser(sequences: sequences)
        resetAttributes = sequences.resetAttributes
        self.screen = screen
        outputFD = output
        isOpen = true
    }

    /// Sets up a new ncurses screen: raw input, no echo, hidden cursor, mouse reporting, colour;
    /// how colours are shown, and the terminal's sequences for the rasteriser.
    private static func start(_ screen: OpaquePointer, term: String) throws -> (ColourDepth, TerminalSequences) {
        set_term(screen)
        // Raw, not cbreak: output flow control (IXON) off, so a Ctrl-S is a key and cannot stop
        // the terminal's output before the program's last write as it leaves.
        raw()
        noecho()
        nonl()
        keypad(cb_stdscr(), false)
        intrflush(cb_stdscr(), false)
        leaveok(cb_stdscr(), true)
        curs_set(0)
        mouseinterval(0)
        mousemask(cb_all_mouse_events() | cb_report_mouse_position(), nil)
        // No typeahead checks during an update: ncurses would poll stdin and flush its output
        // every few rows, splitting one frame into dozens of writes. Input is read whole
        // before each frame anyway.
        typeahead(-1)
        let available = colourDepth(term: term)
        let sequences = try Self.sequences(depth: available, term: term)
        let depth = sequences.hasColour ? available : .monochrome
        // ncurses flushes its output after every cursor move until it has been suspended and
        // resumed once (its `_endwin` state stays "initial" otherwise): suspend now, and the
        // first update resumes it, so each frame leaves in one write.
        endwin()
        return (depth, sequences)
    }

    /// Points standard output at /dev/null (its buffer flushed first); the original, to give
    /// back to ``restoreOutput(_:)``.
    private static func silenceOutput() -> Int32 {
        fflush(nil)
        let saved = dup(STDOUT_FILENO)
        let null = open("/dev/null", O_WRONLY)
        if null >= 0 {
            dup2(null, STDOUT_FILENO)
            Platform.close(null)
        }
        return saved
    }

    /// Points standard output back at `saved` (from ``silenceOutput()``), what was written to
    /// /dev/null meanwhile flushed there first.
    private static func restoreOutput(_ saved: Int32) {
        fflush(nil)
        guard saved >= 0 else { return }
        dup2(saved, STDOUT_FILENO)
        Platform.close(saved)
    }

    /// A terminfo string capability, or "" when the terminal has none.
    private static func capability(_ name: String) -> String {
        string(name).map { String(cString: $0) } ?? ""
    }

    /// The window size the kernel gives the terminal on `fd`, 0×0 included (some terminals
    /// give none); nil when it cannot be read.
    package static func windowSize(fd: Int32) -> ScreenSize? {
        var rows: Int32 = 0
        var columns: Int32 = 0
        guard cb_window_size(fd, &rows, &columns) == 0 else { return nil }
        return ScreenSize(columns: Int(columns), rows: Int(rows))
    }

    /// The size of the terminal on stdout, from the kernel, before (or without) ncurses.
    package static func terminalSize() -> ScreenSize? {
        var rows: Int32 = 0
        var columns: Int32 = 0
        guard cb_window_size(STDOUT_FILENO, &rows, &columns) == 0, rows > 0, columns > 0 else { return nil }
        return ScreenSize(columns: Int(columns), rows: Int(rows))
    }

    /// The terminal's size now, from the kernel (the terminfo entry's if the kernel has none).
    package var size: ScreenSize { Self.terminalSize() ?? entrySize }

    /// The terminal is now `size`. Nothing to tell ncurses, which draws nothing and keeps its
    /// small screens (the rasteriser draws a frame of a new size whole; for a frame of the same
    /// size the caller redraws: ``ScreenBinding/redraw()``).
    package func resize(to size: ScreenSize) {}

    /// What leaves the terminal as the program found it, written in place of ncurses' `endwin`:
    /// attributes and mouse modes off, the screen cleared and the cursor home, the cursor
    /// shown, the alternate screen left (`rmcup`), the keypad back (`rmkx`), and the scroll
    /// region the whole of the real terminal (ncurses set it for the size it believes in, 2×2:
    /// see `use_env`), the cursor kept.
    ///
    /// The screen is cleared before the alternate screen is left: where there is none, or a
    /// terminal ignores it (GNU screen as Debian ships it, `altscreen off`), what the program
    /// drew goes and the shell's prompt comes at the top, as after `clear`; where there is one,
    /// the clearing is of the alternate screen, and the user's screen comes back as it was.
    /// ncurses' `endwin` would instead move the cursor to the last row it knows of and leave
    /// the last frame on such a terminal.
    private func leavingBytes() -> [UInt8] {
        var bytes = resetAttributes + Array(TerminalGuard.modesOff.utf8)
        for name in ["clear", "cnorm", "rmcup", "rmkx"] { bytes += Self.string(name).map { Self.bytes($0) } ?? [] }
        if let csr = Self.string("csr") {
            bytes += Self.string("sc").map { Self.bytes($0) } ?? []
            bytes += Self.bytes(cb_tiparm2(csr, 0, Int32(size.rows) - 1))
            bytes += Self.string("rc").map { Self.bytes($0) } ?? []
        }
        return bytes
    }

    /// Ctrl-Z (or SIGTSTP): hands the terminal back to the shell (``leavingBytes()``, then the
    /// shell's modes), stops the process, and when it is continued (`fg`) takes the terminal
    /// again: the program's modes, the alternate screen, the cursor hidden, mouse reporting; the
    /// next frame is drawn whole (the caller presents it: ``ScreenBinding/redraw()``). Does
    /// nothing when there is no job control (the program was started with SIGTSTP ignored).
    package func suspend() {
        guard isOpen, WakePipe.shared.canStop else { return }
        writeAll(leavingBytes(), to: outputFD)
        reset_shell_mode()
        WakePipe.shared.stop()
        reset_prog_mode()
        var bytes: [UInt8] = []
        for name in ["smcup", "civis"] { bytes += Self.string(name).map { Self.bytes($0) } ?? [] }
        writeAll(bytes, to: outputFD)
        writeToTerminal(Self.dragReporting)
        if pointerMotion { writeToTerminal(Self.pointerMotionOn) }
        rasteriser.invalidate()
        drawWhole = true
    }

    /// Ends ncurses and restores the terminal (``leavingBytes()``, then the original terminal
    /// modes).
    package func close() {
        guard isOpen else { return }
        isOpen = false
        writeAll(leavingBytes(), to: outputFD)
        TerminalGuard.uninstall()
        TerminalGuard.restoreModes()
        if let screen { delscreen(screen) }
        screen = nil
        sizeEnvironment.map(Self.putBackSize)
        sizeEnvironment = nil
        Self.giveBackStandardError(savedStandardError)
        savedStandardError = -1
    }

    /// LINES and COLUMNS as they were before ncurses was told 2×2 (nil: not told).
    private var sizeEnvironment: (lines: String?, columns: String?)?

    /// Puts LINES and COLUMNS back as they were (unset where they were not set).
    private static func putBackSize(_ saved: (lines: String?, columns: String?)) {
        for (name, value) in [("LINES", saved.lines), ("COLUMNS", saved.columns)] {
            if let value { setenv(name, value, 1) } else { unsetenv(name) }
        }
    }

    /// Standard error as it was before the program took the terminal, when it was not the
    /// terminal (-1: it was, and stays so).
    private var savedStandardError: Int32 = -1

    /// Points standard error back where it was (a file, /dev/null: `saved`, -1 for no change)
    /// once ncurses is done.
    private static func giveBackStandardError(_ saved: Int32) {
        guard saved >= 0 else { return }
        dup2(saved, STDERR_FILENO)
        Platform.close(saved)
    }

    deinit {
        close()
    }

    // MARK: - Presenting frames

    /// Writes `frame` to the terminal: the bytes the rasteriser makes for the cells that
    /// changed since `previous` (the whole frame the first time, and after a suspend), in one
    /// `write(2)`.
    package func present(_ frame: Frame, previous: Frame?) {
        guard isOpen else { return }
        if !started {
            // ncurses' first update sends the program's modes, the alternate screen, a clear
            // screen and its mouse set-up (mode 1000: clicks only); drag reporting (1002) and
            // SGR coordinates (1006) must come after it.
            wnoutrefresh(cb_stdscr())
            doupdate()
            // Does the terminal show a frame only when it is whole (synchronized output, DEC
            // mode 2026)? Asked now and never waited for: the answer, if any, comes as input,
            // and frames are wrapped from then on (``modeReported(_:setting:)``).
            // And how wide does it draw each glyph? Each is written at the start of the line,
            // then the cursor's place asked for; the frame, drawn whole, covers them.
            writeToTerminal(Self.dragReporting + Self.askSynchronizedOutput + Self.measureGlyphs)
            started = true
        }
        output.removeAll(keepingCapacity: true)
        if synchronizedOutput { output += Self.beginSynchronizedUpdate }
        let empty = output.count
        rasteriser.draw(frame, over: drawWhole ? nil : previous, into: &output)
        drawWhole = false
        if output.count == empty { return }
        if synchronizedOutput { output += Self.endSynchronizedUpdate }
        writeAll(output, to: outputFD)
    }

    // MARK: - Synchronized output

    /// Whether each frame is wrapped in a synchronized update (the terminal said it has mode
    /// 2026, set or reset: it can be switched).
    private var synchronizedOutput = false
    /// DECRQM for mode 2026.
    private static let askSynchronizedOutput = "\u{1B}[?2026$p"
    private static let beginSynchronizedUpdate = Array("\u{1B}[?2026h".utf8)
    private static let endSynchronizedUpdate = Array("\u{1B}[?2026l".utf8)

    // MARK: - The glyphs' widths

    /// The glyphs measured, in the order of the questions still unanswered.
    private var glyphsMeasured = Glyph.all[...]
    /// Those found wider than one cell so far.
    private var wideGlyphs: [Unicode.Scalar] = []
    /// The questions (``TerminalProbe/measuring(_:)``).
    private static let measureGlyphs = TerminalProbe.measuring(Glyph.all)

    /// The terminal said where its cursor was after a glyph (the answers come in the order
    /// asked): the glyphs drawn wider than one cell, once the last answer is in.
    package func cursorReported(row: Int, column: Int) -> [Unicode.Scalar] {
        guard let glyph = glyphsMeasured.popFirst() else { return [] }
        if TerminalProbe.width(cursorColumn: column) != 1 { wideGlyphs.append(glyph) }
        return glyphsMeasured.isEmpty ? wideGlyphs : []
    }

    /// The terminal answered a DECRQM: for 2026, set (1) or reset (2) means it can hold a frame
    /// back until it is whole.
    package func modeReported(_ mode: Int, setting: Int) {
        if mode == 2026 { synchronizedOutput = setting == 1 || setting == 2 }
    }

    /// Whether the pointer's motion with no button down is reported (mode 1003).
    private var pointerMotion = false
    private static let pointerMotionOn = "\u{1B}[?1003h"

    /// Blocks until input, a window change, a stop request or `timeout` (nil: for ever); nil
    /// when the timeout passed.
    package func wait(timeout: Duration?) -> TerminalWakeup? {
        guard let input else { return .hangUp }
        let milliseconds = timeout.map { Int32(min(($0.seconds * 1000).rounded(.up), Double(Int32.max))) } ?? -1
        return input.wait(timeout: milliseconds)
    }

    /// Puts the terminal in `modes`: reports the pointer's motion with no button down too (mode
    /// 1003), or stops; on only while something follows the pointer (the streams panel's
    /// description), so that moving the mouse over the ball wakes nothing otherwise. Writes only
    /// a change.
    package func apply(_ modes: TerminalModes) {
        let on = modes.pointerMotion
        guard isOpen, started, on != pointerMotion else { return }
        pointerMotion = on
        // Off: back to drag reporting (1003 and 1002 are one setting in most terminals).
        writeToTerminal(on ? Self.pointerMotionOn : "\u{1B}[?1003l" + Self.dragReporting)
    }

    /// Mouse reports while the button is down (1002), in SGR form (1006; urxvt's decimal form,
    /// 1015, first, for a terminal that has it and not SGR, past X10's 223 columns: where both
    /// are known the last asked for wins); pasted text marked as such (bracketed paste, 2004),
    /// so the decoder takes it as text, not keys.
    private static let dragReporting = "\u{1B}[?1002h\u{1B}[?1015h\u{1B}[?1006h\u{1B}[?2004h"

    private func writeToTerminal(_ text: String) {
        writeAll(Array(text.utf8), to: outputFD)
    }

    // MARK: - Terminfo and colours

    /// This terminal's sequences, from its terminfo entry, colours as `depth` shows them (none
    /// when the entry cannot set a foreground and background).
    private static func sequences(depth: ColourDepth, term: String) throws -> TerminalSequences {
        guard let cup = string("cup") else { throw cannotMoveCursor(term) }
        let hpa = string("hpa")
        let cuf = string("cuf")
        let cub = string("cub")
        let setaf = string("setaf")
        let setab = string("setab")
        func number(_ depth: ColourDepth, _ colour: FlatColour) -> Int32 {
            switch depth {
            case .direct:
                let (red, green, blue) = colour.rgb.channels
                return Int32(red) << 16 | Int32(green) << 8 | Int32(blue)
            case .palette(let palette): return Int32(colour.terminalIndex(in: palette))
            case .monochrome: return 0
            }
        }
        let colours = depth != .monochrome && setaf != nil && setab != nil
        if depth == .direct, !terminfoTakesRGB {
            // COLORTERM says 24-bit where terminfo's entry does not (xterm-kitty): xterm's form.
            var sequences = try Self.sequences(depth: .palette(.xterm256), term: term)
            let direct = TerminalSequences.xtermDirectColour()
            sequences.foregrounds = direct.foregrounds
            sequences.backgrounds = direct.backgrounds
            sequences.blend = TerminalSequences.directBlend
            return sequences
        }
        // A colour between the flat ones (a fade): itself in direct colour, the nearest entry of
        // 256; none on fewer colours (they switch at once).
        var blend: ((RGBColour, Bool) -> [UInt8])?
        if colours, let setaf, let setab {
            switch depth {
            case .direct:
                blend = { colour, background in
                    let (red, green, blue) = colour.channels
                    let value = Int32(red) << 16 | Int32(green) << 8 | Int32(blue)
                    return bytes(cb_tiparm1(background ? setab : setaf, value))
                }
            case .palette(.xterm256):
                blend = { colour, background in
                    bytes(
                        cb_tiparm1(background ? setab : setaf, Int32(TerminalPalette.nearestXterm256Index(to: colour))))
                }
            default: blend = nil
            }
        }
        return TerminalSequences(
            cursorAddress: { bytes(cb_tiparm2(cup, Int32($0), Int32($1))) },
            columnAddress: hpa.map { hpa in { bytes(cb_tiparm1(hpa, Int32($0))) } },
            cursorForward: cuf.map { cuf in { bytes(cb_tiparm1(cuf, Int32($0))) } },
            cursorBackward: cub.map { cub in { bytes(cb_tiparm1(cub, Int32($0))) } },
            insertCharacter: string("ich1").map { bytes($0) } ?? string("ich").map { bytes(cb_tiparm1($0, 1)) } ?? [],
            deleteCharacter: string("dch1").map { bytes($0) } ?? string("dch").map { bytes(cb_tiparm1($0, 1)) } ?? [],
            eraseToEndOfScreen: string("ed").map { bytes($0) } ?? [],
            resetAttributes: string("sgr0").map { bytes($0) } ?? Array("\u{1B}[0m".utf8),
            bold: string("bold").map { bytes($0) } ?? [],
            reverse: string("rev").map { bytes($0) } ?? [],
            foregrounds: colours ? FlatColour.allCases.map { bytes(cb_tiparm1(setaf, number(depth, $0))) } : [],
            backgrounds: colours ? FlatColour.allCases.map { bytes(cb_tiparm1(setab, number(depth, $0))) } : [],
            backColourErase: tigetflag("bce") > 0, blend: blend)
    }

    private static func cannotMoveCursor(_ term: String) -> TerminalError {
        TerminalError(
            description:
                "The terminal type '\(term.visibleInMessage)' (TERM) cannot move its cursor: run colourful-ball in a full-screen terminal, such as xterm."
        )
    }

    /// A terminfo string capability, or nil when the terminal has none.
    private static func string(_ name: String) -> UnsafeMutablePointer<CChar>? {
        guard let value = tigetstr(name), value != UnsafeMutablePointer(bitPattern: -1) else { return nil }
        return value
    }

    /// The bytes of a terminfo string, without its padding (`$<5>`: delays for terminals of
    /// long ago, which ncurses' `tputs` would turn into waiting).
    private static func bytes(_ text: UnsafeMutablePointer<CChar>?) -> [UInt8] {
        guard let text else { return [] }
        var result: [UInt8] = []
        var pointer = UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self)
        while pointer.pointee != 0 {
            if pointer.pointee == UInt8(ascii: "$"), pointer[1] == UInt8(ascii: "<"),
                let end = (2..<16).first(where: { pointer[$0] == UInt8(ascii: ">") || pointer[$0] == 0 }),
                pointer[end] == UInt8(ascii: ">")
            {
                pointer += end + 1
                continue
            }
            result.append(pointer.pointee)
            pointer += 1
        }
        return result
    }

    /// How this terminal can show colours: as ``ColourDepth/init(noColour:colourTerm:term:terminfoColours:terminfoRGB:)``
    /// says from the environment and terminfo, if ncurses can start colour at all.
    private static func colourDepth(term: String) -> ColourDepth {
        if let noColour = environmentValue("NO_COLOR"), !noColour.isEmpty { return .monochrome }
        guard has_colors(), start_color() == OK else { return .monochrome }
        return ColourDepth(
            noColour: nil, colourTerm: environmentValue("COLORTERM"), term: term,
            terminfoColours: Int(cb_colors()),  // Known only once colour has started.
            terminfoRGB: tigetflag("RGB") > 0)
    }

    /// Whether terminfo's `setaf` takes a 24-bit colour (`RGB`, or 2^24 colours): otherwise
    /// direct colour (from `COLORTERM`) is sent in xterm's form.
    private static var terminfoTakesRGB: Bool { tigetflag("RGB") > 0 || cb_colors() >= 0x100_0000 }
}

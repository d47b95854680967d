import BallCore
import CNcurses
import ColourCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: - Opening the terminal

/// Why the interactive program cannot start, in one sentence for the user.
public struct TerminalError: Error, CustomStringConvertible {
    /// The sentence.
    public let description: String
}

/// How colours reach this terminal.
public enum ColourDepth: Equatable, Sendable, CustomStringConvertible {
    /// 24-bit colour: the exact flat colours.
    case direct
    /// A palette: the colour module's table for it.
    case palette(TerminalPalette)
    /// No colour (a monochrome terminal, or `NO_COLOR` set): shapes and reverse video only.
    case monochrome

    /// `direct colour`, `256 colours`, ...
    public var description: String {
        switch self {
        case .direct: "direct colour"
        case .palette(let palette): "\(palette.rawValue) colours"
        case .monochrome: "no colour"
        }
    }
}

/// The ncurses screen: the only code that talks to ncurses. It opens the terminal, presents
/// frames (writing only the cells that changed), and puts everything back on close.
public final class NcursesScreen: Screen {
    /// How colours are shown.
    public let depth: ColourDepth
    private var screen: OpaquePointer?
    /// Colour pairs made so far, by foreground × 48 + background (0: not made yet).
    private var pairs = [Int32](repeating: 0, count: NcursesScreen.colourCount * NcursesScreen.colourCount)
    /// The foreground last drawn on each background (blanks borrow it).
    private let glyphForeground = filledBuffer(FlatColour?.none, count: NcursesScreen.colourCount)
    private static let colourCount = FlatColour.allCases.count
    private var nextPair: Int32 = 1
    /// Characters made for cells, by a hash of the cell (256 slots; a key of all ones is empty).
    private let cachedKeys = filledBuffer(UInt64.max, count: 256)
    private let cachedCharacters = filledBuffer(cchar_t(), count: 256)
    /// Room for one row's run of characters.
    private var run = UnsafeMutablePointer<cchar_t>.allocate(capacity: 0)
    private var runCapacity = 0
    private var isOpen = false
    private var dragReportingOn = false
    private var outputFD: Int32 = STDOUT_FILENO

    /// Opens the terminal on stdin/stdout: checks they are a terminal and that `TERM` is
    /// known, starts ncurses (cbreak-like raw input, no echo, hidden cursor), turns on mouse
    /// drag reporting (modes 1002 and SGR 1006), and guards the terminal against every way
    /// the program can end.
    public init() throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw TerminalError(
                description:
                    "It needs a terminal on stdin and stdout; without one, try `colourful-ball colour X Y` or `colourful-ball replay FILE --headless`."
            )
        }
        guard let term = getenv("TERM").map({ String(cString: $0) }), !term.isEmpty else {
            throw TerminalError(
                description: "TERM is not set: set it to your terminal's type, such as `TERM=xterm-256color`.")
        }
        var status: Int32 = 0
        guard setupterm(term, STDOUT_FILENO, &status) == OK else {
            throw TerminalError(
                description:
                    "The terminal type '\(term)' (TERM) is unknown to ncurses: set TERM to a type this system knows, such as xterm-256color."
            )
        }
        setlocale(LC_ALL, "")
        TerminalGuard.saveModes(fd: STDIN_FILENO)
        WakePipe.shared.takeStopSignal()
        guard let screen = newterm(nil, cb_stdout(), cb_stdin()) else {
            throw TerminalError(description: "ncurses could not start on this terminal (TERM=\(term)).")
        }
        depth = Self.start(screen)
        self.screen = screen
        isOpen = true
        let exitCaMode = Self.capability("rmcup")
        let cursorNormal = Self.capability("cnorm")
        TerminalGuard.install(
            restore: TerminalGuard.modesOff + "\u{1B}[0m" + exitCaMode + cursorNormal + "\r\n")
    }

    /// An ncurses screen that writes to `output` (any file) as a terminal of type `term` and
    /// `size`: for measuring what reaches a terminal. No terminal checks, no signal guards.
    public init(measuringTerm term: String, output: Int32, size: ScreenSize) throws {
        guard let file = fdopen(output, "w"), let input = fopen("/dev/null", "r"),
            let screen = newterm(term, file, input)
        else { throw TerminalError(description: "ncurses could not start as \(term).") }
        depth = Self.start(screen)
        self.screen = screen
        outputFD = output
        isOpen = true
        resizeterm(Int32(size.rows), Int32(size.columns))
    }

    /// Sets up a new ncurses screen: raw input, no echo, hidden cursor, mouse reporting, colour.
    private static func start(_ screen: OpaquePointer) -> ColourDepth {
        set_term(screen)
        raw()
        noecho()
        nonl()
        keypad(cb_stdscr(), false)
        intrflush(cb_stdscr(), false)
        leaveok(cb_stdscr(), true)
        curs_set(0)
        set_escdelay(25)
        mouseinterval(0)
        mousemask(cb_all_mouse_events() | cb_report_mouse_position(), nil)
        // No typeahead checks during an update: ncurses would poll stdin and flush its output
        // every few rows, splitting one frame into dozens of writes. Input is read whole
        // before each frame anyway.
        typeahead(-1)
        let depth = colourDepth()
        // ncurses flushes its output after every cursor move until it has been suspended and
        // resumed once (its `_endwin` state stays "initial" otherwise): suspend now, and the
        // first update resumes it, so each frame leaves in one write.
        endwin()
        return depth
    }

    /// A terminfo string capability, or "" when the terminal has none.
    private static func capability(_ name: String) -> String {
        guard let value = tigetstr(name), value != UnsafeMutablePointer(bitPattern: -1) else { return "" }
        return String(cString: value)
    }

    /// The size of the terminal on stdout, from the kernel, before (or without) ncurses.
    public static func terminalSize() -> ScreenSize? {
        var rows: Int32 = 0
        var columns: Int32 = 0
        guard cb_window_size(STDOUT_FILENO, &rows, &columns) == 0, rows > 0, columns > 0 else { return nil }
        return ScreenSize(columns: Int(columns), rows: Int(rows))
    }

    /// The terminal's size now, from the kernel (ncurses' idea of it if the kernel has none).
    public var size: ScreenSize {
        Self.terminalSize() ?? ScreenSize(columns: Int(cb_cols()), rows: Int(cb_lines()))
    }

    /// Tells ncurses the terminal is now `size`; the next frame is drawn whole.
    public func resize(to size: ScreenSize) {
        resizeterm(Int32(size.rows), Int32(size.columns))
    }

    /// Ctrl-Z (or SIGTSTP): hands the terminal back to the shell (drag reporting off, the
    /// screen ended and the shell's modes restored), stops the process, and when it is
    /// continued (`fg`) takes the terminal again and repaints it whole. Does nothing when
    /// there is no job control (the program was started with SIGTSTP ignored).
    public func suspend() {
        guard isOpen, WakePipe.shared.canStop else { return }
        writeToTerminal(TerminalGuard.modesOff)
        endwin()
        WakePipe.shared.stop()
        // Continued: the next update restores the program's modes and the alternate screen
        // and repaints everything; then drag reporting again (after ncurses' mouse set-up).
        doupdate()
        writeToTerminal(Self.dragReporting)
    }

    /// Ends ncurses and restores the terminal: mouse modes off, normal screen, cursor back,
    /// the original terminal modes.
    public func close() {
        guard isOpen else { return }
        isOpen = false
        writeToTerminal(TerminalGuard.modesOff)
        endwin()
        TerminalGuard.uninstall()
        TerminalGuard.restoreModes()
        if let screen { delscreen(screen) }
        screen = nil
    }

    deinit {
        close()
        cachedCharacters.deallocate()
        cachedKeys.deallocate()
        glyphForeground.deallocate()
        run.deallocate()
    }

    // MARK: - Presenting frames

    /// Writes `frame` to the terminal: only the cells that differ from the last frame; when
    /// the screen's colour changed, an erase in the new colour (cheap with back-colour-erase)
    /// and then only the cells that are not plain background.
    ///
    /// A blank cell shows only its background, so its foreground is free: blanks are written
    /// with the foreground the neighbouring glyphs use, which spares a colour change at every
    /// edge of the ball, and two blanks of one background count as the same cell.
    public func present(_ frame: Frame, previous: Frame?) {
        guard isOpen else { return }
        let window = cb_stdscr()
        let columns = frame.size.columns
        let rows = frame.size.rows
        var fill = FrameCell.blank(frame.fill)
        if previous?.size != frame.size || previous?.fill != frame.fill,
            let glyph = frame.cells.first(where: { !$0.isBlank && $0.background == frame.fill })
        {
            // Erasing in a new colour: blanks take the foreground of the glyphs drawn on it (see above).
            fill.foreground = glyph.foreground
            glyphForeground[Int(frame.fill.rawValue)] = glyph.foreground
        }
        if let previous, previous.size == frame.size {
            // The rows that hold the screen's colour: all but the status line.
            let fieldRows = previous.fill == frame.fill ? 0 : rows - 1
            if fieldRows > 0 {
                // The background changed: clear those rows in the new colour (one erase each
                // on a back-colour-erase terminal), then write what is not background.
                var blank = cell(for: fill)
                wbkgrndset(window, &blank)
                for row in 0..<fieldRows {
                    wmove(window, Int32(row), 0)
                    wclrtoeol(window)
                }
                putAll(frame, rows: 0..<fieldRows, except: fill, in: window)
            }
            var shift = 0
            frame.cells.withUnsafeBufferPointer { cells in
                previous.cells.withUnsafeBufferPointer { old in
                    guard let new = cells.baseAddress, let old = old.baseAddress else { return }
                    let rowBytes = columns * MemoryLayout<FrameCell>.stride
                    for row in fieldRows..<rows {
                        let start = row * columns
                        // Most rows are unchanged: one memcmp each (a row that differs only in
                        // padding bytes is compared cell by cell, and nothing is drawn).
                        if memcmp(new + start, old + start, rowBytes) == 0 { continue }
                        if shift == 0, row < rows - 1 {
                            shift = Self.contentShift(from: old + start, to: new + start, columns: columns, fill: fill)
                        }
                        putRuns(new + start, row: row, columns: columns, in: window) {
                            !Self.looksSame(new[start + $0], old[start + $0])
                        }
                    }
                }
            }
            // ncurses' insert/delete-character optimisation pays when rows shift left (it
            // deletes a cell at the ball's left edge: half the bytes of a rewrite) and a little
            // on vertical moves; on a shift right it first moves to the row's start for an
            // insert it then does not make: a cursor move computed with a dozen terminfo
            // formats, and six bytes, per row. So it is off for frames that shift right.
            idcok(window, shift <= 0)
        } else {
            var blank = cell(for: fill)
            wbkgrndset(window, &blank)
            werase(window)
            putAll(frame, rows: 0..<rows, except: fill, in: window)
        }
        wnoutrefresh(window)
        doupdate()
        if !dragReportingOn {
            // ncurses sends its mouse set-up (mode 1000: clicks only) with the first update;
            // drag reporting (1002) and SGR coordinates (1006) must come after it.
            dragReportingOn = true
            writeToTerminal(Self.dragReporting)
        }
    }

    /// How far a row's content moved (new first column minus old, 0 when either has none).
    private static func contentShift(
        from old: UnsafePointer<FrameCell>, to new: UnsafePointer<FrameCell>, columns: Int, fill: FrameCell
    ) -> Int {
        func first(_ cells: UnsafePointer<FrameCell>) -> Int? {
            (0..<columns).first { !looksSame(cells[$0], fill) }
        }
        guard let before = first(old), let after = first(new) else { return 0 }
        return after - before
    }

    /// Mouse reports while the button is down (1002), in SGR form (1006).
    private static let dragReporting = "\u{1B}[?1002h\u{1B}[?1006h"

    /// Writes the cells of `rows` that are not plain `fill` (after those rows were erased in it).
    private func putAll(
        _ frame: Frame, rows: Range<Int>, except fill: FrameCell, in window: UnsafeMutablePointer<WINDOW>?
    ) {
        let columns = frame.size.columns
        frame.cells.withUnsafeBufferPointer { cells in
            guard let cells = cells.baseAddress else { return }
            for row in rows {
                let start = cells + row * columns
                putRuns(start, row: row, columns: columns, in: window) { !Self.looksSame(start[$0], fill) }
            }
        }
    }

    /// Writes the cells of one row for which `differs` holds: each run of neighbouring cells
    /// in one call that copies ready-made characters into the window (no per-cell rendition
    /// work in ncurses, and each distinct cell is converted once: see ``character(for:)``).
    private func putRuns(
        _ cells: UnsafePointer<FrameCell>, row: Int, columns: Int, in window: UnsafeMutablePointer<WINDOW>?,
        where differs: (Int) -> Bool
    ) {
        if runCapacity < columns {
            run.deallocate()
            run = .allocate(capacity: columns)
            runCapacity = columns
        }
        var column = 0
        while column < columns {
            guard differs(column) else {
                column += 1
                continue
            }
            let first = column
            var count = 0
            while column < columns, differs(column) {
                run[count] = character(for: cells[column])
                count += 1
                column += 1
            }
            wmove(window, Int32(row), Int32(first))
            wadd_wchnstr(window, run, Int32(count))
        }
    }

    private func writeToTerminal(_ text: String) {
        writeAll(Array(text.utf8), to: outputFD)
    }

    /// Whether two cells look the same on screen (blanks: the same background).
    private static func looksSame(_ first: FrameCell, _ second: FrameCell) -> Bool {
        guard first.background == second.background, first.glyph == second.glyph else { return false }
        return first.isBlank || (first.foreground == second.foreground && first.bold == second.bold)
    }

    /// The ncurses character for a cell about to be written. Blanks take the foreground last
    /// drawn on their background (see ``present(_:previous:)``). Conversions are cached by
    /// cell: a frame has a handful of distinct cells, and `setcchar` is not free.
    private func character(for frameCell: FrameCell) -> cchar_t {
        var frameCell = frameCell
        if frameCell.isBlank {
            if let foreground = glyphForeground[Int(frameCell.background.rawValue)] {
                frameCell.foreground = foreground
            }
        } else {
            glyphForeground[Int(frameCell.background.rawValue)] = frameCell.foreground
        }
        let key =
            UInt64(frameCell.glyph.value) << 17 | UInt64(frameCell.foreground.rawValue) << 9
            | UInt64(frameCell.background.rawValue) << 1 | (frameCell.bold ? 1 : 0)
        let slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 56)
        if cachedKeys[slot] == key { return cachedCharacters[slot] }
        let character = cell(for: frameCell)
        cachedKeys[slot] = key
        cachedCharacters[slot] = character
        return character
    }

    private func cell(for frameCell: FrameCell) -> cchar_t {
        var character = cchar_t()
        var text: (wchar_t, wchar_t) = (wchar_t(bitPattern: frameCell.glyph.value), 0)
        var attributes = frameCell.bold ? cb_a_bold() : cb_a_normal()
        var pair: Int32 = 0
        if depth == .monochrome {
            // Shapes carry the picture; the status line stands out in reverse video.
            if frameCell.background == Renderer.statusBackground { attributes |= cb_a_reverse() }
        } else {
            pair = colourPair(foreground: frameCell.foreground, background: frameCell.background)
        }
        withUnsafePointer(to: &text) { pointer in
            pointer.withMemoryRebound(to: wchar_t.self, capacity: 2) {
                _ = setcchar(&character, $0, attributes, 0, &pair)
            }
        }
        return character
    }

    // MARK: - Colours

    private static func colourDepth() -> ColourDepth {
        if let noColour = getenv("NO_COLOR"), noColour.pointee != 0 { return .monochrome }
        guard has_colors(), start_color() == OK else { return .monochrome }
        // Pair 0 becomes the terminal's own colours, so resetting at the end of an update
        // costs nothing extra (and the palette is left alone).
        use_default_colors()
        let colours = cb_colors()  // Known only once colour has started.
        if tigetflag("RGB") > 0 || colours >= 0x100_0000 { return .direct }
        if colours >= 256 { return .palette(.xterm256) }
        if colours >= 16 { return .palette(.ansi16) }
        if colours >= 8 { return .palette(.ansi8) }
        return .monochrome
    }

    private func terminalColour(_ colour: FlatColour) -> Int32 {
        switch depth {
        case .direct:
            let (red, green, blue) = colour.rgb.channels
            return Int32(red) << 16 | Int32(green) << 8 | Int32(blue)
        case .palette(let palette): return Int32(colour.terminalIndex(in: palette))
        case .monochrome: return -1
        }
    }

    /// The colour pair for a foreground and background, made on first use (existing
    /// colours only: the user's palette is never rewritten).
    private func colourPair(foreground: FlatColour, background: FlatColour) -> Int32 {
        let key = Int(foreground.rawValue) * Self.colourCount + Int(background.rawValue)
        if pairs[key] != 0 { return pairs[key] }
        if nextPair >= cb_color_pairs() {
            // Out of pairs (a tiny terminal description): start again; ncurses repaints
            // the cells drawn with a pair that is redefined.
            pairs = pairs.map { _ in 0 }
            cachedKeys.update(repeating: .max, count: 256)
            nextPair = 1
        }
        let pair = nextPair
        nextPair += 1
        init_extended_pair(pair, terminalColour(foreground), terminalColour(background))
        pairs[key] = pair
        return pair
    }
}

/// A buffer of `count` copies of `value`, for state the drawing loop reads and writes per
/// cell (plain memory: no exclusivity checks, no copy-on-write tests). Deallocate it.
private func filledBuffer<Element>(_ value: Element, count: Int) -> UnsafeMutablePointer<Element> {
    let buffer = UnsafeMutablePointer<Element>.allocate(capacity: count)
    buffer.initialize(repeating: value, count: count)
    return buffer
}

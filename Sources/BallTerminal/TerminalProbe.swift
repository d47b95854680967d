import CNcurses
import Platform
import TerminalIO

// MARK: - What the terminal description says

/// What a terminfo entry says that the program cares about.
package struct TerminfoFacts: Hashable, Sendable {
    /// How many colours (`colors`); nil when it gives none.
    package var colours: Int?
    /// Whether it has the `RGB` flag (direct colour).
    package var directColour: Bool
    /// Whether it can repeat a character (`rep`), which the program uses for runs of blanks.
    package var repeats: Bool
    /// Whether it can move the cursor (`cup`): the program needs that.
    package var movesCursor: Bool
    /// Whether it has an alternate screen (`smcup`).
    package var alternateScreen: Bool

    /// Facts from their parts.
    package init(colours: Int?, directColour: Bool, repeats: Bool, movesCursor: Bool, alternateScreen: Bool) {
        self.colours = colours
        self.directColour = directColour
        self.repeats = repeats
        self.movesCursor = movesCursor
        self.alternateScreen = alternateScreen
    }

    /// The facts of `term`'s entry; nil when this system has no entry for it.
    package static func of(term: String) -> TerminfoFacts? {
        var status: Int32 = 0
        guard !term.isEmpty, setupterm(term, STDOUT_FILENO, &status) == OK else { return nil }
        func has(_ name: String) -> Bool {
            guard let value = tigetstr(name) else { return false }
            return Int(bitPattern: value) != -1 && Int(bitPattern: value) != 0
        }
        let colours = tigetnum("colors")
        return TerminfoFacts(
            colours: colours > 0 ? Int(colours) : nil, directColour: tigetflag("RGB") > 0, repeats: has("rep"),
            movesCursor: has("cup"), alternateScreen: has("smcup"))
    }
}

// MARK: - What the terminal answers

/// What the terminal answered to the questions a program may ask it: device attributes
/// (DA1), its private modes (DECRQM), and where the cursor went after each glyph (CPR).
package struct ProbeAnswers: Hashable, Sendable {
    /// The device attributes' answer (`ESC [ ? 62 ; 22 c` gives "62;22"); nil: no answer came
    /// within the time allowed (then neither did anything asked before it, most likely).
    package var deviceAttributes: String?
    /// Each mode asked about and the setting the terminal gave (DECRPM: 0 not known, 1 set, 2
    /// reset, 3 set for good, 4 reset for good); a mode with no answer is absent.
    package var modes: [Int: Int] = [:]
    /// How many cells each glyph asked about took, from the cursor's column after it.
    package var glyphWidths: [Unicode.Scalar: Int] = [:]

    /// Answers from their parts.
    package init(deviceAttributes: String? = nil, modes: [Int: Int] = [:], glyphWidths: [Unicode.Scalar: Int] = [:]) {
        self.deviceAttributes = deviceAttributes
        self.modes = modes
        self.glyphWidths = glyphWidths
    }
}

/// Asks the terminal what it can do, as `colourful-ball doctor` does: the modes in `modes`
/// (DECRQM), each glyph's width (written at the start of the line, then the cursor's position
/// asked for), and last its device attributes, which every terminal answers: when that answer
/// comes, every earlier one has. Waits at most `budget` (and a little more for the device
/// attributes, so that a slow answer is not left to arrive as typed input). The terminal's
/// modes are restored and the line it wrote on cleared, on every way out: a signal (Ctrl-C,
/// Ctrl-\\) while it waits restores them, then ends the program as it would have.
package enum TerminalProbe {
    /// The terminal the program is in: standard input and output when both are one, else
    /// `/dev/tty` (the output piped or in a file: the terminal is still there to ask); nil when
    /// there is none. The caller closes `owned` when it is set.
    package static func terminal() -> (fd: Int32, owned: Bool)? {
        if isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 { return (STDOUT_FILENO, false) }
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        guard isatty(fd) == 1 else {
            Platform.close(fd)
            return nil
        }
        return (fd, true)
    }

    /// How much longer than the budget the device attributes (the last answer) are waited for,
    /// in raw mode, whether or not others came: a terminal slower than the budget would
    /// otherwise type its answers into the shell, which runs them as commands. Whatever is
    /// still unread then is thrown away as the modes come back (TCSAFLUSH).
    static let grace = Duration.milliseconds(500)

    /// The answers of the terminal on `fd` (`STDOUT_FILENO` for standard input and output); nil
    /// when it is not a terminal.
    package static func ask(modes: [Int], glyphs: [Unicode.Scalar], budget: Duration, fd: Int32 = STDOUT_FILENO)
        -> ProbeAnswers?
    {
        let (input, output) = fd == STDOUT_FILENO ? (STDIN_FILENO, STDOUT_FILENO) : (fd, fd)
        guard isatty(input) == 1, isatty(output) == 1 else { return nil }
        var saved = termios()
        guard tcgetattr(input, &saved) == 0 else { return nil }
        // A signal while the terminal answers: its modes back, then the signal's own ending
        // (not the Swift runtime's backtracer on Ctrl-\\).
        TerminalGuard.saveModes(fd: input)
        TerminalGuard.install(restore: "")
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        tcsetattr(input, TCSANOW, &raw)
        defer {
            tcsetattr(input, TCSAFLUSH, &saved)
            TerminalGuard.uninstall()
        }

        var question = ""
        for mode in modes { question += "\u{1B}[?\(mode)$p" }
        question += measuring(glyphs) + "\u{1B}[K\u{1B}[c"
        writeAll(Array(question.utf8), to: output)

        var received: [UInt8] = []
        var answers = ProbeAnswers()
        let clock = ContinuousClock()
        let deadline = clock.now + budget
        var buffer = [UInt8](repeating: 0, count: 1024)
        while answers.deviceAttributes == nil {
            // Past the budget, the grace: the last answer may still be on its way.
            let now = clock.now
            guard now < deadline + grace else { break }
            let left = now.duration(to: deadline + grace)
            var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(
                max(
                    1,
                    (Double(left.components.seconds) * 1000 + Double(left.components.attoseconds) / 1e15).rounded(.up)))
            guard poll(&descriptor, 1, milliseconds) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            // Answers are short: a terminal that sends more than any could is not answering.
            if received.count < 64 * 1024 { received += buffer[0..<count] }
            answers = parse(received, modes: modes, glyphs: glyphs)
        }
        writeAll(Array("\r\u{1B}[K".utf8), to: output)
        return answers
    }

    /// The answers in `bytes` (its own reader, not the input decoder's: a device attributes
    /// answer can be longer than the decoder lets any sequence be, xterm's 35 bytes): DECRPM (`ESC [ ? mode ; setting $ y`), cursor positions
    /// (`ESC [ row ; column R`, the n-th for the n-th glyph) and device attributes (`ESC [ ?
    /// … c`), each introduced by `ESC [` or the 8-bit CSI (0x9B); anything else skipped.
    /// Every answer is checked, as anything may be typed into the probe: a mode only for one
    /// asked about (in `modes`, nil: any) with a setting 0 to 4; a cursor's column from 1 to
    /// 1000 (another leaves its glyph unmeasured); device attributes of digits and semicolons,
    /// at most 100 of them.
    package static func parse(_ bytes: [UInt8], modes asked: [Int]? = nil, glyphs: [Unicode.Scalar]) -> ProbeAnswers {
        var answers = ProbeAnswers()
        var positions: [Int?] = []
        var index = 0
        while index < bytes.count {
            let start: Int
            if bytes[index] == 0x9B {
                start = index + 1
            } else if bytes[index] == 0x1B, index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "[") {
                start = index + 2
            } else {
                index += 1
                continue
            }
            var end = start
            while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) { end += 1 }
            guard end < bytes.count else { break }
            let body = String(decoding: bytes[start..<end], as: UTF8.self)
            /// The whole numbers of a `;`-separated list, each within `range`; nil if any is not.
            func numbers(_ text: Substring, _ range: ClosedRange<Int>) -> [Int]? {
                let parts = text.split(separator: ";", omittingEmptySubsequences: false)
                let values = parts.compactMap { part in
                    part.count <= 7 && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber) ? Int(part) : nil
                }
                guard values.count == parts.count, values.allSatisfy(range.contains) else { return nil }
                return values
            }
            switch bytes[end] {
            case UInt8(ascii: "y") where body.hasPrefix("?") && body.hasSuffix("$"):
                if let values = numbers(body.dropFirst().dropLast(), 0...99_999), values.count == 2,
                    (0...4).contains(values[1]), asked?.contains(values[0]) ?? true
                {
                    answers.modes[values[0]] = values[1]
                }
            case UInt8(ascii: "R"):
                let values = numbers(body[...], 1...1_000)
                positions.append(values.flatMap { $0.count == 2 ? $0[1] : nil })
            case UInt8(ascii: "c") where body.hasPrefix("?"):
                let attributes = body.dropFirst()
                if attributes.count <= 100, !attributes.isEmpty,
                    attributes.allSatisfy({ $0 == ";" || $0.isASCII && $0.isNumber })
                {
                    answers.deviceAttributes = String(attributes)
                }
            default: break
            }
            index = end + 1
        }
        for (glyph, column) in zip(glyphs, positions) {
            if let column { answers.glyphWidths[glyph] = width(cursorColumn: column) }
        }
        return answers
    }

    /// The questions that measure `glyphs`: each written at the start of the line, then the
    /// cursor's place asked for (CPR); the line's start again at the end.
    package static func measuring(_ glyphs: [Unicode.Scalar]) -> String {
        glyphs.map { "\r\($0)\u{1B}[6n" }.joined() + "\r"
    }

    /// How wide a glyph written at the start of the line is, from the (1-based) column the
    /// cursor reported after it (1 to 1,000: ``parse(_:modes:glyphs:)`` takes no other).
    package static func width(cursorColumn column: Int) -> Int { column - 1 }
}

import BallModel

// MARK: - Terminal input as events

/// A key or mouse event decoded from the bytes a terminal sends.
package enum TerminalEvent: Hashable, Sendable {
    /// A printable character or a control character (`\u{03}` for Ctrl-C).
    case character(Unicode.Scalar)
    /// An arrow key; `shifted` when Shift was held.
    case arrow(Direction, shifted: Bool)
    /// The Home key.
    case home
    /// The End key.
    case end
    /// Esc on its own.
    case escape
    /// The left button went down at a cell.
    case mousePressed(Cell)
    /// The pointer moved with the left button down since a press the decoder saw.
    case mouseDragged(Cell)
    /// The left button came up.
    case mouseReleased(Cell)
    /// The pointer moved with no button down (reported while pointer motion is on, mode 1003),
    /// however the terminal encodes that.
    case mouseMoved(Cell)
    /// The terminal's answer about one of its private modes (DECRPM, `ESC [ ? mode ; setting
    /// $ y`, to a DECRQM `ESC [ ? mode $ p`): `setting` 0 not known, 1 set, 2 reset, 3 set for
    /// good, 4 reset for good.
    case modeReported(mode: Int, setting: Int)
    /// Where the cursor is (CPR, `ESC [ row ; column R`, 1-based, to `ESC [ 6 n`): how the
    /// program measures how wide the terminal draws a glyph.
    case cursorReported(row: Int, column: Int)
}

/// Decodes the bytes a terminal sends into ``TerminalEvent``s: keys (UTF-8), arrows in normal
/// (`ESC [ A`) and application (`ESC O A`) mode with modifiers (`ESC [ 1 ; 2 A`), Home, End,
/// and the mouse in SGR 1006 form (`ESC [ < b ; col ; row M` / `m`), urxvt's 1015 form
/// (`ESC [ b ; col ; row M`) and the old X10 form (`ESC [ M b x y`).
///
/// A drag is motion while the left button is held since a press the decoder saw: the decoder
/// keeps the button's state, because a report's button bits cannot be trusted for it. urxvt
/// (9.30) reports motion with no button as "button 3 with every modifier" (code 31) before any
/// click, and as "button 1 moving" (code 32, a drag's code) after one; both are hover here.
///
/// Bytes may arrive split anywhere: an incomplete sequence waits for the next call. A lone
/// Esc is ambiguous until more bytes come or none do: the caller calls ``flushPendingEscape()``
/// after a short quiet time (`ESCDELAY`, 25 ms unless set). Esc followed by anything but `[`
/// or `O` is Esc, then what follows (Alt+key means nothing here). Anything it does not understand is skipped; no input
/// makes it trap, and what waits between calls never grows past ``maximumPendingBytes``: a
/// control sequence longer than that is dropped as it arrives, up to its final byte.
///
/// Ours rather than ncurses' `getch`, so it is tested with real byte sequences, and SGR
/// coordinates work even where the terminfo entry says X10.
package struct InputDecoder: Sendable {
    private var pending: [UInt8] = []
    /// The events of the last ``decode(_:)``, kept so the next call reuses their storage.
    private var decoded: [TerminalEvent] = []
    /// Whether the bytes coming are the rest of a control sequence too long to be one of ours.
    private var discardingSequence = false
    /// Whether the bytes coming are pasted text (bracketed paste, `ESC [ 200 ~` … `ESC [ 201 ~`):
    /// text, not keys, so a pasted `q` does not quit.
    private var inPaste = false
    private static let pasteStart: [UInt8] = Array("\u{1B}[200~".utf8)
    private static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)
    private static let longestSequence = 32
    /// Whether the left button is down: pressed, and not released since.
    private var leftButtonDown = false

    /// The most bytes that wait between calls for the rest of a sequence.
    package static let maximumPendingBytes = longestSequence + 1

    /// A decoder with nothing pending.
    package init() {}

    /// Whether bytes are waiting for the rest of a sequence (a lone Esc, say).
    package var hasPendingBytes: Bool { !pending.isEmpty }

    /// How many bytes are waiting for the rest of a sequence (at most ``maximumPendingBytes``).
    package var pendingByteCount: Int { pending.count }

    /// Decodes `bytes` (appended to anything pending) into events.
    package mutating func decode(_ bytes: [UInt8]) -> [TerminalEvent] {
        pending.append(contentsOf: bytes)
        decoded.removeAll(keepingCapacity: true)
        var index = 0
        while index < pending.count {
            if inPaste {
                // Skip to the end of the paste; keep a part of its end marker split across reads.
                guard let escape = pending[index...].firstIndex(of: 0x1B) else {
                    index = pending.count
                    break
                }
                let rest = pending[escape...]
                if rest.starts(with: Self.pasteEnd) {
                    inPaste = false
                    index = escape + Self.pasteEnd.count
                } else if Self.pasteEnd.starts(with: rest) {
                    pending.removeFirst(escape)
                    return decoded
                } else {
                    index = escape + 1
                }
                continue
            }
            if discardingSequence {
                // The rest of an overlong sequence: its parameters, then its final byte.
                let byte = pending[index]
                if (0x20...0x3F).contains(byte) {
                    index += 1
                    continue
                }
                discardingSequence = false
                if (0x40...0x7E).contains(byte) { index += 1 }
                continue
            }
            switch parse(from: index) {
            case .event(let event, let length):
                decoded.append(event)
                index += length
            case .skip(let length):
                index += length
            case .discard(let length):
                index += length
                discardingSequence = true
            case .pasteStart(let length):
                index += length
                inPaste = true
            case .incomplete:
                if pending.count - index > Self.longestSequence {
                    index += 1  // Not a sequence we know: drop its first byte and go on.
                } else {
                    pending.removeFirst(index)
                    return decoded
                }
            }
        }
        pending.removeAll(keepingCapacity: true)
        return decoded
    }

    /// Ends a wait for more bytes: a lone Esc becomes ``TerminalEvent/escape``; any other
    /// unfinished sequence is dropped.
    package mutating func flushPendingEscape() -> [TerminalEvent] {
        defer {
            pending.removeAll()
            discardingSequence = false
        }
        return pending == [0x1B] ? [.escape] : []
    }

    // MARK: - Parsing

    private enum Parse {
        case event(TerminalEvent, length: Int)
        case skip(length: Int)
        /// Skip these bytes, and the rest of the sequence as it arrives.
        case discard(length: Int)
        /// `ESC [ 200 ~`: what follows is pasted text, up to `ESC [ 201 ~`.
        case pasteStart(length: Int)
        case incomplete
    }

    private func byte(_ index: Int) -> UInt8? { index < pending.count ? pending[index] : nil }

    private mutating func parse(from start: Int) -> Parse {
        let first = pending[start]
        guard first == 0x1B else { return parseCharacter(from: start) }
        guard let second = byte(start + 1) else { return .incomplete }
        switch second {
        case UInt8(ascii: "["): return parseCSI(from: start)
        case UInt8(ascii: "O"):
            guard let final = byte(start + 2) else { return .incomplete }
            if let event = Self.cursorKey(final, shifted: false) { return .event(event, length: 3) }
            return .skip(length: 3)
        default:
            // Esc pressed twice, or Esc then a key: the program binds nothing with Alt, so this
            // is Esc, then the key. GNU screen sends Esc so, held until the next key comes.
            return .event(.escape, length: 1)
        }
    }

    private func parseCharacter(from start: Int) -> Parse {
        let first = pending[start]
        let length: Int
        switch first {
        case 0x00..<0x80: return .event(.character(Unicode.Scalar(first)), length: 1)
        case 0xC2..<0xE0: length = 2
        case 0xE0..<0xF0: length = 3
        case 0xF0..<0xF5: length = 4
        default: return .skip(length: 1)
        }
        guard start + length <= pending.count else {
            // Wait for the rest, unless what came is already not a continuation byte.
            for index in (start + 1)..<pending.count where pending[index] & 0xC0 != 0x80 { return .skip(length: 1) }
            return .incomplete
        }
        var value = UInt32(first) & (0xFF >> (length + 1))
        for index in (start + 1)..<(start + length) {
            let byte = pending[index]
            guard byte & 0xC0 == 0x80 else { return .skip(length: 1) }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard let scalar = Unicode.Scalar(value) else { return .skip(length: length) }
        return .event(.character(scalar), length: length)
    }

    /// `ESC [` ...: arrows, Home, SGR mouse, X10 mouse, and anything else skipped whole.
    private mutating func parseCSI(from start: Int) -> Parse {
        guard let third = byte(start + 2) else { return .incomplete }
        if third == UInt8(ascii: "M") {
            // X10 mouse: three bytes, each offset by 32.
            guard let button = byte(start + 3), let x = byte(start + 4),
                let y = byte(start + 5)
            else { return .incomplete }
            let cell = Cell(column: Int(x) - 33, row: Int(y) - 33)
            guard cell.column >= 0, cell.row >= 0 else { return .skip(length: 6) }
            return mouseEvent(code: Int(button) - 32, cell: cell, encoding: .x10).map { .event($0, length: 6) }
                ?? .skip(length: 6)
        }
        // Parameters and intermediates, then a final byte in 0x40...0x7E.
        var index = start + 2
        while let byte = byte(index) {
            if (0x40...0x7E).contains(byte) {
                let parameters = pending[(start + 2)..<index]
                let length = index - start + 1
                if byte == UInt8(ascii: "~"), parameters.elementsEqual(Self.pasteStart[2..<5]) {
                    return .pasteStart(length: length)
                }
                return csiEvent(parameters: parameters, final: byte).map { .event($0, length: length) }
                    ?? .skip(length: length)
            }
            guard (0x20...0x3F).contains(byte) else { return .skip(length: index - start) }
            index += 1
            if index - start > Self.longestSequence { return .discard(length: index - start) }
        }
        return .incomplete
    }

    private mutating func csiEvent(parameters: ArraySlice<UInt8>, final: UInt8) -> TerminalEvent? {
        if parameters.first == UInt8(ascii: "<") {
            // SGR mouse: < button ; column ; row, M for press or motion, m for release.
            guard final == UInt8(ascii: "M") || final == UInt8(ascii: "m") else { return nil }
            let numbers = Self.numbers(in: parameters.dropFirst())
            guard numbers.count == 3, let code = numbers[0], let column = numbers[1], let row = numbers[2],
                column >= 1, row >= 1
            else { return nil }
            return mouseEvent(
                code: code, cell: Cell(column: column - 1, row: row - 1),
                encoding: final == UInt8(ascii: "m") ? .sgrRelease : .sgr)
        }
        if parameters.first == UInt8(ascii: "?"), parameters.last == UInt8(ascii: "$"), final == UInt8(ascii: "y") {
            // DECRPM: ? mode ; setting $ y.
            let numbers = Self.numbers(in: parameters.dropFirst().dropLast())
            guard numbers.count == 2, let mode = numbers[0], let setting = numbers[1] else { return nil }
            return .modeReported(mode: mode, setting: setting)
        }
        let numbers = Self.numbers(in: parameters)
        switch final {
        case UInt8(ascii: "M"):
            // urxvt's 1015 mouse: button + 32 ; column ; row, in decimal.
            guard numbers.count == 3, let code = numbers[0], let column = numbers[1], let row = numbers[2],
                code >= 32, column >= 1, row >= 1
            else { return nil }
            return mouseEvent(code: code - 32, cell: Cell(column: column - 1, row: row - 1), encoding: .x10)
        case UInt8(ascii: "A"), UInt8(ascii: "B"), UInt8(ascii: "C"), UInt8(ascii: "D"), UInt8(ascii: "H"),
            UInt8(ascii: "F"):
            // ESC [ A, or ESC [ 1 ; modifier A; modifier 2 (and any with Shift's bit) is Shift.
            let modifier = numbers.count >= 2 ? (numbers[1] ?? 1) : 1
            return Self.cursorKey(final, shifted: (modifier - 1) & 1 == 1)
        case UInt8(ascii: "R"):
            // CPR: row ; column.
            guard numbers.count == 2, let row = numbers[0], let column = numbers[1] else { return nil }
            return .cursorReported(row: row, column: column)
        case UInt8(ascii: "~"):
            switch numbers.first {
            case 1, 7: return .home
            case 4, 8: return .end
            default: return nil
            }
        default:
            return nil
        }
    }

    private static func cursorKey(_ final: UInt8, shifted: Bool) -> TerminalEvent? {
        switch final {
        case UInt8(ascii: "A"): .arrow(.up, shifted: shifted)
        case UInt8(ascii: "B"): .arrow(.down, shifted: shifted)
        case UInt8(ascii: "C"): .arrow(.right, shifted: shifted)
        case UInt8(ascii: "D"): .arrow(.left, shifted: shifted)
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        default: nil
        }
    }

    /// How a mouse report says which button: X10 and urxvt's 1015 send button bits 3 for "a
    /// button came up" (which one unsaid); SGR sends the button and `M` or `m`.
    private enum MouseEncoding {
        case x10, sgr, sgrRelease
    }

    /// A left-button event from a mouse button code (modifier bits ignored), the button's state
    /// kept; nil for other buttons and the wheel.
    private mutating func mouseEvent(code: Int, cell: Cell, encoding: MouseEncoding) -> TerminalEvent? {
        let button = code & 0b11
        let motion = code & 32 != 0
        let wheelOrExtra = code & 64 != 0 || code & 128 != 0
        guard !wheelOrExtra else { return nil }
        if motion {
            // Motion: a drag only while the left button is down (urxvt says "button 1" for any).
            return button == 0 && leftButtonDown
                ? .mouseDragged(cell) : button == 3 || button == 0 ? .mouseMoved(cell) : nil
        }
        switch encoding {
        case .sgrRelease:
            guard button == 0 else { return nil }
        case .x10 where button == 3:
            // "A button came up", or urxvt's motion with no button before any click (code 31).
            guard leftButtonDown else { return .mouseMoved(cell) }
        case .sgr where button == 3:
            return .mouseMoved(cell)  // urxvt's motion with no button (31), in SGR form.
        case .x10, .sgr:
            guard button == 0 else { return nil }
            leftButtonDown = true
            return .mousePressed(cell)
        }
        leftButtonDown = false
        return .mouseReleased(cell)
    }

    /// The `;`-separated decimal numbers of a control sequence: nil for an empty or malformed
    /// one, capped at six digits so nothing overflows, read in place (no arrays on the way
    /// from a mouse report to its event).
    private static func numbers(in bytes: ArraySlice<UInt8>) -> Parameters {
        var parameters = Parameters()
        var value: Int? = 0
        var digits = 0
        for byte in bytes {
            if byte == UInt8(ascii: ";") {
                parameters.append(digits == 0 ? nil : value)
                (value, digits) = (0, 0)
            } else if (0x30...0x39).contains(byte), digits < 6 {
                value = value.map { $0 * 10 + Int(byte - 0x30) }
                digits += 1
            } else {
                (value, digits) = (nil, 7)  // Not a number (or too long): nil, whatever follows.
            }
        }
        parameters.append(digits == 0 ? nil : value)
        return parameters
    }
}

/// Up to four numeric parameters of a control sequence, kept inline (more count as too many).
private struct Parameters {
    private var values: (Int?, Int?, Int?, Int?) = (nil, nil, nil, nil)
    /// How many there were (5 or more: too many to keep).
    private(set) var count = 0

    mutating func append(_ value: Int?) {
        switch count {
        case 0: values.0 = value
        case 1: values.1 = value
        case 2: values.2 = value
        case 3: values.3 = value
        default: break
        }
        count += 1
    }

    /// The parameter at `index` (nil when absent or not a number).
    subscript(index: Int) -> Int? {
        switch index {
        case 0: values.0
        case 1: values.1
        case 2: values.2
        case 3: values.3
        default: nil
        }
    }

    /// The first parameter.
    var first: Int? { count > 0 ? values.0 : nil }
}

import BallModel
import BallProgram
import BallRendering
import ColourCore
import TerminalIO

// MARK: - An in-memory terminal and a manual clock, for driving the real run loop

/// A clock that moves only when told (the in-memory terminal moves it as scripted time passes).
package final class ManualClock: LoopClock {
    /// The time now.
    package private(set) var now: Duration = .zero

    /// A clock at zero.
    package init() {}

    /// Moves the clock on by `duration`.
    package func advance(by duration: Duration) { now += duration }
}

/// A terminal in memory, for tests: what the user does is a script of steps (bytes, a resize,
/// time passing, Ctrl-Z from outside, a hang-up) that the run loop reads as it waits; the frames
/// it is shown and the modes it is put in are kept for the test to read. When the script runs
/// out it says so (``TerminalWakeup/noMoreInput``), and the loop returns.
///
/// Time passes only where the script says so: a wait with a timeout inside a scripted pause
/// moves the ``ManualClock`` to the timeout's end and reports the timeout, so the loop's Esc
/// wait and a replay's timing run exactly, with no sleeping.
package final class MemoryTerminal: TerminalDevice {
    /// One thing the user (or the system) does.
    package enum Step: Hashable, Sendable {
        /// The terminal sends these bytes (keys, mouse reports, a paste).
        case bytes([UInt8])
        /// The window becomes this size.
        case resize(ScreenSize)
        /// This much time passes with nothing sent.
        case pass(Duration)
        /// SIGTSTP arrives from outside, and the program stays stopped this long before `fg`.
        case suspend(for: Duration)
        /// The terminal goes away.
        case hangUp
    }

    /// The clock the run loop reads.
    package let clock = ManualClock()
    /// The window's size.
    package private(set) var size: ScreenSize
    /// How frames are shown.
    package let colourDepth: ColourDepth
    /// The last frame shown.
    package private(set) var frame: Frame?
    /// How many frames were shown.
    package private(set) var presentCount = 0
    /// The modes the terminal is in.
    package private(set) var modes = TerminalModes()
    /// Every change of modes, in order.
    package private(set) var modeChanges: [TerminalModes] = []
    /// Every wait the loop made, with its timeout (nil: for ever), in order.
    package private(set) var waits: [Duration?] = []
    /// How many times the terminal was handed back to the shell.
    package private(set) var suspensions = 0
    private var script: [Step] = []
    private var next = 0

    /// A terminal of `size` that shows colours as one of `depth` does.
    package init(size: ScreenSize, depth: ColourDepth = .direct) {
        self.size = size
        colourDepth = depth
    }

    /// Adds `steps` to the script.
    package func queue(_ steps: [Step]) {
        script.append(contentsOf: steps)
    }

    package func wait(timeout: Duration?) -> TerminalWakeup? {
        waits.append(timeout)
        while next < script.count {
            let step = script[next]
            switch step {
            case .pass(let duration):
                if let timeout, timeout <= duration {
                    clock.advance(by: timeout)
                    script[next] = .pass(duration - timeout)
                    if duration == timeout { next += 1 }
                    return nil
                }
                clock.advance(by: duration)
                next += 1
            case .bytes(let bytes):
                next += 1
                return .input(bytes)
            case .resize(let size):
                self.size = size
                next += 1
                return .resized
            case .suspend(let duration):
                next += 1
                stoppedFor = duration
                return .suspendRequested
            case .hangUp:
                next += 1
                return .hangUp
            }
        }
        return .noMoreInput
    }

    /// Every frame shown, in order, when ``keepsFrames`` is set.
    package private(set) var history: [Frame] = []
    /// When each frame in ``history`` was shown, on the clock.
    package private(set) var historyTimes: [Duration] = []
    /// Whether every frame is kept in ``history``.
    package var keepsFrames = false

    /// Called with each frame as it is shown (a test that looks at every frame).
    package var presented: ((Frame) -> Void)?

    package func present(_ frame: Frame, previous: Frame?) {
        self.frame = frame
        presentCount += 1
        presented?(frame)
        if keepsFrames {
            history.append(frame)
            historyTimes.append(clock.now)
        }
    }

    package func apply(_ modes: TerminalModes) {
        guard modes != self.modes else { return }
        self.modes = modes
        modeChanges.append(modes)
    }

    /// What the terminal answered about its modes, in order (mode, setting).
    package private(set) var modeReports: [(mode: Int, setting: Int)] = []

    package func modeReported(_ mode: Int, setting: Int) {
        modeReports.append((mode, setting))
    }

    /// The glyphs the next cursor report says are wide (as a terminal that drew them two cells
    /// wide would, once all its answers are in).
    package var wideGlyphsOnNextReport: [Unicode.Scalar] = []

    package func cursorReported(row: Int, column: Int) -> [Unicode.Scalar] {
        defer { wideGlyphsOnNextReport = [] }
        return wideGlyphsOnNextReport
    }

    /// How long the next suspension lasts.
    private var stoppedFor = Duration.zero

    package func suspend() {
        suspensions += 1
        clock.advance(by: stoppedFor)
        stoppedFor = .zero
    }
}

// MARK: - What a terminal sends

/// The bytes an xterm sends for a key or a mouse event (SGR mouse reports, 1-based), written
/// from xterm's control sequences, not from the program's decoder.
package enum TerminalBytes {
    /// A character typed (UTF-8).
    package static func key(_ character: Unicode.Scalar) -> [UInt8] { Array(String(character).utf8) }

    /// An arrow key, with Shift when `shifted` (`ESC [ 1 ; 2 C`).
    package static func arrow(_ direction: Direction, shifted: Bool = false) -> [UInt8] {
        let final: String =
            switch direction {
            case .up: "A"
            case .down: "B"
            case .right: "C"
            case .left: "D"
            }
        return Array("\u{1B}[\(shifted ? "1;2" : "")\(final)".utf8)
    }

    /// Home (`ESC [ H`) and End (`ESC [ F`).
    package static let home = Array("\u{1B}[H".utf8)
    /// End.
    package static let end = Array("\u{1B}[F".utf8)
    /// Esc on its own.
    package static let escape: [UInt8] = [0x1B]

    /// The left button going down at `cell`.
    package static func press(_ cell: Cell) -> [UInt8] { mouse(0, cell, final: "M") }
    /// The pointer moving to `cell` with the left button down.
    package static func drag(_ cell: Cell) -> [UInt8] { mouse(32, cell, final: "M") }
    /// The left button coming up at `cell`.
    package static func release(_ cell: Cell) -> [UInt8] { mouse(0, cell, final: "m") }
    /// The pointer moving to `cell` with no button down (reported in mode 1003).
    package static func move(_ cell: Cell) -> [UInt8] { mouse(35, cell, final: "M") }

    private static func mouse(_ button: Int, _ cell: Cell, final: String) -> [UInt8] {
        Array("\u{1B}[<\(button);\(cell.column + 1);\(cell.row + 1)\(final)".utf8)
    }

    /// The bytes for `event`, as a terminal sends it.
    package static func bytes(for event: TerminalEvent) -> [UInt8] {
        switch event {
        case .character(let character): key(character)
        case .arrow(let direction, let shifted): arrow(direction, shifted: shifted)
        case .home: home
        case .end: end
        case .escape: escape
        case .mousePressed(let cell): press(cell)
        case .mouseDragged(let cell): drag(cell)
        case .mouseReleased(let cell): release(cell)
        case .mouseMoved(let cell): move(cell)
        case .modeReported(let mode, let setting): modeReport(mode, setting: setting)
        case .cursorReported(let row, let column): Array("\u{1B}[\(row);\(column)R".utf8)
        }
    }

    /// A terminal's answer about one of its modes (DECRPM): `ESC [ ? mode ; setting $ y`.
    package static func modeReport(_ mode: Int, setting: Int) -> [UInt8] {
        Array("\u{1B}[?\(mode);\(setting)$y".utf8)
    }
}

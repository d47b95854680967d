import BallModel
import BallRendering

// MARK: - What the run loop talks to

/// What woke the run loop.
package enum TerminalWakeup: Hashable, Sendable {
    /// Bytes from the terminal (keys, mouse reports, a paste), as many as were waiting.
    case input([UInt8])
    /// The window changed size.
    case resized
    /// Ctrl-Z, or SIGTSTP from outside: hand the terminal to the shell.
    case suspendRequested
    /// The terminal went away.
    case hangUp
    /// Nothing will ever come again (an in-memory terminal whose script ran out): the loop
    /// returns. A real terminal never says so.
    case noMoreInput
}

/// The terminal, as the run loop sees it: bytes in (``wait(timeout:)``), frames out (it is the
/// ``FrameSink``), its size, its modes and suspending. The ncurses terminal is one; the tests'
/// in-memory terminal is another.
package protocol TerminalDevice: FrameSink {
    /// The terminal's size now.
    var size: ScreenSize { get }
    /// Blocks until something happens, or until `timeout` passes (nil: for ever); nil when it
    /// passed. An idle program waits for ever: no timers, no wake-ups.
    func wait(timeout: Duration?) -> TerminalWakeup?
    /// Puts the terminal in `modes` (sends only what changed).
    func apply(_ modes: TerminalModes)
    /// Hands the terminal back to the shell until the program is continued (`fg`); the next
    /// frame is then drawn whole.
    func suspend()
    /// The terminal answered a question about one of its modes (``TerminalEvent/modeReported(mode:setting:)``):
    /// synchronized output (2026), asked about with the first frame.
    func modeReported(_ mode: Int, setting: Int)
    /// The terminal said where its cursor is, answering the device's own question (it measures
    /// the glyphs' widths with the first frame); the glyphs it found drawn wider than one cell,
    /// once the last answer is in (else none).
    func cursorReported(row: Int, column: Int) -> [Unicode.Scalar]
}

/// The run loop's clock: the time since some start, never going back.
package protocol LoopClock: AnyObject {
    /// The time now.
    var now: Duration { get }
}

/// The system's monotonic clock (`ContinuousClock`), from when it was made.
package final class SystemClock: LoopClock {
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant

    /// A clock that starts now.
    package init() { start = clock.now }

    /// The time since the clock was made.
    package var now: Duration { start.duration(to: clock.now) }
}

import BallModel
import BallRendering
import TerminalIO

// MARK: - The one run loop

/// What the run loop runs: a live session (play) or a recording being watched (replay).
///
/// The loop owns the terminal's side of things: waiting, decoding, Ctrl-Z, window changes.
/// A program says what its keys do (``keyMode``) and reacts to what happened.
protocol TerminalProgram: AnyObject {
    /// The mode whose keys the key map looks up.
    var keyMode: KeyMode { get }
    /// Whether the program is done (the loop returns).
    var isFinished: Bool { get }
    /// When to wake without input (nil: only input wakes the program).
    var deadline: ContinuousClock.Instant? { get }
    /// The deadline came.
    func deadlineReached() throws
    /// A key or the mouse did `action` (anything but ``KeyAction/suspend``, which the loop does).
    func perform(_ action: KeyAction)
    /// The terminal is now `size`.
    func resized(to size: ScreenSize)
    /// The terminal went away.
    func hungUp()
    /// The program was stopped (Ctrl-Z) for `duration` and goes on now.
    func resumed(after duration: Duration)
}

/// Joins the terminal to a program: blocks until input, a signal or the program's deadline,
/// decodes everything waiting into key-map actions, lets the program act on each, then
/// flushes the binding once, so a burst of drag events becomes one frame. No timers: an idle
/// program without a deadline makes no wake-ups.
final class TerminalRunLoop {
    private let screen: NcursesScreen
    private let binding: ScreenBinding
    private let input = TerminalInput()
    private let clock = ContinuousClock()
    /// How long a lone Esc waits for the rest of a sequence.
    private static let escapeWait: Int32 = 25

    /// A loop drawing `binding`'s frames on `screen`.
    init(screen: NcursesScreen, binding: ScreenBinding) {
        self.screen = screen
        self.binding = binding
    }

    /// Runs `program` until it is finished; the first frame is drawn at once.
    func run(_ program: TerminalProgram) throws {
        // A local, not a property: mutating it then needs no run-time exclusivity check.
        var decoder = InputDecoder()
        binding.flush()
        screen.reportPointerMotion(binding.streamsPanel == true)
        while !program.isFinished {
            guard let wakeup = input.wait(timeout: timeout(for: program, escapePending: decoder.hasPendingBytes)) else {
                for event in decoder.flushPendingEscape() { handle(event, program) }
                if let deadline = program.deadline, clock.now >= deadline - .microseconds(500) {
                    try program.deadlineReached()
                }
                binding.flush()
                screen.reportPointerMotion(binding.streamsPanel == true)
                continue
            }
            switch wakeup {
            case .input(let bytes):
                for event in decoder.decode(bytes) {
                    handle(event, program)
                    if program.isFinished { break }
                }
            case .suspendRequested:
                suspend(program)
            case .resized:
                let size = screen.size
                screen.resize(to: size)
                program.resized(to: size)
                // The terminal may have lost what it showed: draw it again if nothing changed.
                if !binding.needsFlush { binding.redraw() }
            case .hangUp:
                program.hungUp()
            }
            binding.flush()
            screen.reportPointerMotion(binding.streamsPanel == true)
        }
    }

    /// Milliseconds to wait: until a lone Esc counts (when one is pending), or the program's
    /// deadline; -1: for ever.
    private func timeout(for program: TerminalProgram, escapePending: Bool) -> Int32 {
        var timeout: Int32 = escapePending ? Self.escapeWait : -1
        if let deadline = program.deadline {
            let milliseconds = max(0, (clock.now.duration(to: deadline).seconds * 1000).rounded(.up))
            let wait = Int32(min(milliseconds, Double(Int32.max)))
            timeout = timeout < 0 ? wait : min(timeout, wait)
        }
        return timeout
    }

    private func handle(_ event: TerminalEvent, _ program: TerminalProgram) {
        if binding.help != nil {
            // Any key (or a click) closes the help, and does nothing else.
            switch event {
            case .mouseDragged, .mouseReleased, .mouseMoved: return
            default:
                binding.help = nil
                return
            }
        }
        switch KeyMap.action(for: event, in: program.keyMode) {
        case .suspend?: suspend(program)
        case .showHelp?: binding.help = KeyMap.help(for: program.keyMode)
        case .subscribeLate(let kind)? where binding.streams != nil: binding.streams?.subscribeLate(kind)
        case .hover(let cell)?: binding.hover(at: cell)
        case let action?: program.perform(action)
        case nil: break
        }
    }

    /// Gives the terminal to the shell until `fg`, then draws the screen again.
    private func suspend(_ program: TerminalProgram) {
        let stopped = clock.now
        screen.suspend()
        binding.redraw()
        program.resumed(after: stopped.duration(to: clock.now))
    }
}

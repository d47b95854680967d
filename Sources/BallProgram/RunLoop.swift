import BallModel
import BallRendering
import BallReplay
import TerminalIO

// MARK: - The one run loop

/// What the run loop runs: a live session (play) or a recording being watched (replay).
///
/// The loop owns the terminal's side of things: waiting, decoding, Esc, Ctrl-Z, window changes
/// and the help box. A program says what its keys do (``keyMode``) and reacts to what happened;
/// its ``binding`` holds the screen the loop flushes.
package protocol TerminalProgram: AnyObject {
    /// The mode whose keys the key map looks up.
    var keyMode: KeyMode { get }
    /// The binding that draws the program's screen.
    var binding: ScreenBinding { get }
    /// Whether the program is done (the loop returns).
    var isFinished: Bool { get }
    /// When to wake without input, on the loop's clock (nil: only input wakes the program).
    var deadline: Duration? { get }
    /// The deadline came (`now`, on the loop's clock).
    func deadlineReached(now: Duration) throws
    /// The loop woke at `now`, on its clock, before it handles what woke it: a live session's
    /// clock moves on with it.
    func clockReached(_ now: Duration)
    /// A key or the mouse did `action` at `now` (anything but suspending, the help box and the
    /// pointer's hover, which the loop does).
    func perform(_ action: KeyAction, now: Duration)
    /// The terminal is now `size`.
    func resized(to size: ScreenSize)
    /// The terminal went away.
    func hungUp()
    /// The program was stopped (Ctrl-Z) for `duration` and goes on now.
    func resumed(after duration: Duration)
    /// About to draw: puts what changed into the binding.
    func willFlush()
    /// The legend's symbols and the keys the help box says in neutral words (`learn`: until the
    /// lessons they would answer are done; the player of a tour: before them).
    var legendUntold: Set<String> { get }
}

extension TerminalProgram {
    package var legendUntold: Set<String> { [] }
}

/// Joins a terminal to a program: blocks until input, a signal or the program's deadline,
/// decodes everything waiting into key-map actions, lets the program act on each, then
/// flushes the binding once, so a burst of drag events becomes one frame, and sets the
/// terminal's modes as the screen asks. No timers: an idle program without a deadline makes no
/// wake-ups; while the ball glides, the loop wakes for each of its frames, and no more once it
/// ends.
///
/// It talks to a ``TerminalDevice`` and a ``LoopClock`` only, so tests drive it with an
/// in-memory terminal and a manual clock.
package final class RunLoop {
    private let device: TerminalDevice
    private let clock: LoopClock
    /// Bytes of a sequence still waiting for the rest, kept between runs.
    private var decoder = InputDecoder()
    /// How long a lone Esc waits for the rest of a sequence.
    private let escapeWait: Duration
    /// How long a lone Esc waits unless `ESCDELAY` says otherwise.
    package static let defaultEscapeWait = Duration.milliseconds(25)

    /// A loop between `device` and a program, on `clock`; a lone Esc counts after `escapeWait`.
    package init(device: TerminalDevice, clock: LoopClock, escapeWait: Duration = defaultEscapeWait) {
        self.device = device
        self.clock = clock
        self.escapeWait = escapeWait
    }

    /// How long a lone Esc waits, from `ESCDELAY` as ncurses reads it (milliseconds, a whole
    /// number; at most 10 s here): ``defaultEscapeWait`` when it is unset or not a number.
    package static func escapeWait(escapeDelay: String?) -> Duration {
        guard let escapeDelay, let milliseconds = Int(escapeDelay), milliseconds >= 0 else { return defaultEscapeWait }
        return .milliseconds(min(milliseconds, 10_000))
    }

    /// Runs `program` until it is finished (or the device says nothing more will come); the
    /// first frame is drawn at once.
    package func run(_ program: TerminalProgram) throws {
        // A local while running: mutating it then needs no run-time exclusivity check.
        var decoder = self.decoder
        defer { self.decoder = decoder }
        present(program)
        while !program.isFinished {
            let wakeup = device.wait(timeout: timeout(for: program, escapePending: decoder.hasPendingBytes))
            program.clockReached(clock.now)
            switch wakeup {
            case nil:
                for event in decoder.flushPendingEscape() { handle(event, program) }
                if let deadline = program.deadline, clock.now >= deadline - .microseconds(500) {
                    try program.deadlineReached(now: clock.now)
                }
            case .input(let bytes)?:
                for event in decoder.decode(bytes) {
                    handle(event, program)
                    if program.isFinished { break }
                }
            case .suspendRequested?:
                suspend(program)
            case .resized?:
                program.resized(to: device.size)
                // The terminal may have lost what it showed: draw it again if nothing changed.
                if !program.binding.needsFlush { program.binding.redraw() }
            case .hangUp?:
                program.hungUp()
            case .noMoreInput?:
                return
            }
            present(program)
        }
    }

    /// Draws what changed, then puts the terminal in the modes the screen asks for.
    private func present(_ program: TerminalProgram) {
        program.willFlush()
        program.binding.flush(now: clock.now)
        device.apply(program.binding.model.modes)
    }

    /// How long to wait: until a lone Esc counts (when one is pending), the program's
    /// deadline, or the next frame of a glide; nil: for ever.
    private func timeout(for program: TerminalProgram, escapePending: Bool) -> Duration? {
        var timeout: Duration? = escapePending ? escapeWait : nil
        for deadline in [program.deadline, program.binding.nextFrameDue].compactMap({ $0 }) {
            let wait = max(.zero, deadline - clock.now)
            timeout = timeout.map { min($0, wait) } ?? wait
        }
        return timeout
    }

    private func handle(_ event: TerminalEvent, _ program: TerminalProgram) {
        let binding = program.binding
        switch event {
        case .modeReported(let mode, let setting):
            // Answers to the terminal device's own questions: not input.
            device.modeReported(mode, setting: setting)
            return
        case .cursorReported(let row, let column):
            let wide = device.cursorReported(row: row, column: column)
            if !wide.isEmpty { binding.send(.wideGlyphsFound(wide)) }
            return
        default: break
        }
        if let help = binding.model.help {
            // Space turns to the next page where there is one; in a box whose rows are choices,
            // a key that picks (a digit, Enter after one, `a` for startWith) picks one; a quit
            // key (not Esc) quits from here too; any other key (or a click) closes the help,
            // and does nothing else.
            let action = event == .escape ? nil : KeyMap.action(for: event, in: program.keyMode)
            switch event {
            case .mouseDragged, .mouseReleased, .mouseMoved: return
            case _ where action?.quits == true:
                binding.send(.helpClosed)
                program.perform(action!, now: clock.now)
                return
            case .character(" ") where help.page + 1 < binding.helpPageCount:
                binding.send(.helpPageTurned)
                return
            case _ where help.choosable:
                // The program is told what the key picks, and closes the box; a key that picks
                // nothing closes it.
                if let action, action.picksInABox {
                    program.perform(action, now: clock.now)
                } else {
                    binding.send(.helpClosed)
                }
                return
            default:
                binding.send(.helpClosed)
                return
            }
        }
        switch KeyMap.action(for: event, in: program.keyMode) {
        case .suspend?: suspend(program)
        case .showHelp?:
            // With the streams panel open, the lanes' symbols follow the keys.
            let model = binding.model
            binding.send(
                .helpOpened(
                    KeyMap.help(
                        for: program.keyMode, legend: model.panel != nil || program.keyMode == .learn,
                        ascii: model.asciiMarbles, untold: program.legendUntold)))
        case .hover(let cell)?: binding.pointerMoved(to: cell)
        // The panel's axis is how it is looked at, the same in every program: the screen's.
        case .toggleTimeAxis?: binding.send(.panelAxisChanged(binding.model.panelAxis.toggled()))
        case .zoomTime(let finer)?: binding.send(.panelAxisChanged(binding.model.panelAxis.zoomed(finer: finer)))
        case let action?: program.perform(action, now: clock.now)
        case nil: break
        }
    }

    /// Gives the terminal to the shell until `fg`, then draws the screen again.
    private func suspend(_ program: TerminalProgram) {
        let stopped = clock.now
        device.suspend()
        program.binding.redraw()
        program.resumed(after: clock.now - stopped)
    }
}

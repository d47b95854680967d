import BallModel
import BallPlayer
import BallProgram
import BallRendering
import BallReplay
import BallStreams
import ColourCore
import TerminalIO
import Testing

// MARK: - The pilot

/// Drives a program of the terminal (play, the tour, a replay) without a terminal, as a user
/// would: type, press, drag, resize, let time pass; then read the lines and the frame.
///
/// Every action is the bytes a terminal sends (or a resize, or time passing), read by the real
/// run loop from an in-memory terminal on its manual clock: decoder → key map → the program →
/// what it drives → binding → renderer → the terminal's frame. Each action is one wake-up,
/// flushed as the loop flushes a burst. An error the loop throws is recorded as the running
/// test's failure, never dropped.
package final class Pilot<Program: TerminalProgram> {
    /// The program the loop runs.
    package let program: Program
    /// The in-memory terminal the loop reads and draws on.
    package let terminal: MemoryTerminal
    /// The recording a replay plays (empty for the other programs).
    package let recording: [UInt8]
    /// The lessons the tour reported done, in order (empty for the other programs).
    package fileprivate(set) var completed: [Int] = []
    private let loop: RunLoop

    /// A pilot of `program`, drawing on `terminal`; a lone Esc counts after `escapeWait`. The
    /// first frame is drawn at once.
    package init(
        _ program: Program, on terminal: MemoryTerminal, recording: [UInt8] = [],
        escapeWait: Duration = RunLoop.defaultEscapeWait
    ) {
        self.program = program
        self.terminal = terminal
        self.recording = recording
        loop = RunLoop(device: terminal, clock: terminal.clock, escapeWait: escapeWait)
        run([])
    }

    /// Runs the loop over `steps` until they are done (or the program is finished); an error
    /// the loop throws fails the test at `location`.
    package func run(_ steps: [MemoryTerminal.Step], sourceLocation location: SourceLocation = #_sourceLocation) {
        terminal.queue(steps)
        do {
            try loop.run(program)
        } catch {
            Issue.record(error, "the run loop threw", sourceLocation: location)
        }
    }

    /// The terminal's size.
    package var size: ScreenSize { terminal.size }
    /// The frame on screen now.
    package var frame: Frame { terminal.frame! }
    /// The frame's rows as text.
    package var lines: [String] { frame.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

    /// Types a character key, such as `"c"` or `"q"`.
    package func type(_ character: Unicode.Scalar) { run([.bytes(TerminalBytes.key(character))]) }

    /// Presses an arrow key (with Shift when `shifted`).
    package func press(_ direction: Direction, shifted: Bool = false) {
        run([.bytes(TerminalBytes.arrow(direction, shifted: shifted))])
    }

    /// What `event` is, sent as its bytes in one wake-up (a lone Esc, then the wait that makes
    /// it count).
    package func press(_ event: TerminalEvent) {
        var steps: [MemoryTerminal.Step] = [.bytes(TerminalBytes.bytes(for: event))]
        if event == .escape { steps.append(.pass(RunLoop.defaultEscapeWait)) }
        run(steps)
    }

    /// Moves the pointer over `cell` with no button down.
    package func hover(at cell: Cell) { run([.bytes(TerminalBytes.move(cell))]) }

    /// Presses the button at `from`, drags through every cell on a straight line to `to`,
    /// and releases there: one report a wake-up.
    package func drag(from start: Cell, to end: Cell) {
        let count = max(abs(end.column - start.column), abs(end.row - start.row))
        let cells =
            [start]
            + stride(from: 1, through: count, by: 1).map { step in
                Cell(
                    column: start.column + (end.column - start.column) * step / count,
                    row: start.row + (end.row - start.row) * step / count)
            }
        drag(through: cells)
    }

    /// Presses the button on the first of `cells`, drags through the rest, and releases on the
    /// last: one report a wake-up.
    package func drag(through cells: [Cell]) {
        guard let first = cells.first, let last = cells.last else { return }
        run(
            [.bytes(TerminalBytes.press(first))] + cells.dropFirst().map { .bytes(TerminalBytes.drag($0)) }
                + [.bytes(TerminalBytes.release(last))])
    }

    /// Resizes the terminal.
    package func resize(columns: Int, rows: Int) { run([.resize(ScreenSize(columns: columns, rows: rows))]) }

    /// Lets `duration` pass with nothing sent: the program's timers go off as they come due.
    package func pass(_ duration: Duration) { run([.pass(duration)]) }

    /// Lets time pass with nothing sent until the loop's clock reads `seconds` (nothing, if it
    /// already does).
    package func passTime(to seconds: Double) {
        let target = Duration.microseconds(SessionTime(seconds: seconds).microseconds)
        if target > terminal.clock.now { pass(target - terminal.clock.now) }
    }

    /// Sends raw terminal bytes, then lets the loop's Esc wait pass (a lone Esc counts).
    package func input(_ bytes: [UInt8]) { run([.bytes(bytes), .pass(RunLoop.defaultEscapeWait)]) }
}

// MARK: - Play

extension Pilot where Program == Play {
    /// A pilot of play with the ball in the middle of a `screen`-sized terminal that shows
    /// colours as one of `depth` does; a lone Esc counts after `escapeWait`; `animated`: jumps
    /// glide (the frames of a glide come as time passes: ``pass(_:)``).
    package convenience init(
        screen size: ScreenSize = ScreenSize(columns: 80, rows: 24), depth: ColourDepth = .direct,
        escapeWait: Duration = RunLoop.defaultEscapeWait, animated: Bool = false
    ) {
        let terminal = MemoryTerminal(size: size, depth: depth)
        self.init(Play(screen: terminal, terminal: size, animated: animated), on: terminal, escapeWait: escapeWait)
    }

    /// The play program.
    package var play: Play { program }
    /// The session being driven.
    package var session: BallSession { program.session }
    /// The streams, recorded from the start as in the terminal.
    package var streams: StreamRecorder { program.streams }
    /// The derived state now.
    package var appearance: Appearance { session.viewModel.current }

    /// Opens or closes the streams panel (`s`).
    package func toggleStreams() { type("s") }

    /// Subscribes a late subscriber of `kind` (or unsubscribes it) with its key, as the README
    /// names them: `b`, `p`, `r`, `v`.
    package func toggleLate(_ kind: LateSubscriber) {
        switch kind {
        case .behavior: type("b")
        case .publish: type("p")
        case .replay: type("r")
        case .relay: type("v")
        }
    }

    /// Does what makes `intent`, as a user would: the mouse report, the key or the resize that
    /// becomes it (`f` and the operator's key for an operator; an arrow of another distance than
    /// 1 or 5, which no key makes, and the tour's completion go to the session directly).
    package func send(_ intent: Intent?) {
        guard let intent else { return }
        switch intent {
        case .pressed(let cell): run([.bytes(TerminalBytes.press(cell))])
        case .dragged(let cell): run([.bytes(TerminalBytes.drag(cell))])
        case .released(let cell): run([.bytes(TerminalBytes.release(cell))])
        case .arrowPressed(let direction, let distance) where distance == 1 || distance == KeyMap.bigStep:
            press(direction, shifted: distance != 1)
        case .recentred: type("c")
        case .resized(let size): resize(columns: size.columns, rows: size.rows)
        case .quitRequested: type("q")
        case .mirrorFlipped: type("i")
        case .operatorChosen(let chosen)
        where SlotOperator.allCases.contains { $0.alone.waiting(chosen.timing ?? .usual) == chosen }
            && intervalKeys(to: chosen.timing) != nil:
            type("f")
            intervalKeys(to: chosen.timing)!.unicodeScalars.forEach(type)
            type(SlotOperator.allCases.first { $0.alone.waiting(chosen.timing ?? .usual) == chosen }!.key)
        case .stageAdded(let stage) where intervalKeys(to: stage.timing) != nil:
            type("f")
            intervalKeys(to: stage.timing)!.unicodeScalars.forEach(type)
            type("|")
            type(stage.key)
        case .stageRemoved:
            type("f")
            type("\u{7F}")
        case .arrowPressed, .completionRequested, .operatorChosen, .stageAdded:
            session.send(intent)
            run([])
        }
    }

    /// The keys of the operators box (`(`, `)`) that make the interval a timed operator is put in
    /// with `target` (nothing: it is already, or no operator waits); nil where they would build
    /// the pipe afresh first, its timed stage waiting another.
    private func intervalKeys(to target: SlotInterval?) -> String? {
        guard let target, target != play.interval else { return "" }
        guard session.state.slot.timing == nil else { return nil }
        let steps = SlotInterval.allCases.firstIndex(of: target)! - SlotInterval.allCases.firstIndex(of: play.interval)!
        return String(repeating: steps > 0 ? ")" : "(", count: abs(steps))
    }
}

// MARK: - The tour

extension Pilot where Program == Learn {
    /// A pilot of the tour from lesson `first` (the lessons `done` done before) in a terminal of
    /// `size` that shows colours as one of `depth` does; the lessons it reports done are kept in
    /// ``completed``.
    package convenience init(
        first: Int = 0, done: Set<Int> = [], screen size: ScreenSize = ScreenSize(columns: 80, rows: 24),
        depth: ColourDepth = .direct
    ) {
        let terminal = MemoryTerminal(size: size, depth: depth)
        let learn = Learn(screen: terminal, terminal: size, first: first, done: done)
        self.init(learn, on: terminal)
        learn.completed = { [unowned self] in
            completed.append($0)
            return nil
        }
    }

    /// The tour.
    package var learn: Learn { program }

    /// Opens the streams panel with `s`, where the lesson shows it closed (lesson 1 does, for one).
    package func openStreams() {
        if !learn.play.isStreamsOpen { type("s") }
    }

    /// Drags with the mouse through `cells` of the ball's area (under the card): presses on
    /// the first, drags through the rest, and releases on the last.
    package func drag(_ cells: [Cell]) {
        let top = Learn.layout(of: terminal.size).cardRows
        drag(through: cells.map { Cell(column: $0.column, row: $0.row + top) })
    }
}

// MARK: - Replay

extension Pilot where Program == ReplayProgram {
    /// A pilot of the recording in `bytes`, read whole (or only its header), in a terminal of
    /// `size` (default: the recording's largest size and `spareRows` below it), paused at the
    /// start or playing; the player keeps `userObservationLimit` late-key presses; the terminal shows
    /// colours as one of `depth` does.
    package convenience init(
        _ bytes: [UInt8], screen size: ScreenSize? = nil, spareRows: Int = 1, paused: Bool = true, readAll: Bool = true,
        userObservationLimit: Int = TimeTravelPlayer.userObservationLimit, depth: ColourDepth = .direct
    ) throws {
        let index = try ReplayIndex(reader: .inMemory(bytes, chunk: 4_096))
        if readAll { try index.readAll() }
        let size =
            size
            ?? ScreenSize(columns: index.largestTerminal.columns, rows: index.largestTerminal.rows + spareRows)
        let screen = MemoryTerminal(size: size, depth: depth)
        let player = TimeTravelPlayer(
            index: index, terminal: size, timing: ReplayTiming(), paused: paused,
            userObservationLimit: userObservationLimit)
        self.init(ReplayProgram(player: player, screen: screen, clock: screen.clock), on: screen, recording: bytes)
    }

    /// The replay program.
    package var watch: ReplayProgram { program }
    /// The player.
    package var player: TimeTravelPlayer { program.player }

    /// Draws again what changed behind the loop's back (the index read further by the test).
    package func refresh() {
        program.binding.redrawSoon()
        run([])
    }

    /// The recording as edited, as `w` writes it: its own lines, but the skipped intents'.
    package func editedLines() throws -> [String] {
        var lines: [String] = []
        try player.index.copyEdited(from: .inMemory(recording, chunk: 4_096)) {
            lines.append(String(decoding: $0, as: UTF8.self))
        }
        return lines
    }
}

// MARK: - Appearances for renderer tests

extension Appearance {
    /// What the screen shows with the ball at `position` after `previous` (nil: the start on
    /// the white screen), by the colour rule: for tests of what is drawn, not of the rule.
    package static func at(_ position: BallPosition, after previous: Appearance?) -> Appearance {
        let ball = position.ballColour
        let background = BallColourRule.background(
            forBall: ball, current: previous?.background ?? BallState.screenBeforeTheBall)
        return Appearance(position: position, ball: ball, background: background)
    }
}

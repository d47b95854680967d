import BallModel
import BallProgram
import BallRendering
import BallStreams
import ColourCore
import TerminalIO

// MARK: - A headless driver (a pilot for tests)

/// Drives the real program without a terminal, as a user would: press keys, drag, resize;
/// then read the frame.
///
/// Every action is the bytes a terminal sends (or a resize), read by the real run loop from an
/// in-memory terminal: decoder → key map → the play program → session → chain → binding →
/// renderer → the terminal's frame. Each action is one wake-up, flushed as the loop flushes a
/// burst.
package final class HeadlessDriver {
    /// The in-memory terminal the loop reads and draws on.
    package let terminal: MemoryTerminal
    /// The play program the loop runs.
    package let play: Play
    private let loop: RunLoop

    /// A driver with the ball in the middle of a `screen`-sized terminal that shows colours
    /// as one of `depth` does; a lone Esc counts after `escapeWait`; `animated`: moves glide (the
    /// frames of a glide come as scripted time passes: ``MemoryTerminal/Step/pass(_:)``).
    package init(
        screen size: ScreenSize = ScreenSize(columns: 80, rows: 24), depth: ColourDepth = .direct,
        escapeWait: Duration = RunLoop.defaultEscapeWait, animated: Bool = false
    ) {
        terminal = MemoryTerminal(size: size, depth: depth)
        play = Play(screen: terminal, terminal: size, animated: animated)
        loop = RunLoop(device: terminal, clock: terminal.clock, escapeWait: escapeWait)
        run([])
    }

    /// Runs the loop over `steps` until they are done (or the program quits).
    package func run(_ steps: [MemoryTerminal.Step]) {
        terminal.queue(steps)
        // The play program never throws: only a replay reads a file.
        try? loop.run(play)
    }

    /// The session being driven.
    package var session: BallSession { play.session }
    /// The streams, recorded from the start as in the terminal.
    package var streams: StreamRecorder { play.streams }
    /// The screen it draws on (the in-memory terminal).
    package var screen: MemoryTerminal { terminal }
    /// The terminal's size.
    package var terminalSize: ScreenSize { terminal.size }
    /// The frame on screen now.
    package var frame: Frame { terminal.frame! }
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

    /// Moves the pointer over `cell` with no button down.
    package func hover(at cell: Cell) { run([.bytes(TerminalBytes.move(cell))]) }

    /// Presses an arrow key (with Shift when `shifted`).
    package func press(_ direction: Direction, shifted: Bool = false) {
        run([.bytes(TerminalBytes.arrow(direction, shifted: shifted))])
    }

    /// Types a character key, such as `"c"` or `"q"`.
    package func type(_ character: Unicode.Scalar) { run([.bytes(TerminalBytes.key(character))]) }

    /// Presses the button at `from`, drags through every cell on a straight line to `to`,
    /// and releases there: one report a wake-up.
    package func drag(from start: Cell, to end: Cell) {
        var steps: [MemoryTerminal.Step] = [.bytes(TerminalBytes.press(start))]
        let count = max(abs(end.column - start.column), abs(end.row - start.row))
        for step in stride(from: 1, through: count, by: 1) {
            let cell = Cell(
                column: start.column + (end.column - start.column) * step / count,
                row: start.row + (end.row - start.row) * step / count)
            steps.append(.bytes(TerminalBytes.drag(cell)))
        }
        steps.append(.bytes(TerminalBytes.release(end)))
        run(steps)
    }

    /// Resizes the terminal.
    package func resize(columns: Int, rows: Int) { run([.resize(ScreenSize(columns: columns, rows: rows))]) }

    /// Lets time pass with nothing sent until the loop's clock (the session's) reads `seconds`
    /// (nothing, if it already does): the chain's timers go off as they come due.
    package func passTime(to seconds: Double) {
        let target = Duration.microseconds(SessionTime(seconds: seconds).microseconds)
        if target > terminal.clock.now { run([.pass(target - terminal.clock.now)]) }
    }

    /// Sends raw terminal bytes, then lets the loop's Esc wait pass (a lone Esc counts).
    package func input(_ bytes: [UInt8]) { run([.bytes(bytes), .pass(RunLoop.defaultEscapeWait)]) }

    /// Does what makes `intent`, as a user would: the mouse report, the key or the resize that
    /// becomes it (`f` and a digit for an operator; an arrow of another distance than 1 or 5,
    /// which no key makes, goes to the session directly).
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
        case .operatorChosen(let chosen):
            type("f")
            type(chosen.key)
        case .arrowPressed:
            session.send(intent)
            run([])
        }
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

// MARK: - A pilot for the tour

/// Drives `colourful-ball learn` without a terminal, as ``HeadlessDriver`` drives play: the
/// bytes a terminal sends, read by the real run loop from an in-memory terminal.
package final class LearnPilot {
    /// The in-memory terminal.
    package let terminal: MemoryTerminal
    /// The tour.
    package let learn: Learn
    /// The lessons reported done, in order.
    package private(set) var completed: [Int] = []
    private let loop: RunLoop

    /// A tour from lesson `first` (the lessons `done` done before) in a terminal of `size` that
    /// shows colours as one of `depth` does.
    package init(
        first: Int = 0, done: Set<Int> = [], screen size: ScreenSize = ScreenSize(columns: 80, rows: 24),
        depth: ColourDepth = .direct
    ) {
        terminal = MemoryTerminal(size: size, depth: depth)
        learn = Learn(screen: terminal, terminal: size, first: first, done: done)
        loop = RunLoop(device: terminal, clock: terminal.clock)
        learn.completed = { [unowned self] in
            completed.append($0)
            return nil
        }
        run([])
    }

    /// Runs the loop over `steps`.
    package func run(_ steps: [MemoryTerminal.Step]) {
        terminal.queue(steps)
        try? loop.run(learn)
    }

    /// Types a character key.
    package func type(_ character: Unicode.Scalar) { run([.bytes(TerminalBytes.key(character))]) }

    /// Presses an arrow key (with Shift when `shifted`).
    package func press(_ direction: Direction, shifted: Bool = false) {
        run([.bytes(TerminalBytes.arrow(direction, shifted: shifted))])
    }

    /// Drags with the mouse through `cells` of the ball's area (under the card): presses on
    /// the first, drags through the rest, and releases on the last.
    package func drag(_ cells: [Cell]) {
        let top = Learn.layout(of: terminal.size).cardRows
        let onScreen = cells.map { Cell(column: $0.column, row: $0.row + top) }
        guard let first = onScreen.first, let last = onScreen.last else { return }
        run(
            [.bytes(TerminalBytes.press(first))] + onScreen.dropFirst().map { .bytes(TerminalBytes.drag($0)) }
                + [.bytes(TerminalBytes.release(last))])
    }

    /// The frame's rows as text.
    package var lines: [String] {
        terminal.frame!.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
}

import BallModel
import BallRendering
import ColourCore
import TerminalIO

// MARK: - A headless driver (a pilot for tests)

/// Drives a whole session without a terminal, as a user would: press keys, drag, resize;
/// then read the frame.
///
/// Every action goes through the same path as in the terminal: key map → intent → session →
/// view-model → binding → renderer → screen, flushed after each action as the run loop does
/// after a burst.
package final class HeadlessDriver {
    /// The session being driven.
    package let session: BallSession
    /// The screen it draws on.
    package let screen: HeadlessScreen
    /// The streams, recorded from the start as in the terminal.
    package let streams: StreamRecorder
    private let binding: ScreenBinding
    /// The terminal's size (the ball's area is smaller while the streams panel is open).
    package private(set) var terminalSize: ScreenSize
    /// Whether the streams panel is open.
    private var streamsOpen = false

    /// A driver with the ball in the middle of a `screen`-sized terminal that shows colours
    /// as one of `depth` does.
    package init(screen size: ScreenSize = ScreenSize(columns: 80, rows: 24), depth: ColourDepth = .direct) {
        session = BallSession(screen: size)
        screen = HeadlessScreen(depth: depth)
        terminalSize = size
        binding = ScreenBinding(session.viewModel, to: screen)
        streams = StreamRecorder(session: session)
        binding.streams = streams
        binding.flush()
    }

    /// Opens or closes the streams panel as `s` does in play: the ball's area changes through
    /// a resized intent.
    package func toggleStreams() {
        streamsOpen.toggle()
        send(.resized(binding.playArea(in: terminalSize, streamsOpen: streamsOpen)))
    }

    /// Subscribes a late subscriber, as `b` or `p` does.
    package func subscribeLate(_ kind: LateSubscriber) {
        streams.subscribeLate(kind)
        binding.flush()
    }

    /// Moves the pointer over `cell` with no button down (the run loop hands the binding the
    /// key map's hover).
    package func hover(at cell: Cell) {
        if case .hover(let cell)? = KeyMap.action(for: .mouseMoved(cell), in: .play) { binding.hover(at: cell) }
        binding.flush()
    }

    /// The frame on screen now.
    package var frame: Frame { screen.frame! }

    /// The derived state now.
    package var appearance: Appearance { session.viewModel.current }

    /// Presses an arrow key (with Shift when `shifted`).
    package func press(_ direction: Direction, shifted: Bool = false) {
        send(KeyMap.intent(for: .arrow(direction, shifted: shifted)))
    }

    /// Types a character key, such as `"c"` or `"q"`.
    package func type(_ character: Unicode.Scalar) {
        send(KeyMap.intent(for: .character(character)))
    }

    /// Presses the button at `from`, drags through every cell on a straight line to `to`,
    /// and releases there.
    package func drag(from start: Cell, to end: Cell) {
        send(.pressed(at: start))
        let steps = max(abs(end.column - start.column), abs(end.row - start.row))
        for step in stride(from: 1, through: steps, by: 1) {
            send(
                .dragged(
                    to: Cell(
                        column: start.column + (end.column - start.column) * step / steps,
                        row: start.row + (end.row - start.row) * step / steps)))
        }
        send(.released(at: end))
    }

    /// Resizes the terminal.
    package func resize(columns: Int, rows: Int) {
        terminalSize = ScreenSize(columns: columns, rows: rows)
        send(.resized(binding.playArea(in: terminalSize, streamsOpen: streamsOpen)))
    }

    /// Sends raw terminal bytes through the input decoder, as the terminal adapter does.
    package func input(_ bytes: [UInt8]) {
        var decoder = InputDecoder()
        for event in decoder.decode(bytes) + decoder.flushPendingEscape() {
            if let intent = KeyMap.intent(for: event) { session.send(intent) }
        }
        binding.flush()
    }

    /// Sends one intent and flushes.
    package func send(_ intent: Intent?) {
        guard let intent else { return }
        session.send(intent)
        binding.flush()
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

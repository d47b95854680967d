import BallModel
import BallRendering
import BallStreams

// MARK: - Play

/// Play mode for the run loop: every key-map action is an intent for the session, or opens
/// the streams panel, or subscribes a late subscriber to the live streams.
package final class Play: TerminalProgram {
    /// The session the intents go to.
    package let session: BallSession
    /// The binding that draws it.
    package let binding: ScreenBinding
    /// The streams, recorded from the start (the panel shows them when open).
    package let streams: StreamRecorder
    package let keyMode = KeyMode.play
    package let deadline: Duration? = nil
    /// The terminal's size (the ball's area: the panel lies over it).
    package private(set) var terminal: ScreenSize
    private var streamsOpen = false
    /// Whether the streams panel is open.
    package var isStreamsOpen: Bool { streamsOpen }
    /// Whether the button went down on the streams panel: until it comes up, the pointer
    /// inspects the panel's columns and moves nothing.
    private var inspecting = false
    /// The notice that a late subscriber subscribed while the panel was closed, while shown.
    private var lateNotice: String?
    /// Called each time the loop has handled what woke it, before it draws: a binding that
    /// writes a file (the trace) writes what that wake made.
    package var handledWake: (() -> Void)?

    /// Play on `screen`, a terminal of `terminal`, from the start; `streams` opens the panel;
    /// `animated`: moves glide and colours fade, as the original's did.
    package init(screen: Screen, terminal: ScreenSize, streams open: Bool = false, animated: Bool = false) {
        self.terminal = terminal
        session = BallSession(screen: terminal)
        binding = ScreenBinding(session.viewModel, to: screen, animated: animated)
        streams = StreamRecorder(session: session)
        binding.streams = streams
        noteWindowSize()
        if open { toggleStreams() }
    }

    package var isFinished: Bool { session.isFinished }

    package func deadlineReached(now: Duration) {}

    package func perform(_ action: KeyAction, now: Duration) {
        switch action {
        case .intent(.pressed(let cell)) where binding.isOnPanel(cell):
            // A click on the panel inspects a column; the ball stays where it is.
            inspecting = true
            binding.pointerMoved(to: cell)
        case .intent(.dragged(let cell)) where inspecting: binding.pointerMoved(to: cell)
        case .intent(.released) where inspecting: inspecting = false
        case .intent(let intent): session.send(inArea(intent))
        case .toggleStreams: toggleStreams()
        case .toggleLate(let kind):
            streams.toggleLate(kind)
            // Its lane is on the panel: with the panel closed, say so.
            if !streamsOpen {
                let did = streams.lateLane(kind)?.isLive == true ? "subscribed" : "unsubscribed"
                lateNotice = "\(StreamLane.late(kind).label) \(did): s shows its lane"
                binding.send(.noticePosted(lateNotice))
            }
        default: break
        }
    }

    /// The view's scroll while the button is down: a drag keeps the one its press saw, so the
    /// pointer's rows stay the area's rows it pressed on while the view follows the ball.
    private var dragViewOffset: Int?

    /// `intent` with its cell in the ball's area: the row drawn there plus the view's scroll (the
    /// panel lies over the area's lower rows, and the view follows the ball down).
    private func inArea(_ intent: Intent) -> Intent {
        let offset = dragViewOffset ?? binding.viewOffset
        switch intent {
        case .pressed(let cell):
            dragViewOffset = offset
            return .pressed(at: Cell(column: cell.column, row: cell.row + offset))
        case .dragged(let cell): return .dragged(to: Cell(column: cell.column, row: cell.row + offset))
        case .released(let cell):
            dragViewOffset = nil
            return .released(at: Cell(column: cell.column, row: cell.row + offset))
        default: return intent
        }
    }

    /// Opens or closes the streams panel. Looking changes nothing looked at: no intent, the ball
    /// and its colours stay as they are, the panel lies over the lower rows of the ball's area
    /// and the view follows the ball. The recorder notes it as an observation.
    package func toggleStreams() {
        streamsOpen.toggle()
        if streamsOpen, let shown = lateNotice, binding.model.notice == shown {
            lateNotice = nil
            binding.send(.noticePosted(nil))
        }
        streams.notePanel(open: streamsOpen)
        showPanel()
    }

    /// The terminal is now `size`: the one thing that resizes the ball's area.
    package func resized(to size: ScreenSize) {
        terminal = size
        noteWindowSize()
        session.send(.resized(terminal))
        showPanel()
    }

    /// The notice for a window larger than the largest area there is, when it is shown.
    private var tooLargeNotice: String?

    /// Shows the panel over the ball's area (whole where it leaves some of the area in view,
    /// else one row to say so), or takes it away.
    private func showPanel() {
        guard streamsOpen else {
            binding.send(.panelClosed)
            return
        }
        binding.send(.panelShown(content: .live, fits: StreamPanel.fits(over: session.state.position.screen)))
    }

    /// Says so while the window is larger than the largest area there is.
    private func noteWindowSize() {
        let largest = ScreenSize.largest
        if terminal.columns > largest.columns || terminal.rows > largest.rows {
            tooLargeNotice = "the window is larger than \(largest): the ball plays in \(largest) of it"
            binding.send(.noticePosted(tooLargeNotice))
        } else if let shown = tooLargeNotice, binding.model.notice == shown {
            tooLargeNotice = nil
            binding.send(.noticePosted(nil))
        }
    }

    package func hungUp() { session.send(.quitRequested) }

    package func resumed(after duration: Duration) {}

    package func willFlush() { handledWake?() }
}

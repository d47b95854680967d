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
    /// The terminal's size (the ball's area is smaller while the streams panel is open).
    package private(set) var terminal: ScreenSize
    private var streamsOpen = false
    /// Whether the streams panel is open.
    package var isStreamsOpen: Bool { streamsOpen }
    /// Whether the button went down on the streams panel: until it comes up, the pointer
    /// inspects the panel's columns and moves nothing.
    private var inspecting = false
    /// The notice that a late subscriber subscribed while the panel was closed, while shown.
    private var lateNotice: String?

    /// Play on `screen`, a terminal of `terminal`, from the start; `streams` opens the panel.
    package init(screen: Screen, terminal: ScreenSize, streams open: Bool = false) {
        self.terminal = terminal
        session = BallSession(screen: terminal)
        binding = ScreenBinding(session.viewModel, to: screen)
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
        case .intent(let intent): session.send(intent)
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

    /// Opens or closes the streams panel: the ball's area changes as a resize does, through the
    /// same intent, so a recording made with the panel open replays exactly.
    package func toggleStreams() {
        streamsOpen.toggle()
        if streamsOpen, let shown = lateNotice, binding.model.notice == shown {
            lateNotice = nil
            binding.send(.noticePosted(nil))
        }
        layOut()
    }

    package func resized(to size: ScreenSize) {
        terminal = size
        layOut()
    }

    /// The notice for a window larger than the largest area, when it is shown.
    private var tooLargeNotice: String?

    /// The ball's area is the terminal less the streams panel's rows (when they leave the ball
    /// enough room, else one row to say so); a window larger than the largest area there is plays
    /// in that much of it, and says so.
    private func layOut() {
        noteWindowSize()
        guard streamsOpen else {
            binding.send(.panelClosed)
            session.send(.resized(terminal))
            return
        }
        let (area, fits) = StreamPanel.ballArea(in: terminal)
        binding.send(.panelShown(content: .live, fits: fits))
        session.send(.resized(area))
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

    package func willFlush() {}
}

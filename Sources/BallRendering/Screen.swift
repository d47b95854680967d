import BallModel
import ColourCore
import OpenCombine

// MARK: - Screens

/// Where frames go: the ncurses screen writes them to the terminal, the headless screen
/// keeps them for tests.
package protocol Screen: AnyObject {
    /// How the screen shows colours: the renderer keeps every swatch visible at this depth,
    /// and uses reverse video where there is no colour.
    var colourDepth: ColourDepth { get }

    /// Shows `frame`. `previous` is the frame shown before it (nil: draw everything); a
    /// screen may write only the cells that differ. Neither frame may be kept: the caller
    /// reuses their storage.
    func present(_ frame: Frame, previous: Frame?)
}

/// A screen that keeps what it was shown: for tests and headless runs.
package final class HeadlessScreen: Screen {
    /// The last frame presented, if any.
    package private(set) var frame: Frame?
    /// How many frames were presented.
    package private(set) var presentCount = 0

    /// How frames are rendered: as for a terminal with this colour depth.
    package let colourDepth: ColourDepth

    /// An empty screen, showing colours as a terminal of `depth` does.
    package init(depth: ColourDepth = .direct) {
        colourDepth = depth
    }

    /// Keeps a copy of `frame`.
    package func present(_ frame: Frame, previous: Frame?) {
        self.frame = frame
        presentCount += 1
    }
}

// MARK: - Bindings

/// The subscriptions that draw: they are the only code that puts anything on a screen.
///
/// The screen is bound to the chain as the article binds its views: the position, the ball's
/// colour and the screen's colour each set what the screen shows, but drawing waits for
/// ``flush()``: the run loop reads all pending input, then flushes once, so a burst of drag
/// events produces one frame, and a repeated position none.
package final class ScreenBinding {
    private let screen: Screen
    private var renderer: Renderer
    /// Two frames, drawn into in turn: the one on screen and the next (no copying).
    private var frames = [Frame](repeating: Frame(size: ScreenSize(columns: 0, rows: 0), fill: .flatWhite), count: 2)
    private var shown: Int?
    /// What the chain last sent: the screen's own copy of what it shows, as a view keeps its
    /// colours.
    private var appearance: Appearance
    /// Whether something changed since the last frame.
    private var needsDrawing = true
    private var bindings: [AnyCancellable] = []

    /// Binds `viewModel` to `screen`; its current appearance is drawn at the first flush.
    package init(_ viewModel: BallViewModel, to screen: Screen) {
        self.screen = screen
        appearance = viewModel.current
        renderer = Renderer(depth: screen.colourDepth)
        bind(viewModel)
    }

    /// Binds the screen to `viewModel`'s chain instead (the replay player builds a new chain
    /// wherever it travels to); what it hands over at once is drawn at the next flush.
    package func bind(_ viewModel: BallViewModel) {
        bindings = [
            viewModel.position.sink { [unowned self] in
                appearance.position = $0
                needsDrawing = true
            },
            viewModel.ballColour.sink { [unowned self] in
                appearance.ball = $0
                needsDrawing = true
            },
            viewModel.background.sink { [unowned self] in
                appearance.background = $0
                needsDrawing = true
            },
        ]
    }

    /// A notice for the status line (``Renderer/notice``); a new one is drawn at the next flush.
    package var notice: String? {
        get { renderer.notice }
        set { change(\.notice, to: newValue) }
    }

    /// What the status line says about the keys (``Renderer/statusKeys``), drawn at the next flush.
    package var statusKeys: StatusKeys {
        get { renderer.statusKeys }
        set { change(\.statusKeys, to: newValue) }
    }

    /// The help box (``Renderer/help``); nil: closed. Drawn or taken away at the next flush.
    package var help: HelpText? {
        get { renderer.help }
        set { change(\.help, to: newValue) }
    }

    /// Rows between the streams panel and the status line (``Renderer/extraRows``), drawn at
    /// the next flush.
    package var extraRows: [[LaneCell]] {
        get { renderer.extraRows }
        set { change(\.extraRows, to: newValue) }
    }

    /// Facts at the start of the status line (``Renderer/statusFacts``), drawn at the next flush.
    package var statusFacts: String? {
        get { renderer.statusFacts }
        set { change(\.statusFacts, to: newValue) }
    }

    /// The terminal is too small for the frame (``Renderer/shortfall``); drawn at the next flush.
    package var shortfall: TerminalShortfall? {
        get { renderer.shortfall }
        set { change(\.shortfall, to: newValue) }
    }

    /// Makes the streams panel for a width, and whether it fits, instead of ``streams`` (the
    /// replay player's panel, worked out around the current intent); drawn at the next flush.
    package var streamPanelSource: ((_ width: Int, _ fits: Bool) -> StreamPanel)? {
        didSet { if streamsPanel != nil { redrawSoon() } }
    }

    /// The recorder whose lanes the streams panel shows (it records while the panel is closed
    /// too, so opening it shows the past).
    package var streams: StreamRecorder? {
        didSet {
            streams?.changed = { [unowned self] in
                if streamsPanel != nil { redrawSoon() }
            }
        }
    }

    /// Whether the streams panel is open (nil: closed), and whether it fits (else it is one
    /// line saying so). Drawn at the next flush.
    package var streamsPanel: Bool? {
        didSet {
            guard streamsPanel != oldValue else { return }
            redrawSoon()
        }
    }

    /// In play: the ball's area in a terminal of `size`, the streams panel `open` or not (open,
    /// it takes its rows when they leave the ball enough room, else one row to say so); notes
    /// the panel for the next flush. The area goes to the session as a resized intent.
    package func playArea(in size: ScreenSize, streamsOpen open: Bool) -> ScreenSize {
        guard open else {
            streamsPanel = nil
            return size
        }
        let (area, fits) = StreamPanel.ballArea(in: size)
        streamsPanel = fits
        return area
    }

    /// The intent index of the streams panel's column under the pointer (nil: none).
    private var hovered: Int?

    /// The pointer rests over `cell` (no button down): over a column of the streams panel,
    /// the panel describes that column, from the next flush; elsewhere, the latest again.
    package func hover(at cell: Cell) {
        var index: Int?
        if let panel = renderer.streams, let area = shownArea {
            let row = cell.row - StreamPanel.top(below: area)
            if (1..<(StreamPanel.rows - 1)).contains(row) { index = panel.columnIndex(at: cell.column) }
        }
        guard index != hovered else { return }
        hovered = index
        redrawSoon()
    }

    /// The ball's area of the frame on screen.
    private var shownArea: ScreenSize?

    /// Sets one of the renderer's settings; a change makes the current appearance pending.
    private func change<Value: Equatable>(_ setting: WritableKeyPath<Renderer, Value>, to value: Value) {
        guard renderer[keyPath: setting] != value else { return }
        renderer[keyPath: setting] = value
        redrawSoon()
    }

    /// Makes the next flush draw the frame again.
    package func redrawSoon() {
        needsDrawing = true
    }

    /// Whether something is waiting to be drawn.
    package var needsFlush: Bool { needsDrawing }

    /// Renders and presents what the screen shows now, if anything changed since the last frame.
    package func flush() {
        guard needsDrawing else { return }
        needsDrawing = false
        let width = appearance.position.screen.columns
        if let fits = streamsPanel, let streamPanelSource {
            renderer.streams = streamPanelSource(width, fits)
        } else if let fits = streamsPanel, let streams {
            renderer.streams = StreamPanel(streams, width: width, fits: fits)
        } else {
            renderer.streams = nil
        }
        renderer.streams?.hovered = hovered
        shownArea = appearance.position.screen
        let next = shown.map { 1 - $0 } ?? 0
        renderer.render(appearance, into: &frames[next])
        screen.present(frames[next], previous: shown.map { frames[$0] })
        shown = next
    }

    /// Presents the current frame again, whole (after the terminal lost its contents).
    package func redraw() {
        guard let shown else { return }
        screen.present(frames[shown], previous: nil)
    }
}

import BallModel
import BallStreams
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

// MARK: - The binding

/// The subscriptions that draw: the only code that puts anything on a screen.
///
/// The screen is bound to the chain as the article binds its views: the position, the ball's
/// colour and the screen's colour each update the ``model``, as do the program's extras
/// (``send(_:)``). Drawing waits for ``flush()``: the run loop reads all pending input, then
/// flushes once, so a burst of drag events produces one frame, and a repeated position none.
package final class ScreenBinding {
    private let screen: Screen
    private var renderer: Renderer
    /// Two frames, drawn into in turn: the one on screen and the next (no copying).
    private var frames = [Frame](repeating: Frame(size: ScreenSize(columns: 0, rows: 0), fill: .flatWhite), count: 2)
    private var shown: Int?
    /// Everything the screen shows, as one value.
    package private(set) var model: ScreenModel
    /// Whether something changed since the last frame.
    private var needsDrawing = true
    private var bindings: [AnyCancellable] = []
    /// The panel on screen and the frame row it starts at (the pointer's column is looked up
    /// in it).
    private var drawn: (panel: StreamPanel?, top: Int)?

    /// Binds `viewModel` to `screen`; its current appearance is drawn at the first flush.
    package init(_ viewModel: BallViewModel, to screen: Screen) {
        self.screen = screen
        model = ScreenModel(appearance: viewModel.current)
        renderer = Renderer(depth: screen.colourDepth)
        bind(viewModel)
    }

    /// Binds the screen to `viewModel`'s chain instead (the replay player builds a new chain
    /// wherever it travels to); what it hands over at once is drawn at the next flush.
    package func bind(_ viewModel: BallViewModel) {
        bindings = [
            viewModel.position.bind { [unowned self] in send(.positionPublished($0)) },
            viewModel.ballColour.bind { [unowned self] in send(.ballColourPublished($0)) },
            viewModel.background.bind { [unowned self] in send(.backgroundPublished($0)) },
        ]
    }

    /// Updates the model with `event` (``ScreenModel/update(_:)``); a change is drawn at the
    /// next flush.
    package func send(_ event: ScreenEvent) {
        if model.update(event) { needsDrawing = true }
    }

    /// The recorder whose latest page the live streams panel shows (it records while the panel
    /// is closed too, so opening it shows the past).
    package var streams: StreamRecorder? {
        didSet {
            streams?.changed = { [unowned self] in
                if model.panel?.content == .live { needsDrawing = true }
            }
        }
    }

    /// The pointer rests over `cell` (no button down): over a column of the streams panel, the
    /// panel describes that column, from the next flush; elsewhere, the latest again.
    package func pointerMoved(to cell: Cell) {
        var intent: Int?
        var lane: StreamLane?
        if let (panel, top) = drawn, let panel {
            let row = cell.row - top
            if (1..<(StreamPanel.rows - 1)).contains(row) {
                intent = panel.columnIndex(at: cell.column)
                lane = panel.lane(atRow: row)
            }
        }
        send(.pointerHovered(intent: intent, lane: lane))
    }

    /// How many rows the view of the ball's area was scrolled down in the frame last drawn
    /// (``StreamPanel/viewOffset(for:coveredFrom:)``): the area's row under a frame row is that
    /// row plus this. What the user clicks is what was drawn.
    package private(set) var viewOffset = 0

    /// Whether `cell` is on the streams panel as last drawn (its rows over the ball's area, and
    /// the status line below them).
    package func isOnPanel(_ cell: Cell) -> Bool {
        guard let (panel, top) = drawn, panel != nil else { return false }
        return cell.row >= top
    }

    /// Makes the next flush draw the frame again.
    package func redrawSoon() {
        needsDrawing = true
    }

    /// How many pages the open help box takes on the screen last drawn (1 when it is closed).
    package var helpPageCount: Int {
        guard let help = model.help, let shown else { return 1 }
        let size = frames[shown].size
        return help.pages(on: ScreenSize(columns: size.columns, rows: size.rows - 1)).count
    }

    /// Whether something is waiting to be drawn.
    package var needsFlush: Bool { needsDrawing }

    /// Renders and presents the model, if anything changed since the last frame.
    package func flush() {
        guard needsDrawing else { return }
        needsDrawing = false
        let area = model.appearance.position.screen
        let panel = model.panel.map { shown -> StreamPanel in
            var page: StreamPanel
            switch shown.content {
            case .live:
                page =
                    streams.map { StreamPanel($0, width: area.columns, fits: shown.fits) } ?? StreamPanel(columns: [])
            case .page(let given): page = given
            }
            page.fits = shown.fits
            if shown.content == .live, !shown.fits { page.missingRows = StreamPanel.missingRows(playArea: area) }
            page.hovered = shown.hovered
            page.hoveredLane = shown.hoveredLane
            return page
        }
        let next = shown.map { 1 - $0 } ?? 0
        renderer.render(model, panel: panel, into: &frames[next])
        let top = Renderer.panelTop(
            frame: frames[next].size, area: area, panelRows: panel?.rowCount ?? 0,
            extraRows: model.player?.rows.count ?? 0)
        drawn = (panel, top)
        viewOffset = StreamPanel.viewOffset(for: model.appearance.position, coveredFrom: top)
        screen.present(frames[next], previous: shown.map { frames[$0] })
        shown = next
    }

    /// Presents the current frame again, whole (after the terminal lost its contents).
    package func redraw() {
        guard let shown else { return }
        screen.present(frames[shown], previous: nil)
    }
}

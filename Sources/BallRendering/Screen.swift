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

    /// Whether moves glide and colours fade, as the original's did (else the ball jumps).
    package let animated: Bool
    /// Whether this screen can show colours between the flat ones (direct colour, or a
    /// 256-colour palette's nearest entries): fewer colours switch at once.
    private let blends: Bool
    /// The changes still gliding, oldest first: each new place or colour adds one, which fades
    /// out over ``glideDuration`` (UIKit's additive animations: the drawing reaches each new
    /// value a tenth of a second after it came, however many came before).
    private var changes: [Change] = []
    /// The place and colours the last frame aimed at (the chain's latest).
    private var target: Look
    /// Where the last frame drew the disc's centre, and the ball's area it was drawn on.
    private var drawnCentre: Cell
    private var drawnSize: ScreenSize
    /// When the last frame was drawn, on the run loop's clock.
    private var lastFrame: Duration = .zero

    /// One change of place or colours: by how much, and when it came (the glide of it began a
    /// frame earlier, so that its first frame moves).
    private struct Change {
        var start: Duration
        var columns: Double
        var rows: Double
        var ball: (Double, Double, Double)
        var screen: (Double, Double, Double)
    }

    /// Where the ball's centre is and the colours of its disc and the screen.
    private struct Look: Equatable {
        var centre: Cell
        var ball: RGBColour
        var screen: RGBColour
    }

    /// At most this many changes glide at once (a burst of more than one a frame and a half):
    /// the oldest are folded into the next.
    private static let changesKept = 64

    /// How long a move glides and a colour fades: the original's
    /// `UIView.animateWithDuration(0.1)`.
    package static let glideDuration = Duration.milliseconds(100)
    /// The least time between two frames of a glide: at most 60 a second.
    package static let frameInterval = Duration.nanoseconds(16_666_667)

    /// Binds `viewModel` to `screen`; its current appearance is drawn at the first flush.
    /// `animated`: a move glides and the colours fade over ``glideDuration`` (presentation
    /// only: the chain has published the final values at once).
    package init(_ viewModel: BallViewModel, to screen: Screen, animated: Bool = false) {
        self.screen = screen
        self.animated = animated
        model = ScreenModel(appearance: viewModel.current)
        renderer = Renderer(depth: screen.colourDepth)
        switch screen.colourDepth {
        case .direct, .palette(.xterm256): blends = true
        default: blends = false
        }
        let current = viewModel.current
        target = Look(centre: current.position.centre, ball: current.ball.rgb, screen: current.background.rgb)
        drawnCentre = current.position.centre
        drawnSize = current.position.screen
        bind(viewModel)
    }

    /// Binds the screen to `viewModel`'s chain instead (the replay player builds a new chain
    /// wherever it travels to); what it hands over at once is drawn at the next flush.
    package func bind(_ viewModel: BallViewModel) {
        bindings = [
            viewModel.position.bind { [unowned self] in send(.positionPublished($0)) },
            viewModel.slot.bind { [unowned self] in send(.slotPublished($0)) },
            viewModel.mirror.bind { [unowned self] in send(.mirrorPublished($0)) },
            viewModel.ballColour.bind { [unowned self] in send(.ballColourPublished($0)) },
            viewModel.background.bind { [unowned self] in send(.backgroundPublished($0)) },
        ]
    }

    /// Binds the screen's colours through a Publish copy of `viewModel`'s chain instead (`learn`'s
    /// "Why Behavior"): a `PassthroughSubject` that each position from now on is sent to, and the
    /// same operators after it. A Publish subject hands a new subscriber nothing, so the screen
    /// shows the original's white view, its ball uncoloured, until the next position; the
    /// position itself stays bound to the subject. ``bind(_:)`` binds back. Nothing looked at
    /// changes: the session and its chain go on as they were.
    package func bindColoursThroughPublish(_ viewModel: BallViewModel) {
        let subject = PassthroughSubject<BallPosition, Never>()
        let ballColour = subject.map { $0.ballColour }.removeDuplicates()
        let background = ballColour.scan(BallState.screenBeforeTheBall, screenColour).removeDuplicates()
        send(.ballColourPublished(BallState.screenBeforeTheBall))
        send(.backgroundPublished(BallState.screenBeforeTheBall))
        bindings = [
            viewModel.position.bind { [unowned self] in send(.positionPublished($0)) },
            viewModel.position.dropFirst().bind { subject.send($0) },
            ballColour.bind { [unowned self] in send(.ballColourPublished($0)) },
            background.bind { [unowned self] in send(.backgroundPublished($0)) },
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
            if row >= 1, row < panel.rowCount - 1 {
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

    /// When the next frame of a glide is due, on the run loop's clock; nil when nothing glides
    /// (nothing wakes the program).
    package var nextFrameDue: Duration? { changes.isEmpty ? nil : lastFrame + Self.frameInterval }

    /// Renders and presents the model, if anything changed since the last frame, or the glide
    /// under way as it is at `now` (the run loop's clock).
    ///
    /// Each new place or colour glides in with UIKit's ease-in-out curve over
    /// ``glideDuration``, from where the ball is drawn (the changes add up, as UIKit's
    /// animations do: a drag trails the pointer by a tenth of a second): the first frame leaves
    /// at once, a frame into the glide (so it moves), then one every ``frameInterval`` until the
    /// end. A change of the ball's area (a resize) jumps: the disc's shape changes with it.
    package func flush(now: Duration = .zero) {
        let final = model.appearance
        let aim = Look(centre: final.position.centre, ball: final.ball.rgb, screen: final.background.rgb)
        let size = final.position.screen
        if animated {
            if size != drawnSize {
                changes.removeAll()  // A resize jumps: the disc's shape changes with the area.
            } else if aim != target {
                func delta(_ new: RGBColour, _ old: RGBColour) -> (Double, Double, Double) {
                    (new.red - old.red, new.green - old.green, new.blue - old.blue)
                }
                if changes.count >= Self.changesKept { changes.removeFirst() }
                changes.append(
                    Change(
                        start: now - Self.frameInterval, columns: Double(aim.centre.column - target.centre.column),
                        rows: Double(aim.centre.row - target.centre.row), ball: delta(aim.ball, target.ball),
                        screen: delta(aim.screen, target.screen)))
                needsDrawing = true
            } else if let due = nextFrameDue, now >= due - .microseconds(500) {
                // The glide's next frame (no sooner: at most 60 a second).
                needsDrawing = true
            }
        }
        target = aim
        drawnSize = size
        guard needsDrawing else { return }
        needsDrawing = false
        // What is left of each change to glide in: the drawing is the aim less all of it.
        changes.removeAll { now - $0.start >= Self.glideDuration }
        var motion: Motion?
        if !changes.isEmpty {
            var left = (columns: 0.0, rows: 0.0, ball: (0.0, 0.0, 0.0), screen: (0.0, 0.0, 0.0))
            for change in changes {
                let remaining = 1 - Self.easeInOut((now - change.start) / Self.glideDuration)
                left.columns += change.columns * remaining
                left.rows += change.rows * remaining
                left.ball = (
                    left.ball.0 + change.ball.0 * remaining, left.ball.1 + change.ball.1 * remaining,
                    left.ball.2 + change.ball.2 * remaining
                )
                left.screen = (
                    left.screen.0 + change.screen.0 * remaining, left.screen.1 + change.screen.1 * remaining,
                    left.screen.2 + change.screen.2 * remaining
                )
            }
            func less(_ colour: RGBColour, _ by: (Double, Double, Double)) -> RGBColour {
                RGBColour(red: colour.red - by.0, green: colour.green - by.1, blue: colour.blue - by.2)
            }
            let fading = blends && changes.contains { $0.ball != (0, 0, 0) || $0.screen != (0, 0, 0) }
            motion = Motion(
                centre: Cell(
                    column: aim.centre.column - Int(left.columns.rounded()),
                    row: aim.centre.row - Int(left.rows.rounded())),
                blends: fading ? Blends(ball: less(aim.ball, left.ball), screen: less(aim.screen, left.screen)) : nil)
        }
        drawnCentre = motion?.centre ?? aim.centre
        lastFrame = now
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
            // `learn`'s lanes have their rows: in a lesson on the operators, the slot's lane takes
            // a late subscriber's row that has no live lane.
            if model.tour != nil {
                page.rowBudget = StreamPanel.rows
                page.showsSlot = model.tourSlotLane
            }
            if shown.content == .live, !shown.fits {
                page.missingRows = StreamPanel.missingRows(playArea: area, slot: page.showsSlot)
            }
            page.hovered = shown.hovered
            page.hoveredLane = shown.hoveredLane
            return page
        }
        let next = shown.map { 1 - $0 } ?? 0
        renderer.render(model, panel: panel, motion: motion, into: &frames[next])
        let top = Renderer.panelTop(
            frame: frames[next].size, area: area, panelRows: panel?.rowCount ?? 0,
            extraRows: model.player?.rows.count ?? 0)
        drawn = (panel, top)
        var drawnPosition = model.appearance.position
        drawnPosition.centre = drawnCentre
        viewOffset = Renderer.viewOffset(of: model, for: drawnPosition, coveredFrom: top)
        screen.present(frames[next], previous: shown.map { frames[$0] })
        shown = next
    }

    /// UIKit's ease-in-out curve (`UIViewAnimationCurveEaseInOut`, Core Animation's
    /// `kCAMediaTimingFunctionEaseInEaseOut`): the cubic Bézier from (0, 0) to (1, 1) through the
    /// control points (0.42, 0) and (0.58, 1), its progress at `time` (0...1).
    package static func easeInOut(_ time: Double) -> Double {
        guard time > 0 else { return 0 }
        guard time < 1 else { return 1 }
        // x(s) = 3(1−s)²s·0.42 + 3(1−s)s²·0.58 + s³ rises from 0 to 1: find s where x(s) = time.
        func bezier(_ s: Double, _ first: Double, _ second: Double) -> Double {
            3 * (1 - s) * (1 - s) * s * first + 3 * (1 - s) * s * s * second + s * s * s
        }
        var (low, high) = (0.0, 1.0)
        for _ in 0..<40 {
            let middle = (low + high) / 2
            if bezier(middle, 0.42, 0.58) < time { low = middle } else { high = middle }
        }
        return bezier((low + high) / 2, 0, 1)
    }

    /// Presents the current frame again, whole (after the terminal lost its contents).
    package func redraw() {
        guard let shown else { return }
        screen.present(frames[shown], previous: nil)
    }
}

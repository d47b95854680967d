import BallModel
import BallStreams
import ColourCore
import OpenCombine
import TextFormats

// MARK: - Screens

/// Where frames go: the ncurses screen writes them to the terminal, the headless screen
/// keeps them for tests.
package protocol FrameSink: AnyObject {
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
    private let screen: FrameSink
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
    /// The live time view's settled spans, kept from frame to frame (each frame's live panel is
    /// handed to it, and nothing else writes it).
    package let settledSpans = SettledSpans()
    /// The replay player's page on its time axis, kept while it shows the same page (each frame's
    /// page is handed to it, and nothing else writes it).
    package let pageSpans = PageSpans()

    /// The streams panel the last frame drew, if it drew one (with the lanes' marbles
    /// ``settledSpans`` gave it).
    package var panelDrawn: StreamPanel? { drawn?.panel }

    /// Whether jumps glide and colours fade, as the original's did (else the ball jumps).
    package var animated: Bool { glide != nil }
    /// Whether this screen can show colours between the flat ones (direct colour, or a
    /// 256-colour palette's nearest entries): fewer colours switch at once.
    private let blends: Bool
    /// Where the disc is drawn and in what colours while a jump glides; nil: not animated.
    private var glide: Glide?
    /// How the last change of place since the last frame is drawn (``noteMove(_:)``).
    private var move = Glide.Move.glides

    /// Binds `viewModel` to `screen`; its current appearance is drawn at the first flush.
    /// `animated`: a jump glides and the colours fade over ``Glide/duration`` (presentation
    /// only: the chain has published the final values at once).
    package init(_ viewModel: BallViewModel, to screen: FrameSink, animated: Bool = false) {
        self.screen = screen
        model = ScreenModel(appearance: viewModel.current)
        renderer = Renderer(depth: screen.colourDepth)
        switch screen.colourDepth {
        case .direct, .palette(.xterm256): blends = true
        default: blends = false
        }
        if animated {
            let current = viewModel.current
            glide = Glide(at: Self.look(of: current), on: current.position.screen)
        }
        bind(viewModel)
    }

    /// Binds the screen to `viewModel`'s chain instead (the replay player builds a new chain
    /// wherever it travels to); what it hands over at once is drawn at the next flush.
    package func bind(_ viewModel: BallViewModel) {
        bindings = [
            viewModel.position.bind { [unowned self] in send(.positionPublished($0)) },
            viewModel.slot.bind { [unowned self] in send(.slotPublished($0)) },
            viewModel.mirror.bind { [unowned self] in send(.mirrorPublished($0)) },
            viewModel.ballColour.bind(
                onNext: { [unowned self] in send(.ballColourPublished($0)) },
                onError: { [unowned self] in send(.noticePosted(Self.deadBindingWords($0))) }),
            viewModel.background.bind { [unowned self] in send(.backgroundPublished($0)) },
        ]
    }

    /// What the screen says when an error ends the colours' streams: the binding is dead, and
    /// the colours stay as they were. (RxCocoa's `bind(to:)` traps on an error in a debug build,
    /// and a `Driver` cannot error: a binding must never see one.)
    static func deadBindingWords(_ error: Error) -> String {
        // Without the place: the status line shows where the ball is, and the words must leave
        // room at 80 columns for why the colours stopped.
        let words = (error as? SlotError)?.reason ?? "\(error)"
        return "\(Glyph.error) \(words): the binding is dead"
    }

    /// Binds the screen's colours through `copy`, a Publish copy of `viewModel`'s chain, instead
    /// (`learn`'s "Why Behavior"): a `PassthroughSubject` that each position from now on is sent
    /// to, and the same operators after it. A Publish subject hands a new subscriber nothing, so
    /// the screen shows the original's white view, its ball uncoloured, until the next position;
    /// the position itself stays bound to the subject. ``bind(_:)`` binds back. Nothing looked at
    /// changes: the session and its chain go on as they were.
    package func bindColours(through copy: PublishCopy, _ viewModel: BallViewModel) {
        send(.ballColourPublished(BallState.screenBeforeTheBall))
        send(.backgroundPublished(BallState.screenBeforeTheBall))
        bindings = [
            viewModel.position.bind { [unowned self] in send(.positionPublished($0)) },
            copy.ball.bind { [unowned self] in send(.ballColourPublished($0)) },
            copy.screen.bind { [unowned self] in send(.backgroundPublished($0)) },
        ]
    }

    /// Binds the screen to `viewModel`'s chain but for its colours, which are `colours` (the
    /// replay player's `o`: what the tour's Publish copy showed at the place, worked out by the
    /// player with the same operators).
    package func bind(_ viewModel: BallViewModel, colours: ScreenColours) {
        bindings = [
            viewModel.position.bind { [unowned self] in send(.positionPublished($0)) },
            viewModel.slot.bind { [unowned self] in send(.slotPublished($0)) },
            viewModel.mirror.bind { [unowned self] in send(.mirrorPublished($0)) },
        ]
        send(.ballColourPublished(colours.ball))
        send(.backgroundPublished(colours.background))
    }

    /// How the screen shows colours.
    package var colourDepth: ColourDepth { screen.colourDepth }

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
        var late: [Int]?
        var moment: Int?
        if let (panel, top) = drawn, let panel {
            let row = cell.row - top
            if row >= 1, row < panel.rowCount - 1 {
                intent = panel.columnIndex(at: cell.column)
                moment = panel.moment(at: cell.column)
                lane = panel.lane(atRow: row)
                late = panel.lateLaneIDs(atRow: row)
            }
        }
        send(.pointerHovered(intent: intent, lane: lane, late: late, moment: moment))
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

    /// When the next frame is due, on the run loop's clock: a glide's, or, while the time view
    /// draws a timed operator's wait, the next span's (the wait grows a column a span); nil when
    /// nothing glides or waits (nothing wakes the program).
    package var nextFrameDue: Duration? {
        guard let waitFrameDue else { return glide?.nextFrameDue }
        return min(glide?.nextFrameDue ?? waitFrameDue, waitFrameDue)
    }

    /// When the live time view's drawn wait reaches its next span (or its end); nil: no wait drawn.
    private var waitFrameDue: Duration?

    /// The ball just moved, by a move drawn as `move` says (the program knows what the user's
    /// hand did; the chain publishes only where the ball is): the last move before a flush
    /// says how that flush draws the change of place. A move not noted glides.
    package func noteMove(_ move: Glide.Move) {
        self.move = move
    }

    /// The place and colours `appearance` aims the drawing at.
    private static func look(of appearance: Appearance) -> Glide.Look {
        Glide.Look(centre: appearance.position.centre, ball: appearance.ball.rgb, screen: appearance.background.rgb)
    }

    /// Renders and presents the model, if anything changed since the last frame, or the glide
    /// under way as it is at `now` (the run loop's clock; ``Glide``): a jump glides in from where
    /// the ball is drawn, its first frame at once, then one every ``Glide/frameInterval`` until
    /// it ends; a move noted as drawn at once (``noteMove(_:)``) is drawn where it went.
    package func flush(now: Duration = .zero) {
        let final = model.appearance
        if glide?.aim(at: Self.look(of: final), on: final.position.screen, now: now, move: move) == true {
            needsDrawing = true
        }
        move = .glides
        if let due = waitFrameDue, now >= due - .microseconds(500) { needsDrawing = true }
        guard needsDrawing else { return }
        needsDrawing = false
        let motion = glide?.frame(now: now, blends: blends)
        let area = model.appearance.position.screen
        let panel = panelToDraw(over: area)
        noteScroll(of: final.position, under: panel)
        // The live lanes' clock is the loop's; a page of the player's is drawn as it stands.
        waitFrameDue = model.panel?.content == .live ? panel?.nextWaitFrame?.duration : nil
        let next = shown.map { 1 - $0 } ?? 0
        renderer.render(model, panel: panel, motion: motion, into: &frames[next])
        noteDrawn(panel, in: frames[next].size, over: area, ballAt: motion?.centre ?? final.position.centre)
        screen.present(frames[next], previous: shown.map { frames[$0] })
        shown = next
    }

    /// The streams panel as this frame draws it, over the ball's `area`: the live lanes (or the
    /// player's page), with the room it has, the tour's rows, and what the pointer is on; nil
    /// when it is closed.
    private func panelToDraw(over area: ScreenSize) -> StreamPanel? {
        model.panel.map { shown -> StreamPanel in
            var page: StreamPanel
            switch shown.content {
            case .live:
                page =
                    streams.map {
                        StreamPanel(
                            $0, width: area.columns, fits: shown.fits, axis: model.panelAxis,
                            floor: model.tour != nil ? model.tourFloor : nil)
                    }
                    ?? StreamPanel(columns: [])
            case .page(let given): page = given
            }
            page.fits = shown.fits
            // `learn`'s lanes have their rows: in a lesson on the operators, the slot's lane takes
            // a late subscriber's row that has no live lane.
            if model.tour != nil {
                page.rowBudget = StreamPanel.tourRows
                page.showsSlot = model.tourSlotLane
                page.showsBackground = model.tourBackgroundLane
                page.plainLabels = model.tourPlainLabels
                page.keptLateKinds = model.tourLateRows
                page.unsaidCode = model.tourUnsaidCode
            }
            if shown.content == .live, !shown.fits {
                page.missingRows = StreamPanel.missingRows(playArea: area, slot: page.showsSlot)
            }
            page.hovered = shown.hovered
            page.hoveredLane = shown.hoveredLane
            page.hoveredLate = shown.hoveredLate
            page.hoveredMoment = shown.hoveredMoment
            // What it draws, worked out once: the frame reads it again and again.
            page.keepDrawn()
            if shown.content == .live {
                settledSpans.fill(&page, floor: model.tour != nil ? model.tourFloor : nil)
            } else {
                pageSpans.fill(&page)
            }
            return page
        }
    }

    /// The view's scroll in play as the last frame drew it, and the ball's place then.
    private var scrolled: (offset: Int, position: BallPosition)?

    /// In play, where the panel covers the ball's area's bottom rows and the view follows the
    /// ball above them: when the view scrolls with the ball where it was (the panel opened or
    /// closed, its rows changed), the drawn ball moves though the ball did not, so the status
    /// line says so until the ball moves.
    private func noteScroll(of position: BallPosition, under panel: StreamPanel?) {
        guard model.player == nil, model.tour == nil else { return }
        let offset = Renderer.viewOffset(
            of: model, for: position, coveredFrom: position.screen.rows - 1 - (panel?.rowCount ?? 0))
        defer { scrolled = (offset, position) }
        guard let before = scrolled else { return }
        let shown = model.notice.map { notice in Self.scrollNotices.contains(where: notice.hasPrefix) } ?? false
        if before.position != position || offset == 0 {
            // The ball moved, or the view is back where the ball's rows are its own.
            if shown { _ = model.update(.noticePosted(nil)) }
        } else if before.offset != offset {
            _ = model.update(.noticePosted(Self.scrollNotice(by: offset)))
        }
    }

    /// What the status line says when the view is scrolled `rows` up (the drawn ball `rows`
    /// above its place) with the ball where it was.
    static func scrollNotice(by rows: Int) -> String {
        "view scrolled \(rows) row\(rows == 1 ? "" : "s"): the ball did not move"
    }

    /// How the scroll notices begin (one is taken away when the ball moves).
    private static let scrollNotices = ["view scrolled "]

    /// Takes the scroll's notice away, if shown: the next key does, as the status line's facts
    /// need their room back.
    package func takeScrollNoticeAway() {
        guard let notice = model.notice, Self.scrollNotices.contains(where: notice.hasPrefix) else { return }
        send(.noticePosted(nil))
    }

    /// Keeps what the pointer's hit-testing needs of the frame just drawn (of `size`, the ball's
    /// `area` in it): the panel and the row it starts on, and the view's scroll with the ball
    /// drawn at `centre` (mid-glide, where the glide put it).
    private func noteDrawn(_ panel: StreamPanel?, in size: ScreenSize, over area: ScreenSize, ballAt centre: Cell) {
        let top = Renderer.panelTop(
            frame: size, area: area, panelRows: panel?.rowCount ?? 0, extraRows: model.player?.rows.count ?? 0)
        drawn = (panel, top)
        var drawnPosition = model.appearance.position
        drawnPosition.centre = centre
        viewOffset = Renderer.viewOffset(of: model, for: drawnPosition, coveredFrom: top)
    }

    /// Presents the current frame again, whole (after the terminal lost its contents).
    package func redraw() {
        guard let shown else { return }
        screen.present(frames[shown], previous: nil)
    }
}

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
    /// When the chain's next timer is due (a timed operator in the slot), on the loop's clock,
    /// whose time is the session's: the loop wakes only then.
    package var deadline: Duration? { session.nextTimer?.duration }
    /// The terminal's size (the ball's area, the panel over it; in `learn`, laid out by ``tour``).
    package private(set) var terminal: ScreenSize
    private var streamsOpen = false
    /// Whether the streams panel is open.
    package var isStreamsOpen: Bool { streamsOpen }
    /// Whether the button went down on the streams panel: until it comes up, the pointer
    /// inspects the panel's columns and moves nothing.
    private var inspecting = false
    /// Whether the operators box is open to add a stage (`|`): the next operator's key adds it.
    private var addingStage = false
    /// How long a timed operator the operators box puts in waits: the slot's timed stage's, or,
    /// with none, the last chosen there with `(` `)` (300 ms at first).
    package var interval: SlotInterval { session.state.slot.timing ?? chosenInterval }
    /// The interval last chosen with `(` `)` in the operators box.
    private var chosenInterval = SlotInterval.usual
    /// The operators the operators box (`f`) names without what they do, each with the lesson
    /// that asks it (`learn` keeps it: their lesson's question not answered yet); none in play.
    package var untoldOperators: [SlotOperator: Int] = [:]
    /// Whether the operators box's `R` puts `retry` in with `catch` after it (`learn`, which lets
    /// no error reach the colour: retry's last error would, so alone it could not go in).
    package var catchesRetry = false
    /// What a key of the operators box (or one of its keys outside it) said on the status line,
    /// while shown: the next key takes it away.
    private var keyNotice: String?
    /// The notice that a late subscriber subscribed while the panel was closed, while shown.
    private var lateNotice: String?
    /// Called each time the loop has handled what woke it, before it draws: a binding that
    /// writes a file (the trace) writes what that wake made.
    package var handledWake: (() -> Void)?

    /// How `learn` lays a terminal out (the card, the ball's area, the lanes); nil: the ball's
    /// area is the terminal, the panel over its bottom rows.
    private let tour: ((ScreenSize) -> TourLayout)?

    /// Play on `screen`, a terminal of `terminal`, from the start; `streams` opens the panel;
    /// `animated`: jumps glide and colours fade, as the original's did. With `tour` (`learn`), the
    /// ball plays in the area it lays out for each terminal size, between the card and the lanes.
    package init(
        screen: FrameSink, terminal: ScreenSize, streams open: Bool = false, animated: Bool = false,
        tour: ((ScreenSize) -> TourLayout)? = nil
    ) {
        self.terminal = terminal
        self.tour = tour
        let laidOut = tour?(terminal)
        layout = laidOut
        session = BallSession(screen: laidOut?.area ?? terminal)
        binding = ScreenBinding(session.viewModel, to: screen, animated: animated)
        streams = StreamRecorder(session: session)
        binding.streams = streams
        if let laidOut { binding.send(.tourLaidOut(laidOut)) }
        noteWindowSize()
        if open { toggleStreams() }
    }

    /// How `learn` laid out the terminal as it is now; nil: not `learn`.
    package private(set) var layout: TourLayout?

    /// Whether the terminal shows all the program needs (in `learn`, its card, the ball and the lanes).
    package var showsAll: Bool { layout?.fits ?? true }

    package var isFinished: Bool { session.isFinished }

    /// The timer is due: the session's clock moves on to it (the loop may wake a little early),
    /// then a microsecond past it, so that an input read after it is stamped after it, and a
    /// replay, where an input at a timer's instant goes first, runs them in the order play did.
    package func deadlineReached(now: Duration) {
        let due = max(SessionTime(now), session.nextTimer ?? .start)
        session.advance(to: due)
        session.reach(due.advanced(by: .microseconds(1)))
    }

    /// The session's time is the loop's: what the chain's timers do, they do at their time (one
    /// due at this very instant waits for the input read now, which goes first).
    package func clockReached(_ now: Duration) { session.reach(SessionTime(now)) }

    package func perform(_ action: KeyAction, now: Duration) {
        binding.takeScrollNoticeAway()
        if let shown = keyNotice {
            keyNotice = nil
            if binding.model.notice == shown { binding.send(.noticePosted(nil)) }
        }
        switch action {
        case .intent(.pressed(let cell)) where binding.isOnPanel(cell):
            // A click on the panel inspects a column; the ball stays where it is.
            inspecting = true
            binding.pointerMoved(to: cell)
        case .intent(.dragged(let cell)) where inspecting: binding.pointerMoved(to: cell)
        case .intent(.released) where inspecting: inspecting = false
        case .intent(let intent):
            let before = session.state.position.centre
            session.send(inArea(intent))
            if session.state.position.centre != before { binding.noteMove(Self.move(for: intent)) }
        case .showOperators:
            addingStage = false
            binding.send(
                .helpOpened(
                    Self.operatorsBox(
                        current: session.state.slot, untold: untoldOperators, interval: interval,
                        catchesRetry: catchesRetry))
            )
        case .addStage where binding.model.help?.choice == .operators:
            let pipe = session.state.slot
            guard SlotOperator.allCases.contains(where: { pipe.accepts(.stageAdded($0)) }) else {
                binding.send(.helpClosed)
                return keyNotice(
                    pipe.stages.count >= SlotPipe.most
                        ? PipeProblem.tooMany(SlotPipe.most + 1).brief
                        : "no operator goes after \(pipe.last.name): Backspace takes it out")
            }
            addingStage = true
            binding.send(
                .helpOpened(
                    Self.operatorsBox(
                        current: pipe, untold: untoldOperators, interval: interval, adding: true,
                        catchesRetry: catchesRetry))
            )
        case .removeStage where binding.model.help?.choice == .operators:
            binding.send(.helpClosed)
            guard !session.state.slot.stages.isEmpty else {
                return keyNotice("the pipe is empty: no stage to take out")
            }
            build(.stageRemoved)
        case .clearPipe where binding.model.help?.choice == .operators:
            binding.send(.helpClosed)
            build(.operatorChosen(.none))
        case .changeInterval(let longer) where binding.model.help?.choice == .operators:
            changeInterval(longer: longer)
        case .addStage, .removeStage, .clearPipe, .changeInterval:
            // The pipe's keys work in the operators box: say where.
            let does =
                switch action {
                case .addStage: "| adds a stage"
                case .removeStage: "Backspace takes the last stage out"
                case .changeInterval: "( ) choose how long debounce and throttle wait"
                default: "/ empties the pipe"
                }
            keyNotice("\(does) in the operators box: f opens it")
        case .digit(let number) where binding.model.help?.choice == .operators:
            binding.send(.helpClosed)
            guard let chosen = SlotOperator(digit: number) else { return }
            put(chosen)
        case .chooseOperator(let chosen) where binding.model.help?.choice == .operators:
            binding.send(.helpClosed)
            put(chosen)
        case .chooseOperator(let chosen):
            // An operator's key works in the operators box: say where, as for the pipe's keys.
            keyNotice("\(Character(chosen.key)) puts \(chosen.alone.shownName) in, from the operators box: f opens it")
        case .digit:
            // (Play's digits: `learn` reads its own outside the box.)
            keyNotice("a digit puts an operator in, from the operators box: f opens it")
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

    /// How the move `intent` made is drawn: at once where the user's hand is on the ball (a drag
    /// step or the release that ends it, under the pointer; a one-cell arrow), else it glides
    /// (a click away from the ball, `c`, Shift-moves).
    package static func move(for intent: Intent) -> Glide.Move {
        switch intent {
        case .dragged, .released, .arrowPressed(_, distance: 1): .atOnce
        case .pressed, .arrowPressed, .recentred, .resized, .quitRequested, .completionRequested, .operatorChosen,
            .stageAdded, .stageRemoved, .mirrorFlipped:
            .glides
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
        layout = tour?(terminal)
        if let layout { binding.send(.tourLaidOut(layout)) }
        session.send(.resized(layout?.area ?? terminal))
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
        // In `learn` the lanes have rows of their own.
        let fits = tour != nil || StreamPanel.fits(over: session.state.position.screen, slot: streams.slotUsed)
        binding.send(.panelShown(content: .live, fits: fits))
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

    /// `(` or `)` in the operators box: a timed operator waits the next shorter or longer
    /// interval. The slot's timed stage, if it has one, is built afresh with it (an intent, as a
    /// choice is); the box, open still, shows it, and puts a timed operator in with it.
    private func changeInterval(longer: Bool) {
        guard let next = longer ? interval.longer : interval.shorter else {
            return keyNotice(
                "\(interval.words) is the \(longer ? "longest" : "shortest") wait: \(longer ? "(" : ")") goes \(longer ? "shorter" : "longer")"
            )
        }
        chosenInterval = next
        let pipe = session.state.slot
        if pipe.timing != nil { build(.operatorChosen(pipe.waiting(next))) }
        binding.send(
            .helpOpened(
                Self.operatorsBox(
                    current: session.state.slot, untold: untoldOperators, interval: interval, adding: addingStage,
                    catchesRetry: catchesRetry)))
    }

    /// Puts `chosen` in the chain's slot from the operators box: the pipe it makes alone, or, after
    /// `|`, at the end of the pipe there (or a notice of why it does not fit); a timed one waits
    /// the box's ``interval``.
    private func put(_ chosen: SlotOperator) {
        defer { addingStage = false }
        let chosen = chosen.waiting(interval)
        guard addingStage else { return build(.operatorChosen(chosen.alone(catchingRetry: catchesRetry))) }
        switch session.state.slot.adding(chosen) {
        case .success: build(.stageAdded(chosen))
        case .failure(let problem): keyNotice(problem.brief)
        }
    }

    /// Posts `words` on the status line's notice, until the next key.
    private func keyNotice(_ words: String) {
        keyNotice = words
        binding.send(.keyAnswered(words))
    }

    /// In `learn`: why the pipe an intent would build may not go into the slot, if it may not
    /// (nil: it may); the status line says it, and the slot stays as it is.
    package var refusesPipe: ((SlotPipe) -> String?)?

    /// Builds the chain's pipe anew with `intent` (a choice, a stage added or taken out).
    private func build(_ intent: Intent) {
        if let refusal = refusesPipe?(reduce(session.state, intent).slot) { return keyNotice(refusal) }
        session.send(intent)
        // The slot's lane comes with the first operator: the panel may need a row more.
        if streamsOpen { showPanel() }
    }

    package func hungUp() { session.send(.quitRequested) }

    /// The operators the chain's slot can hold, as a box over the ball (`f`): each with its digit,
    /// the code its key puts in (``puts(_:current:adding:unsaid:)``) and what it does, the one in the
    /// slot marked; a digit puts one in (an intent).
    /// Those in `untold` (`learn`: their lesson not done) name their lesson, not what they do.
    /// The timed ones wait `interval` (the slot's timed stage's, if it has one), and a row after
    /// them says which of the three it is, `(` and `)` choosing another.
    /// With `catchesRetry` (``catchesRetry``), `R`'s row puts `retry` in with `catch` after it.
    package static func operatorsBox(
        current: SlotPipe, untold: [SlotOperator: Int] = [:], interval: SlotInterval? = nil, adding: Bool = false,
        catchesRetry: Bool = false
    ) -> HelpText {
        let interval = interval ?? current.timing ?? .usual
        // Adding a stage, only those that fit after the pipe's last stage.
        let offered = SlotOperator.allCases.filter { !adding || current.accepts(.stageAdded($0.waiting(interval))) }
        var rows = offered.map { plain in
            let slot = plain.waiting(interval)
            let alone = slot.alone(catchingRetry: catchesRetry)
            // A stage the key puts in besides the operator (catch after retry): its words too.
            let besides = adding ? [] : alone.stages.dropFirst(alone.stages.firstIndex(of: slot).map { $0 + 1 } ?? 0)
            let words =
                untold[plain].map { "lesson \($0)" } ?? ([slot] + besides).map(\.words).joined(separator: "; then ")
            return HelpRow(
                keys: "\(Character(slot.key))\(!adding && alone == current ? " ◂" : "")",
                does:
                    "\(puts(slot, current: current, adding: adding, unsaid: Set(untold.keys), catchesRetry: catchesRetry)): \(words)"
            )
        }
        if let last = offered.lastIndex(where: { $0.timing != nil }) {
            let choices = SlotInterval.allCases.map { "\($0.words)\($0 == interval ? " ◂" : "")" }
            rows.insert(
                HelpRow(
                    keys: "( )",
                    does:
                        "how long \(offered.filter { $0.timing != nil }.map(\.name).joined(separator: " and ")) wait: \(choices.joined(separator: ", "))"
                ),
                at: last + 1)
        }
        var box = HelpText(
            title: adding ? "Add a stage after \(current.laneLabel)" : "Between position and ballColour (◂ in now)",
            rows: rows,
            footer: adding
                ? "its key adds it last (only those that fit are here); other keys close"
                : "a digit (or a) puts that one in; | adds one, Backspace takes one out")
        box.choice = .operators
        return box
    }

    /// The code `slot`'s key in the operators box puts in, as the chain will read it: the pipe
    /// it goes in as (``SlotOperator/alone``: `9` puts `position.map { _ in 1 }.scan(0) { $0 + $1 }`);
    /// adding a stage, what it adds after `current` (`.scan(0) { $0 + $1 }`), or the whole pipe where
    /// adding it changes a stage before (`map` becomes the counter's `map { _ in 1 }`).
    /// The stages in `unsaid` (`learn`: their lesson not done) are named without what their
    /// lesson asks (``SlotOperation/unsaidCode``).
    /// With `catchesRetry`, `retry` alone goes in with `catch` after it (``catchesRetry``).
    package static func puts(
        _ slot: SlotOperator, current: SlotPipe, adding: Bool, unsaid: Set<SlotOperator> = [],
        catchesRetry: Bool = false
    ) -> String {
        guard slot != .none else { return "nothing" }
        guard adding, case .success(let pipe) = current.adding(slot) else {
            return slot.alone(catchingRetry: catchesRetry).code(unsaid: unsaid)
        }
        let (before, code) = (current.code(unsaid: unsaid), pipe.code(unsaid: unsaid))
        guard !current.stages.isEmpty, code.hasPrefix(before) else { return code }
        return String(code.dropFirst(before.count))
    }

    package func resumed(after duration: Duration) {}

    package func willFlush() { handledWake?() }
}

import BallModel
import BallStreams
import ColourCore
import TextFormats

// MARK: - The streams panel: what it shows

/// Where `learn`'s lesson began, from which its lanes are drawn: the column (its own events are
/// the lesson before's) and the first late subscription made since.
package struct PageFloor: Hashable, Sendable {
    /// The intent index the lesson began at.
    package var column: Int
    /// The id of the first late subscription made in the lesson (``StreamRecorder/subscriptionsMade``).
    package var subscription: Int
    /// The number of the first Publish copy bound in the lesson (``StreamRecorder/copiesMade``).
    package var copy: Int
    /// Whether the closing card's lanes begin here (the lessons are over), not a lesson's.
    package var closing: Bool

    /// A floor at `column`, late lanes from `subscription` on, Publish copies from `copy` on;
    /// `closing`: the closing card's.
    package init(column: Int, subscription: Int, copy: Int = 0, closing: Bool = false) {
        self.column = column
        self.subscription = subscription
        self.copy = copy
        self.closing = closing
    }

    /// What the column it begins at says in place of an intent (its events are drawn on the page
    /// before it): where a lesson began, or the closing card.
    package var words: String { closing ? "the closing card began here" : "the lesson began here" }
}

/// The streams panel as a value: the columns on its page, the late lanes, and how much room
/// it has. The binding makes one from the ``StreamRecorder`` for each frame; the renderer
/// draws it between the ball's area and the status line.
package struct StreamPanel: Hashable, Sendable {
    /// The panel's rows without the values line: a ruler, the four main lanes, one for each kind of
    /// late subscriber, and the description of the latest column (what does not fit gives up its
    /// row, ``rowBudget``).
    package static let rows = 2 + StreamLane.main.count + LateSubscriber.allCases.count

    /// The rows `learn`'s lanes keep: ``rows`` and the values line, so that every lane a lesson
    /// needs is drawn: Completion's four late lanes with the ruler and every main lane, and a
    /// lesson on `flatMap` the slot's lane, the row naming its parts, `grabbed` and two presses'
    /// inner lanes in the late rows' place with every main lane (the ruler gives up its row
    /// first, ``rowBudget``). One row more would take the ball's ``BallShape/verticalRoom`` at 80×24.
    package static let tourRows = rows + 1

    /// How many rows the panel takes at most when it fits: ``rows``, the values line, and with
    /// `slot` the slot's lane, the row that names its segments, and the lanes of what the operator
    /// in it reads (as many as the operator that reads most has).
    package static func rows(slot: Bool) -> Int {
        rows + 1 + (slot ? 2 + StreamLane.mostInputs : 0)
    }
    /// The label column's width (" late Replay(3)" and a space).
    package static let labelWidth = 16

    /// What the ruler says beside its label where the player's page has a future: the marks in
    /// its colour (or drawn as ``Glyph/later``) come later than the player's place.
    package static let laterWords = "later"

    /// The columns on the page, oldest first.
    package var columns: [StreamColumn] { didSet { kept = KeptDrawn() } }
    /// The late subscribers' lanes.
    package var lateLanes: [LateLane] { didSet { kept = KeptDrawn() } }
    /// Whether it fits; if not, it is one line saying how many rows it needs.
    package var fits: Bool
    /// When it does not fit, how many more rows the terminal needs for it.
    package var missingRows = StreamPanel.rows
    /// The intent the replay player is at: later columns ("the future") are drawn dim, and
    /// the description is of this column. Nil: the latest column.
    package var present: Int? { didSet { kept = KeptDrawn() } }
    /// How far the player's present has gone on the session's clock, where a timer of the chain
    /// is still to come before the next intent (nil: the place whole, until the next intent): in
    /// the time view, a wait of the present's runs to there, as the live panel drew it then, and
    /// the spans after it are the future.
    package var reached: SessionTime? { didSet { kept = KeptDrawn() } }
    /// The column under the pointer, if any: the description is of it.
    package var hovered: Int?
    /// The lane under the pointer, if any: the description names its code and what it did in
    /// the hovered column.
    package var hoveredLane: StreamLane?
    /// The ids of the late lanes in the row under the pointer, where it is a late row with lanes
    /// (``lateLaneIDs(atRow:)``): the description is of that row's lane, not another of its kind.
    package var hoveredLate: [Int]?
    /// The late subscription or cancel after the hovered intent whose column is under the
    /// pointer, if it is one's (``StreamColumn/moment``): the description is of that column.
    package var hoveredMoment: Int?

    /// Whether it draws the slot's lane: once the session (or the recording) put an operator in it.
    package var showsSlot = false { didSet { kept = KeptDrawn() } }
    /// Whether it draws background's lane (`learn`'s first lesson does not: what background gets
    /// where ballColour swallows a value is the next lesson's question). Left out so, it is no lane
    /// cut for want of room: the lesson's card says where it comes.
    package var showsBackground = true { didSet { kept = KeptDrawn() } }
    /// The letter each value has in the session (``ValueLetterBook``): a page draws a value with
    /// it where no other value drawn before it on the page has it.
    package var homeLetters: ValueLetters = [:]
    /// The time view's spans, when a column is a span of time (``PanelAxis``); nil: a column an
    /// intent. ``columns`` then begins with the column before the first span's start, which says
    /// how each lane stands as the spans begin.
    package var spans: TimeSpans?
    /// How far a wait drawn in the time view has gone (the session's clock); nil: to its end.
    package var now: SessionTime?

    /// How many rows it may take, if it has a fixed number (`learn`'s lanes have ``tourRows`` of
    /// their own): over it, a kind of late subscriber with no live lane gives up its row (the
    /// last first) to the slot's lane, which is not drawn where every kind has a live one.
    package var rowBudget: Int? { didSet { kept = KeptDrawn() } }
    /// The kinds of late subscriber whose rows `learn`'s lesson needs (its task subscribes them):
    /// with no lane yet, such a row (its key's hint) is given up after the ruler, not before.
    package var keptLateKinds: Set<LateSubscriber> = [] { didSet { kept = KeptDrawn() } }
    /// The kinds of late subscriber labelled by name alone (`late Replay`, not `late Replay(3)`)
    /// where their row has no lane by the present (an idle row, its key's hint): in `learn` and a
    /// recorded tour, every kind (``TourLessonLanes/plainLabels``). A lane drawn says its kind in
    /// full: the tour takes a late key only once that key's question is answered.
    package var plainLabels: Set<LateSubscriber> = []
    /// Parts of the lanes' code the hover says otherwise, each with its words instead (`learn`,
    /// before the lesson that teaches it: `.share(replay: 1)` as ` (shared: lesson 9)`).
    package var unsaidCode: [String: String] = [:]
    /// What the first column says in place of an intent where `learn`'s page begins without the
    /// events of its own column (``lessonOnly(from:)``): ``PageFloor/words``.
    package var floorWords = PageFloor(column: 0, subscription: 0).words
    /// The lanes that completed in the column such a page begins at (the session's end, `e`): drawn
    /// as ended there (nothing on them), and said to have completed, not to have failed.
    package var completedBeforePage: Set<StreamLane> = []

    /// The label of `kind`'s late row: its name, with what it keeps unless ``plainLabels`` has it
    /// and the row has no lane by the present.
    func lateLabel(_ kind: LateSubscriber) -> String {
        let label = StreamLane.late(kind).label
        let idle = !lateLanes.contains { $0.kind == kind && $0.start <= (present ?? .max) }
        return plainLabels.contains(kind) && idle ? String(label.prefix { $0 != "(" }) : label
    }

    /// What it draws: whether the ruler, the slot's lane and the row that names its segments, the
    /// lanes of what the operator in it reads, which kinds of late subscriber have a row (see
    /// ``rowBudget``), whether the values line, and the input lanes it had no room for (the
    /// description line names them: a lane is never cut silently). Short of rows, it gives up
    /// first the late rows with no lane (a key's hint) but those the lesson keeps
    /// (``keptLateKinds``), then on the player's page the input lanes
    /// the live panel had not drawn at the place shown (``unseenInputs``), then the ruler (the values line names the
    /// letters, so it stays longer), then the late rows whose lane ended or that have none (the
    /// kept last), then, for the Publish
    /// copy's lanes (`learn`'s `o`), the live late rows (named), then the background's
    /// lane where the next would be one of flatMap's inner lanes, then the input lanes from the
    /// last, then the stage lanes from the last (where one draws a last stage's completion, the
    /// row naming the slot's segments goes first: the stages' labels name them), then the row
    /// naming the slot's segments (its lane keeps their `├`), then
    /// the values line (the lanes then draw no letters: each such value is `○`), then the slot's
    /// lane. Kept once worked out for a frame (``keepDrawn()``).
    private var drawn: Drawn {
        guard let kept = kept.drawn else { return drawnAfresh }
        assert(kept == drawnAfresh, "the panel's kept rows are not what it draws: a part they depend on changed")
        return kept
    }

    /// Works out what it draws (``drawn``) once, for a frame: its rows, their count, the time
    /// view's lanes and the lane under the pointer read it many times a frame, and it reads every
    /// column on the page. Kept until a part it depends on changes (the columns, the late lanes,
    /// the present, the slot's and background's lanes, the row budget, whose inputs it draws).
    package mutating func keepDrawn() {
        kept = KeptDrawn(drawn: drawnAfresh)
    }

    /// What it draws, worked out afresh (``drawn``).
    private var drawnAfresh: Drawn {
        var drawn = Drawn(
            slot: showsSlot, segments: showsSlot, inputs: showsSlot ? inputLanes : [],
            stages: showsSlot ? partLanes : [], copy: columns.contains { $0.copy != nil })
        drawn.background = showsBackground
        // flatMap's inner lanes, and the Publish copy's, take no more rows than the panel keeps
        // (``rows(slot:)``): where they would, they take the rows of the late kinds with no lane
        // first (an export has room).
        // A late kind subscribed again where its last lane ended draws that lane in a row of its
        // own (``lateRows(_:)``).
        drawn.extra = LateSubscriber.allCases.flatMap { kind in
            Array(repeating: kind, count: max(0, lateRows(kind).count - 1))
        }
        let kept = inputsOfEveryOperator ? nil : Self.rows(slot: showsSlot)
        guard let rowBudget = rowBudget ?? kept else { return drawn }
        let completion = drawsStageCompletion
        let unseen = unseenInputs
        while drawn.rows > rowBudget {
            if let free = drawn.kinds.lastIndex(where: { kind in
                !keptLateKinds.contains(kind) && !lateLanes.contains { $0.kind == kind }
            }) {
                drawn.kinds.remove(at: free)
            } else if let extra = drawn.inputs.lastIndex(where: unseen.contains) {
                // The player's lanes the live panel had not drawn at the place shown give their
                // rows up before any lane it drew.
                drawn.folded.insert(drawn.inputs.remove(at: extra), at: 0)
            } else if drawn.ruler {
                drawn.ruler = false
            } else if let most = drawn.kindWithMostExtraRows, let older = drawn.extra.lastIndex(of: most) {
                // An older lane's own row, of the kind with the most (each kind keeps its newest
                // lane's row; the description line says how many lanes it leaves out). The kind
                // is the one with the most of `extra`'s rows, so it has one there.
                drawn.extra.remove(at: older)
            } else if let ended = drawn.kinds.lastIndex(where: { kind in
                !keptLateKinds.contains(kind) && !lateLanes.contains { $0.kind == kind && $0.isLive }
            }) ?? drawn.kinds.lastIndex(where: { kind in !lateLanes.contains { $0.kind == kind && $0.isLive } }) {
                drawn.kinds.remove(at: ended)
            } else if drawn.copy, !drawn.kinds.isEmpty {
                // The copy's lanes are the point where they are drawn (what the screen follows while
                // `o` binds it): a live late lane gives its row up to them, and the description
                // line names it.
                drawn.kinds.removeLast()
            } else if drawn.background, case .inner? = drawn.inputs.last {
                // An inner lane is the point where it is drawn (a press's subscription, and its
                // `!`); the screen's colour follows the ball's, which ballColour shows.
                drawn.background = false
                drawn.folded.append(.background)
            } else if drawn.background, drawn.stages.contains(where: \.isRetried) {
                // So are the subscriptions retry made anew, a row each (Rx draws each subscription).
                drawn.background = false
                drawn.folded.append(.background)
            } else if let last = drawn.inputs.popLast() {
                drawn.folded.insert(last, at: 0)
            } else if drawn.segments, completion {
                drawn.segments = false
            } else if let part = drawn.stages.lastIndex(where: { $0.isRetried && !isShown($0) })
                ?? drawn.stages.lastIndex(where: { !isShown($0) }) ?? drawn.stages.lastIndex(where: \.isRetried)
                ?? drawn.stages.indices.last
            {
                // The parts of pipes other than the one at the place shown first, retry's
                // subscriptions to them before them; then the last of retry's subscriptions (the
                // description line counts them), so that no row of retry's outlives its part's.
                drawn.folded.insert(drawn.stages.remove(at: part), at: 0)
            } else if drawn.segments {
                drawn.segments = false
            } else if drawn.values {
                drawn.values = false
            } else if drawn.slot {
                drawn.slot = false
            } else {
                break
            }
        }
        return drawn
    }

    /// What ``keepDrawn()`` worked out, kept with the panel; no part of its value (panels that are
    /// equal draw the same).
    private var kept = KeptDrawn()

    /// What a panel draws, once worked out for a frame (nil: not, or a part it depends on changed).
    private struct KeptDrawn: Hashable, Sendable {
        var drawn: Drawn?

        static func == (_: Self, _: Self) -> Bool { true }
        func hash(into _: inout Hasher) {}
    }

    /// What a panel draws below its ruler (``drawn``).
    private struct Drawn: Hashable, Sendable {
        /// Whether the ruler.
        var ruler = true
        /// Whether the slot's lane.
        var slot: Bool
        /// Whether the row above it that names its segments.
        var segments: Bool
        /// The lanes of what the operator in the slot reads.
        var inputs: [StreamLane]
        /// The rows of the pipes' stages, an operator's part each (``StreamPanel/partLanes``).
        var stages: [StreamLane]
        /// Whether the lanes of `learn`'s Publish copy of the chain (a copy lived on the page).
        var copy: Bool
        /// Whether the background's lane (given up for flatMap's inner lanes where rows are short).
        var background = true
        /// The kinds of late subscriber with a row.
        var kinds = LateSubscriber.allCases
        /// A kind for each more row of its lanes drawn (``StreamPanel/lateRows(_:)``).
        var extra: [LateSubscriber] = []
        /// Whether the values line.
        var values = true
        /// The input lanes it had no room for.
        var folded: [StreamLane] = []

        /// The rows of `kind`'s lanes it draws, top to bottom (of `rows`, ``StreamPanel/lateRows(_:)``,
        /// oldest first): the newest lane's row, and each older one it has room for above it.
        func drawnRows(of kind: LateSubscriber, _ rows: [[LateLane]]) -> [[LateLane]] {
            Array(rows.suffix(1 + extra.count { $0 == kind }))
        }

        /// The kind with the most rows of older lanes (the last of those with as many), if any.
        var kindWithMostExtraRows: LateSubscriber? {
            let rows = { (kind: LateSubscriber) in extra.count { $0 == kind } }
            return LateSubscriber.allCases.reversed().max { rows($0) < rows($1) }.flatMap { rows($0) > 0 ? $0 : nil }
        }

        /// How many rows the panel takes with these: the ruler, the lanes, the values line and the
        /// description.
        var rows: Int {
            (ruler ? 2 : 1) + StreamLane.main.count - (background ? 0 : 1) + (slot ? 1 : 0) + (slot && segments ? 1 : 0)
                + inputs.count
                + stages.count + kinds.count + extra.count + (copy ? StreamLane.copy.count : 0)
                + (values ? 1 : 0)
        }
    }

    /// The lanes of what the operator in the slot reads beyond the position: the operator's at the
    /// place shown, or (``inputsOfEveryOperator``) those of every operator on the page.
    private var inputLanes: [StreamLane] {
        // flatMap's inner subscriptions on the page, each its own lane under what it reads.
        let inners = StreamLane.inners(in: columns)
        guard inputsOfEveryOperator else { return StreamLane.inputs(of: presentColumn?.slot ?? .none) + inners }
        let read = Set(columns.flatMap { StreamLane.inputs(of: $0.slot) })
        return SlotInput.allCases.map(StreamLane.init).filter(read.contains) + inners
    }

    /// The input lanes it draws that the live panel had not drawn at the place shown (the
    /// player's page, ``inputsOfEveryOperator``): those of another operator on the page than the
    /// one in the slot there, and flatMap's inner subscriptions made after it.
    private var unseenInputs: Set<StreamLane> {
        guard inputsOfEveryOperator, let present else { return [] }
        let seen =
            StreamLane.inputs(of: presentColumn?.slot ?? .none)
            + StreamLane.inners(in: columns.filter { $0.index <= present })
        return Set(inputLanes).subtracting(seen)
    }

    /// Whether it draws the inputs of every operator on the page, not only the one in the slot at
    /// the place shown (the exports, which have no rows to save: each part of the slot's lane
    /// is drawn under what its operator read).
    package var inputsOfEveryOperator = false { didSet { kept = KeptDrawn() } }

    /// The main lanes it draws, top to bottom.
    package var mainLanes: [StreamLane] { Self.mainLanes(drawn) }

    /// The main lanes a panel that draws `drawn` draws, top to bottom.
    private static func mainLanes(_ drawn: Drawn) -> [StreamLane] {
        let lanes = StreamLane.main(slot: drawn.slot, inputs: drawn.inputs, stages: drawn.slot ? drawn.stages : [])
        return (drawn.background ? lanes : lanes.filter { $0 != .background }) + (drawn.copy ? StreamLane.copy : [])
    }

    /// The lanes of what the operator in the slot reads, and of the pipe's stages, that the row
    /// budget left out.
    package var foldedLanes: [StreamLane] { drawn.folded }

    /// The kinds of late subscriber it gives a row, top to bottom.
    package var lateKinds: [LateSubscriber] { drawn.kinds }

    /// The kinds of late subscriber with a lane on the page that the rows could not hold.
    package var foldedLateKinds: [LateSubscriber] { foldedLateKinds(drawn) }

    /// The kinds with a late lane that a panel drawing `drawn` gives no row.
    private func foldedLateKinds(_ drawn: Drawn) -> [LateSubscriber] {
        LateSubscriber.allCases.filter { kind in
            !drawn.kinds.contains(kind) && lateLanes.contains { $0.kind == kind }
        }
    }

    /// How many older lanes of each kind with a row it leaves out (those of the rows it had no
    /// room for: each kind's newest lane is drawn), by kind, in the panel's order.
    package var hiddenLateLanes: [(kind: LateSubscriber, count: Int)] { hiddenLateLanes(drawn) }

    /// The same, for a panel drawing `drawn`.
    private func hiddenLateLanes(_ drawn: Drawn) -> [(kind: LateSubscriber, count: Int)] {
        drawn.kinds.compactMap { kind in
            let shown = drawn.drawnRows(of: kind, lateRows(kind)).joined().count
            let hidden = lateLanes.count { $0.kind == kind } - shown
            return hidden > 0 ? (kind, hidden) : nil
        }
    }

    /// What the description line says first of the late lanes it leaves out, longest first (none:
    /// it leaves none out): the kinds with no row, named, and how many older lanes of the kinds
    /// with a row.
    private func foldedLateWords(_ drawn: Drawn, inputs: [String]) -> [String] {
        let folded = inputs + foldedLateKinds(drawn).map(lateLabel)
        let hidden = hiddenLateLanes(drawn)
        let count = hidden.reduce(0) { $0 + $1.count }
        // The subscriptions retry made anew that have no row: how many.
        let retried = drawn.folded.count(where: \.isRetried)
        let again: [String] =
            retried == 0
            ? []
            : [
                "\(retried) of retry's new subscriptions hidden: \(retried == 1 ? "its row" : "their rows") did not fit",
                "+\(retried) retry",
            ]
        guard !folded.isEmpty || count > 0 else { return again.map { "(\($0)) " } }
        let lanes = count == 1 ? "lane" : "lanes"
        let older: [String] =
            switch hidden.count {
            case 0: []
            case 1: ["\(count) older \(lateLabel(hidden[0].kind)) \(lanes) hidden", "\(count) older hidden"]
            default:
                [
                    "\(count) older late \(lanes) hidden: "
                        + hidden.map { "\($0.kind.key) \($0.count)" }.joined(separator: ", "),
                    "\(count) older hidden",
                ]
            }
        let room =
            folded.isEmpty
            ? []
            : [
                "no room for the \(folded.joined(separator: " and ")) lane\(folded.count > 1 ? "s" : "")",
                "+\(folded.joined(separator: ","))",
            ]
        let parts = [room, older, again].filter { !$0.isEmpty }
        return (0..<2).map { form in "(\(parts.map { $0[form] }.joined(separator: "; "))) " }
    }

    /// The column of the place shown: the player's present, or the latest.
    private var presentColumn: StreamColumn? {
        present.flatMap { present in columns.last { $0.index <= present } } ?? columns.last
    }

    /// How many rows it takes.
    package var rowCount: Int {
        guard fits else { return 1 }
        return drawn.rows
    }

    /// How many rows of the ball's area stay in view at least above the panel (and the replay
    /// player's rows): the panel lies over the area's lower rows and the view follows the ball.
    package static let minimumViewRows = 3

    /// Whether the panel fits whole over a ball's area of `area` (the terminal, in play): it
    /// leaves ``minimumViewRows`` of the area in view above it, and the status line below it.
    /// Opening the panel changes nothing of the area: it is looked at, not moved.
    /// With `slot`, the slot's lane too.
    package static func fits(over area: ScreenSize, slot: Bool = false) -> Bool {
        area.rows - 1 - rows(slot: slot) >= minimumViewRows
    }

    /// How many more rows a terminal needs for the panel in play over a ball's area of `area`
    /// (with the slot's lane when `slot`).
    package static func missingRows(playArea area: ScreenSize, slot: Bool = false) -> Int {
        max(1, rows(slot: slot) + minimumViewRows + 1 - area.rows)
    }

    /// How many rows the view of a ball's area is scrolled down (an area row is the frame row
    /// plus this) so that the ball at `position` stays above the rows from frame row
    /// `coveredFrom` on (the panel's, the player's): none until its lowest row would go under
    /// them, then it follows the ball down. Pure: the same position always has the same view.
    package static func viewOffset(for position: BallPosition, coveredFrom: Int) -> Int {
        max(0, position.centre.row + position.shape.halfHeight - (coveredFrom - 1))
    }

    /// What is drawn at `column` (cells from the left), if anything: the intent index of its
    /// column, or in the time view the span's number.
    package func columnIndex(at column: Int) -> Int? {
        guard fits, column >= Self.labelWidth else { return nil }
        let offset = (column - Self.labelWidth) / columnWidth
        if let spans { return offset < spans.count ? spans.first + offset : nil }
        return offset < columns.count ? columns[offset].index : nil
    }

    /// Which late subscription or cancel after its intent the column at `column` (cells from
    /// the left) draws, where it is one's (``StreamColumn/moment``).
    package func moment(at column: Int) -> Int? {
        guard fits, spans == nil, column >= Self.labelWidth else { return nil }
        let offset = (column - Self.labelWidth) / columnWidth
        return offset < columns.count ? columns[offset].moment : nil
    }

    /// The columns as drawn, left to right: each one's intent index (in the time view, its span's
    /// number), and whether it is the player's future (drawn dim): an intent after the present,
    /// or a span after the last the present's place has played: where the clock has
    /// ``reached``, or, the place whole, its last event (its timers' included,
    /// ``playedThrough(_:before:)``); the quiet after it, up to the next intent, is still to come.
    private var drawnColumns: [(id: Int, future: Bool, moment: Int?)] {
        if let spans {
            guard let present, let column = columns.last(where: { $0.index <= present }), let now = column.time else {
                return spans.numbers.map { ($0, false, nil) }
            }
            let over = columns.first { $0.index > present }?.time
            let (nowSpan, overSpan) = (spans.number(of: now), over.map { spans.number(of: $0) } ?? .max)
            let playedSpan = spans.number(of: reached ?? playedThrough(column, before: over))
            return spans.numbers.map { number in
                (number, number > nowSpan && (number >= overSpan || number > playedSpan), nil)
            }
        }
        return columns.indices.map { at in
            (columns[at].index, present.map { columns[at].index > $0 } ?? false, columns[at].moment)
        }
    }

    /// The time of the last thing `column` holds before the next intent (at `over`): its intent's,
    /// what the slot, a stage and the colours passed on or ended with after it (a timer's), the
    /// end of its timed operator's wait, a late subscription made or ended at its place.
    private func playedThrough(_ column: StreamColumn, before over: SessionTime?) -> SessionTime {
        let lanes: [StreamLane] = [.slotted, .ballColour, .background] + (0..<SlotPipe.most).map { .stage($0) }
        var times = lanes.compactMap { column.time(of: $0) } + [column.failedAt].compactMap { $0 }
        if let until = column.waitsUntil { times.append(over.map { min(until, $0) } ?? until) }
        for lane in lateLanes {
            if lane.start == column.index, let at = lane.startedAt { times.append(at) }
            if lane.end?.column == column.index, let at = lane.endedAt { times.append(at) }
        }
        let latest = times.max() ?? .start
        guard let time = column.time, latest > time else { return column.time ?? .start }
        return over.map { min(latest, $0) } ?? latest
    }

    /// The columns as their waits are drawn: the present's wait, where the player's present has
    /// not reached its end (``reached``), runs into the span of that time and no further.
    private var columnsWaiting: [StreamColumn] {
        guard let reached, let present, let at = columns.lastIndex(where: { $0.index <= present }),
            let until = columns[at].waitsUntil, until > reached
        else { return columns }
        var columns = columns
        columns[at].waitsUntil = reached.advanced(by: .microseconds(1))
        return columns
    }

    /// What `lane` shows in each column drawn, by what it showed in each recorded column: the
    /// same, or in the time view the recorded columns projected onto the spans (``project(_:on:from:)``,
    /// or as ``projected`` has it).
    private func marbles(_ lane: StreamLane) -> [Marble?] {
        guard let spans else { return columns.map { $0.marble(lane) } }
        return projected[.main(lane)] ?? project(.main(lane), on: spans, from: columns[...])
    }

    /// What late lanes `row` show in each column drawn (see ``marbles(_:)``).
    private func lateMarbles(_ row: [LateLane]) -> [Marble?] {
        guard let spans else { return columns.map { column in row.lazy.compactMap { $0.marble(in: column) }.first } }
        let lane = SpanLane.late(row.map(\.id))
        return projected[lane] ?? project(lane, on: spans, from: columns[...])
    }

    // MARK: - The time view's lanes on the spans

    /// A lane the time view projects onto its spans: a main lane, or a row of late lanes (by
    /// their ids; one alone for the values line's letters).
    package enum SpanLane: Hashable, Sendable {
        /// A main lane.
        case main(StreamLane)
        /// The late lanes of these ids, drawn in one row.
        case late([Int])
    }

    /// The lanes a frame of the time view projects onto its spans, each with the late lanes it
    /// draws (none for a main lane): every main lane drawn, every late row drawn, and, for the
    /// values line's letters, each late lane of a kind with a row.
    package var spanLanes: [(lane: SpanLane, late: [LateLane])] {
        let drawn = drawn
        var lanes = Self.mainLanes(drawn).map { (lane: SpanLane.main($0), late: [LateLane]()) }
        for kind in drawn.kinds {
            for row in drawn.drawnRows(of: kind, lateRows(kind)) { lanes.append((.late(row.map(\.id)), row)) }
        }
        if drawn.values {
            for lane in lateLanes where drawn.kinds.contains(lane.kind) { lanes.append((.late([lane.id]), [lane])) }
        }
        return lanes
    }

    /// What `lane` shows on `spans`, from `columns` (this panel's, from the last that came before
    /// the first span): each event in the span of its own time (``TimeSpans/lane(_:events:)``), a
    /// main lane's as ``StreamColumn/events(_:)`` gives them (the slot's values, an error after
    /// them, an inner's disposal, the Publish copy's, each at its own), a late lane's
    /// subscription and end at theirs (``LateLane/events(in:)``).
    package func project(_ lane: SpanLane, on spans: TimeSpans, from columns: ArraySlice<StreamColumn>) -> [Marble?] {
        switch lane {
        case .main(let lane):
            // Each part at the time the text export gives it (``StreamColumn/events(_:)``).
            return spans.lane(columns) { $0.events(lane) }
        case .late(let ids):
            let row = ids.compactMap { id in lateLanes.first { $0.id == id } }
            if row.count == 1 { return spans.lane(columns) { row[0].events(in: $0) } }
            return spans.lane(columns) { column in
                row.first { $0.marble(in: column) != nil }?.events(in: column) ?? TimeSpans.LaneEvents()
            }
        }
    }

    /// The lanes' marbles on the spans where worked out already, by ``SettledSpans`` (the live
    /// panel's, kept from frame to frame): drawn as ``project(_:on:from:)`` gives them, which they
    /// are (a lane not here is projected when drawn).
    package var projected: [SpanLane: [Marble?]] = [:]

    /// The rows of the pipes' stages it draws, one for each operator's part on the page
    /// (``StreamLane/part(_:)``): each stage before a pipe's last, and a pipe's last where it
    /// completed on the page on its own (a recovery's fallback, then its end): its `|` is drawn
    /// there, as Rx draws an inner's completion on the inner, never on the output of
    /// `switchToLatest`, which lives on (the slot's lane is then `slotted`, ``slotLaneIsStage``).
    /// Top to bottom by their place in the pipe, then by where each first comes on the page. A
    /// row holds one operator's marbles, labelled with its code (``pipeLabel(_:)``), whatever
    /// pipes come before or after it on the page.
    package var partLanes: [StreamLane] {
        var (parts, seen, beforeLast, endedAlone) = (
            [StagePart](), Set<StagePart>(), Set<StagePart>(), Set<StagePart>()
        )
        var previous: SlotPipe?
        // By index, and each pipe once where it stays: the time view's page holds hundreds of columns.
        for index in columns.indices {
            let pipe = columns[index].slot
            guard pipe.stages.count > 1 else { continue }
            if Self.lastStageEndsAlone(columns[index]) {
                endedAlone.insert(StagePart(number: pipe.stages.count - 1, operation: pipe.last))
            }
            guard pipe != previous else { continue }
            previous = pipe
            for part in StagePart.parts(of: pipe) {
                if part.number < pipe.stages.count - 1 { beforeLast.insert(part) }
                if seen.insert(part).inserted { parts.append(part) }
            }
        }
        let drawn = parts.enumerated().filter { beforeLast.contains($0.element) || endedAlone.contains($0.element) }
        let sorted = drawn.sorted { ($0.element.number, $0.offset) < ($1.element.number, $1.offset) }
        let made = retriedMost(of: Set(sorted.map(\.element)))
        // Each part's row, then a row for each subscription retry made anew to it (in one column at most).
        return sorted.flatMap { _, part in
            [StreamLane.part(part)] + (0..<made[part, default: 0]).map { .part(part.retried($0 + 2)) }
        }
    }

    /// How many subscriptions `retry` made anew to each of `parts` in one column at most, in the
    /// columns whose pipe has the part (none: left out).
    private func retriedMost(of parts: Set<StagePart>) -> [StagePart: Int] {
        var most: [StagePart: Int] = [:]
        // By index: the panel works this out for every column on its page.
        for index in columns.indices {
            let pipe = columns[index].slot
            for number in columns[index].stagesPassed.indices where pipe.stages.indices.contains(number) {
                let part = StagePart(number: number, operation: pipe.stages[number])
                guard parts.contains(part) else { continue }
                let made = columns[index].resubscriptions(ofStage: number)
                if made > most[part, default: 0] { most[part] = made }
            }
        }
        return most
    }

    /// Whether `lane` is a part of the pipe at the place shown (every other lane is); a row of a
    /// subscription `retry` made anew, where that pipe also has a `retry` after the part.
    private func isShown(_ lane: StreamLane) -> Bool {
        guard case .part(let part) = lane else { return true }
        let pipe = presentColumn?.slot ?? .none
        return part.isIn(pipe) && (!part.isRetried || pipe.stages.dropFirst(part.number + 1).contains(.retry))
    }

    /// The lanes of the pipes' stages by their place (``StreamLane/stage(_:)``), as the SVG picture
    /// draws them: each stage before a pipe's last, and, where a pipe's last stage completed on
    /// the page on its own (a recovery's fallback, then its end), the lane of that stage too.
    package var stageLanes: [StreamLane] {
        let before = StreamLane.stages(in: columns)
        guard let ended = columns.lazy.filter(Self.lastStageEndsAlone).map({ $0.slot.stages.count - 1 }).max(),
            ended >= before.count
        else { return StreamLane.withRetried(before, in: columns) }
        return StreamLane.withRetried((0...ended).map(StreamLane.stage), in: columns)
    }

    /// Whether the last stage of `column`'s pipe of several completed there while `slotted` lives
    /// on (a recovery's fallback, then its end).
    private static func lastStageEndsAlone(_ column: StreamColumn) -> Bool {
        let last = column.slot.stages.count - 1
        return last > 0 && column.completed.contains(.stage(last)) && !column.completed.contains(.slotted)
    }

    /// Whether it draws, among its stage lanes, one for a last stage that completed on its own
    /// (``stageLanes``): short of rows, the row naming the slot's segments then goes before a
    /// stage's lane (the stages' labels name them).
    private var drawsStageCompletion: Bool { columns.contains(where: Self.lastStageEndsAlone) }

    /// Whether the slot's lane is labelled with the last stage's code (``pipeLabel(_:)``): where
    /// every column on the page has that pipe's stage, and the stage did not end on its own on
    /// the page or before it (then the lane is `slotted`, the switch's output, which lives on, and
    /// the stage's end is drawn on its own lane, ``stageLanes``): its marbles are then that
    /// stage's, which ends only with `slotted`.
    private var slotLaneIsStage: Bool {
        let pipe = labellingPipe(for: .slotted)
        return pipe.stages.count > 1 && isOnlyOperator(of: pipe, on: .slotted)
            && !columns.contains { $0.pipeEnded || Self.lastStageEndsAlone($0) }
    }

    /// The lanes of `kind` its row draws, oldest first: the newest, and each ended one before it
    /// that ends before the next begins; one that meets the next (ends in its first column, or
    /// just before it with a third mark for that column's first cell) has a row of its own
    /// (``lateRows(_:)``).
    func lateRow(_ kind: LateSubscriber) -> [LateLane] {
        row(of: lateLanes.filter { $0.kind == kind })
    }

    /// The rows `kind`'s lanes take, oldest first, as the exports order them (``exportRows(of:)``),
    /// the newest's last (``lateRow(_:)``): a lane that meets the next (subscribed again where it
    /// ended) and those before it take the row above, packed the same way, so every lane shows, as
    /// it did live before the next was subscribed.
    /// At most ``mostLateRows`` rows, the newest's: those of older lanes are left out (and counted,
    /// ``hiddenLateLanes``), so a key held down costs no more a frame than that.
    func lateRows(_ kind: LateSubscriber) -> [[LateLane]] {
        var left = lateLanes.filter { $0.kind == kind }
        var rows: [[LateLane]] = []
        while !left.isEmpty, rows.count < Self.mostLateRows {
            let row = row(of: left)
            rows.append(row)
            let drawn = Set(row.map(\.id))
            left.removeAll { drawn.contains($0.id) }
        }
        return rows.reversed()
    }

    /// The most rows of one kind's lanes a panel works out (``lateRows(_:)``): more than any draws.
    static let mostLateRows = 2 * rows

    /// The lanes of `lanes` (one kind's, oldest first) one row draws: the newest, and each ended
    /// one before it that ends before the next begins.
    private func row(of lanes: [LateLane]) -> [LateLane] {
        var row: [LateLane] = []
        for lane in lanes.reversed() {
            if let next = row.first {
                guard let end = lane.end, end.column < next.start else { continue }
                // A third mark that cannot draw in its own column (`^○!`) needs the next one's first cell.
                let ended = columns.firstIndex { $0.index == end.column && $0.moment == end.moment }
                let last = ended.flatMap { lane.marble(in: columns[$0]) }
                let spills = last?.spill != nil && last?.compactCells == nil
                let begins = columns.firstIndex { $0.index == next.start && $0.moment == next.startMoment }
                if spills, spans == nil, let ended, let begins, ended + 1 == begins { continue }
            }
            row.insert(lane, at: 0)
        }
        return row
    }

    /// The lane of `kind` drawn in `column`, one rule: of the lanes in view (the row under the
    /// pointer's, ``hoveredLate``, else all the kind's), the last begun by then that has not ended
    /// before it (the one drawing the column), else the last begun by then (ended before it), else
    /// the first (none begun yet).
    func lateLane(_ kind: LateSubscriber, in column: StreamColumn) -> LateLane? {
        let hovered = hoveredLate.map { ids in lateLanes.filter { $0.kind == kind && ids.contains($0.id) } } ?? []
        let lanes = hovered.isEmpty ? lateLanes.filter { $0.kind == kind } : hovered
        let begun = lanes.filter { $0.start <= column.index }
        return begun.last { lane in lane.end.map { $0.column >= column.index } ?? true } ?? begun.last ?? lanes.first
    }

    /// The lane drawn in the panel's row `row` (counted from its top, the ruler being 0), if any.
    package func lane(atRow row: Int) -> StreamLane? {
        laneAndLate(atRow: row).lane
    }

    /// The ids of the late lanes drawn in the panel's row `row` (counted as ``lane(atRow:)``
    /// counts), if it is a late row with lanes: a kind's lanes may take several rows, and what
    /// the pointer names is the row's.
    package func lateLaneIDs(atRow row: Int) -> [Int]? {
        laneAndLate(atRow: row).late
    }

    /// The lane drawn in row `row`, and the ids of the late lanes in it (``lateLaneIDs(atRow:)``).
    private func laneAndLate(atRow row: Int) -> (lane: StreamLane?, late: [Int]?) {
        // The main lanes, the slot's under the row that names its segments, under the ruler if
        // it has its row.
        let drawn = drawn
        var lanes: [StreamLane?] = mainLanes
        if drawn.segments, let slot = lanes.firstIndex(where: { $0?.isPipeLane == true }) {
            lanes.insert(nil, at: slot)
        }
        let row = drawn.ruler ? row : row + 1
        if (1...lanes.count).contains(row) { return (lanes[row - 1], nil) }
        // Each kind's rows: its lanes' (``lateRows(_:)``), or its key's hint.
        let late: [(kind: LateSubscriber, ids: [Int]?)] = drawn.kinds.flatMap { kind in
            let rows = drawn.drawnRows(of: kind, lateRows(kind))
            return rows.isEmpty ? [(kind, nil)] : rows.map { (kind, $0.map(\.id)) }
        }
        let slot = row - 1 - lanes.count
        return late.indices.contains(slot) ? (.late(late[slot].kind), late[slot].ids) : (nil, nil)
    }

    /// How many cells a column takes: two a column of the event view (a line and a marble, or
    /// `^` and what it was handed), one a span of the time view (a cell is a span of time, so a
    /// quiet 300 ms at 100 ms is three `─`; ``Marble/spanCell`` says what it draws).
    package static func columnWidth(time: Bool) -> Int { time ? 1 : 2 }

    /// How many cells a column of this panel takes (``columnWidth(time:)``).
    private var columnWidth: Int { Self.columnWidth(time: spans != nil) }

    /// How many columns (intents) a page holds at `width`: two cells each, and one cell after
    /// the last for a third mark (``Marble/spill``: a lane that subscribes, is handed a value and
    /// ends in one column, `^○!`). In the time view (`time`), a span a cell, to the edge.
    package static func pageSize(width: Int, time: Bool = false) -> Int {
        time ? max(1, width - labelWidth) : max(1, (width - labelWidth - 1) / 2)
    }

    /// The first intent index (`time`: span number) on the page that shows `latest` at `width`,
    /// the pages counted from `base` (`learn`: where the lesson began): pages turn by half their size, so the newest column moves right until the page is full,
    /// then the older half scrolls off at once (a drag step redraws two cells a lane, not the
    /// whole panel).
    package static func pageStart(latest: Int, width: Int, time: Bool = false, from base: Int = 0) -> Int {
        let size = pageSize(width: width, time: time)
        guard latest - base >= size else { return base }
        let half = max(1, size / 2)
        return base + ((latest - base - size) / half + 1) * half
    }

    /// A panel of these columns (oldest first) and late lanes.
    package init(columns: [StreamColumn], lateLanes: [LateLane] = [], fits: Bool = true, present: Int? = nil) {
        self.columns = columns
        self.lateLanes = lateLanes
        self.fits = fits
        self.present = present
    }

    /// The panel for `recorder` at `width`: the page that shows its latest column, or on
    /// `axis`'s time, the latest span: the last event's, or while the slot's operator waits,
    /// the span the wait has reached (the session's clock).
    /// `floor`: where `learn`'s lesson began; the page shows nothing of the lessons before it.
    package init(
        _ recorder: StreamRecorder, width: Int, fits: Bool, axis: PanelAxis = PanelAxis(), floor: PageFloor? = nil
    ) {
        lateLanes = recorder.lateLanes
        self.fits = fits
        showsSlot = recorder.slotUsed
        homeLetters = recorder.letterBook.letters
        defer { if let floor { lessonOnly(from: floor) } }
        defer { leaveOutLanesBeforePage() }
        guard axis.time else {
            let base = floor?.column ?? 0
            let start = Self.pageStart(latest: recorder.latestIndex, width: width, from: base)
            columns = StreamColumn.withMoments(recorder.columns(from: start))
            fitToPage(width: width)
            return
        }
        let now = recorder.now
        let latest = recorder.columns(from: recorder.latestIndex).last
        // A late subscriber subscribed or cancelled since the last intent: its mark at its time.
        let late = recorder.lateLanes.flatMap { [$0.startedAt, $0.endedAt] }.compactMap { $0 }
        let end = max(latest.map { Self.end(of: $0, now: now) } ?? now, late.max() ?? .start)
        let last = TimeSpans.number(of: end, length: axis.span)
        let base = floor.flatMap { recorder.columns(from: $0.column).first?.time }
            .map { TimeSpans.number(of: $0, length: axis.span) }
        let first = Self.pageStart(latest: last, width: width, time: true, from: min(base ?? 0, last))
        let spans = TimeSpans(length: axis.span, first: first, count: last - first + 1)
        columns = recorder.columns(before: spans.start(of: first))
        self.spans = spans
        self.now = now
    }

    /// Leaves on the page as many columns as fit at `width`: a late subscription's column of its
    /// own (``StreamColumn/withMoments(_:)``) is one more than the intents a page counts. The
    /// player's present stays on it, the future given up first; else the latest.
    package mutating func fitToPage(width: Int) {
        let size = Self.pageSize(width: width)
        guard columns.count > size else { return }
        if let present, let at = columns.lastIndex(where: { $0.index <= present }), columns.count > max(at + 1, size) {
            columns.removeLast(columns.count - max(at + 1, size))
        }
        if columns.count > size { columns.removeFirst(columns.count - size) }
    }

    /// Leaves out the late lanes that ended before the page (a recorder that keeps ended lanes,
    /// ``StreamRecorder/keepsEndedLanes``): they draw nothing on it, and take no row.
    private mutating func leaveOutLanesBeforePage() {
        guard let first = columns.first?.index else { return }
        let start = spans.map { $0.start(of: $0.first) }
        lateLanes.removeAll { lane in
            guard let end = lane.end else { return false }
            return end.column < first || start.map { start in lane.endedAt.map { $0 < start } ?? false } ?? false
        }
    }

    /// Leaves out what came before `floor`: the columns before it, the late lanes subscribed
    /// before it, and the events of its own column, which belong to the lesson before (the
    /// column is drawn as the place the lesson began: each lane as it stood, nothing new).
    package mutating func lessonOnly(from floor: PageFloor) {
        lateLanes.removeAll { $0.id < floor.subscription }
        floorWords = floor.words
        // A late lane the lesson before subscribed or cancelled, or a copy it bound or bound
        // back: its column is that lesson's.
        columns.removeAll { column in
            guard let moment = column.lateMoment else { return false }
            return moment.lane.map { $0 < floor.subscription } ?? moment.copy.map { $0 < floor.copy } ?? false
        }
        guard floor.column > 0 else { return }
        columns.removeAll { $0.index < floor.column }
        guard let first = columns.first, first.index == floor.column else { return }
        var quiet = StreamColumn(index: first.index, state: first.state)
        quiet.time = first.time
        quiet.slot = first.slot
        quiet.mirror = first.mirror
        quiet.held = first.held
        quiet.waitsUntil = first.waitsUntil
        quiet.dead = first.dead.union(first.failed).union(first.completed)
        completedBeforePage = first.completed.subtracting(first.failed)
        (quiet.innersBefore, quiet.innersAfter) = (first.innersAfter, first.innersAfter)
        // `learn`'s `o` pressed in the lesson before its first intent: a lesson begins by binding
        // the screen back, so a copy that lives after the column was subscribed in this lesson.
        if let copy = first.copy, copy.lives, let began = copy.beganAt {
            var subscribed = CopyColumn(lived: false, lives: true)
            subscribed.beganAt = began
            quiet.copy = subscribed
        }
        columns[0] = quiet
    }

    /// When the live time view next draws more of a wait that is running (the start of the
    /// next span, or the wait's end, whichever comes first); nil: none runs (or not the live
    /// time view), and nothing needs to wake the program.
    package var nextWaitFrame: SessionTime? {
        guard let spans, let now, let until = columns.last?.waitsUntil, until > now else { return nil }
        return min(until, spans.start(of: spans.number(of: now) + 1))
    }

    /// The last moment `column` shows (the latest column's, in the time view): its intent, what the
    /// slot passed on after it, and the wait after it as far as it has gone by `now`.
    package static func end(of column: StreamColumn, now: SessionTime) -> SessionTime {
        let times = [column.time, column.time(of: .slotted), column.waitsUntil.map { min($0, now) }]
        return times.compactMap { $0 }.max() ?? now
    }

    /// The rows of text, each cell with its look: the ruler, a row per main lane, a row per kind
    /// of late subscriber (its lane, or its key and what it gets), and the latest column (or the
    /// one under the pointer) described. `width` cells each.
    package func lines(width: Int) -> [[LaneCell]] {
        guard fits else {
            let rowsWord = missingRows == 1 ? "row" : "rows"
            return [
                LaneCell.text(
                    " "
                        + String.first(
                            of: [
                                "streams: the terminal is too small for the panel (it needs \(missingRows) more \(rowsWord))",
                                "streams: \(missingRows) more \(rowsWord) needed",
                                "streams: \(missingRows) \(rowsWord) short", "streams: +\(missingRows) rows",
                            ], fittingWidth: width - 1), width: width)
            ]
        }
        // What it draws, and each main lane's marbles, worked out once a frame: the time view
        // projects every recorded column on the page onto the spans for each lane.
        let drawn = drawn
        let lanes = Self.mainLanes(drawn)
        let marbled = lanes.map(marbles)
        let page = pageLetters(drawn: drawn, lanes: lanes, marbled: marbled)
        let letters = page.letters
        let columnsDrawn = drawnColumns
        var lines = mainLines(
            width: width, letters: letters, columnsDrawn: columnsDrawn, drawn: drawn, lanes: lanes, marbled: marbled)
        for kind in drawn.kinds {
            let rows = drawn.drawnRows(of: kind, lateRows(kind))
            for row in rows {
                lines.append(
                    laneLine(
                        lateLabel(kind), width: width, lateMarbles(row), columnsDrawn: columnsDrawn,
                        letters: letters))
            }
            if rows.isEmpty {
                let label = " " + lateLabel(kind)
                let padded = label + String(repeating: " ", count: max(1, Self.labelWidth - label.count))
                // `learn`'s lanes (a row budget) name the key only: its lessons ask what each is handed.
                let hints = rowBudget == nil ? Self.lateHints(kind) : Array(Self.lateHints(kind).dropFirst())
                let hint = String.first(of: hints, fittingWidth: width - padded.count)
                lines.append(LaneCell.text(padded + hint, width: width, dim: true))
            }
        }
        if drawn.values {
            lines.append(
                valuesLine(
                    letters, width: width, order: page.order, groups: page.groups,
                    present: (page.present, page.presentGroups)))
        }
        if let spans, let hovered, spans.numbers.contains(hovered) {
            let words = spanDescriptions(hovered, in: hoveredLane ?? .intents, spans: spans)
            lines.append(LaneCell.text(" " + String.first(of: words, fittingWidth: width - 1), width: width))
            return lines
        }
        let hoveredColumn =
            spans == nil
            ? hovered.flatMap { hovered in columns.first { $0.index == hovered && $0.moment == hoveredMoment } } : nil
        // (Of the intent's column, not a late subscription's after it.)
        let described =
            hoveredColumn ?? present.flatMap { present in columns.last { $0.index <= present && $0.moment == nil } }
            ?? columns.last { $0.moment == nil } ?? columns.last
        // Input lanes the rows could not hold are named first, so none is cut silently; so are
        // late lanes whose row another kind took (learn's rows: the relay's, say, in place of an
        // ended Replay lane).
        let foldedWords = foldedLateWords(drawn, inputs: drawn.folded.filter { !$0.isRetried }.map(pipeLabel))
        if let hoveredColumn, let lane = hoveredLane, lane != .intents {
            let text = String.first(of: descriptions(hoveredColumn, in: lane), fittingWidth: width - 1)
            lines.append(LaneCell.text(" " + text, width: width))
        } else if !foldedWords.isEmpty {
            let options = foldedWords.flatMap { prefix in descriptions(described).map { prefix + $0 } }
            lines.append(LaneCell.text(" " + String.first(of: options, fittingWidth: width - 1), width: width))
        } else {
            lines.append(
                LaneCell.text(" " + String.first(of: descriptions(described), fittingWidth: width - 1), width: width))
        }
        return lines
    }

    /// What an empty late lane says, longest first: its key, and what its kind hands over.
    static func lateHints(_ kind: LateSubscriber) -> [String] {
        let key = kind.key
        return ["\(key): subscribe (\(kind.handedWords))", "\(key): subscribe", "\(key)"]
    }

    /// Rows of late lanes, labelled with their kinds, in the panel's order of kinds, as
    /// ``exportRows(of:)`` packs them.
    package func lateLines(_ lanes: [LateLane], width: Int, letters: ValueLetters = [:]) -> [[LaneCell]] {
        lateLines(lanes, width: width, letters: letters, columnsDrawn: drawnColumns)
    }

    /// The same, with the columns drawn worked out already.
    private func lateLines(
        _ lanes: [LateLane], width: Int, letters: ValueLetters, columnsDrawn: [(id: Int, future: Bool, moment: Int?)]
    ) -> [[LaneCell]] {
        Self.exportRows(of: lanes).map { row in
            laneLine(
                lateLabel(row[0].kind), width: width, lateMarbles(row), columnsDrawn: columnsDrawn, letters: letters)
        }
    }

    /// The rows the exports (text and SVG) draw `lanes` in, in the panel's order of kinds, each
    /// kind's rows oldest first as the live panel orders them (``lateRows(_:)``), each row's lanes
    /// oldest first: each kind's lanes share a row where they do not meet (one ends before the
    /// column before the next begins: a lane's third mark may take the next column's first cell),
    /// else take another; none is left out (the live panel, short of rows, leaves out the oldest
    /// and says how many).
    package static func exportRows(of lanes: [LateLane]) -> [[LateLane]] {
        var packed: [[LateLane]] = []
        for kind in LateSubscriber.allCases {
            var rows: [[LateLane]] = []
            for lane in lanes.filter({ $0.kind == kind }).sorted(by: { $0.start < $1.start }) {
                if let row = rows.indices.first(where: {
                    rows[$0].last!.end.map { $0.column + 1 < lane.start } ?? false
                }) {
                    rows[row].append(lane)
                } else {
                    rows.append([lane])
                }
            }
            packed += rows
        }
        return packed
    }

    /// An export's block of columns as the text diagram draws it, at `width`: the ruler and the
    /// main lanes (``mainLines(width:letters:)``), the late lanes `lanes` in rows of their kinds
    /// (``lateLines(_:width:letters:)``), and the values lines (``valuesLines(_:width:groups:)``),
    /// each value with its letter (``letters(lateLanes:)``, of `lanes`). What it draws and each
    /// main lane's marbles are worked out once for all of them.
    package func blockLines(_ lanes: [LateLane], width: Int) -> [[LaneCell]] {
        let drawn = drawn
        let main = Self.mainLanes(drawn)
        let marbled = main.map(marbles)
        let page = pageLetters(lateLanes: lanes, drawn: drawn, lanes: main, marbled: marbled)
        let columnsDrawn = drawnColumns
        return mainLines(
            width: width, letters: page.letters, columnsDrawn: columnsDrawn, drawn: drawn, lanes: main,
            marbled: marbled)
            + lateLines(lanes, width: width, letters: page.letters, columnsDrawn: columnsDrawn)
            + valuesLines(page.letters, width: width, groups: page.groups)
    }

    /// The ruler (intent indices at every tenth column, and at the first) and the main lanes, the
    /// slot's (`slotted`) in segments: each operator chosen on the page marked `├` where its part
    /// starts, and in the row above (``segmentsLabel``) the operator of the page's first column
    /// (`.filter`, or `none`), then each chosen one named where its part starts.
    package func mainLines(width: Int, letters: ValueLetters) -> [[LaneCell]] {
        let drawn = drawn
        let lanes = Self.mainLanes(drawn)
        return mainLines(
            width: width, letters: letters, columnsDrawn: drawnColumns, drawn: drawn, lanes: lanes,
            marbled: lanes.map(marbles))
    }

    /// The same, with what it draws, the columns drawn, its main lanes and their marbles worked
    /// out already (once a frame, not once a lane).
    private func mainLines(
        width: Int, letters: ValueLetters, columnsDrawn: [(id: Int, future: Bool, moment: Int?)], drawn: Drawn,
        lanes: [StreamLane],
        marbled: [[Marble?]]
    ) -> [[LaneCell]] {
        var lines = drawn.ruler ? [ruler(width: width)] : []
        let starts = segmentStarts
        let waiting = spans == nil ? nil : waitingLane(lanes)
        for (number, lane) in lanes.enumerated() {
            var shown = marbled[number]
            guard lane.isPipeLane else {
                lines.append(
                    laneLine(pipeLabel(lane), width: width, shown, columnsDrawn: columnsDrawn, letters: letters))
                continue
            }
            if drawn.segments, lines.count == (drawn.ruler ? 1 : 0) + number {
                lines.append(segmentsLine(starts, width: width))
            }
            // The time view draws the pipe's timed stage waiting (`~`) where it passes nothing.
            if let spans, lane == waiting {
                let waits = spans.waits(columnsWaiting, now: now ?? SessionTime(microseconds: .max))
                for (offset, waited) in waits.enumerated() where waited && shown[offset] == .line {
                    shown[offset] = .waiting
                }
            }
            var line = laneLine(
                pipeLabel(lane), width: width, shown, columnsDrawn: columnsDrawn, letters: letters,
                retried: lane.isRetried)
            // Each part begins `├` where its column's first cell is a line or a wait; a value
            // there stays (the row above names the part).
            for start in starts where Self.labelWidth + columnWidth * start.offset < width {
                let at = Self.labelWidth + columnWidth * start.offset
                if line[at].glyph == Glyph.line || line[at].glyph == Glyph.waiting {
                    line[at].glyph = Glyph.segment
                } else if spans != nil, !drawn.segments, line[at].glyph != " " {
                    // A span's one cell holds its value: with no row above to mark the part's start
                    // there, the cell says it holds two things (the hover names both).
                    line[at].glyph = Glyph.group(2)
                }
            }
            lines.append(line)
        }
        return lines
    }

    /// The pipe whose stages label the pipe's lanes: the one in the slot at the place shown, or,
    /// where that one has no stage for a lane, the last on the page that has one.
    private func labellingPipe(for lane: StreamLane) -> SlotPipe {
        let shown = presentColumn?.slot ?? .none
        guard case .stage(let number) = lane, !Self.draws(number, of: shown) else { return shown }
        // (No copy of the page's columns: the time view's page holds hundreds.)
        let upTo = present ?? .max
        return
            (columns.last { $0.index <= upTo && Self.draws(number, of: $0.slot) }
            ?? columns.last { Self.draws(number, of: $0.slot) })?
            .slot ?? shown
    }

    /// Whether stage `number`'s lane draws a stage of `pipe`: a pipe of several has a lane for
    /// each of its stages (its last's drawn where it completes on its own, ``stageLanes``).
    private static func draws(_ number: Int, of pipe: SlotPipe) -> Bool {
        pipe.stages.count > 1 && number < pipe.stages.count
    }

    /// The most cells a lane's label takes (the label column, less a space before it and one
    /// after, so a mark in the lane's first cell never reads as part of the label).
    package static let labelRoom = labelWidth - 2

    /// Whether every column on the page where `lane` is the pipe's had `pipe`'s operator there: a
    /// lane is labelled with a stage's code only then, since a segment of another operator on it
    /// (or of the empty slot, the position as it was) is not that code's.
    private func isOnlyOperator(of pipe: SlotPipe, on lane: StreamLane) -> Bool {
        // By index: the time view's page holds hundreds of columns, each compared.
        switch lane {
        case .stage(let number):
            let stage = pipe.stages[number]
            for index in columns.indices {
                let stages = columns[index].slot.stages
                if Self.draws(number, of: columns[index].slot), stages[number] != stage { return false }
            }
        default:
            let last = pipe.last
            for index in columns.indices where columns[index].slot.last != last { return false }
        }
        return true
    }

    /// A pipe lane's label: an operator's part's row (``partLanes``), its code as the chain has it
    /// (`.map { _ in 1 }`, `.scan(0) { … }`, `.filter { … }`: what does not fit the label column is
    /// cut to `…`, and the hover line says it in full), the same on every page, live and in the
    /// player (``StagePart/label(width:)``); the slot's lane, the last stage's, where every column
    /// on the page has that pipe, else `slotted`, as ballColour's code names it (the row above
    /// names each part). A stage's lane by its place (the SVG picture's): its code where every
    /// column on the page has that stage, else `stage 1`. An inner lane is labelled by the
    /// subscriptions it draws on the page (``StreamLane/innerLabel(_:in:room:)``); every other
    /// lane by its name.
    package func pipeLabel(_ lane: StreamLane) -> String {
        if case .inner(let number) = lane { return StreamLane.innerLabel(number, in: columns, room: Self.labelRoom) }
        if case .part(let part) = lane { return part.label(width: Self.labelRoom) }
        let pipe = labellingPipe(for: lane)
        switch lane {
        case .stage(let number) where pipe.stages.indices.contains(number):
            guard isOnlyOperator(of: pipe, on: lane) else { return "stage \(number + 1)" }
            return pipe.stages[number].stageLabel(width: Self.labelRoom)
        case .slotted where slotLaneIsStage: return pipe.last.stageLabel(width: Self.labelRoom)
        default: return lane.label
        }
    }

    /// A pipe lane's code in full, as its label names it (``pipeLabel(_:)``), where the label is a
    /// stage's code: `.filter { $0.isInRightHalf }`; nil for every other lane.
    package func pipeCode(_ lane: StreamLane) -> String? {
        let pipe = labellingPipe(for: lane)
        switch lane {
        case .stage(let number) where pipe.stages.indices.contains(number) && isOnlyOperator(of: pipe, on: lane):
            return pipe.stages[number].stageCode
        case .slotted where slotLaneIsStage: return pipe.last.stageCode
        case .part(let part) where !part.isRetried: return part.operation.stageCode
        default: return nil
        }
    }

    /// The pipe lane where its timed stage's wait (`~`) is drawn: that stage's, in the pipe at the
    /// place shown (the slot's lane when it is the last, or when no stage is timed).
    private func waitingLane(_ mainLanes: [StreamLane]) -> StreamLane {
        let pipe = presentColumn?.slot ?? .none
        guard let timed = pipe.stages.firstIndex(where: { $0.operation.interval != nil }), timed < pipe.stages.count - 1
        else { return .slotted }
        let part = StreamLane.part(StagePart(number: timed, operation: pipe.stages[timed]))
        return mainLanes.contains(part) ? part : mainLanes.contains(.stage(timed)) ? .stage(timed) : .slotted
    }

    /// Where on the page an operator went into the slot (the offset of the column drawn; in the
    /// time view, of the span of the choice's time), and which: each starts a part of the slot's
    /// lane (choosing the one in it again starts a new subscription too). Several in one span:
    /// the last.
    package var segmentStarts: [(offset: Int, slot: SlotPipe)] {
        let chosen = columns.indices.filter { columns[$0].intent?.buildsPipe == true }
        guard let spans else { return chosen.map { ($0, columns[$0].slot) } }
        var starts: [(offset: Int, slot: SlotPipe)] = []
        for index in chosen {
            guard let time = columns[index].time else { continue }
            let offset = spans.number(of: time) - spans.first
            guard (0..<spans.count).contains(offset) else { continue }
            if starts.last?.offset == offset { starts.removeLast() }
            starts.append((offset, columns[index].slot))
        }
        return starts
    }

    /// The label of the row above the slot's lane, which names the operator of each part of it:
    /// the lane itself is labelled as the code names it, `slotted`, what the slot passes on.
    package static let segmentsLabel = "in the slot"

    /// The row above the slot's lane (``segmentsLabel``): the operator that was in the slot as the
    /// page begins, then at each of `starts`, `├` and the operator's name, each cut (`…`) where
    /// the next part starts.
    private func segmentsLine(_ starts: [(offset: Int, slot: SlotPipe)], width: Int) -> [LaneCell] {
        var cells = LaneCell.text(" " + Self.segmentsLabel, width: width)
        // The part that began before the page: named where there is room for more than `…`.
        let room = min(width, Self.labelWidth + columnWidth * (starts.first?.offset ?? width)) - Self.labelWidth
        if let slot = columns.first?.slot, room > 2 {
            for (offset, cell) in LaneCell.text(slot.laneLabel, width: room - 1).enumerated() {
                cells[Self.labelWidth + offset] = cell
            }
        }
        for (number, start) in starts.enumerated() {
            let at = Self.labelWidth + columnWidth * start.offset
            guard at < width else { break }
            let end = min(
                width, number + 1 < starts.count ? Self.labelWidth + columnWidth * starts[number + 1].offset : width)
            cells[at] = LaneCell(glyph: Glyph.segment)
            let name = start.slot.laneLabel
            for (offset, cell) in LaneCell.text(name, width: end - at - 1).enumerated() {
                cells[at + 1 + offset] = cell
            }
        }
        return cells
    }

    /// The letters of the values drawn on the page that do not fit their column (``ValueLetters``):
    /// each value's own (``homeLetters``) where no value drawn before it on the page has that
    /// letter, the others the first letters left, in the order they are first drawn, column by
    /// column, each column's lanes top to bottom. The player's page gives them out to the values
    /// drawn up to its present first, then to its future's (drawn dim): the present's are then
    /// what the live panel drew at that moment. `drawnLate`: the late lanes drawn (those of the
    /// kinds with a row, when nil). None when the values line has no row: the lanes then draw `○`.
    package func letters(lateLanes drawnLate: [LateLane]? = nil) -> ValueLetters {
        pageLetters(lateLanes: drawnLate).letters
    }

    /// The page's letters (``letters(lateLanes:)``); the values they name in the order they
    /// are first drawn (the order the values line lists them), those up to the present first, with
    /// how many of them are the present's (the rest are drawn in the player's future only); and
    /// the group marks drawn on the page (`²`, `³`, `»`), in the order they are first drawn, which
    /// the values line explains. `drawn`, `lanes` and `marbled`: what it draws, its main lanes and
    /// their marbles, where worked out already.
    private func pageLetters(
        lateLanes drawnLate: [LateLane]? = nil, drawn given: Drawn? = nil, lanes: [StreamLane]? = nil,
        marbled: [[Marble?]]? = nil
    ) -> PageLetters {
        let drawn = given ?? drawn
        guard drawn.values else { return PageLetters() }
        let late = drawnLate ?? lateLanes.filter { drawn.kinds.contains($0.kind) }
        let lanes =
            (marbled ?? (lanes ?? Self.mainLanes(drawn)).map(marbles))
            + late.map { lateMarbles([$0]) }
        let future = drawnColumns.map(\.future)
        let mainCount = lanes.count - late.count
        var (present, later): ([MarbleValue], [MarbleValue]) = ([], [])
        var seen: Set<MarbleValue> = []
        var (groups, laterGroups): ([Unicode.Scalar], [Unicode.Scalar]) = ([], [])
        // What each group mark drawn as a late subscriber's handing stands for (`³`: the three
        // values a Replay subject handed, oldest first), and the marks drawn for anything else.
        var handedGroups: [Unicode.Scalar: [[MarbleValue]]] = [:]
        var otherGroups: Set<Unicode.Scalar> = []
        for offset in 0..<(lanes.map(\.count).max() ?? 0) {
            let isFuture = offset < future.count && future[offset]
            for (number, lane) in lanes.enumerated() where offset < lane.count {
                guard let marble = lane[offset] else { continue }
                if let count = Self.groupCount(marble, oneCell: spans != nil) {
                    let mark = Glyph.group(count)
                    if !(groups + laterGroups).contains(mark) {
                        if isFuture { laterGroups.append(mark) } else { groups.append(mark) }
                    }
                    if number >= mainCount, let handed = Self.handedGroup(marble, of: late[number - mainCount]) {
                        // The values handed are lettered where they are drawn: in the group.
                        if !handedGroups[mark, default: []].contains(handed) {
                            handedGroups[mark, default: []].append(handed)
                        }
                        for value in handed where seen.insert(value).inserted {
                            if isFuture { later.append(value) } else { present.append(value) }
                        }
                    } else {
                        otherGroups.insert(mark)
                    }
                }
                guard let value = Self.lettered(marble, oneCell: spans != nil), seen.insert(value).inserted else {
                    continue
                }
                if isFuture { later.append(value) } else { present.append(value) }
            }
        }
        var letters: ValueLetters = [:]
        var taken: Set<Unicode.Scalar> = []
        for values in [present, later] {
            for value in values {
                guard let own = homeLetters[value], taken.insert(own).inserted else { continue }
                letters[value] = own
            }
            var free = MarbleValue.letters.filter { !taken.contains($0) }[...]
            for value in values where letters[value] == nil {
                guard let letter = free.popFirst() else { break }
                letters[value] = letter
                taken.insert(letter)
            }
        }
        let named = present.filter { letters[$0] != nil }
        let words = (groups + laterGroups).map { mark in
            Self.groupWords(
                mark, handed: handedGroups[mark, default: []].map { $0.map { letters[$0] ?? Glyph.value } },
                otherwise: otherGroups.contains(mark))
        }
        return PageLetters(
            letters: letters, order: named + later.filter { letters[$0] != nil }, present: named.count,
            groups: words, presentGroups: groups.count)
    }

    /// The values a late subscriber was handed as it subscribed, oldest first, where `marble` (on
    /// its lane) draws them as a group mark (`^³`): nil for any other marble.
    static func handedGroup(_ marble: Marble, of lane: LateLane) -> [MarbleValue]? {
        guard lane.handed > 1 else { return nil }
        switch marble {
        case .subscribed(.group?, _): return lane.handedPositions.map { .position($0) }
        case .ended(let after?), .unsubscribed(let after?), .failed(let after?), .resubscribed(let after?):
            return handedGroup(after, of: lane)
        default: return nil
        }
    }

    /// A page's letters (``pageLetters(lateLanes:drawn:lanes:marbled:)``).
    private struct PageLetters {
        /// Each lettered value's letter.
        var letters: ValueLetters = [:]
        /// The values lettered, in the order they are first drawn: those up to the present first.
        var order: [MarbleValue] = []
        /// How many of ``order`` are drawn up to the present (the rest in the player's future).
        var present = 0
        /// The values line's words for each group mark drawn (``groupWords(_:handed:otherwise:)``),
        /// in the order they are first drawn: those up to the present first.
        var groups: [String] = []
        /// How many of ``groups`` are drawn up to the present.
        var presentGroups = 0
    }

    /// The count `marble` draws as a group mark (`²`, `³`, `»`), if it draws one: several values
    /// at once (a Replay subject's replay, several in a span of the time view), or the same value
    /// several times (`b²`, `b³`). `oneCell`: in a span's one cell.
    static func groupCount(_ marble: Marble, oneCell: Bool = false) -> Int? {
        if oneCell {
            guard case .group(let count) = marble.spanCell else { return nil }
            return count
        }
        switch marble {
        case .group(let count): return count
        case .repeated(_, let count): return count
        case .subscribed(let handed?, _), .ended(let handed?), .unsubscribed(let handed?), .failed(let handed?),
            .resubscribed(let handed?):
            return groupCount(handed)
        default: return nil
        }
    }

    /// The values line's words for group mark `mark`: `²=2 at once`; where it draws what a late
    /// subscriber was handed, those values by their letters as RxJS's marbles group them,
    /// `³=(cde) at once` (each handing's, `³=(bcd) (cde) at once`), and the count as well where the
    /// mark is drawn `otherwise` too (`³=(cde) or 3 at once`).
    static func groupWords(_ mark: Unicode.Scalar, handed: [[Unicode.Scalar]] = [], otherwise: Bool = true) -> String {
        let count =
            switch mark {
            case Glyph.groupOfTwo: "2"
            case Glyph.groupOfThree: "3"
            default: "more"
            }
        guard !handed.isEmpty else { return "\(mark)=\(count) at once" }
        let groups = handed.map { "(" + String(String.UnicodeScalarView($0)) + ")" }.joined(separator: " ")
        return "\(mark)=\(groups)\(otherwise ? " or \(count)" : "") at once"
    }

    /// The value `marble` draws as a letter, if it draws one: one that is not itself in one cell
    /// (a count, `T`, `F`), nor in the column's two cells (a count of two digits with the first
    /// cell free). `oneCell`: drawn in a span's one cell (``Marble/spanCell``), where a count of
    /// two digits takes a letter.
    static func lettered(_ marble: Marble, oneCell: Bool = false) -> MarbleValue? {
        if oneCell {
            guard case .value(let value) = marble.spanCell, value.glyph == nil else { return nil }
            return value
        }
        let (first, second) = marble.cells
        for cell in [first, second] + (marble.spill.map { [$0] } ?? []) {
            guard case .value(let value) = cell, value.glyph == nil else { continue }
            if value.wideGlyphs != nil, first == .line { continue }
            return value
        }
        return nil
    }

    /// The values lines of an export, which has the rows: every letter and its value, as
    /// ``valuesLine(_:width:order:groups:present:)`` gives them, and each group mark drawn
    /// (`groups`, where worked out already), in as many lines of `width` as they take.
    package func valuesLines(_ letters: ValueLetters, width: Int, groups: [String]? = nil) -> [[LaneCell]] {
        let named = letters.sorted { $0.value.order < $1.value.order }
        let entries =
            zip(named, MarbleValue.words(of: named.map(\.key))).map { "\($0.value)=\($1)" }
            + (groups ?? pageLetters().groups)
        guard !entries.isEmpty else { return [valuesLine(letters, width: width)] }
        var lines: [String] = []
        var line = " values" + String(repeating: " ", count: Self.labelWidth - 7)
        var empty = true
        for entry in entries {
            if !empty, (line + " " + entry).terminalWidth > width {
                lines.append(line)
                (line, empty) = (String(repeating: " ", count: Self.labelWidth), true)
            }
            line += (empty ? "" : " ") + entry
            empty = false
        }
        lines.append(line)
        return lines.map { LaneCell.text($0, width: width) }
    }

    /// The values line: each letter drawn on the page and the value it stands for, `a=41,12`, in
    /// the order the values are first drawn (`order`; nil: the letters' order), then each group
    /// mark drawn (`groups`) and what it stands for, `²=2 at once`; where they do not all fit,
    /// the latest, after `…`. In the player, only the first values and groups `present` counts are
    /// drawn up to its present: the line names the latest of those as the live panel did at that
    /// moment, then the future's as far as they fit (`…` at the end where some do not).
    package func valuesLine(
        _ letters: ValueLetters, width: Int, order: [MarbleValue]? = nil, groups: [String] = [],
        present: (values: Int, groups: Int)? = nil
    ) -> [LaneCell] {
        let label = " values"
        let padded = label + String(repeating: " ", count: max(1, Self.labelWidth - label.count))
        let named =
            order.map { $0.compactMap { value in letters[value].map { (key: value, value: $0) } } }
            ?? letters.sorted { $0.value.order < $1.value.order }.map { (key: $0.key, value: $0.value) }
        let now = min(present?.values ?? named.count, named.count)
        let groupsNow = min(present?.groups ?? groups.count, groups.count)
        // The present's words as the live panel said them (a position's screen named only where
        // another of them shares its centre), the future's beside them all.
        let words =
            MarbleValue.words(of: named.prefix(now).map(\.key))
            + MarbleValue.words(of: named.map(\.key)).dropFirst(now)
        let entries = zip(named, words).map { "\($0.value)=\($1)" }
        let drawnGroups = groups
        guard !entries.isEmpty || !drawnGroups.isEmpty else {
            return LaneCell.text(padded + "none: each value here is its own marble", width: width, dim: true)
        }
        let before = entries.prefix(now) + drawnGroups.prefix(groupsNow)
        let after = entries.dropFirst(now) + drawnGroups.dropFirst(groupsNow)
        var shown = before[...]
        var later = after.prefix(0)
        func text() -> String {
            padded + (shown.count < before.count ? "\(Glyph.ellipsis) " : "") + (shown + later).joined(separator: " ")
                + (later.count < after.count ? " \(Glyph.ellipsis)" : "")
        }
        while !shown.isEmpty, text().terminalWidth > width { shown = shown.dropFirst() }
        while later.count < after.count {
            later = after.prefix(later.count + 1)
            if text().terminalWidth > width {
                later = later.dropLast()
                break
            }
        }
        // The future's values drawn as its marks are.
        var cells = LaneCell.text(text(), width: width)
        if !later.isEmpty {
            let played =
                padded + (shown.count < before.count ? "\(Glyph.ellipsis) " : "") + shown.joined(separator: " ")
                + (shown.isEmpty ? "" : " ")
            for index in min(played.terminalWidth, cells.count)..<cells.count { cells[index].future = .mark }
        }
        return cells
    }

    /// The ruler: every tenth intent's number over its column; in the player, with a future on
    /// the page, `later` beside the label in the future's colour, and the mark a future cell is
    /// drawn as where colour cannot tell it apart (``LaneCell/Future/sample``).
    private func ruler(width: Int) -> [LaneCell] {
        if let spans { return timeRuler(spans, width: width) }
        var cells = LaneCell.text(" streams", width: width, dim: true)
        let later = " streams ".unicodeScalars.count
        if drawnColumns.contains(where: \.future), later + Self.laterWords.count + 1 < Self.labelWidth {
            for (offset, letter) in Self.laterWords.unicodeScalars.enumerated() where later + offset < width {
                cells[later + offset] = LaneCell(glyph: letter, dim: true)
                cells[later + offset].future = .words
            }
            let sample = later + Self.laterWords.count
            if sample < width {
                cells[sample] = LaneCell(glyph: Glyph.later, dim: true)
                cells[sample].future = .sample
            }
        }
        // Every tenth index, and the first column's (unless the next tenth is too close).
        for (offset, column) in columns.enumerated()
        where column.moment == nil && (column.index % 10 == 0 || (offset == 0 && column.index % 10 < 8)) {
            let at = Self.labelWidth + 2 * offset + 1
            for (index, digit) in String(column.index).unicodeScalars.enumerated() where at + index < width {
                cells[at + index] = LaneCell(glyph: digit, dim: true)
            }
        }
        return cells
    }

    /// The time view's ruler: the span's length, then the time in seconds over every tenth span
    /// (ten cells apart; and over the first, unless the next tenth is too close).
    private func timeRuler(_ spans: TimeSpans, width: Int) -> [LaneCell] {
        var cells = LaneCell.text(" streams \(PanelAxis.words(spans.length))", width: width, dim: true)
        for (offset, number) in spans.numbers.enumerated() where number % 10 == 0 || offset == 0 {
            let at = Self.labelWidth + offset
            let seconds = SessionTime.Stride(microseconds: spans.start(of: number).microseconds)
            let text = Self.secondsWords(seconds)
            // The first span's time only where it ends before the next tenth's begins.
            if number % 10 != 0, text.count >= 10 - number % 10 { continue }
            for (index, character) in text.unicodeScalars.enumerated() where at + index < width {
                cells[at + index] = LaneCell(glyph: character, dim: true)
            }
        }
        return cells
    }

    /// A time since the start in seconds, to the millisecond where it has them: `12s`, `12.5s`,
    /// `0.35s`.
    package static func secondsWords(_ time: SessionTime.Stride) -> String {
        let milliseconds = time.microseconds / 1_000
        let (whole, rest) = (milliseconds / 1_000, milliseconds % 1_000)
        guard rest != 0 else { return "\(whole)s" }
        var decimals = String(String(rest + 1_000).dropFirst())
        while decimals.hasSuffix("0") { decimals.removeLast() }
        return "\(whole).\(decimals)s"
    }

    /// One lane's row: its label, then each column's two cells (`shown`, a marble for each column
    /// drawn), or in the time view each span's one cell (``Marble/spanCell``). A lane's line is
    /// drawn in the text's colour, as its marbles are (only a ghost is dim): the line is the time
    /// the subscription lives, and a step that adds a column then needs no change of colour. A row
    /// of subscriptions `retry` made anew (`retried`) draws each after the error that made it.
    private func laneLine(
        _ label: String, width: Int, _ shown: [Marble?], columnsDrawn: [(id: Int, future: Bool, moment: Int?)],
        letters: ValueLetters, retried: Bool = false
    ) -> [LaneCell] {
        var cells = LaneCell.text(" " + label, width: width)
        let oneCell = spans != nil
        let marbles = shown
        for (offset, column) in columnsDrawn.enumerated() {
            let at = Self.labelWidth + columnWidth * offset
            guard at + columnWidth - 1 < width, offset < shown.count, let shown = shown[offset] else { continue }
            // The future: shapes only, dim; the column under the pointer in reverse video.
            func look(_ cell: LaneCell) -> LaneCell {
                var cell = cell
                if column.future { (cell.colour, cell.dim, cell.future) = (nil, true, .mark) }
                if column.id == hovered, column.moment == hoveredMoment { cell.highlighted = true }
                return cell
            }
            if retried, case .subscribed(let handed, let ending) = shown {
                let after = ending.map { Marble.mark($0.glyph) } ?? handed
                // `^` where the error that made it is drawn (a span's cell, a column's marble cell):
                // at the error's time, never before it; how it ended (else what it was handed)
                // after it, in the cell a retried row leaves blank.
                let subscribed = oneCell ? at : at + 1
                cells[subscribed] = look(LaneCell(glyph: Glyph.subscribed))
                if let after, subscribed + 1 < width {
                    cells[subscribed + 1] = look(LaneCell.cell(of: after, letters: letters))
                }
                continue
            }
            if oneCell {
                cells[at] = look(LaneCell.cell(of: shown.spanCell, letters: letters))
                // The marks that share the span with a value (`^` before it, `|`, `!` or `#` after
                // it) stand in the free cell beside it, where the lane does not live; where that
                // cell is taken, the span says it holds a group (its count).
                let (before, after) = shown.spanMarks
                var unplaced = 0
                if let before {
                    let free = cells[at - 1].glyph == " " && (offset == 0 || marbles[offset - 1] == nil)
                    if free { cells[at - 1] = look(LaneCell(glyph: before)) } else { unplaced += 1 }
                }
                if let after {
                    let free = at + 1 < width && (offset + 1 >= marbles.count || marbles[offset + 1] == nil)
                    if free { cells[at + 1] = look(LaneCell(glyph: after)) } else { unplaced += 1 }
                }
                if unplaced > 0 { cells[at] = look(LaneCell(glyph: Glyph.group(shown.spanCount + unplaced))) }
                continue
            }
            // The third mark goes in the next column's first cell: the lane ended, so nothing
            // else is drawn there, unless another lane of the row begins in it with a mark of its
            // own (`^`): then a value and its end share the column (`○!`). Where that cell is the
            // line of another part's row (its `├`), the end stands there, so that the value keeps
            // the marble's cell: a recovery's fallback in the column of the error before it, never
            // a cell earlier.
            let nextTaken = offset + 1 < marbles.count && marbles[offset + 1].map { $0.cells.0 != .line } ?? false
            if nextTaken, let (value, end) = shown.compactCells {
                (cells[at], cells[at + 1]) = (
                    look(LaneCell.cell(of: value, letters: letters)), look(LaneCell.cell(of: end))
                )
                continue
            }
            let (first, second) = LaneCell.cells(of: shown, letters: letters)
            // The third mark of the column before (a new subscription's `^` after it,
            // ``Marble/resubscribed(after:)``, or an end after a value) stands in this column's
            // first cell, where the lane's line would.
            let afterSpill = offset > 0 && marbles[offset - 1]?.spill != nil && shown.cells.0 == .line
            if !afterSpill { cells[at] = look(first) }
            cells[at + 1] = look(second)
            if let spill = shown.spill, at + 2 < width {
                cells[at + 2] = LaneCell.cells(of: spill, letters: letters).1
                if column.future {
                    (cells[at + 2].colour, cells[at + 2].dim, cells[at + 2].future) = (nil, true, .mark)
                }
            }
        }
        return cells
    }
}

/// One cell of the panel's text: a glyph, the colour a marble is painted in (nil: the text's
/// colour), and whether it is dim (lines, ghosts, the ruler).
package struct LaneCell: Hashable, Sendable {
    /// The glyph.
    package var glyph: Unicode.Scalar
    /// The marble's colour; nil: the panel's text colour.
    package var colour: FlatColour?
    /// Drawn dim: a ghost, the ruler, the hint of a lane not subscribed.
    package var dim: Bool
    /// Drawn in reverse video: the column under the pointer.
    package var highlighted = false
    /// In the player's future (after its place), and how: nil, played (or not the player's).
    package var future: Future?

    /// How a cell of the player's future is drawn (``Renderer``'s ``FutureLook``).
    package enum Future: Hashable, Sendable {
        /// A lane's cell after the place, or the values line's words for a value drawn there
        /// only: in the future's colour, or, where colour cannot tell it from a played one, as
        /// ``Glyph/later``.
        case mark
        /// Words about the future (the ruler's `later`): in the future's colour where there is
        /// one, as they are.
        case words
        /// The sample of ``Glyph/later`` beside the ruler's `later`: drawn only where future
        /// cells are drawn so, blank elsewhere.
        case sample
    }

    /// A cell from its parts.
    package init(glyph: Unicode.Scalar, colour: FlatColour? = nil, dim: Bool = false) {
        self.glyph = glyph
        self.colour = colour
        self.dim = dim
    }

    /// `text` as cells, by each character's width (a wide one takes two, the second a
    /// ``FrameCell/continuationGlyph``), ending in `…` where it is cut to `width`, and padded
    /// with blanks to it.
    package static func text(_ text: String, width: Int, dim: Bool = false) -> [LaneCell] {
        var cells: [LaneCell] = []
        cells.reserveCapacity(max(0, width))
        for scalar in text.fitted(toWidth: width).unicodeScalars {
            switch scalar.terminalWidth {
            case 0: continue
            case 2:
                cells.append(LaneCell(glyph: scalar, dim: dim))
                cells.append(LaneCell(glyph: FrameCell.continuationGlyph, dim: dim))
            default: cells.append(LaneCell(glyph: scalar, dim: dim))
            }
        }
        cells += Array(repeating: LaneCell(glyph: " "), count: max(0, width - cells.count))
        return cells
    }

    /// The two cells of a column showing `marble` (see ``Marble/cells``): a value as itself where
    /// it fits (a count of two digits takes both cells when the first is free), else as its letter
    /// in `letters`, else `○`.
    package static func cells(of marble: Marble, letters: ValueLetters = [:]) -> (LaneCell, LaneCell) {
        let (first, second) = marble.cells
        if first == .line, case .value(let value) = second, let (tens, ones) = value.wideGlyphs {
            return (LaneCell(glyph: tens), LaneCell(glyph: ones))
        }
        return (cell(of: first, letters: letters), cell(of: second, letters: letters))
    }

    /// The one cell of `marble` (a value as itself where one cell holds it, else its letter in
    /// `letters`, else `○`).
    package static func cell(of marble: Marble, letters: ValueLetters = [:]) -> LaneCell {
        switch marble {
        case .colour(let colour, _): LaneCell(glyph: marble.glyph, colour: colour)
        case .ghost: LaneCell(glyph: marble.glyph, dim: true)
        case .value(let value) where value.glyph == nil: LaneCell(glyph: letters[value] ?? Glyph.value)
        default: LaneCell(glyph: marble.glyph)
        }
    }
}

/// The letters of the values a page draws that do not fit their column, as RxJS's `values` map
/// gives them (``MarbleValue/letters``): the panel's values line names each.
package typealias ValueLetters = [MarbleValue: Unicode.Scalar]

extension Unicode.Scalar {
    /// Where this letter comes in ``MarbleValue/letters`` (the order the values line lists them).
    fileprivate var order: Int { MarbleValue.letters.firstIndex(of: self) ?? Int.max }
}

import BallModel
import BallStreams
import ColourCore
import TextFormats

// MARK: - The streams panel: what it shows

/// The streams panel as a value: the columns on its page, the late lanes, and how much room
/// it has. The binding makes one from the ``StreamRecorder`` for each frame; the renderer
/// draws it between the ball's area and the status line.
package struct StreamPanel: Hashable, Sendable {
    /// How many rows the panel takes when it fits and the slot holds no operator: a ruler, the
    /// four main lanes, one for each kind of late subscriber, and the description of the latest
    /// column (`learn`'s lanes always take this many).
    package static let rows = rows(slot: false)

    /// How many rows the panel takes at most when it fits, with the slot's lane when `slot` (and
    /// the lanes of what the operator in it reads: as many as the operator that reads most has).
    package static func rows(slot: Bool) -> Int {
        2 + StreamLane.main(slot: slot).count + (slot ? StreamLane.mostInputs : 0) + LateSubscriber.allCases.count
    }
    /// The label column's width (" late Replay(3)" and a space).
    package static let labelWidth = 16

    /// The columns on the page, oldest first.
    package var columns: [StreamColumn]
    /// The late subscribers' lanes.
    package var lateLanes: [LateLane]
    /// Whether it fits; if not, it is one line saying how many rows it needs.
    package var fits: Bool
    /// When it does not fit, how many more rows the terminal needs for it.
    package var missingRows = StreamPanel.rows
    /// The intent the replay player is at: later columns ("the future") are drawn dim, and
    /// the description is of this column. Nil: the latest column.
    package var present: Int?
    /// The column under the pointer, if any: the description is of it.
    package var hovered: Int?
    /// The lane under the pointer, if any: the description names its code and what it did in
    /// the hovered column.
    package var hoveredLane: StreamLane?

    /// Whether it draws the slot's lane: once the session (or the recording) put an operator in it.
    package var showsSlot = false
    /// The time view's spans, when a column is a span of time (``PanelAxis``); nil: a column an
    /// intent. ``columns`` then begins with the column before the first span's start, which says
    /// how each lane stands as the spans begin.
    package var spans: TimeSpans?
    /// How far a wait drawn in the time view has gone (the session's clock); nil: to its end.
    package var now: SessionTime?

    /// How many rows it may take, if it has a fixed number (`learn`'s lanes have ``rows`` of
    /// their own): over it, a kind of late subscriber with no live lane gives up its row (the
    /// last first) to the slot's lane, which is not drawn where every kind has a live one.
    package var rowBudget: Int?

    /// What it draws below the ruler: whether the slot's lane, the lanes of what the operator in
    /// it reads, which kinds of late subscriber have a row (see ``rowBudget``), and the input lanes
    /// it had no room for (the description line names them: a lane is never cut silently).
    private var drawn: (slot: Bool, inputs: [StreamLane], kinds: [LateSubscriber], folded: [StreamLane]) {
        var slot = showsSlot
        var inputs = slot ? StreamLane.inputs(of: presentColumn?.slot ?? .none) : []
        var folded: [StreamLane] = []
        var kinds = LateSubscriber.allCases
        guard let rowBudget else { return (slot, inputs, kinds, folded) }
        while 2 + StreamLane.main(slot: slot, inputs: inputs).count + kinds.count > rowBudget {
            if let free = kinds.lastIndex(where: { kind in !lateLanes.contains { $0.kind == kind && $0.isLive } }) {
                kinds.remove(at: free)
            } else if let last = inputs.popLast() {
                folded.insert(last, at: 0)
            } else if slot {
                slot = false
            } else {
                break
            }
        }
        return (slot, inputs, kinds, folded)
    }

    /// The main lanes it draws, top to bottom.
    package var mainLanes: [StreamLane] {
        let drawn = drawn
        return StreamLane.main(slot: drawn.slot, inputs: drawn.inputs)
    }

    /// The lanes of what the operator in the slot reads that the row budget left out.
    package var foldedLanes: [StreamLane] { drawn.folded }

    /// The kinds of late subscriber it gives a row, top to bottom.
    package var lateKinds: [LateSubscriber] { drawn.kinds }

    /// The column of the place shown: the player's present, or the latest.
    private var presentColumn: StreamColumn? {
        present.flatMap { present in columns.last { $0.index <= present } } ?? columns.last
    }

    /// How many rows it takes.
    package var rowCount: Int {
        guard fits else { return 1 }
        let drawn = drawn
        return 2 + StreamLane.main(slot: drawn.slot, inputs: drawn.inputs).count + drawn.kinds.count
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
        let offset = (column - Self.labelWidth) / 2
        if let spans { return offset < spans.count ? spans.first + offset : nil }
        return offset < columns.count ? columns[offset].index : nil
    }

    /// The columns as drawn, left to right: each one's intent index (in the time view, its span's
    /// number), and whether it is the player's future (drawn dim): an intent after the present,
    /// or a span after the present's own that reaches the next intent (the present's place
    /// lasts until then, the chain's timers included).
    private var drawnColumns: [(id: Int, future: Bool)] {
        if let spans {
            guard let present, let now = columns.last(where: { $0.index <= present })?.time else {
                return spans.numbers.map { ($0, false) }
            }
            let over = columns.first { $0.index > present }?.time
            let (nowSpan, overSpan) = (spans.number(of: now), over.map { spans.number(of: $0) } ?? .max)
            return spans.numbers.map { number in (number, number > nowSpan && number >= overSpan) }
        }
        return columns.map { column in (column.index, present.map { column.index > $0 } ?? false) }
    }

    /// What `lane` shows in each column drawn, by what it showed in each recorded column: the
    /// same, or in the time view the recorded columns projected onto the spans, each event in
    /// the span of its own time (``TimeSpans/lane(_:time:marble:)``).
    private func marbles(_ lane: StreamLane, _ marble: (StreamColumn) -> Marble?) -> [Marble?] {
        guard let spans else { return columns.map(marble) }
        return spans.lane(columns) { column in
            marble(column).map { [TimeSpans.LaneEvent($0, at: column.time(of: lane))] } ?? []
        }
    }

    /// What late lanes `row` show in each column drawn (see ``marbles(_:_:)``): in the time view,
    /// each part of a column at its own time (``LateLane/events(in:)``).
    private func lateMarbles(_ row: [LateLane]) -> [Marble?] {
        guard let spans else { return columns.map { column in row.lazy.compactMap { $0.marble(in: column) }.first } }
        return spans.lane(columns) { column in
            row.first { $0.marble(in: column) != nil }?.events(in: column) ?? []
        }
    }

    /// The lane drawn in the panel's row `row` (counted from its top, the ruler being 0), if any.
    package func lane(atRow row: Int) -> StreamLane? {
        let lanes = mainLanes
        if (1...lanes.count).contains(row) { return lanes[row - 1] }
        let kinds = lateKinds
        let slot = row - 1 - lanes.count
        return kinds.indices.contains(slot) ? .late(kinds[slot]) : nil
    }

    /// How many columns (intents) a page holds at `width`: two cells each, and one cell after
    /// the last for a third mark (``Marble/spill``: a lane that subscribes, is handed a value and
    /// ends in one column, `^○!`).
    package static func pageSize(width: Int) -> Int { max(1, (width - labelWidth - 1) / 2) }

    /// The first intent index on the page that shows `latest` at `width`: pages turn by half
    /// their size, so the newest column moves right until the page is full, then the older
    /// half scrolls off at once (a drag step redraws two cells a lane, not the whole panel).
    package static func pageStart(latest: Int, width: Int) -> Int {
        let size = pageSize(width: width)
        guard latest >= size else { return 0 }
        let half = max(1, size / 2)
        return ((latest - size) / half + 1) * half
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
    package init(_ recorder: StreamRecorder, width: Int, fits: Bool, axis: PanelAxis = PanelAxis()) {
        lateLanes = recorder.lateLanes
        self.fits = fits
        showsSlot = recorder.slotUsed
        guard axis.time else {
            columns = recorder.columns(from: Self.pageStart(latest: recorder.latestIndex, width: width))
            return
        }
        let now = recorder.now
        let latest = recorder.columns(from: recorder.latestIndex).last
        // A late subscriber subscribed or cancelled since the last intent: its mark at its time.
        let late = recorder.lateLanes.flatMap { [$0.startedAt, $0.endedAt] }.compactMap { $0 }
        let end = max(latest.map { Self.end(of: $0, now: now) } ?? now, late.max() ?? .start)
        let last = TimeSpans.number(of: end, length: axis.span)
        let first = Self.pageStart(latest: last, width: width)
        let spans = TimeSpans(length: axis.span, first: first, count: last - first + 1)
        columns = recorder.columns(before: spans.start(of: first))
        self.spans = spans
        self.now = now
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
        var lines = mainLines(width: width)
        for kind in lateKinds {
            if let late = lateLanes.first(where: { $0.kind == kind }) {
                lines.append(
                    laneLine(StreamLane.late(kind).label, width: width, lateMarbles([late])))
            } else {
                let label = " " + StreamLane.late(kind).label
                let padded = label + String(repeating: " ", count: max(1, Self.labelWidth - label.count))
                // `learn`'s lanes (a row budget) name the key only: its lessons ask what each is handed.
                let hints = rowBudget == nil ? Self.lateHints(kind) : Array(Self.lateHints(kind).dropFirst())
                let hint = String.first(of: hints, fittingWidth: width - padded.count)
                lines.append(LaneCell.text(padded + hint, width: width, dim: true))
            }
        }
        if let spans, let hovered, spans.numbers.contains(hovered) {
            let words = spanDescriptions(hovered, in: hoveredLane ?? .intents, spans: spans)
            lines.append(LaneCell.text(" " + String.first(of: words, fittingWidth: width - 1), width: width))
            return lines
        }
        let hoveredColumn = spans == nil ? hovered.flatMap { hovered in columns.first { $0.index == hovered } } : nil
        let described =
            hoveredColumn ?? present.flatMap { present in columns.last { $0.index <= present } } ?? columns.last
        // Input lanes the rows could not hold are named first, so none is cut silently.
        let folded = foldedLanes
        let foldedWords =
            folded.isEmpty
            ? []
            : [
                "(no room for the \(folded.map(\.label).joined(separator: " and ")) lane) ",
                "(+\(folded.map(\.label).joined(separator: ","))) ",
            ]
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

    /// Rows of late lanes, labelled with their kinds, in the panel's order of kinds: each kind's
    /// lanes share a row where they do not meet (one ends before the column before the next
    /// begins: a lane's third mark may take the next column's first cell), else take another.
    package func lateLines(_ lanes: [LateLane], width: Int) -> [[LaneCell]] {
        var lines: [[LaneCell]] = []
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
            for row in rows {
                lines.append(laneLine(StreamLane.late(kind).label, width: width, lateMarbles(row)))
            }
        }
        return lines
    }

    /// The ruler (intent indices at every tenth column, and at the first) and the main lanes
    /// (the slot's labelled with its operator, `.filter`).
    package func mainLines(width: Int) -> [[LaneCell]] {
        let slot = presentColumn?.slot ?? .none
        return [ruler(width: width)]
            + mainLanes.map { lane in
                let label = lane == .slotted && slot != .none ? "." + slot.name : lane.label
                var shown = marbles(lane) { $0.marble(lane) }
                // The time view draws the slot's timed operator waiting (`~`) where it passes nothing.
                guard lane == .slotted, let spans else { return laneLine(label, width: width, shown) }
                let waits = spans.waits(columns, now: now ?? SessionTime(microseconds: .max))
                for (offset, wait) in waits.enumerated() where wait.within && shown[offset] == .line {
                    shown[offset] = .waiting
                }
                return laneLine(label, width: width, shown, waitedInto: waits.map(\.atStart))
            }
    }

    private func ruler(width: Int) -> [LaneCell] {
        if let spans { return timeRuler(spans, width: width) }
        var cells = LaneCell.text(" streams", width: width, dim: true)
        // Every tenth index, and the first column's (unless the next tenth is too close).
        for (offset, column) in columns.enumerated()
        where column.index % 10 == 0 || (offset == 0 && column.index % 10 < 8) {
            let at = Self.labelWidth + 2 * offset + 1
            for (index, digit) in String(column.index).unicodeScalars.enumerated() where at + index < width {
                cells[at + index] = LaneCell(glyph: digit, dim: true)
            }
        }
        return cells
    }

    /// The time view's ruler: the span's length, then the time in seconds at every tenth span
    /// (and at the first, unless the next tenth is too close).
    private func timeRuler(_ spans: TimeSpans, width: Int) -> [LaneCell] {
        var cells = LaneCell.text(" streams \(PanelAxis.words(spans.length))", width: width, dim: true)
        for (offset, number) in spans.numbers.enumerated()
        where number % 10 == 0 || (offset == 0 && number % 10 < 6) {
            let at = Self.labelWidth + 2 * offset + 1
            let seconds = SessionTime.Stride(microseconds: spans.start(of: number).microseconds)
            let text = Self.secondsWords(seconds)
            for (index, character) in text.unicodeScalars.enumerated() where at + index < width {
                cells[at + index] = LaneCell(glyph: character, dim: true)
            }
        }
        return cells
    }

    /// A time since the start in seconds, to the millisecond where it has them: `12s`, `12.5s`,
    /// `0.35s`.
    static func secondsWords(_ time: SessionTime.Stride) -> String {
        let milliseconds = time.microseconds / 1_000
        let (whole, rest) = (milliseconds / 1_000, milliseconds % 1_000)
        guard rest != 0 else { return "\(whole)s" }
        var decimals = String(String(rest + 1_000).dropFirst())
        while decimals.hasSuffix("0") { decimals.removeLast() }
        return "\(whole).\(decimals)s"
    }

    /// One lane's row: its label, then each column's two cells (`shown`, a marble for each column
    /// drawn). A lane's line is drawn in the text's colour, as its marbles are (only a ghost is
    /// dim): the line is the time the subscription lives, and a step that adds a column then
    /// needs no change of colour. In the time view, a marble that ends a wait (`waitedInto`) is
    /// drawn with the wait in its first cell.
    private func laneLine(_ label: String, width: Int, _ shown: [Marble?], waitedInto: [Bool] = []) -> [LaneCell] {
        var cells = LaneCell.text(" " + label, width: width)
        for (offset, column) in drawnColumns.enumerated() {
            let at = Self.labelWidth + 2 * offset
            guard at + 1 < width, offset < shown.count, let shown = shown[offset] else { continue }
            var (first, second) = LaneCell.cells(of: shown)
            if offset < waitedInto.count, waitedInto[offset], shown != .line, shown != .waiting,
                first.glyph == Glyph.line
            {
                first = LaneCell(glyph: Glyph.waiting)
            }
            if column.future {
                // The future: shapes only, dim.
                (first.colour, first.dim, second.colour, second.dim) = (nil, true, nil, true)
            }
            if column.id == hovered { (first.highlighted, second.highlighted) = (true, true) }
            cells[at] = first
            cells[at + 1] = second
            // The third mark goes in the next column's first cell: the lane ended, so nothing
            // else is drawn there.
            if let spill = shown.spill, at + 2 < width { cells[at + 2] = LaneCell.cells(of: spill).1 }
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

    /// The two cells of a column showing `marble` (see ``Marble/cells``).
    package static func cells(of marble: Marble) -> (LaneCell, LaneCell) {
        let (first, second) = marble.cells
        return (cell(of: first), cell(of: second))
    }

    private static func cell(of marble: Marble) -> LaneCell {
        switch marble {
        case .colour(let colour, _): LaneCell(glyph: marble.glyph, colour: colour)
        case .ghost: LaneCell(glyph: marble.glyph, dim: true)
        default: LaneCell(glyph: marble.glyph)
        }
    }
}

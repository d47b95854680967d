import BallModel
import BallStreams
import ColourCore
import TextFormats

// MARK: - The screen as one value

/// Everything the screen shows, in one value: the ball's appearance as the chain published it,
/// and every extra the program puts around it (the help box, a notice, the streams panel, the
/// replay player's rows), with the terminal modes they need. ``update(_:)`` is the one function
/// that changes it; the ``ScreenBinding`` renders it, and the run loop applies its ``modes``.
package struct ScreenModel: Hashable, Sendable {
    /// Where the ball is and both colours, as the chain last published them.
    package var appearance: Appearance
    /// The keys, in a box over the ball; nil: closed.
    package var help: HelpText?
    /// A short notice at the status line's right end (such as "recording stopped: …"); nil: none.
    package var notice: String?
    /// Whether the notice is a key's answer, shown until the next key: where it does not fit
    /// beside the status line's facts, it takes their room.
    package var noticeAnswersKey = false
    /// What the status line says about the keys.
    package var statusKeys = StatusKeys.play
    /// The streams panel; nil: closed.
    package var panel: PanelModel?
    /// The replay player's rows and facts; nil: not a replay.
    package var player: PlayerRows?
    /// Whether the panel's and the timeline's rows are drawn in ASCII (``Glyph/ascii``): the
    /// terminal draws some of their glyphs two cells wide.
    package var asciiMarbles = false
    /// The lesson's card over the top of the ball's area (`learn`); nil: none.
    package var lesson: LessonCard?
    /// How `learn` shares the terminal between the card, the ball and the lanes; nil: not `learn`.
    package var tour: TourLayout?
    /// The operator in the chain's slot, as the chain last published it (the status line names it).
    package var slot = SlotPipe.none
    /// Whether the mirror (the second subject) is on, as it last published (the status line says
    /// so while the slot's operator reads it).
    package var mirror = false
    /// Whether `learn`'s lanes draw the slot's lane (the lesson's point is on it).
    package var tourSlotLane = false
    /// Whether `learn`'s lanes draw background's (lesson 1's do not: what background gets is
    /// lesson 2's question).
    package var tourBackgroundLane = true
    /// Where `learn`'s lesson began: its lanes are drawn from there (nil: from the session's start).
    package var tourFloor: PageFloor?
    /// The late lanes `learn` labels by name alone (their lesson asks what each is handed).
    package var tourPlainLabels: Set<LateSubscriber> = []
    /// The late rows `learn`'s lesson keeps on screen before any lane is in them (its task's).
    package var tourLateRows: Set<LateSubscriber> = []
    /// The code `learn`'s lanes say otherwise until its lesson, each part with what is said instead.
    package var tourUnsaidCode: [String: String] = [:]
    /// How the streams panel lays out its columns: a column per intent, or per span of time
    /// (`T`, zoomed with `<` `>`); kept while the panel is closed.
    package var panelAxis = PanelAxis()

    /// A screen showing `appearance` and nothing else.
    package init(appearance: Appearance) {
        self.appearance = appearance
    }

    /// The terminal modes this screen needs: the pointer's motion with no button down while the
    /// streams panel is open (its description follows the pointer).
    package var modes: TerminalModes { TerminalModes(pointerMotion: panel != nil) }
}

/// The terminal modes a screen asks for, beyond drag reporting, which is always on.
package struct TerminalModes: Hashable, Sendable {
    /// Report the pointer's motion with no button down (mode 1003).
    package var pointerMotion = false

    /// Modes from their parts.
    package init(pointerMotion: Bool = false) {
        self.pointerMotion = pointerMotion
    }
}

/// The streams panel as the screen shows it.
package struct PanelModel: Hashable, Sendable {
    /// Its lanes: the live recorder's latest page, or a page worked out by the replay player.
    package var content: PanelContent
    /// Whether it fits; if not, it is one line saying so.
    package var fits: Bool
    /// The intent whose column is under the pointer, if any: the description is of it.
    package var hovered: Int?
    /// The lane under the pointer, if any: the description names its code.
    package var hoveredLane: StreamLane?
    /// The ids of the late lanes in the row under the pointer, where it is a late row with lanes
    /// (``StreamPanel/lateLaneIDs(atRow:)``).
    package var hoveredLate: [Int]?
    /// The late subscription or cancel after the hovered intent whose column is under the
    /// pointer, if it is one's (``StreamColumn/moment``).
    package var hoveredMoment: Int?

    /// A panel from its parts.
    package init(
        content: PanelContent, fits: Bool, hovered: Int? = nil, hoveredLane: StreamLane? = nil,
        hoveredLate: [Int]? = nil, hoveredMoment: Int? = nil
    ) {
        self.hoveredMoment = hoveredMoment
        self.content = content
        self.fits = fits
        self.hovered = hovered
        self.hoveredLane = hoveredLane
        self.hoveredLate = hoveredLate
    }
}

/// Where the panel's lanes come from.
package enum PanelContent: Hashable, Sendable {
    /// The live recorder's page that shows its latest column (play).
    case live
    /// A page worked out elsewhere (the replay player's, around its place).
    case page(StreamPanel)
}

/// The replay player's part of the screen: the terminal's size (its frame is the whole
/// terminal), rows above the recorded area (a recorded tour's lesson, where the tour had its
/// card), rows between the panel and the status line (the change line and the timeline), what
/// the rows under the recorded area say where they are free, and the facts the status line
/// starts with.
package struct PlayerRows: Hashable, Sendable {
    /// The terminal's size: the frame's, whatever the recorded area's.
    package var terminal: ScreenSize
    /// `replay  intent 12/340  t 3.20 s  1×`.
    package var facts: String
    /// Rows below the streams panel and above the status line, each as wide as the frame.
    package var rows: [[LaneCell]]
    /// Rows above the recorded area, each as wide as the frame: the area is drawn below them.
    package var header: [[LaneCell]]
    /// Lines under the recorded area, saying what it is (and what the rows below it are): drawn
    /// from the area's last row down, on the rows the panel and the player's rows leave free.
    package var underArea: [[LaneCell]]
    /// When set, the frame is the terminal's size and says it is too small for what it must
    /// show, instead of showing part of it.
    package var shortfall: TerminalShortfall?

    /// Player rows from their parts.
    package init(
        terminal: ScreenSize, facts: String, rows: [[LaneCell]], header: [[LaneCell]] = [],
        underArea: [[LaneCell]] = [], shortfall: TerminalShortfall? = nil
    ) {
        self.terminal = terminal
        self.facts = facts
        self.rows = rows
        self.header = header
        self.underArea = underArea
        self.shortfall = shortfall
    }
}

// MARK: - What happens to the screen

/// Something that happened to the screen, named for what happened.
package enum ScreenEvent: Hashable, Sendable {
    /// The position subject published a position.
    case positionPublished(BallPosition)
    /// `ballColour` published a colour.
    case ballColourPublished(FlatColour)
    /// `background` published a colour.
    case backgroundPublished(FlatColour)
    /// The help box was asked for (`?`).
    case helpOpened(HelpText)
    /// Space turned the help box to its next page.
    case helpPageTurned
    /// A key or a click closed the help box.
    case helpClosed
    /// A notice was posted (nil: taken away).
    case noticePosted(String?)
    /// A key's answer was posted as the notice, until the next key (``ScreenModel/noticeAnswersKey``).
    case keyAnswered(String)
    /// The streams panel is open, with this content and room (when it fits).
    case panelShown(content: PanelContent, fits: Bool)
    /// The streams panel closed.
    case panelClosed
    /// The panel's axis changed: the time view on or off, or its zoom (`T`, `<` `>`).
    case panelAxisChanged(PanelAxis)
    /// The pointer came to rest over the panel column of this intent, in this lane (nil: over
    /// none), in the row of these late lanes (by id) where it is a late row with lanes; over the
    /// column of the intent's late subscription or cancel `moment`, where it is one's.
    case pointerHovered(intent: Int?, lane: StreamLane?, late: [Int]? = nil, moment: Int? = nil)
    /// The replay player's rows, facts and keys changed.
    case playerChanged(PlayerRows, keys: StatusKeys)
    /// The terminal was found to draw these glyphs wider than one cell.
    case wideGlyphsFound([Unicode.Scalar])
    /// The lesson's card changed (nil: taken away).
    case lessonShown(LessonCard?)
    /// `learn` laid the terminal out for its card, the ball and the lanes.
    case tourLaidOut(TourLayout)
    /// The chain's slot published the operator in it.
    case slotPublished(SlotPipe)
    /// The mirror, the second subject, published whether it is on.
    case mirrorPublished(Bool)
    /// `learn`'s lanes draw the slot's lane, or stop drawing it (a lesson on the operators began).
    case tourSlotLaneShown(Bool)
    /// `learn`'s lanes draw background's lane, or leave it out (the lesson asks nothing of it yet).
    case tourBackgroundLaneShown(Bool)
    /// A lesson of `learn` began: its lanes are drawn from `floor`.
    case tourLessonBegan(PageFloor)
    /// `learn` labels these late lanes by name alone, or no longer.
    case tourPlainLabels(Set<LateSubscriber>)
    /// `learn`'s lanes keep these late rows on screen, lane or not (the lesson's task subscribes them).
    case tourLateRowsKept(Set<LateSubscriber>)
    /// `learn`'s lanes say these parts of their code otherwise (their lesson is to come), or no longer.
    case tourUnsaidCode([String: String])
}

/// A lesson's card, as `learn` shows it in its own rows above the ball's area: a title, the
/// text, the task (or what was learnt, once done), and a note under it (the hint, or the answer
/// to a try), each wrapped to the width.
package struct LessonCard: Hashable, Sendable {
    /// `Lesson 3 of 8 · A ghost`.
    package var title: String
    /// The lesson's paragraph.
    package var text: String
    /// The task, or what was learnt.
    package var task: String
    /// Under the task: the hint, the answer to the last try, or which keys go on.
    package var note: String
    /// Whether the lesson is done (the task's lines are drawn bold).
    package var done: Bool

    /// A card from its parts.
    package init(title: String, text: String, task: String, note: String = "", done: Bool = false) {
        self.title = title
        self.text = text
        self.task = task
        self.note = note
        self.done = done
    }

    /// The card's lines at `width` cells: the title, then the text (each of its lines), the task
    /// and the note, each wrapped; with whether each is bold (the title, and the task once done).
    package func lines(width: Int) -> [(text: String, bold: Bool)] {
        [(title.fitted(toWidth: width), true)]
            + text.split(separator: "\n").flatMap { String($0).wrapped(toWidth: width) }.map { ($0, false) }
            + task.wrapped(toWidth: width).map { ($0, done) } + note.wrapped(toWidth: width).map { ($0, false) }
    }

    /// How many rows the card takes in a terminal `columns` wide (one blank cell each side).
    package func rowCount(columns: Int) -> Int { lines(width: Self.textWidth(columns: columns)).count }

    /// The width the card's text is wrapped to in a terminal `columns` wide.
    package static func textWidth(columns: Int) -> Int { max(1, columns - 2) }
}

/// How `learn` shares the terminal, fixed for a width so that nothing moves under the learner:
/// the card's rows at the top, the ball's area below them, the streams' rows (kept for the
/// lanes, open or not), the status line. The ball's area is what the session plays in: the
/// card and the lanes never lie over the ball.
package struct TourLayout: Hashable, Sendable {
    /// The narrowest terminal the tour is shown in: the card's text and a page of lanes read there.
    package static let minimumColumns = 60
    /// The terminal.
    package var terminal: ScreenSize
    /// The rows the card takes at this width (every card of the tour fits in them).
    package var cardRows: Int
    /// The rows the card would take at ``minimumColumns`` (what a terminal narrower than that
    /// needs; for a wider one, the card's rows at its own width).
    package var cardRowsAtMinimum: Int

    /// A layout from its parts.
    package init(terminal: ScreenSize, cardRows: Int, cardRowsAtMinimum: Int) {
        self.terminal = terminal
        self.cardRows = cardRows
        self.cardRowsAtMinimum = cardRowsAtMinimum
    }

    /// The ball's area: the terminal's width, the rows between the card and the lanes (its last
    /// row, the one a status line takes in play, is the lanes' first: the area's bottom edge).
    package var area: ScreenSize {
        ScreenSize(columns: terminal.columns, rows: max(1, terminal.rows - cardRows - StreamPanel.tourRows))
    }

    /// The smallest terminal this layout shows whole: at least ``minimumColumns`` wide, and tall
    /// enough for the card, the smallest ball's area and the lanes.
    package var needed: ScreenSize {
        let narrow = terminal.columns < Self.minimumColumns
        return ScreenSize(
            columns: max(terminal.columns, Self.minimumColumns),
            rows: (narrow ? cardRowsAtMinimum : cardRows) + StreamPanel.tourRows + ScreenSize.minimum.rows)
    }

    /// Whether the terminal shows it all.
    package var fits: Bool { terminal.columns >= needed.columns && terminal.rows >= needed.rows }
}

extension ScreenModel {
    /// Applies `event`; whether anything changed (and so must be drawn again).
    @discardableResult
    package mutating func update(_ event: ScreenEvent) -> Bool {
        switch event {
        // The hot path of a drag step: no key paths.
        case .positionPublished(let position):
            guard appearance.position != position else { return false }
            appearance.position = position
            return true
        case .ballColourPublished(let colour):
            guard appearance.ball != colour else { return false }
            appearance.ball = colour
            return true
        case .backgroundPublished(let colour):
            guard appearance.background != colour else { return false }
            appearance.background = colour
            return true
        case .helpOpened(let help): return replace(\.help, with: help)
        case .lessonShown(let card): return replace(\.lesson, with: card)
        case .tourLaidOut(let layout): return replace(\.tour, with: layout)
        case .slotPublished(let chosen): return replace(\.slot, with: chosen)
        case .mirrorPublished(let on): return replace(\.mirror, with: on)
        case .tourSlotLaneShown(let shown): return replace(\.tourSlotLane, with: shown)
        case .tourBackgroundLaneShown(let shown): return replace(\.tourBackgroundLane, with: shown)
        case .tourLessonBegan(let floor): return replace(\.tourFloor, with: floor)
        case .tourPlainLabels(let kinds): return replace(\.tourPlainLabels, with: kinds)
        case .tourLateRowsKept(let kinds): return replace(\.tourLateRows, with: kinds)
        case .tourUnsaidCode(let parts): return replace(\.tourUnsaidCode, with: parts)
        case .helpPageTurned:
            guard help != nil else { return false }
            help!.page += 1
            return true
        case .helpClosed: return replace(\.help, with: nil)
        case .noticePosted(let notice):
            let answered = replace(\.noticeAnswersKey, with: false)
            return replace(\.notice, with: notice) || answered
        case .keyAnswered(let words):
            let answered = replace(\.noticeAnswersKey, with: true)
            return replace(\.notice, with: words) || answered
        case .panelShown(let content, let fits):
            return replace(
                \.panel,
                with: PanelModel(
                    content: content, fits: fits, hovered: panel?.hovered, hoveredLane: panel?.hoveredLane,
                    hoveredLate: panel?.hoveredLate, hoveredMoment: panel?.hoveredMoment))
        case .panelClosed: return replace(\.panel, with: nil)
        case .panelAxisChanged(let axis):
            guard replace(\.panelAxis, with: axis) else { return false }
            // What the pointer was on is another column on the other axis.
            if panel != nil {
                (panel!.hovered, panel!.hoveredLane, panel!.hoveredLate, panel!.hoveredMoment) = (nil, nil, nil, nil)
            }
            return true
        case .pointerHovered(let intent, let lane, let late, let moment):
            guard panel != nil else { return false }
            let momentChanged = replace(\.panel!.hoveredMoment, with: intent == nil ? nil : moment)
            let changed = replace(\.panel!.hovered, with: intent) || momentChanged
            let laneChanged = replace(\.panel!.hoveredLane, with: intent == nil ? nil : lane)
            return replace(\.panel!.hoveredLate, with: intent == nil ? nil : late) || laneChanged || changed
        case .playerChanged(let rows, let keys):
            let changed = replace(\.player, with: rows)
            return replace(\.statusKeys, with: keys) || changed
        case .wideGlyphsFound(let glyphs):
            return replace(\.asciiMarbles, with: asciiMarbles || glyphs.contains { Glyph.ascii[$0] != nil })
        }
    }

    private mutating func replace<Value: Equatable>(_ part: WritableKeyPath<ScreenModel, Value>, with value: Value)
        -> Bool
    {
        guard self[keyPath: part] != value else { return false }
        self[keyPath: part] = value
        return true
    }
}

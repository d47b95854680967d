import BallModel
import BallRendering
import BallReplay
import ColourCore
import TerminalIO

// MARK: - The replay player

/// Travels in a recording: plays it forward, steps back and forth, jumps, scrubs, skips
/// intents and writes the edited log, showing all of it through one session and its binding.
///
/// "At `n`" means the first `n` intents applied. A step forward sends the next intent through
/// the session, as the live program does; any other move builds a new session at the
/// index's state for the new place (its chain built there, the screen bound to it).
/// Either way the screen shows what playing the edited log forward to `n`
/// shows, which the tests check.
///
/// No clock here: ``nextPause`` says how long the next intent waits at the current speed, and
/// the terminal's run loop calls ``playNext()`` when that time has come.
package final class TimeTravelPlayer {
    /// The recording.
    package let index: ReplayIndex
    /// The session the screen is bound to: built anew, chain and all, wherever the player
    /// travels to other than one step forward.
    package private(set) var session: BallSession
    /// The binding that draws the session, the timeline and the status line's facts.
    package let binding: ScreenBinding
    /// How many intents are applied.
    package private(set) var place = 0
    /// Whether playback is paused.
    package private(set) var paused: Bool
    /// The timing: speed and idle cap.
    package private(set) var timing: ReplayTiming
    /// What the last move changed, in words (``ChangeLine``); nil before the first.
    package private(set) var change: String?
    /// Whether the streams panel is open.
    package private(set) var streamsOpen = false
    /// Counts the moves, pauses and speed changes: the run loop starts the wait for the next
    /// intent again when it changes.
    package private(set) var timingRevision = 0
    /// Writes the edited log's lines to a new file and returns its name (set by the command,
    /// which owns files); nil: `w` says it cannot write.
    package var writeEdited: ((AnySequence<String>) throws -> String)?
    /// How much of the file has been read, from 0 to 1 (nil: unknown).
    package var readProgress: (() -> Double?)?

    /// The terminal's size: the recorded area, then the player's rows below it.
    private var terminal: ScreenSize
    /// The frame row of the timeline (nil: no room for it).
    package private(set) var timelineRow: Int?
    /// The late subscribers the user made: their kind, and the place they subscribed at.
    private var lateSubscriptions: [(kind: LateSubscriber, start: Int)] = []
    /// A note for the status line (a file written, a skip refused), until the next move.
    private var message: String?
    /// The timeline's cells without the current place, and what they were made from.
    private var timelineCache: (key: [Int], cells: [LaneCell])?

    /// A player of `index` drawing on `screen` (a terminal of `terminal`), at `timing`;
    /// `paused` starts it paused at 0.
    package init(index: ReplayIndex, screen: Screen, terminal: ScreenSize, timing: ReplayTiming, paused: Bool) {
        self.index = index
        self.timing = timing
        self.paused = paused
        self.terminal = terminal
        session = BallSession(screen: index.header.terminal)
        binding = ScreenBinding(session.viewModel, to: screen)
        binding.streamPanelSource = { [unowned self] width, fits in streamPanel(width: width, fits: fits) }
        update()
    }

    // MARK: - Playing

    /// The wait before the next intent in real seconds, at the current speed; nil while paused,
    /// at the end, or when the next intent has not been read yet.
    package var nextPause: Double? {
        guard !paused, place < index.count else { return nil }
        return timing.pause(from: index.time(at: place), to: index.time(at: place + 1))
    }

    /// Plays the next intent (its time has come); at the end of a fully read file, pauses.
    package func playNext() {
        guard !paused else { return }
        if place < index.count {
            move(to: place + 1, how: .forward)
        }
        if place == index.count, index.isComplete {
            paused = true
            update()
        }
    }

    /// More of the file was read: the status line and timeline show it.
    package func indexGrew() { update() }

    /// The terminal is now `size`.
    package func resized(to size: ScreenSize) {
        terminal = size
        update()
    }

    // MARK: - Keys

    /// Does what a replay key or the mouse asks (quitting, suspending and help are the run
    /// loop's).
    package func perform(_ action: KeyAction) {
        switch action {
        case .togglePause:
            if paused, place == index.count, index.isComplete {
                move(to: 0, how: .jump)
            }
            paused.toggle()
            timingRevision += 1
            update()
        case .step(let count):
            paused = true
            move(to: place + count, how: count == 1 ? .forward : .jump)
        case .jumpToStart: move(to: 0, how: .jump)
        case .jumpToEnd: move(to: index.count, how: .jump)
        case .nextColourChange:
            if let change = index.colourChange(after: place) { move(to: change.intent, how: .jump) }
        case .previousColourChange:
            if let change = index.colourChange(before: place) { move(to: change.intent, how: .jump) }
        case .changeSpeed(let faster):
            let speed = timing.speed
            let next =
                faster
                ? max(speed, min(speed * 2, Self.speeds.upperBound))
                : min(speed, max(speed / 2, Self.speeds.lowerBound))
            timing = timing.at(speed: next)
            timingRevision += 1
            update()
        case .toggleSkip: toggleSkip()
        case .writeEdited: write()
        case .scrub(let cell):
            guard cell.row == timelineRow else { return }
            move(
                to: Timeline.place(
                    atColumn: cell.column, width: session.state.position.screen.columns, count: index.count), how: .jump
            )
        case .toggleStreams:
            streamsOpen.toggle()
            update()
        case .subscribeLate(let kind):
            if lateSubscriptions.count == 2 { lateSubscriptions.removeFirst() }
            lateSubscriptions.append((kind, place))
            binding.redrawSoon()
        case .intent, .quit, .suspend, .showHelp, .hover: break
        }
    }

    /// The terminal the player needs for a recorded area of `area`: that, and a row for the
    /// timeline.
    package static func neededTerminal(for area: ScreenSize) -> ScreenSize {
        ScreenSize(columns: area.columns, rows: area.rows + 1)
    }

    /// The speeds `+` and `-` go between (a `--speed` outside them stays until a key brings it in).
    package static let speeds: ClosedRange<Double> = 0.25...16

    // MARK: - Moving

    /// How the player got to a place, for the change line.
    enum Move {
        case forward, jump, skip(Bool)
    }

    /// Goes to `target` (kept within what has been read) and says what changed.
    private func move(to target: Int, how: Move) {
        let target = min(max(0, target), index.count)
        let before = session.viewModel.current
        if case .forward = how, target == place + 1 {
            if !index.skipped.contains(target) { session.send(index.event(target).intent) }
        } else {
            session = BallSession(start: index.state(at: target))
            binding.bind(session.viewModel)
        }
        let moved = target != place
        place = target
        message = nil
        let words: String =
            switch how {
            case .forward where moved: "#\(target) \(Self.glyph(target, in: index))"
            case .forward, .jump: "#\(target)"
            case .skip(true): "skip #\(target)"
            case .skip(false): "unskip #\(target)"
            }
        change = ChangeLine.text(words, before: before, after: session.viewModel.current)
        timingRevision += 1
        update()
    }

    /// The intent's glyph, or `×` when it is skipped.
    private static func glyph(_ number: Int, in index: ReplayIndex) -> Unicode.Scalar {
        index.skipped.contains(number) ? "×" : Marble.glyph(of: index.event(number).intent)
    }

    private func toggleSkip() {
        guard place > 0 else {
            message = "at the start: step forward to an intent to skip it"
            update()
            return
        }
        guard index.canSkip(place) else {
            message = "a resize is the terminal's: it cannot be skipped"
            update()
            return
        }
        let skip = !index.skipped.contains(place)
        index.setSkipped(place, skip)
        move(to: place, how: .skip(skip))
    }

    private func write() {
        guard let writeEdited else {
            message = "cannot write here"
            update()
            return
        }
        guard index.isComplete else {
            message = "still reading the recording: write when it is read"
            update()
            return
        }
        do {
            let name = try writeEdited(index.editedLines())
            message = "wrote \(name.visibleInMessage)"
        } catch {
            message = "not written: \(String(describing: error).visibleInMessage)"
        }
        update()
    }

    // MARK: - What the binding shows

    /// The status line's facts: `replay  intent 12/340  t 3.20 s  1×`.
    package var facts: String {
        var text = "\(paused ? "paused" : "replay")  intent \(place)/\(index.count)"
        if !index.isComplete {
            let percent = readProgress?().map { " \(Int(($0 * 100).rounded(.down)))%" } ?? ""
            text += "  reading\(percent)"
        }
        let time = index.time(at: place)
        text += "  t \(time.decimals(2)) s  \(Self.speedText(timing.speed))"
        return text
    }

    /// `2×`, `0.5×`, `0.25×`.
    static func speedText(_ speed: Double) -> String {
        speed == speed.rounded() ? "\(Int(speed))×" : "\(speed.plainText)×"
    }

    /// Lays out the rows below the recorded area and hands everything to the binding: the
    /// timeline above the status line when there is a row for it, the streams panel above
    /// it when open (whole, or one line saying it needs more), the change line above them
    /// when a row is left, or a message in its place (else the message on the status line).
    private func update() {
        let area = session.state.position.screen
        var spare = terminal.rows - area.rows
        var rows: [[LaneCell]] = []
        var notice: String?
        timelineRow = nil
        // A terminal smaller than this part of the recording and its timeline says so, whole,
        // until it grows or the player goes back to a part that fits.
        let needed = Self.neededTerminal(for: area)
        binding.shortfall =
            terminal.columns < needed.columns || terminal.rows < needed.rows
            ? TerminalShortfall(needed: needed, available: terminal) : nil
        if spare >= 1 {
            spare -= 1
            rows.append(timeline(width: area.columns))
        }
        var panelRows = 0
        if streamsOpen, spare >= 1 {
            let fits = spare >= StreamPanel.rows
            binding.streamsPanel = fits
            panelRows = fits ? StreamPanel.rows : 1
            spare -= panelRows
        } else {
            binding.streamsPanel = nil
            if streamsOpen { notice = "streams need \(StreamPanel.rows) more rows" }
        }
        // A message (a file written, a skip refused) before what the last move changed; where
        // there is no row for them, a message goes on the status line and the change is left out.
        // The row is kept while there is room, empty before the first move, so that the status
        // line stays where it is.
        if spare >= 1 {
            rows.insert(LaneCell.text((message ?? change).map { " " + $0 } ?? "", width: area.columns), at: 0)
        } else if let message {
            notice = notice ?? message
        }
        if !rows.isEmpty {
            timelineRow = StreamPanel.top(below: area) + panelRows + rows.count - 1
        }
        binding.extraRows = rows
        binding.notice = notice
        binding.statusFacts = facts
        binding.statusKeys = paused ? .replayPaused : .replay
    }

    /// The timeline row at `width`, with the current place marked.
    private func timeline(width: Int) -> [LaneCell] {
        let key = [index.count, index.revision, width]
        if timelineCache?.key != key {
            timelineCache = (key, Timeline.cells(index: index, width: width))
        }
        var cells = timelineCache!.cells
        if !cells.isEmpty {
            cells[Timeline.column(of: place, width: width, count: index.count)] = LaneCell(glyph: "◆")
        }
        return cells
    }

    // MARK: - The streams panel around the current place

    /// The panel's page around the current place, worked out by real subscriptions: a scratch
    /// session restored just before the page, a ``StreamRecorder`` on it, and the page's
    /// intents sent through (skipped ones noted, not sent). Intents after the place are drawn
    /// dim.
    func streamPanel(width: Int, fits: Bool) -> StreamPanel {
        let size = StreamPanel.pageSize(width: width)
        let start = StreamPanel.pageStart(latest: place, width: width)
        let end = min(index.count, start + size - 1)
        let first = max(0, start - 1)
        let scratch = BallSession(start: index.state(at: first))
        let recorder = StreamRecorder(session: scratch, capacity: size + 2, firstIndex: first)
        var pending = lateSubscriptions
        func subscribe(upTo number: Int) {
            while let next = pending.first, next.start <= number {
                recorder.subscribeLate(next.kind, start: next.start)
                pending.removeFirst()
            }
        }
        subscribe(upTo: first)
        if first < end {
            for number in (first + 1)...end {
                let intent = index.event(number).intent
                if index.skipped.contains(number) { recorder.noteSkipped(intent) } else { scratch.send(intent) }
                subscribe(upTo: number)
            }
        }
        let columns = recorder.columns(from: start)
        return StreamPanel(columns: columns, lateLanes: recorder.lateLanes, fits: fits, present: place)
    }
}

// MARK: - The timeline

/// The timeline row: the whole recording across the width, a tick `│` in the new colour at
/// each change of the ball's colour, `×` at skipped intents, and (drawn by the player) `◆` at
/// the current place.
package enum Timeline {
    /// The column that shows place `n` of `count` at `width`.
    package static func column(of n: Int, width: Int, count: Int) -> Int {
        guard count > 0, width > 1 else { return 0 }
        return min(width - 1, n * (width - 1) / count)
    }

    /// The place a press at `column` goes to: the first that the column shows.
    package static func place(atColumn column: Int, width: Int, count: Int) -> Int {
        guard width > 1 else { return 0 }
        let column = min(max(0, column), width - 1)
        return min(count, (column * count + width - 2) / (width - 1))
    }

    /// The row's cells without the current place.
    package static func cells(index: ReplayIndex, width: Int) -> [LaneCell] {
        var cells = [LaneCell](repeating: LaneCell(glyph: "─", dim: true), count: max(0, width))
        guard width > 0 else { return cells }
        for change in index.colourChanges {
            cells[column(of: change.intent, width: width, count: index.count)] = LaneCell(
                glyph: "│", colour: change.colour)
        }
        for skipped in index.skipped {
            cells[column(of: skipped, width: width, count: index.count)] = LaneCell(glyph: "×")
        }
        return cells
    }
}

// MARK: - What a move changed

/// What a move changed, TCA-style: `#12 •: position 40,11 → 41,11 · ballColour flatRed
/// (unchanged) · background (unchanged)`.
package enum ChangeLine {
    /// The line for a move described by `words`, from `before` to `after`.
    package static func text(_ words: String, before: Appearance, after: Appearance) -> String {
        let from = before.position.centre
        let to = after.position.centre
        let position =
            from == to
            ? "position \(to.column),\(to.row) (unchanged)"
            : "position \(from.column),\(from.row) → \(to.column),\(to.row)"
        let ball =
            before.ball == after.ball
            ? "ballColour \(after.ball.name) (unchanged)" : "ballColour \(before.ball.name) → \(after.ball.name)"
        let background =
            before.background == after.background
            ? "background (unchanged)" : "background \(before.background.name) → \(after.background.name)"
        return "\(words): \(position) · \(ball) · \(background)"
    }
}

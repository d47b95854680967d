import BallModel
import BallRendering
import BallReplay
import BallStreams
import ColourCore
import TerminalIO
import TextFormats

// MARK: - asciicast v2

/// Writes a replay as an asciicast v2 file (asciinema's format): a header line with a title,
/// then `[time, "o", text]` lines holding the frames (and `[time, "r", "COLSxROWS"]` where the
/// terminal was resized), drawn as in the terminal: the session's
/// appearance bound to a screen, its frames turned into bytes by the ``Rasteriser`` (with
/// exact 24-bit colours), the first whole and each later one as what changed. Each change of
/// the ball's colour is also a marker, `[time, "m", "flatRed"]`, right after its frame: a
/// player lists them as chapters, and `asciinema play -m` pauses at each.
///
/// A recorded tour's cast (the recording holds a lesson's marker) shows what the tour showed
/// that the recording keeps: the lesson on a row at the top, where the tour had its card (the
/// card's words, the guesses and the hints are no part of the recording), the recorded ball's
/// area under it, the tour's lanes in rows of their own below it (drawn from where the lesson
/// began, as the tour drew them) and the status line: the terminal is the area's width and
/// ``tourRows(area:)`` tall.
package enum AsciicastExport {
    /// The terminal type the cast's bytes are written for (its header says so).
    package static let term = "xterm-direct"

    /// The rows above a recorded tour's ball area in its cast: the lesson's.
    package static let lessonRows = 1

    /// How tall a recorded tour's cast is for a recorded ball's area of `area`: the lesson's
    /// row, the area, and the tour's lanes with the status line (as `learn` lays them out).
    package static func tourRows(area: ScreenSize) -> Int { lessonRows + area.rows + StreamPanel.tourRows }

    /// The terminal a recorded tour's cast shows for a recorded ball's area of `area`.
    static func tourLayout(area: ScreenSize) -> TourLayout {
        TourLayout(
            terminal: ScreenSize(columns: area.columns, rows: tourRows(area: area)), cardRows: lessonRows,
            cardRowsAtMinimum: lessonRows)
    }

    /// Replays `reader` and calls `emit` with each line of the cast (no newline).
    ///
    /// `speed` divides every pause; `maximumIdle` caps each pause first (as asciinema's
    /// idle limit does). The cast starts with the cursor hidden, as the program hides it, and
    /// ends with it shown again and the attributes reset, as the program leaves a terminal.
    /// `lessonLanes` says how a recorded tour's lesson (its number and title) drew its lanes
    /// (``TourLessonLanes``: the slot's, background's, the late rows kept and their labels; nil: a
    /// lesson this program does not know, drawn with the slot's lane where the slot has had an
    /// operator, and every other).
    package static func run(
        reader: ReplayReader, title: String = "colourful-ball replay", speed: Double = 1, maximumIdle: Double? = nil,
        streams: Bool = false, lessonLanes: (Int, String) -> TourLessonLanes? = { _, _ in nil },
        emit: (String) -> Void
    ) throws {
        // The observations' hook draws too: `emit` and the lessons do not outlive this call.
        try withoutActuallyEscaping(emit) { emit in
            try withoutActuallyEscaping(lessonLanes) { lessonLanes in
                try run(
                    reader: reader, title: title, speed: speed, maximumIdle: maximumIdle, streams: streams,
                    lessonLanes: lessonLanes, escaping: emit)
            }
        }
    }

    private static func run(
        reader: ReplayReader, title: String, speed: Double, maximumIdle: Double?, streams: Bool,
        lessonLanes: @escaping (Int, String) -> TourLessonLanes?, escaping write: @escaping (String) -> Void
    ) throws {
        let player = try ReplayPlayer(reader: reader)
        let header = try reader.readHeader()
        // The header waits for what comes before the first intent: a tour's recording begins
        // with its first lesson's marker, which makes the cast taller. (A tour begun on its
        // closing card has its first marker later: the cast grows there, an `r` event.)
        var pending: [String]? = []
        var tour: TourLayout?
        func headerLine() -> String {
            let size = tour?.terminal ?? header.terminal
            return
                #"{"version":2,"width":\#(size.columns),"height":\#(size.rows),"title":\#(title.jsonQuoted),"env":{"TERM":"\#(term)"}}"#
        }
        func emit(_ line: String) {
            if pending == nil { write(line) } else { pending!.append(line) }
        }
        func writeHeader() {
            guard let lines = pending else { return }
            pending = nil
            write(headerLine())
            lines.forEach(write)
        }
        var timing = ReplayTiming(speed: speed, maximumIdle: maximumIdle)
        var castTime = 0.0
        func emitEvent(_ code: String, _ text: String) {
            let time = ((castTime * 1_000_000).rounded() / 1_000_000).plainText
            emit("[\(time), \"\(code)\", \(text.jsonQuoted)]")
        }
        func emitOutput(_ text: String) { emitEvent("o", text) }
        let screen = CastScreen()
        let binding = ScreenBinding(player.session.viewModel, to: screen)
        // The streams panel over the ball, as in play: open all along with `streams`, else where
        // the recording had it open; its late lanes subscribed and cancelled where they were.
        let recorder = StreamRecorder(session: player.session)
        binding.streams = recorder
        var panelOpen = streams
        func showPanel() {
            binding.send(
                panelOpen
                    ? .panelShown(
                        content: .live,
                        fits: tour != nil
                            || StreamPanel.fits(over: player.session.state.position.screen, slot: recorder.slotUsed))
                    : .panelClosed)
        }
        // A recorded tour's lesson, and its `o` and `u` while on, on the row above the area.
        var lesson: String?
        var throughPublish = false
        var mapCopies = false
        func showLesson() {
            guard tour != nil else { return }
            let copies = [
                throughPublish ? Observation.screenThroughPublish(true).tourWords : nil,
                mapCopies ? Observation.mapCopies(true).tourWords : nil,
            ]
            let words = ([lesson] + copies).compactMap { $0 }.joined(separator: " · ")
            binding.send(.lessonShown(LessonCard(title: words, text: "", task: "")))
        }
        func layOutTour(area: ScreenSize) {
            let layout = tourLayout(area: area)
            let grows = tour?.terminal != layout.terminal
            tour = layout
            binding.send(.tourLaidOut(layout))
            if grows, pending == nil { emitEvent("r", "\(layout.terminal.columns)x\(layout.terminal.rows)") }
        }
        // What was looked at is drawn when it was looked at (a hook that ends with this call).
        defer { player.observed = nil }
        // What a timed operator let through is drawn when it did (the chapters after it).
        var newColour: FlatColour?
        func emitChapter() {
            guard let colour = newColour else { return }
            emitEvent("m", colour.name)
            newColour = nil
        }
        defer { player.timerRan = nil }
        player.timerRan = { time in
            binding.flush()
            if screen.hasOutput {
                castTime += timing.pause(until: time.seconds)
                emitOutput(screen.takeOutput())
            }
            emitChapter()
        }
        player.observed = { event in
            recorder.apply(event.observation)
            switch event.observation {
            case .panelOpened where !streams: panelOpen = true
            case .panelClosed where !streams: panelOpen = false
            case .lessonBegan(let number, let title):
                if tour == nil { layOutTour(area: player.session.state.position.screen) }
                // Its lanes from where it began, as the tour drew them: its slot's lane where it
                // is on the operators, background's where it draws it, its late rows and labels.
                binding.send(
                    .tourLessonBegan(
                        PageFloor(
                            column: recorder.latestIndex, subscription: recorder.subscriptionsMade,
                            copy: recorder.copiesMade)))
                let lanes = lessonLanes(number, title)
                binding.send(.tourSlotLaneShown(lanes?.slot ?? recorder.slotUsed))
                binding.send(.tourBackgroundLaneShown(lanes?.background ?? true))
                binding.send(.tourLateRowsKept(lanes?.lateRows ?? []))
                binding.send(.tourPlainLabels(lanes?.plainLabels ?? []))
                lesson = Observation.lessonBegan(number: number, title: title).tourWords ?? title
                showLesson()
            case .screenThroughPublish(let on):
                // The screen's colours through the Publish copy the recorder made, as the tour
                // bound them, or back to the chain.
                if on, let copy = recorder.publishCopy {
                    binding.bindColours(through: copy, player.session.viewModel)
                } else if !on {
                    binding.bind(player.session.viewModel)
                }
                throughPublish = on
                showLesson()
            case .mapCopies(let on):
                mapCopies = on
                showLesson()
            default: break
            }
            showPanel()
            binding.flush()
            if screen.hasOutput {
                castTime += timing.pause(until: event.time)
                emitOutput(screen.takeOutput())
            }
            if case .lessonBegan = event.observation, let lesson {
                // A chapter of the cast at its time, after its frame, as the player's status
                // line says it.
                castTime += timing.pause(until: event.time)
                emitEvent("m", lesson)
            }
        }
        showPanel()
        // The chapters: each new ball colour after the first, bound like the screen.
        let chapters = player.session.viewModel.ballColour.dropFirst().bind { newColour = $0 }
        defer { chapters.cancel() }
        screen.output = Array(hideCursor.utf8)
        binding.flush()
        emitOutput(screen.takeOutput())
        while let event = try player.nextEvent() {
            writeHeader()
            castTime += timing.pause(before: event)
            player.apply(event)
            if case .resized(let size) = event.intent {
                // asciicast v2's resize event, before the frame of the new size (a tour's: the
                // lesson's row, the area, the lanes).
                if tour != nil {
                    layOutTour(area: size)
                } else {
                    emitEvent("r", "\(size.columns)x\(size.rows)")
                }
                if panelOpen { showPanel() }
            }
            // The slot's lane comes with the first operator: the panel may need a row more.
            if case .operatorChosen = event.intent, panelOpen { showPanel() }
            binding.flush()
            if screen.hasOutput { emitOutput(screen.takeOutput()) }
            emitChapter()
        }
        writeHeader()
        // A tour that quit after `e` ran on to its quit: the cast ends there, the wait shown.
        if let end = reader.quitAfterCompletion { castTime += timing.pause(until: end) }
        emitOutput(resetAttributes + showCursor + "\r\n")
    }

    private static let hideCursor = "\u{1B}[?25l"
    private static let showCursor = "\u{1B}[?25h"
    private static let resetAttributes = "\u{1B}[0m"
}

/// A screen whose frames become the bytes of a cast.
private final class CastScreen: FrameSink {
    let colourDepth = ColourDepth.direct
    private var rasteriser = Rasteriser(sequences: .xtermDirectColour())
    var output: [UInt8] = []

    var hasOutput: Bool { !output.isEmpty }

    func present(_ frame: Frame, previous: Frame?) {
        rasteriser.draw(frame, over: previous, into: &output)
    }

    /// The bytes drawn since the last call, as text.
    func takeOutput() -> String {
        defer { output.removeAll(keepingCapacity: true) }
        return String(decoding: output, as: UTF8.self)
    }
}

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
package enum AsciicastExport {
    /// The terminal type the cast's bytes are written for (its header says so).
    package static let term = "xterm-direct"

    /// Replays `reader` and calls `emit` with each line of the cast (no newline).
    ///
    /// `speed` divides every pause; `maximumIdle` caps each pause first (as asciinema's
    /// idle limit does). The cast starts with the cursor hidden, as the program hides it, and
    /// ends with it shown again and the attributes reset, as the program leaves a terminal.
    package static func run(
        reader: ReplayReader, title: String = "colourful-ball replay", speed: Double = 1, maximumIdle: Double? = nil,
        streams: Bool = false, emit: (String) -> Void
    ) throws {
        // The observations' hook draws too: `emit` does not outlive this call.
        try withoutActuallyEscaping(emit) { emit in
            try run(
                reader: reader, title: title, speed: speed, maximumIdle: maximumIdle, streams: streams, escaping: emit)
        }
    }

    private static func run(
        reader: ReplayReader, title: String, speed: Double, maximumIdle: Double?, streams: Bool,
        escaping emit: @escaping (String) -> Void
    ) throws {
        let player = try ReplayPlayer(reader: reader)
        let header = try reader.readHeader()
        emit(
            #"{"version":2,"width":\#(header.terminal.columns),"height":\#(header.terminal.rows),"title":\#(title.jsonQuoted),"env":{"TERM":"\#(term)"}}"#
        )
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
                        fits: StreamPanel.fits(over: player.session.state.position.screen, slot: recorder.slotUsed))
                    : .panelClosed)
        }
        var timing = ReplayTiming(speed: speed, maximumIdle: maximumIdle)
        var castTime = 0.0
        func emitEvent(_ code: String, _ text: String) {
            let time = ((castTime * 1_000_000).rounded() / 1_000_000).plainText
            emit("[\(time), \"\(code)\", \(text.jsonQuoted)]")
        }
        func emitOutput(_ text: String) { emitEvent("o", text) }
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
                // A tour's lesson: a chapter of the cast, as the player's status line says it.
                emitEvent("m", Observation.lessonBegan(number: number, title: title).tourWords ?? title)
            default: break
            }
            showPanel()
            binding.flush()
            if screen.hasOutput {
                castTime += timing.pause(until: event.time)
                emitOutput(screen.takeOutput())
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
            castTime += timing.pause(before: event)
            player.apply(event)
            if case .resized(let size) = event.intent {
                // asciicast v2's resize event, before the frame of the new size.
                emitEvent("r", "\(size.columns)x\(size.rows)")
                if panelOpen { showPanel() }
            }
            // The slot's lane comes with the first operator: the panel may need a row more.
            if case .operatorChosen = event.intent, panelOpen { showPanel() }
            binding.flush()
            if screen.hasOutput { emitOutput(screen.takeOutput()) }
            emitChapter()
        }
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

import BallModel
import BallStreams
import ColourCore
import OpenCombine
import TextFormats

// MARK: - The headless trace

/// The headless trace of a replay: one line per change of the ball's place or colour (an
/// operator in the chain's slot can change the colour without a move), the first at time 0.
package enum HeadlessReplay {
    /// Replays `reader`, calling `emit` with each trace line (no newline); text or JSON lines.
    /// The recording's intents are folded with ``reduce(_:_:)``, the reducer every path uses,
    /// each at its time (``BallState/advanced(to:)`` first: a timed operator's colour change
    /// gets a line at the time it came, between two intents); a line is emitted as each event
    /// is read, so a bad line later in the file loses nothing before it. While a recorded tour's
    /// `o` binds the screen through a Publish copy of the chain, each line says the colours the
    /// screen showed from the copy too (``PublishCopy``: white until the next position), and a
    /// line is printed where they change: the chain's own colours stay what they are.
    package static func run(reader: ReplayReader, json: Bool, emit: (String) -> Void) throws {
        // The observer is told while the file is read, and let go of before the end.
        try withoutActuallyEscaping(emit) { emit in
            var state = BallState.start(on: try reader.readHeader().terminal)
            var copy: PublishCopy?
            var copyColours: ScreenColours?
            var copyBindings: [AnyCancellable] = []
            var last = (appearance: state.appearance, shown: copyColours)
            emit(traceLine(last.appearance, time: 0, json: json))
            func show(_ next: BallState, at time: Double, failed: Bool = false) {
                let now = (appearance: next.appearance, shown: copyColours)
                if failed {
                    emit(traceLine(now.appearance, time: time, json: json, failure: next.failure, shown: now.shown))
                } else if now.appearance.position.centre != last.appearance.position.centre
                    || now.appearance.ball != last.appearance.ball || now.shown != last.shown
                {
                    emit(traceLine(now.appearance, time: time, json: json, shown: now.shown))
                }
                last = now
            }
            func step(to next: BallState, at time: Double) {
                if next.position != state.position { copy?.send(next.position) }
                show(next, at: time, failed: next.failure != state.failure)
                state = next
            }
            defer { reader.observed = nil }
            reader.observed = { event in
                guard case .screenThroughPublish(let on) = event.observation else { return }
                copyBindings = []
                copy = on ? PublishCopy() : nil
                copyColours =
                    on
                    ? ScreenColours(ball: BallState.screenBeforeTheBall, background: BallState.screenBeforeTheBall)
                    : nil
                if let copy {
                    copyBindings = [
                        copy.ball.bind { copyColours?.ball = $0 }, copy.screen.bind { copyColours?.background = $0 },
                    ]
                }
                show(state, at: event.time)
            }
            while let event = try reader.next() {
                let time = SessionTime(seconds: event.time)
                // The timers due before it, each at its time; one due at its instant goes off after it.
                while let due = state.nextTimer, due < time { step(to: state.advanced(to: due), at: due.seconds) }
                step(to: state.after(event.intent, at: time), at: event.time)
            }
            withExtendedLifetime(copyBindings) {}
        }
    }

    /// One trace line for `appearance` at `time`; with `failure`, the line where the chain after
    /// the slot failed (`"error":"out of bounds at 69,17"`): its colours change no more; with
    /// `shown`, the colours the screen showed through a Publish copy (`learn`'s `o`).
    package static func traceLine(
        _ appearance: Appearance, time: Double, json: Bool, failure: SlotError? = nil, shown: ScreenColours? = nil
    ) -> String {
        let cell = appearance.position.centre
        let points = appearance.points
        if json {
            let error = failure.map { #","error":\#($0.words.jsonQuoted)"# } ?? ""
            let through =
                shown.map {
                    #","throughPublish":{"ball":\#($0.ball.jsonObject),"background":\#($0.background.jsonObject)}"#
                } ?? ""
            return
                #"{"t":\#(time.plainText),"cell":[\#(cell.column),\#(cell.row)],"points":[\#(points.x.plainText),\#(points.y.plainText)],"ball":\#(appearance.ball.jsonObject),"background":\#(appearance.background.jsonObject)\#(through)\#(error)}"#
        }
        let error = failure.map { "  error \($0.words)" } ?? ""
        let through =
            shown.map {
                "  through Publish: ball \($0.ball.name) \($0.ball.hex)  background \($0.background.name) \($0.background.hex)"
            } ?? ""
        return
            "\(time.decimals(6))  cell \(cell.column),\(cell.row)  points \(points.x.plainText),\(points.y.plainText)  ball \(appearance.ball.name) \(appearance.ball.hex)  background \(appearance.background.name) \(appearance.background.hex)\(through)\(error)"
    }
}

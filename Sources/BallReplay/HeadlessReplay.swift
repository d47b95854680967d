import BallModel
import ColourCore
import TextFormats

// MARK: - The headless trace

/// The headless trace of a replay: one line per change of the ball's place or colour (an
/// operator in the chain's slot can change the colour without a move), the first at time 0.
package enum HeadlessReplay {
    /// Replays `reader`, calling `emit` with each trace line (no newline); text or JSON lines.
    /// The recording's intents are folded with ``reduce(_:_:)``, the reducer every path uses,
    /// each at its time (``BallState/advanced(to:)`` first: a timed operator's colour change
    /// gets a line at the time it came, between two intents); a line is emitted as each event
    /// is read, so a bad line later in the file loses nothing before it.
    package static func run(reader: ReplayReader, json: Bool, emit: (String) -> Void) throws {
        var state = BallState.start(on: try reader.readHeader().terminal)
        emit(traceLine(state.appearance, time: 0, json: json))
        func step(to next: BallState, at time: Double) {
            if next.failure != state.failure {
                emit(traceLine(next.appearance, time: time, json: json, failure: next.failure))
            } else if next.position.centre != state.position.centre || next.ballColour != state.ballColour {
                emit(traceLine(next.appearance, time: time, json: json))
            }
            state = next
        }
        while let event = try reader.next() {
            let time = SessionTime(seconds: event.time)
            // The timers due before it, each at its time; one due at its instant goes off after it.
            while let due = state.nextTimer, due < time { step(to: state.advanced(to: due), at: due.seconds) }
            step(to: state.after(event.intent, at: time), at: event.time)
        }
    }

    /// One trace line for `appearance` at `time`; with `failure`, the line where the chain after
    /// the slot failed (`"error":"out of bounds at 69,17"`): its colours change no more.
    package static func traceLine(
        _ appearance: Appearance, time: Double, json: Bool, failure: SlotError? = nil
    ) -> String {
        let cell = appearance.position.centre
        let points = appearance.points
        if json {
            let error = failure.map { #","error":\#($0.words.jsonQuoted)"# } ?? ""
            return
                #"{"t":\#(time.plainText),"cell":[\#(cell.column),\#(cell.row)],"points":[\#(points.x.plainText),\#(points.y.plainText)],"ball":\#(appearance.ball.jsonObject),"background":\#(appearance.background.jsonObject)\#(error)}"#
        }
        let error = failure.map { "  error \($0.words)" } ?? ""
        return
            "\(time.decimals(6))  cell \(cell.column),\(cell.row)  points \(points.x.plainText),\(points.y.plainText)  ball \(appearance.ball.name) \(appearance.ball.hex)  background \(appearance.background.name) \(appearance.background.hex)\(error)"
    }
}

import BallModel
import ColourCore

// MARK: - The headless trace

/// The headless trace of a replay: one line per position change, the first at time 0.
package enum HeadlessReplay {
    /// Replays `reader`, calling `emit` with each trace line (no newline); text or JSON lines.
    package static func run(reader: ReplayReader, json: Bool, emit: (String) -> Void) throws {
        let player = try ReplayPlayer(reader: reader)
        var lastCentre: Cell?
        var pending: [String] = []
        let subscription = player.session.viewModel.appearance.sink { appearance in
            guard appearance.position.centre != lastCentre else { return }
            lastCentre = appearance.position.centre
            pending.append(traceLine(appearance, time: player.time, json: json))
        }
        defer { subscription.cancel() }
        repeat {
            for line in pending { emit(line) }
            pending.removeAll(keepingCapacity: true)
        } while try player.step()
        for line in pending { emit(line) }
    }

    /// One trace line for `appearance` at `time`.
    package static func traceLine(_ appearance: Appearance, time: Double, json: Bool) -> String {
        let cell = appearance.position.centre
        let points = appearance.points
        if json {
            return
                #"{"t":\#(time.plainText),"cell":[\#(cell.column),\#(cell.row)],"points":[\#(points.x.plainText),\#(points.y.plainText)],"ball":\#(appearance.ball.jsonObject),"background":\#(appearance.background.jsonObject)}"#
        }
        return
            "\(time.decimals(6))  cell \(cell.column),\(cell.row)  points \(points.x.plainText),\(points.y.plainText)  ball \(appearance.ball.name) \(appearance.ball.hex)  background \(appearance.background.name) \(appearance.background.hex)"
    }
}

import BallExport
import BallModel
import BallReplay
import BallStreams
import BallTestSupport
import Testing

/// `--trace`: RxSwift's debug() lines for the four publishers, against the panel's lanes.
@Suite("The debug trace")
struct TraceTests {
    @Test(
        "on random recordings, each publisher's events in the trace are its lane's, column by column, at the intent's time"
    )
    func agreesWithTheLanes() throws {
        var generator = SeededGenerator()
        for _ in 0..<20 {
            var lines = String(
                decoding: RandomRecording.bytes(count: 1 + generator.below(300), using: &generator), as: UTF8.self
            )
            .split(separator: "\n").map(String.init)
            if Bool.random(using: &generator) { lines.removeLast() }  // Half do not quit.
            let bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
            var trace: [String] = []
            try TraceExport.run(reader: .inMemory(bytes)) { trace.append($0) }
            // The lanes, as the panel records them, and each intent's time.
            let player = try ReplayPlayer(reader: .inMemory(bytes))
            let recorder = StreamRecorder(session: player.session, capacity: 100_000)
            var times = [0.0]
            while let event = try player.nextEvent() {
                player.apply(event)
                times.append(event.time)
            }
            for name in DebugTrace.names {
                let said = trace.filter { $0.contains(": \(name) -> ") }
                var expected = ["0.000: \(name) -> subscribed"]
                for column in recorder.columns {
                    let time = times[column.index].decimals(3)
                    let value: String? =
                        switch name {
                        case "intents": column.intent.map(DebugTrace.describe)
                        case "position": column.position.map(DebugTrace.describe)
                        case "ballColour": column.ballColour?.name
                        default: column.background?.name
                        }
                    if let value { expected.append("\(time): \(name) -> Event next(\(value))") }
                    let lane = StreamLane.main[DebugTrace.names.firstIndex(of: name)!]
                    if column.completed.contains(lane) { expected.append("\(time): \(name) -> Event completed") }
                }
                expected.append("\(times[times.count - 1].decimals(3)): \(name) -> isDisposed")
                #expect(said == expected, "\(name), \(generator)")
                if said != expected { return }
            }
        }
    }
}

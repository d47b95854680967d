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

    @Test(
        "cause before effect: within a step the lines come intents, position, ballColour, background, then the late lanes, the same in 40 runs of one recording"
    )
    func chainOrder() throws {
        var generator = SeededGenerator()
        let bytes = RandomRecording.bytes(count: 300, observations: true, using: &generator)
        var first: [String]?
        let rank = DebugTrace.names + ["late"]
        for run in 0..<40 {
            var trace: [String] = []
            try TraceExport.run(reader: .inMemory(bytes)) { trace.append($0) }
            if let first {
                #expect(trace == first, "run \(run), \(generator)")
                if trace != first { return }
            } else {
                first = trace
            }
            // A step begins at an intent's line: from there to the next, the ranks never go
            // back, and the times never either.
            var last = (rank: 0, time: 0.0)
            for line in trace {
                let parts = line.split(separator: " ", maxSplits: 2)
                let time = Double(parts[0].dropLast())!
                let name = String(parts[1])
                let place = rank.firstIndex(of: name == "late" ? "late" : name)!
                if name == "intents", line.contains("Event next") { last.rank = 0 }
                #expect(place >= last.rank, "\(line) after a line of \(rank[last.rank]), \(generator)")
                #expect(time >= last.time, "\(line): time went back")
                last = (place, time)
            }
        }
        #expect(first?.contains { $0.contains(": late ") } == true, "the recording has late lanes")
    }
}

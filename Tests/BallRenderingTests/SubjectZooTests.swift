import BallModel
import BallStreams
import BallTestSupport
import OpenCombine
import Testing

/// The late lanes the recorder keeps against a reference model of each subject kind
/// (``SubjectZooModel``, written from the ReactiveX definitions). What the panel draws of them
/// is checked against the same model in the drawn-lane tests (BallProgramTests).
@Suite("The subject zoo against a reference model")
struct SubjectZooTests {
    typealias ModelLane = SubjectZooModel.Lane

    @Test(
        "10,000 random runs of intents, subscribes, cancels and a quit: every late lane is what the model says",
        .tags(.slow), .skippedInQuickRuns)
    func againstTheModel() {
        var generator = SeededGenerator()
        let screen = ScreenSize(columns: 40, rows: 12)
        for run in 0..<10_000 {
            let session = BallSession(screen: screen)
            let recorder = StreamRecorder(session: session)
            var model = SubjectZooModel()
            var state = BallState.start(on: screen)
            let steps = 1 + generator.below(30)
            for _ in 0..<steps {
                switch generator.below(10) {
                case 0...3:
                    guard !model.completed else { continue }
                    let direction = Direction.allCases[generator.below(Direction.allCases.count)]
                    let intent = Intent.arrowPressed(direction, distance: 1 + generator.below(12))
                    session.send(intent)
                    let next = reduce(state, intent)
                    model.intent(published: next.position != state.position)
                    state = next
                case 4:
                    guard !model.completed else { continue }
                    session.send(.recentred)
                    let next = reduce(state, .recentred)
                    model.intent(published: next.position != state.position)
                    state = next
                case 5:
                    guard !model.completed, generator.below(4) == 0 else { continue }
                    session.send(.quitRequested)
                    model.quit()
                default:
                    let kind = LateSubscriber.allCases[generator.below(4)]
                    recorder.toggleLate(kind)
                    model.toggle(kind)
                }
            }
            let lanes = recorder.lateLanes.map { lane in
                // (Where between two intents it ended, the model does not say: DrawnLaneTests draws it.)
                ModelLane(
                    kind: lane.kind, start: lane.start, handed: lane.handed, received: lane.received,
                    end: lane.end.map { LateLane.End(column: $0.column, ending: $0.ending) })
            }
            let expected = model.ordered
            #expect(lanes == expected, "run \(run), \(generator)")
            if lanes != expected { return }
        }
    }

    @Test("the relay never completes, the Replay subject replays its last three and then the end")
    func subjectsAlone() {
        let relay = BehaviorRelay(value: 1)
        let replay = ReplaySubject<Int, Never>(bufferSize: 3)
        for value in 2...5 {
            relay.accept(value)
            replay.send(value)
        }
        replay.send(completion: .finished)
        var relayed: [Int] = []
        var replayed: [Int] = []
        var ends = 0
        let subscriptions = [
            relay.publisher.bind(onNext: { relayed.append($0) }, onCompleted: { ends += 1 }),
            replay.bind(onNext: { replayed.append($0) }, onCompleted: { ends += 10 }),
        ]
        relay.accept(6)
        #expect(relayed == [5, 6])
        #expect(replayed == [3, 4, 5])
        #expect(ends == 10, "the replay's completion only; the relay has none")
        _ = subscriptions
    }
}

import BallModel
import BallStreams
import BallTestSupport
import OpenCombine
import Testing

/// The late lanes against a reference model of each subject kind, written from the ReactiveX
/// definitions (reactivex.io/documentation/subject.html) and not from the program's code:
///
/// - Behavior: a new subscriber gets the latest value, then every later one; after the
///   subject completed, only the completion.
/// - Publish: only what comes after the subscription; after completion, only the completion.
/// - Replay(n): the last n values at once, then every later one; after completion, those n
///   values and then the completion.
/// - Relay (RxSwift's BehaviorRelay): as Behavior, but it never completes.
///
/// And for every kind: unsubscribing ends the lane (`!`) and nothing more arrives.
@Suite("The subject zoo against a reference model")
struct SubjectZooTests {
    /// One late lane as the model expects it.
    struct ModelLane: Equatable, CustomStringConvertible {
        var kind: LateSubscriber
        var start: Int
        var handed: Int
        var received: Set<Int> = []
        var end: LateLane.End?

        var description: String {
            "\(kind) from \(start) handed \(handed) got \(received.sorted()) end \(String(describing: end))"
        }
    }

    /// The model of one run: the values the position published (their columns), and the lanes.
    struct Model {
        /// The columns in which a position was published (0: the start's).
        var published: [Int] = [0]
        var column = 0
        var completed = false
        var lanes: [LateSubscriber: ModelLane] = [:]

        mutating func valuePublished() {
            published.append(column)
            for (kind, lane) in lanes where lane.end == nil { lanes[kind]!.received.insert(column) }
        }

        mutating func complete() {
            completed = true
            for (kind, lane) in lanes where lane.end == nil && kind != .relay {
                lanes[kind]!.end = LateLane.End(column: column, ending: .completed)
            }
        }

        mutating func toggle(_ kind: LateSubscriber) {
            if let lane = lanes[kind], lane.end == nil {
                lanes[kind]!.end = LateLane.End(column: column, ending: .unsubscribed)
                return
            }
            var lane = ModelLane(kind: kind, start: column, handed: 0)
            switch kind {
            case .behavior: lane.handed = completed ? 0 : 1
            case .publish: lane.handed = 0
            case .replay: lane.handed = min(3, published.count)
            case .relay: lane.handed = 1
            }
            if completed && kind != .relay { lane.end = LateLane.End(column: column, ending: .completed) }
            lanes[kind] = lane
        }
    }

    @Test("10,000 random runs of intents, subscribes, cancels and a quit: every late lane is what the model says")
    func againstTheModel() {
        var generator = SeededGenerator()
        let screen = ScreenSize(columns: 40, rows: 12)
        for run in 0..<10_000 {
            let session = BallSession(screen: screen)
            let recorder = StreamRecorder(session: session)
            var model = Model()
            var state = BallState.start(on: screen)
            let steps = 1 + generator.below(30)
            for _ in 0..<steps {
                switch generator.below(10) {
                case 0...3:
                    guard !model.completed else { continue }
                    let direction = Direction.allCases[generator.below(Direction.allCases.count)]
                    let intent = Intent.arrowPressed(direction, distance: 1 + generator.below(12))
                    session.send(intent)
                    model.column += 1
                    let next = reduce(state, intent)
                    if next.position != state.position { model.valuePublished() }
                    state = next
                case 4:
                    guard !model.completed else { continue }
                    session.send(.recentred)
                    model.column += 1
                    let next = reduce(state, .recentred)
                    if next.position != state.position { model.valuePublished() }
                    state = next
                case 5:
                    guard !model.completed, generator.below(4) == 0 else { continue }
                    session.send(.quitRequested)
                    model.column += 1
                    model.complete()
                default:
                    let kind = LateSubscriber.allCases[generator.below(4)]
                    recorder.toggleLate(kind)
                    model.toggle(kind)
                }
            }
            let lanes = recorder.lateLanes.map { lane in
                ModelLane(
                    kind: lane.kind, start: lane.start, handed: lane.handed, received: lane.received, end: lane.end)
            }
            let expected = LateSubscriber.allCases.compactMap { model.lanes[$0] }
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

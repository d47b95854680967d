import BallModel
import OpenCombine
import Testing

/// `combineLatest`, `sample` and `merge`, written for OpenCombine as RxSwift's: what a subscriber gets,
/// when, and how each ends. (The chain's use of both is checked against RxPY's own operators on
/// recordings: `scripts/check_rxpy_marbles.py`.)
@Suite("combineLatest, sample and merge")
struct OperatorsTests {
    typealias Recorder = ReplaySubjectTests.Recorder

    @Test(
        "merge: every value of either as it comes, in order; the first's held value at once; it completes when both have"
    )
    func merge() {
        let first = CurrentValueSubject<Int, Never>(1)
        let second = PassthroughSubject<Int, Never>()
        let recorder = Recorder()
        first.merge(with: second).subscribe(recorder)
        #expect(recorder.values == [1])
        second.send(20)
        first.send(2)
        second.send(21)
        first.send(completion: .finished)
        #expect(!recorder.completed, "one of two ended")
        second.send(22)
        #expect(recorder.values == [1, 20, 2, 21, 22])
        second.send(completion: .finished)
        #expect(recorder.completed)
        second.send(23)
        #expect(recorder.values.count == 5, "nothing after the end")
    }

    @Test("merge cancelled lets both go: nothing more comes")
    func mergeCancelled() {
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        var values: [Int] = []
        let subscription = first.merge(with: second).sink { values.append($0) }
        first.send(1)
        subscription.cancel()
        first.send(2)
        second.send(3)
        #expect(values == [1])
    }

    @Test("combineLatest: nothing until both have sent; then every value of either with the other's latest")
    func combineLatest() {
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        let recorder = Recorder()
        first.combineLatest(second) { $0 * 10 + $1 }.subscribe(recorder)
        first.send(1)
        first.send(2)
        #expect(recorder.values.isEmpty)
        second.send(5)
        second.send(6)
        first.send(3)
        #expect(recorder.values == [25, 26, 36])
    }

    @Test("combineLatest completes when both have completed, not before; values still come after one completes")
    func combineLatestCompletion() {
        let first = CurrentValueSubject<Int, Never>(1)
        let second = CurrentValueSubject<Int, Never>(2)
        let recorder = Recorder()
        first.combineLatest(second) { $0 * 10 + $1 }.subscribe(recorder)
        #expect(recorder.values == [12])
        first.send(completion: .finished)
        #expect(!recorder.completed)
        second.send(3)
        #expect(recorder.values == [12, 13])
        second.send(completion: .finished)
        #expect(recorder.completed)
    }

    @Test(
        "sample: at each trigger, the latest value since the last sample, if any; a trigger with nothing new passes nothing"
    )
    func sample() {
        let source = PassthroughSubject<Int, Never>()
        let trigger = PassthroughSubject<Void, Never>()
        let recorder = Recorder()
        source.sample(trigger).subscribe(recorder)
        trigger.send()
        source.send(1)
        source.send(2)
        trigger.send()
        trigger.send()
        source.send(3)
        trigger.send()
        #expect(recorder.values == [2, 3])
    }

    @Test(
        "sample subscribes to its source first: a CurrentValueSubject trigger samples the value the source handed over at once"
    )
    func sampleSubscribing() {
        let source = CurrentValueSubject<Int, Never>(7)
        let trigger = CurrentValueSubject<Bool, Never>(false)
        let recorder = Recorder()
        source.sample(trigger).subscribe(recorder)
        #expect(recorder.values == [7])
    }

    @Test(
        "sample after its source completes: the next trigger (or its completion) hands on what is held, then completes; a trigger that ends first ends nothing"
    )
    func sampleCompletion() {
        let source = PassthroughSubject<Int, Never>()
        let trigger = PassthroughSubject<Void, Never>()
        let recorder = Recorder()
        source.sample(trigger).subscribe(recorder)
        source.send(4)
        source.send(completion: .finished)
        #expect(recorder.values.isEmpty && !recorder.completed)
        trigger.send(completion: .finished)
        #expect(recorder.values == [4])
        #expect(recorder.completed)
        // The trigger ends first: RxSwift's (and RxPY's) sample then never completes.
        let lasting = PassthroughSubject<Int, Never>()
        let ended = PassthroughSubject<Void, Never>()
        let second = Recorder()
        lasting.sample(ended).subscribe(second)
        lasting.send(1)
        ended.send(completion: .finished)
        lasting.send(2)
        lasting.send(completion: .finished)
        #expect(second.values == [1])
        #expect(!second.completed)
    }

    @Test("demand is honoured: a value beyond what was asked for waits (the latest), and comes when asked for")
    func demand() {
        let source = PassthroughSubject<Int, Never>()
        let trigger = PassthroughSubject<Void, Never>()
        let recorder = Recorder(asking: .none)
        source.sample(trigger).subscribe(recorder)
        source.send(1)
        trigger.send()
        source.send(2)
        trigger.send()
        #expect(recorder.values.isEmpty)
        recorder.subscription?.request(.max(1))
        #expect(recorder.values == [2])
        // Completed while a value waits: the value first, then the completion, when asked.
        source.send(3)
        source.send(completion: .finished)
        trigger.send()
        #expect(recorder.values == [2])
        #expect(!recorder.completed)
        recorder.subscription?.request(.max(1))
        #expect(recorder.values == [2, 3])
        #expect(recorder.completed)
    }

    @Test("cancelling lets both upstreams go: nothing more comes")
    func cancelling() {
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        let recorder = Recorder()
        first.combineLatest(second) { $0 + $1 }.subscribe(recorder)
        first.send(1)
        second.send(1)
        recorder.subscription?.cancel()
        first.send(5)
        first.send(completion: .finished)
        second.send(completion: .finished)
        #expect(recorder.values == [2])
        #expect(!recorder.completed)
    }

    @Test(
        "each operator in the slot reads only the subjects it declares (its lanes): values sent on any other never reach what it passes on, timers let run"
    )
    func declaredInputs() {
        let screen = ScreenSize(columns: 80, rows: 24)
        let cells = [Cell(column: 10, row: 5), Cell(column: 60, row: 20), Cell(column: 41, row: 11)]
        let positions = cells.map { BallPosition(centre: $0, screen: screen) }
        for slot in SlotOperator.allCases {
            for input in SlotInput.allCases where !slot.alone.inputs.contains(input) {
                let clock = SessionScheduler()
                let mirror = CurrentValueSubject<Bool, Never>(false)
                let inputs = SlotInputs(
                    position: CurrentValueSubject(BallPosition(centre: Cell(column: 40, row: 11), screen: screen)),
                    mirror: mirror, grabbed: CurrentValueSubject(false),
                    mouse: PassthroughSubject(), keys: PassthroughSubject(), clock: clock)
                var passed: [SlotOutput] = []
                let subscription = slot.alone.applied(to: inputs, resuming: nil).bind { passed.append($0) }
                clock.advance(to: SessionTime(seconds: 1))
                let before = passed
                for (step, position) in positions.enumerated() {
                    switch input {
                    case .position: inputs.position.send(position)
                    case .mirror: mirror.send(step % 2 == 0)
                    case .grabbed: inputs.grabbed.send(step % 2 == 0)
                    case .mouse: inputs.mouse.send(position)
                    case .keys: inputs.keys.send(position)
                    }
                    clock.advance(to: SessionTime(seconds: Double(step + 2)))
                }
                #expect(passed == before, "\(slot.name) passed on what \(input) sent, undeclared")
                subscription.cancel()
            }
        }
        // The check itself: what an operator declares does reach it (merge, the keys).
        let inputs = SlotInputs(
            position: CurrentValueSubject(positions[0]), mirror: CurrentValueSubject(false),
            grabbed: CurrentValueSubject(false), mouse: PassthroughSubject(), keys: PassthroughSubject(),
            clock: SessionScheduler())
        var passed: [SlotOutput] = []
        let subscription = SlotOperator.merge.alone.applied(to: inputs, resuming: nil).bind { passed.append($0) }
        inputs.keys.send(positions[1])
        #expect(passed == [.position(positions[1])])
        subscription.cancel()
    }
}

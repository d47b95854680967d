import BallModel
import OpenCombine
import Testing

/// The ReplaySubject written for OpenCombine: what each subscriber gets, and when.
@Suite("ReplaySubject")
struct ReplaySubjectTests {
    /// A subscriber that asks for `initial` values at first, and records everything.
    final class Recorder: Subscriber {
        typealias Input = Int
        typealias Failure = Never
        var values: [Int] = []
        var completed = false
        var subscription: Subscription?
        let initial: Subscribers.Demand

        init(asking initial: Subscribers.Demand = .unlimited) { self.initial = initial }

        func receive(subscription: Subscription) {
            self.subscription = subscription
            if initial > 0 { subscription.request(initial) }
        }
        func receive(_ input: Int) -> Subscribers.Demand {
            values.append(input)
            return .none
        }
        func receive(completion: Subscribers.Completion<Never>) { completed = true }
    }

    @Test("a new subscriber gets the last n values at once, then what comes after")
    func replaysTheLastValues() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 3)
        for value in 1...5 { subject.send(value) }
        let late = Recorder()
        subject.subscribe(late)
        #expect(late.values == [3, 4, 5])
        subject.send(6)
        #expect(late.values == [3, 4, 5, 6])
        #expect(subject.buffer == [4, 5, 6])
        #expect(subject.latest == 6)
    }

    @Test("after completion a subscriber gets the replay, then the completion; nothing more is sent")
    func completion() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 2)
        let early = Recorder()
        subject.subscribe(early)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .finished)
        subject.send(3)
        let late = Recorder()
        subject.subscribe(late)
        #expect(early.values == [1, 2] && early.completed)
        #expect(late.values == [1, 2] && late.completed)
    }

    @Test("demand is honoured: values wait until they are asked for, in order")
    func demand() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 3)
        for value in 1...3 { subject.send(value) }
        let slow = Recorder(asking: .max(1))
        subject.subscribe(slow)
        #expect(slow.values == [1])
        subject.send(4)
        #expect(slow.values == [1])
        slow.subscription?.request(.max(2))
        #expect(slow.values == [1, 2, 3])
        slow.subscription?.request(.unlimited)
        #expect(slow.values == [1, 2, 3, 4])
        subject.send(5)
        #expect(slow.values == [1, 2, 3, 4, 5])
    }

    @Test("a cancelled subscriber gets nothing more; share(replay:) runs its upstream once for all")
    func cancelAndShare() {
        let subject = ReplaySubject<Int, Never>(bufferSize: 1)
        let gone = Recorder()
        subject.subscribe(gone)
        subject.send(1)
        gone.subscription?.cancel()
        subject.send(2)
        #expect(gone.values == [1])

        let source = CurrentValueSubject<Int, Never>(10)
        var runs = 0
        let shared = source.map { value -> Int in
            runs += 1
            return value * 2
        }.share(replay: 1)
        let first = Recorder()
        let second = Recorder()
        shared.subscribe(first)
        source.send(11)
        shared.subscribe(second)
        source.send(12)
        #expect(runs == 3)
        #expect(first.values == [20, 22, 24])
        #expect(second.values == [22, 24])
    }

    @Test("share(replay:)'s subject let go cancels its upstream: the operators above it run no more")
    func shareLetGo() {
        let source = CurrentValueSubject<Int, Never>(10)
        var runs = 0
        var shared: ReplaySubject<Int, Never>? = source.map { value -> Int in
            runs += 1
            return value
        }.share(replay: 1)
        weak var held: ReplaySubject<Int, Never>?
        held = shared
        source.send(11)
        #expect(runs == 2 && shared?.buffer == [11])
        shared = nil
        #expect(held == nil, "nothing else keeps the subject")
        source.send(12)
        #expect(runs == 2, "the map above it no longer runs")
    }
}

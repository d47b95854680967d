import OpenCombine

// MARK: - The operators OpenCombine does not have

extension Publisher where Failure == Never {
    /// RxSwift's `combineLatest(_:_:resultSelector:)`, for OpenCombine, which has none: once
    /// both publishers have sent a value, `transform` of the latest of each, every time either
    /// sends one; it completes when both have completed. Subscribing, it subscribes to this
    /// publisher, then to `other` (a subject that holds a value hands it over at once, so two
    /// `CurrentValueSubject`s give one value at once).
    package func combineLatest<Other: Publisher, Combined>(
        _ other: Other, _ transform: @escaping (Output, Other.Output) -> Combined
    ) -> CombineLatest<Self, Other, Combined> {
        CombineLatest(first: self, second: other, transform: transform)
    }

    /// RxSwift's `sample(_:)`, for OpenCombine (Combine has none): each time `trigger` sends a
    /// value, the latest value this publisher sent since the last one went on, if it sent any
    /// since. When this publisher has completed, the next value or completion of `trigger`
    /// hands on what is held and completes. Subscribing, it subscribes to this publisher, then
    /// to `trigger` (as RxSwift's and RxPY's do): a `CurrentValueSubject` trigger samples the
    /// value this publisher handed over at once.
    package func sample<Trigger: Publisher>(_ trigger: Trigger) -> Sample<Self, Trigger>
    where Trigger.Failure == Never {
        Sample(source: self, trigger: trigger)
    }

    /// RxSwift's `throttle(_:latest: true, scheduler:)`: the first value at once (the one a
    /// `CurrentValueSubject` hands as it is subscribed included), then at most one every
    /// `dueTime`: a value that comes before `dueTime` has passed since the last one sent is held,
    /// the latest held goes when that time comes, and the next window starts there. Its source's
    /// completion waits for what is held. As RxSwift's `ThrottleSink` does it, on `scheduler`.
    /// (Combine's `throttle(for:scheduler:latest:)` drops the value it is handed as it
    /// subscribes.)
    ///
    /// `resuming`, a window that started before it was subscribed (a chain built part-way): it
    /// lets nothing through until the window ends, and then the value `held`, if given.
    package func throttle(
        _ dueTime: SessionTime.Stride, latest: Bool = true, scheduler: SessionScheduler,
        resuming: (start: SessionTime, held: Output?)? = nil
    ) -> Throttle<Self> {
        Throttle(source: self, dueTime: dueTime, latest: latest, scheduler: scheduler, resuming: resuming)
    }

    /// RxSwift's `debounce(_:scheduler:)`: a value goes on once `dueTime` has passed with no
    /// new one; when its source completes, the value it holds goes on first, then the
    /// completion. As RxSwift's `DebounceSink` does it, on `scheduler`. (Combine's
    /// `debounce(for:scheduler:)` drops the value it holds when its source completes.)
    ///
    /// `holding`, a value it holds as it is subscribed (a chain built part-way), since the time
    /// given: it goes on `dueTime` after that time, unless a new value comes first.
    package func debounce(
        _ dueTime: SessionTime.Stride, scheduler: SessionScheduler, holding: (value: Output, since: SessionTime)? = nil
    ) -> Debounce<Self> {
        Debounce(source: self, dueTime: dueTime, scheduler: scheduler, holding: holding)
    }

    /// Combine's `merge(with:)` (RxSwift's `merge`), for OpenCombine, which has none: every
    /// value either publisher sends, as it comes; it completes when both have completed.
    /// Subscribing, it subscribes to this publisher, then to `other`.
    package func merge<Other: Publisher>(with other: Other) -> Merge<Self, Other>
    where Other.Output == Output, Other.Failure == Never {
        Merge(first: self, second: other)
    }
}

/// ``OpenCombine/Publisher/merge(with:)``'s publisher.
package struct Merge<First: Publisher, Second: Publisher>: Publisher
where First.Failure == Never, Second.Failure == Never, First.Output == Second.Output {
    package typealias Output = First.Output
    package typealias Failure = Never
    let first: First
    let second: Second

    package func receive<Downstream: Subscriber>(subscriber: Downstream)
    where Downstream.Input == Output, Downstream.Failure == Never {
        let outlet = Outlet(subscriber)
        subscriber.receive(subscription: outlet)
        let finished = outlet.finishing(after: 2)
        outlet.keep(first.bind(onNext: { [unowned outlet] in outlet.send($0) }, onCompleted: finished))
        outlet.keep(second.bind(onNext: { [unowned outlet] in outlet.send($0) }, onCompleted: finished))
    }
}

/// ``OpenCombine/Publisher/throttle(_:latest:scheduler:)``'s publisher.
package struct Throttle<Source: Publisher>: Publisher where Source.Failure == Never {
    package typealias Output = Source.Output
    package typealias Failure = Never
    let source: Source
    let dueTime: SessionTime.Stride
    let latest: Bool
    let scheduler: SessionScheduler
    let resuming: (start: SessionTime, held: Output?)?

    package func receive<Downstream: Subscriber>(subscriber: Downstream)
    where Downstream.Input == Output, Downstream.Failure == Never {
        let outlet = Outlet(subscriber)
        subscriber.receive(subscription: outlet)
        let (dueTime, latest, scheduler) = (dueTime, latest, scheduler)
        var lastSent: SessionTime? = resuming?.start
        var unsent: Output? = resuming?.held
        var completed = false
        var timer: (any Cancellable)?
        let sendNow = { [unowned outlet] (value: Output) in
            unsent = nil
            outlet.send(value)
            lastSent = scheduler.now
        }
        // Weak: a timer that ran after its subscription was gone would find no outlet, and do nothing.
        let propagate = { [weak outlet] in
            guard let outlet else { return }
            timer = nil
            if let value = unsent { sendNow(value) }
            if completed { outlet.finish() }
        }
        if let start = resuming?.start, unsent != nil {
            timer = scheduler.schedule(at: start.advanced(by: dueTime), propagate)
        }
        outlet.keep(AnyCancellable { timer?.cancel() })
        outlet.keep(
            source.bind(
                onNext: { value in
                    // What is left of the window since the last value sent; none: send it now.
                    let due = lastSent.map { $0.advanced(by: dueTime) } ?? scheduler.now
                    guard due > scheduler.now else { return sendNow(value) }
                    guard latest else { return }
                    let inFlight = unsent != nil
                    unsent = value
                    guard !inFlight else { return }
                    // The timer this one takes the place of (set for a window that a value sent
                    // at its end renewed) goes: RxSwift's `ThrottleSink` keeps its timer in a
                    // `SerialDisposable`, which disposes of the one before.
                    timer?.cancel()
                    timer = scheduler.schedule(at: due, propagate)
                },
                onCompleted: { [unowned outlet] in
                    if unsent != nil { completed = true } else { outlet.finish() }
                }))
    }
}

/// ``OpenCombine/Publisher/debounce(_:scheduler:)``'s publisher.
package struct Debounce<Source: Publisher>: Publisher where Source.Failure == Never {
    package typealias Output = Source.Output
    package typealias Failure = Never
    let source: Source
    let dueTime: SessionTime.Stride
    let scheduler: SessionScheduler
    let holding: (value: Output, since: SessionTime)?

    package func receive<Downstream: Subscriber>(subscriber: Downstream)
    where Downstream.Input == Output, Downstream.Failure == Never {
        let outlet = Outlet(subscriber)
        subscriber.receive(subscription: outlet)
        let (dueTime, scheduler) = (dueTime, scheduler)
        var held: Output?
        var timer: (any Cancellable)?
        let wait = { [unowned outlet] (value: Output, since: SessionTime) in
            held = value
            // Each value waits afresh: the timer of the one before is cancelled.
            timer?.cancel()
            timer = scheduler.schedule(at: since.advanced(by: dueTime)) {
                timer = nil
                guard let value = held else { return }
                held = nil
                outlet.send(value)
            }
        }
        if let holding { wait(holding.value, holding.since) }
        outlet.keep(AnyCancellable { timer?.cancel() })
        outlet.keep(
            source.bind(
                onNext: { value in wait(value, scheduler.now) },
                onCompleted: { [unowned outlet] in
                    // Kept for the whole call, as in ``Sample``: the value sent may end the
                    // subscription before `finish`.
                    let kept = outlet
                    timer?.cancel()
                    timer = nil
                    if let value = held {
                        held = nil
                        kept.send(value)
                    }
                    kept.finish()
                }))
    }
}

/// ``OpenCombine/Publisher/combineLatest(_:_:)``'s publisher.
package struct CombineLatest<First: Publisher, Second: Publisher, Output>: Publisher
where First.Failure == Never, Second.Failure == Never {
    package typealias Failure = Never
    let first: First
    let second: Second
    let transform: (First.Output, Second.Output) -> Output

    package func receive<Downstream: Subscriber>(subscriber: Downstream)
    where Downstream.Input == Output, Downstream.Failure == Never {
        let outlet = Outlet(subscriber)
        subscriber.receive(subscription: outlet)
        var latestFirst: First.Output?
        var latestSecond: Second.Output?
        let transform = transform
        let emit = { [unowned outlet] in
            guard let first = latestFirst, let second = latestSecond else { return }
            outlet.send(transform(first, second))
        }
        let finished = outlet.finishing(after: 2)
        outlet.keep(
            first.bind(
                onNext: {
                    latestFirst = $0
                    emit()
                }, onCompleted: finished))
        outlet.keep(
            second.bind(
                onNext: {
                    latestSecond = $0
                    emit()
                }, onCompleted: finished))
    }
}

/// ``OpenCombine/Publisher/sample(_:)``'s publisher.
package struct Sample<Source: Publisher, Trigger: Publisher>: Publisher
where Source.Failure == Never, Trigger.Failure == Never {
    package typealias Output = Source.Output
    package typealias Failure = Never
    let source: Source
    let trigger: Trigger

    package func receive<Downstream: Subscriber>(subscriber: Downstream)
    where Downstream.Input == Output, Downstream.Failure == Never {
        let outlet = Outlet(subscriber)
        subscriber.receive(subscription: outlet)
        var held: Output?
        var sourceEnded = false
        let sampled = { [unowned outlet] in
            // Kept for the whole call: the value sent may end the subscription (a stage after
            // it that throws cancels it), and the outlet would go with it before `finish`.
            let kept = outlet
            if let value = held {
                held = nil
                kept.send(value)
            }
            if sourceEnded { kept.finish() }
        }
        outlet.keep(
            source.bind(
                onNext: { held = $0 },
                onCompleted: { sourceEnded = true }))
        outlet.keep(trigger.bind(onNext: { _ in sampled() }, onCompleted: sampled))
    }
}

/// The subscription ``CombineLatest``, ``Sample``, ``Merge``, ``Throttle`` and ``Debounce`` hand their subscriber: what it asked for,
/// the value it did not ask for yet (the latest, kept until it asks), and the upstream bindings,
/// cancelled with it or when it finishes. For the program's single thread: it takes no locks.
private final class Outlet<Downstream: Subscriber>: Subscription where Downstream.Failure == Never {
    private var downstream: Downstream?
    private var demand = Subscribers.Demand.none
    private var waiting: Downstream.Input?
    private var finishedWhileWaiting = false
    private var upstreams: [AnyCancellable] = []

    init(_ downstream: Downstream) { self.downstream = downstream }

    /// Keeps an upstream binding until the end.
    func keep(_ upstream: AnyCancellable) {
        if downstream == nil { upstream.cancel() } else { upstreams.append(upstream) }
    }

    /// Hands `value` on, if it was asked for; otherwise keeps it (the latest) until it is.
    func send(_ value: Downstream.Input) {
        guard let downstream else { return }
        guard demand > 0 else {
            waiting = value
            return
        }
        demand -= 1
        demand += downstream.receive(value)
    }

    /// What finishes the subscriber once it has been called `count` times: once each upstream
    /// it waits for has completed.
    func finishing(after count: Int) -> () -> Void {
        var completed = 0
        return { [unowned self] in
            completed += 1
            if completed == count { finish() }
        }
    }

    /// Completes the subscriber (after a value it is still owed) and lets everything go.
    func finish() {
        guard downstream != nil else { return }
        guard waiting == nil else {
            finishedWhileWaiting = true
            return
        }
        let ending = downstream
        cancel()
        ending?.receive(completion: .finished)
    }

    func request(_ more: Subscribers.Demand) {
        demand += more
        if let value = waiting, demand > 0 {
            waiting = nil
            send(value)
            if finishedWhileWaiting { finish() }
        }
    }

    func cancel() {
        downstream = nil
        let bindings = upstreams
        upstreams.removeAll()
        for binding in bindings { binding.cancel() }
    }

    var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }
}

import OpenCombine

// MARK: - ReplaySubject: the subject kind Combine does not have

/// RxSwift's `ReplaySubject`, for OpenCombine: a subject that keeps the last ``bufferSize``
/// values it was sent and hands them to every new subscriber at once, then everything that
/// comes after; a completion is kept too, and handed on after the replay.
///
/// The article's four subject kinds, side by side:
///
/// | kind | a new subscriber gets | here |
/// |---|---|---|
/// | Publish | only what comes after | `PassthroughSubject` |
/// | Behavior | the latest value, then the rest | `CurrentValueSubject` |
/// | Replay(n) | the last n values, then the rest | `ReplaySubject(bufferSize: n)` |
/// | Variable | a Behavior subject that only sends next | `CurrentValueSubject` (never completed) |
///
/// Combine has no replay subject (CombineExt's is the usual reference); this one is written
/// for the program's single thread: it takes no locks, and it must be used from one thread.
/// Demand is honoured: a subscriber that asked for fewer values than the replay holds gets the
/// rest as it asks; live values beyond a subscriber's demand wait in its own queue.
package final class ReplaySubject<Output, Failure: Error>: Subject {
    /// How many values are kept for new subscribers.
    package let bufferSize: Int
    /// The values kept, oldest first (at most ``bufferSize``).
    package private(set) var buffer: [Output] = []
    /// The completion, once sent.
    package private(set) var completion: Subscribers.Completion<Failure>?
    private var subscriptions: [Conduit] = []
    private var upstreams: [Subscription] = []
    /// The connection made by ``OpenCombine/Publisher/share(replay:)``, kept as long as the
    /// subject lives.
    fileprivate var connection: AnyCancellable?

    /// A subject that replays the last `bufferSize` values (at least one) to each new subscriber.
    package init(bufferSize: Int) {
        self.bufferSize = Swift.max(1, bufferSize)
        buffer.reserveCapacity(self.bufferSize)
    }

    deinit {
        for upstream in upstreams { upstream.cancel() }
    }

    /// The latest value sent, if any.
    package var latest: Output? { buffer.last }

    /// Keeps `input` (dropping the oldest beyond ``bufferSize``) and sends it to every subscriber.
    package func send(_ input: Output) {
        guard completion == nil else { return }
        if buffer.count == bufferSize { buffer.removeFirst() }
        buffer.append(input)
        for subscription in subscriptions { subscription.offer(input) }
    }

    /// Keeps `completion` and sends it to every subscriber, who are then let go.
    package func send(completion: Subscribers.Completion<Failure>) {
        guard self.completion == nil else { return }
        self.completion = completion
        let finished = subscriptions
        subscriptions.removeAll()
        for subscription in finished { subscription.finish(completion) }
    }

    /// Takes an upstream (as `Publisher.subscribe(_:)` hands it): everything, at once, so the
    /// buffer keeps up whether or not anyone listens.
    package func send(subscription: Subscription) {
        upstreams.append(subscription)
        subscription.request(.unlimited)
    }

    /// Hands `subscriber` the buffered values (as far as it asks), then the completion if there
    /// is one, else everything that comes after.
    package func receive<Downstream: Subscriber>(subscriber: Downstream)
    where Downstream.Input == Output, Downstream.Failure == Failure {
        let conduit = Conduit(parent: self, downstream: AnySubscriber(subscriber), replay: buffer, end: completion)
        if completion == nil { subscriptions.append(conduit) }
        subscriber.receive(subscription: conduit)
    }

    private func remove(_ conduit: Conduit) {
        subscriptions.removeAll { $0 === conduit }
    }

    // MARK: - One subscription

    private final class Conduit: Subscription {
        private weak var parent: ReplaySubject?
        private var downstream: AnySubscriber<Output, Failure>?
        private var demand = Subscribers.Demand.none
        /// Values waiting for demand: the replay first, then live values beyond the demand.
        private var waiting: [Output]
        private var waitingStart = 0
        /// A completion to hand on once the waiting values are delivered.
        private var end: Subscribers.Completion<Failure>?

        init(
            parent: ReplaySubject, downstream: AnySubscriber<Output, Failure>, replay: [Output],
            end: Subscribers.Completion<Failure>?
        ) {
            self.parent = parent
            self.downstream = downstream
            waiting = replay
            self.end = end
        }

        func offer(_ input: Output) {
            guard downstream != nil else { return }
            if demand > 0, waitingStart == waiting.count {
                deliver(input)
            } else {
                waiting.append(input)
            }
        }

        func finish(_ completion: Subscribers.Completion<Failure>) {
            end = completion
            drain()
        }

        func request(_ demand: Subscribers.Demand) {
            guard downstream != nil else { return }
            self.demand += demand
            drain()
        }

        func cancel() {
            guard downstream != nil else { return }
            downstream = nil
            waiting.removeAll()
            parent?.remove(self)
        }

        private func deliver(_ input: Output) {
            guard let downstream else { return }
            demand -= 1
            demand += downstream.receive(input)
        }

        /// Delivers what waits, as far as the demand goes, then the end if all was delivered.
        private func drain() {
            while demand > 0, waitingStart < waiting.count, downstream != nil {
                let next = waiting[waitingStart]
                waitingStart += 1
                deliver(next)
            }
            if waitingStart == waiting.count {
                waiting.removeAll(keepingCapacity: true)
                waitingStart = 0
                if let end, let downstream {
                    self.downstream = nil
                    downstream.receive(completion: end)
                }
            }
        }

        var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }
    }
}

// MARK: - share(replay:)

extension Publisher {
    /// RxSwift's `share(replay:)`: one subscription to this publisher, made now and kept as
    /// long as the returned subject lives, whose last `count` values each new subscriber gets
    /// at once. Every subscriber then sees one shared run of the operators above (a `scan`'s
    /// memory, say), not a run of its own.
    package func share(replay count: Int) -> ReplaySubject<Output, Failure> {
        let subject = ReplaySubject<Output, Failure>(bufferSize: count)
        // The subject is held weakly by its upstream subscriber: keeping the connection in the
        // subject makes no cycle, and letting the subject go cancels it.
        subject.connection = subscribe(subject)
        return subject
    }
}

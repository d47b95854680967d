import ColourCore
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
    /// The values kept, in a ring: `ring[(first + k) % bufferSize]` is the k-th oldest.
    private var ring: [Output] = []
    private var first = 0
    /// The completion, once sent.
    package private(set) var completion: Subscribers.Completion<Failure>?
    private var subscriptions: [ReplayConduit<Output, Failure>] = []
    private var upstreams: [Subscription] = []
    /// The connection made by ``OpenCombine/Publisher/share(replay:)``, kept as long as the
    /// subject lives.
    fileprivate var connection: AnyCancellable?

    /// A subject that replays the last `bufferSize` values (at least one) to each new subscriber.
    package init(bufferSize: Int) {
        self.bufferSize = Swift.max(1, bufferSize)
        ring.reserveCapacity(self.bufferSize)
    }

    deinit {
        for upstream in upstreams { upstream.cancel() }
    }

    /// The values kept, oldest first (at most ``bufferSize``).
    package var buffer: [Output] { Array(ring[first...] + ring[..<first]) }

    /// The latest value sent, if any (kept beside the ring: the session reads it after every intent).
    package private(set) var latest: Output?

    /// Keeps `input` (dropping the oldest beyond ``bufferSize``) and sends it to every subscriber.
    @_specialize(where Output == FlatColour, Failure == Never)
    @_specialize(where Output == BallPosition, Failure == Never)
    package func send(_ input: Output) {
        guard completion == nil else { return }
        latest = input
        if ring.count < bufferSize {
            ring.append(input)
        } else {
            ring[first] = input
            first = first + 1 == bufferSize ? 0 : first + 1
        }
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
        let conduit = ReplayConduitTo(subscriber, parent: self, replay: buffer, end: completion)
        if completion == nil { subscriptions.append(conduit) }
        subscriber.receive(subscription: conduit)
    }

    fileprivate func remove(_ conduit: ReplayConduit<Output, Failure>) {
        subscriptions.removeAll { $0 === conduit }
    }
}

// MARK: - One subscription

/// One subscriber's subscription to a ``ReplaySubject``: what it has asked for, and the values
/// waiting for its demand (the replay first, then live values beyond the demand). The subject
/// calls it through this base class; ``ReplayConduitTo`` knows the subscriber's type.
private class ReplayConduit<Output, Failure: Error>: Subscription {
    weak var parent: ReplaySubject<Output, Failure>?
    var demand = Subscribers.Demand.none
    var waiting: [Output]
    var waitingStart = 0
    /// A completion to hand on once the waiting values are delivered.
    var end: Subscribers.Completion<Failure>?
    var isActive = true

    init(parent: ReplaySubject<Output, Failure>, replay: [Output], end: Subscribers.Completion<Failure>?) {
        self.parent = parent
        waiting = replay
        self.end = end
    }

    /// Hands `input` on now if the subscriber asked for it and nothing waits before it.
    final func offer(_ input: Output) {
        guard isActive else { return }
        if demand > 0, waitingStart == waiting.count {
            demand -= 1
            demand += deliver(input)
        } else {
            waiting.append(input)
        }
    }

    final func finish(_ completion: Subscribers.Completion<Failure>) {
        end = completion
        drain()
    }

    final func request(_ demand: Subscribers.Demand) {
        guard isActive else { return }
        self.demand += demand
        drain()
    }

    final func cancel() {
        guard isActive else { return }
        isActive = false
        letGo()
        waiting.removeAll()
        parent?.remove(self)
    }

    /// Delivers what waits, as far as the demand goes, then the end if all was delivered.
    private func drain() {
        while demand > 0, waitingStart < waiting.count, isActive {
            let next = waiting[waitingStart]
            waitingStart += 1
            demand -= 1
            demand += deliver(next)
        }
        guard waitingStart == waiting.count else { return }
        waiting.removeAll(keepingCapacity: true)
        waitingStart = 0
        if let end, isActive {
            isActive = false
            complete(end)
            letGo()
        }
    }

    /// The subscriber receives `input`; what more it asks for.
    func deliver(_ input: Output) -> Subscribers.Demand { .none }
    /// The subscriber receives `completion`.
    func complete(_ completion: Subscribers.Completion<Failure>) {}
    /// The subscriber is let go.
    func letGo() {}

    var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }
}

/// A ``ReplayConduit`` to a subscriber of a known type (no boxing on each value).
private final class ReplayConduitTo<Downstream: Subscriber>: ReplayConduit<Downstream.Input, Downstream.Failure> {
    private var downstream: Downstream?

    init(
        _ downstream: Downstream, parent: ReplaySubject<Downstream.Input, Downstream.Failure>,
        replay: [Downstream.Input], end: Subscribers.Completion<Downstream.Failure>?
    ) {
        self.downstream = downstream
        super.init(parent: parent, replay: replay, end: end)
    }

    override func deliver(_ input: Downstream.Input) -> Subscribers.Demand {
        downstream?.receive(input) ?? .none
    }

    override func complete(_ completion: Subscribers.Completion<Downstream.Failure>) {
        downstream?.receive(completion: completion)
    }

    override func letGo() { downstream = nil }
}

// MARK: - share(replay:)

extension Publisher {
    /// RxSwift's `share(replay:)`: one subscription to this publisher, made now and kept as
    /// long as the returned subject lives, whose last `count` values each new subscriber gets
    /// at once. Every subscriber then sees one shared run of the operators above (a `scan`'s
    /// memory, say), not a run of its own.
    package func share(replay count: Int) -> ReplaySubject<Output, Failure> {
        share(replay: count, startingWith: nil)
    }

    /// `prepend(first).share(replay: count)` in one step (RxSwift's `startWith(first)` then
    /// `share(replay:)`): the subject holds `first` before it subscribes to this publisher, so
    /// a value this publisher hands over at once comes after it, and a new subscriber is handed
    /// the last `count` of them. One hop fewer for each value than the two operators.
    package func share(replay count: Int, startingWith first: Output?) -> ReplaySubject<Output, Failure> {
        let subject = ReplaySubject<Output, Failure>(bufferSize: count)
        if let first { subject.send(first) }
        // The subject is held weakly by its connection: keeping the connection in the subject
        // makes no cycle, and letting the subject go cancels it (OpenCombine's own subject
        // subscriber, once its subject is gone, no longer cancels its upstream).
        let connection = ReplayConnection(subject)
        subscribe(connection)
        subject.connection = AnyCancellable(connection)
        return subject
    }
}

/// The one subscription of ``OpenCombine/Publisher/share(replay:)``'s subject to its upstream:
/// it sends each value and the completion on to the subject (held weakly), and cancelling it
/// cancels the upstream, whether or not the subject is still there.
private final class ReplayConnection<Input, Failure: Error>: Subscriber, Cancellable {
    private weak var subject: ReplaySubject<Input, Failure>?
    private var upstream: Subscription?

    init(_ subject: ReplaySubject<Input, Failure>) { self.subject = subject }

    func receive(subscription: Subscription) {
        guard upstream == nil, subject != nil else { return subscription.cancel() }
        upstream = subscription
        // Everything, at once, so the buffer keeps up whether or not anyone listens.
        subscription.request(.unlimited)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        subject?.send(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        upstream = nil
        subject?.send(completion: completion)
    }

    func cancel() {
        upstream?.cancel()
        upstream = nil
    }

    var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }
}

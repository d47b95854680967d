import OpenCombine

// MARK: - One subscription's events, tapped

/// What happened to one subscription, in order: what RxSwift's `debug()` on it would print. The
/// inner subscriptions of `flatMap` and `flatMapLatest` (``InnerTaps``) and the subscriptions to
/// the tour's copies of `map` (``MapRuns``) are tapped as these, and the trace writes them.
package enum SubscriptionEvent<Value: Hashable & Sendable>: Hashable, Sendable {
    /// It was subscribed.
    case subscribed
    /// It was handed a value (as it subscribed: what its source hands a new subscriber).
    case next(Value)
    /// Its source completed.
    case completed
    /// It was cancelled before its source ended.
    case cancelled
}

extension Publisher where Failure == Never, Output: Hashable & Sendable {
    /// This publisher, each subscription to it given the number `number()` returns as it is made,
    /// and each of its events sent to `tap` with that number. A side effect that subscribes to
    /// nothing: the events are this publisher's own, in order.
    package func tapped(
        numbering number: @escaping () -> Int, _ tap: @escaping (Int, SubscriptionEvent<Output>) -> Void
    ) -> AnyPublisher<Output, Never> {
        Deferred {
            let made = number()
            return self.handleEvents(
                receiveSubscription: { _ in tap(made, .subscribed) },
                receiveOutput: { tap(made, .next($0)) },
                receiveCompletion: { _ in tap(made, .completed) },
                receiveCancel: { tap(made, .cancelled) })
        }.eraseToAnyPublisher()
    }
}

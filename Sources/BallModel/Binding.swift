import ColourCore
import OpenCombine

// MARK: - Bindings: subscriptions that run code for each value

/// A subscriber that runs a closure for each value and asks for all of them, as RxCocoa's
/// `bind(onNext:)` does: what the program's bindings (the screen, the streams recorder) use
/// instead of `sink`, because its `receive` is specialised for the chain's values (OpenCombine's
/// generic `Sink` looks its types up at run time on every value).
///
/// It holds its subscription; cancelling it (or letting the `AnyCancellable` go) ends it.
package final class Binding<Input>: Subscriber, Cancellable {
    package typealias Failure = Never
    private var subscription: Subscription?
    private var onNext: ((Input) -> Void)?
    private var onCompleted: (() -> Void)?

    /// A binding that calls `onNext` with each value, and `onCompleted` at the end.
    package init(onNext: @escaping (Input) -> Void, onCompleted: (() -> Void)? = nil) {
        self.onNext = onNext
        self.onCompleted = onCompleted
    }

    package func receive(subscription: Subscription) {
        guard self.subscription == nil, onNext != nil else {
            subscription.cancel()
            return
        }
        self.subscription = subscription
        subscription.request(.unlimited)
    }

    @_specialize(where Input == FlatColour)
    @_specialize(where Input == BallPosition)
    @_specialize(where Input == Intent)
    package func receive(_ input: Input) -> Subscribers.Demand {
        onNext?(input)
        return .none
    }

    package func receive(completion: Subscribers.Completion<Never>) {
        let completed = onCompleted
        subscription = nil
        onNext = nil
        onCompleted = nil
        completed?()
    }

    package func cancel() {
        subscription?.cancel()
        subscription = nil
        onNext = nil
        onCompleted = nil
    }

    package var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }
}

extension Publisher where Failure == Never {
    /// Binds `onNext` to every value (RxCocoa's `bind(onNext:)`), and `onCompleted` to the end.
    package func bind(onNext: @escaping (Output) -> Void, onCompleted: (() -> Void)? = nil) -> AnyCancellable {
        let binding = Binding(onNext: onNext, onCompleted: onCompleted)
        subscribe(binding)
        return AnyCancellable(binding)
    }
}

/// A binding to a stream that can fail (the chain after an operator that throws): as
/// ``Binding``, and the error that ends the stream goes to `onError`; the binding is dead from
/// then on, as every Rx subscription is after an error. (RxCocoa's `bind(to:)` traps on an error
/// in a debug build, and a `Driver` or `Signal` cannot error at all: a screen bound to a stream
/// that errors stops following it for good.) A class of its own because a ``Binding`` generic
/// over its Failure, specialised for `Failure == Never`, crashes the debug build's Swift runtime
/// (making `Subscribers.Completion<Never>`'s metadata, as `play --record` binds).
package final class FailableBinding<Input>: Subscriber, Cancellable {
    package typealias Failure = Error
    private var subscription: Subscription?
    private var onNext: ((Input) -> Void)?
    private var onCompleted: (() -> Void)?
    private var onError: ((Error) -> Void)?

    /// A binding that calls `onNext` with each value, and at the end `onCompleted`, or `onError`
    /// with the error that ended the stream.
    package init(onNext: @escaping (Input) -> Void, onCompleted: (() -> Void)?, onError: ((Error) -> Void)?) {
        self.onNext = onNext
        self.onCompleted = onCompleted
        self.onError = onError
    }

    package func receive(subscription: Subscription) {
        guard self.subscription == nil, onNext != nil else {
            subscription.cancel()
            return
        }
        self.subscription = subscription
        subscription.request(.unlimited)
    }

    package func receive(_ input: Input) -> Subscribers.Demand {
        onNext?(input)
        return .none
    }

    package func receive(completion: Subscribers.Completion<Error>) {
        let (completed, failed) = (onCompleted, onError)
        cancel()
        switch completion {
        case .finished: completed?()
        case .failure(let error): failed?(error)
        }
    }

    package func cancel() {
        subscription?.cancel()
        subscription = nil
        onNext = nil
        onCompleted = nil
        onError = nil
    }

    package var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }
}

extension Publisher where Failure == Error {
    /// Binds `onNext` to every value, `onCompleted` to the end, and `onError` to the error that
    /// ends the stream (``FailableBinding``).
    package func bind(
        onNext: @escaping (Output) -> Void, onCompleted: (() -> Void)? = nil, onError: ((Error) -> Void)? = nil
    ) -> AnyCancellable {
        let binding = FailableBinding(onNext: onNext, onCompleted: onCompleted, onError: onError)
        subscribe(binding)
        return AnyCancellable(binding)
    }
}

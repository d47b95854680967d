import ColourCore
import OpenCombine

// MARK: - Bindings: subscriptions that run code for each value

/// A subscriber that runs a closure for each value and asks for all of them, as RxCocoa's
/// `bind(onNext:)` does: what the program's bindings (the screen, the streams recorder) use
/// instead of `sink`, because its `receive` is specialised for the chain's values (OpenCombine's
/// generic `Sink` looks its types up at run time on every value).
///
/// It holds its subscription; cancelling it (or letting the `AnyCancellable` go) ends it.
///
/// A stream that can fail (the chain after an operator that throws) ends with its error:
/// `onError` is told, and the binding is dead from then on, as every Rx subscription is after an
/// error. (RxCocoa's `bind(to:)` traps on an error in a debug build, and a `Driver` or `Signal`
/// cannot error at all: a screen bound to a stream that errors stops following it for good.)
package final class Binding<Input, Failure: Error>: Subscriber, Cancellable {
    private var subscription: Subscription?
    private var onNext: ((Input) -> Void)?
    private var onCompleted: (() -> Void)?
    private var onError: ((Failure) -> Void)?

    /// A binding that calls `onNext` with each value, and at the end `onCompleted`, or `onError`
    /// with the error that ended the stream.
    package init(
        onNext: @escaping (Input) -> Void, onCompleted: (() -> Void)? = nil, onError: ((Failure) -> Void)? = nil
    ) {
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

    @_specialize(where Input == FlatColour, Failure == Never)
    @_specialize(where Input == BallPosition, Failure == Never)
    @_specialize(where Input == Intent, Failure == Never)
    package func receive(_ input: Input) -> Subscribers.Demand {
        onNext?(input)
        return .none
    }

    package func receive(completion: Subscribers.Completion<Failure>) {
        let (completed, failed) = (onCompleted, onError)
        subscription = nil
        onNext = nil
        onCompleted = nil
        onError = nil
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

extension Publisher {
    /// Binds `onNext` to every value (RxCocoa's `bind(onNext:)`), `onCompleted` to the end, and
    /// `onError` to the error that ends a stream that can fail.
    package func bind(
        onNext: @escaping (Output) -> Void, onCompleted: (() -> Void)? = nil, onError: ((Failure) -> Void)? = nil
    ) -> AnyCancellable {
        let binding = Binding(onNext: onNext, onCompleted: onCompleted, onError: onError)
        subscribe(binding)
        return AnyCancellable(binding)
    }
}

import OpenCombine

// MARK: - BehaviorRelay: what the article's Variable became

/// RxSwift's `BehaviorRelay`, for OpenCombine: a Behavior subject that can only be sent values
/// (``accept(_:)``), never an error or a completion, so its subscribers never see it end.
///
/// The article's `Variable` was this: a wrapper of a BehaviorSubject that "can only send next
/// and completes when it is destroyed". RxSwift 5 deprecated `Variable` for `BehaviorRelay`,
/// which drops even that completion. A new subscriber is handed the latest value, then every
/// value after it.
package final class BehaviorRelay<Element> {
    private let subject: CurrentValueSubject<Element, Never>

    /// A relay holding `value`.
    package init(value: Element) {
        subject = CurrentValueSubject(value)
    }

    /// The latest value.
    package var value: Element { subject.value }

    /// Sends `value` to every subscriber and keeps it for the next ones.
    package func accept(_ value: Element) {
        subject.send(value)
    }

    /// The relay as a publisher: the latest value at once, then every accepted one; it never
    /// completes (the subject underneath is never sent a completion).
    package var publisher: AnyPublisher<Element, Never> { subject.eraseToAnyPublisher() }
}

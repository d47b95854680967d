import ColourCore
import OpenCombine

// MARK: - The tour's copies of the chain: `o` and `u`

/// A Publish copy of the chain's colours (`learn`'s "Why Behavior", `o`): a `PassthroughSubject`
/// that each position is sent to, and the chain's operators after it. A Publish subject hands a
/// new subscriber nothing, so its colours are the original's white view until the next
/// position. The screen binds to it live, the streams panel draws its three streams as lanes
/// (`copy.subject`, `copy.ball`, `copy.screen`, as named here), and the replay player works out
/// what it showed.
package final class PublishCopy {
    /// The subject each position from now on is sent to (RxSwift's `PublishSubject`).
    package let subject = PassthroughSubject<BallPosition, Never>()
    /// The ball's colour: `subject.map { $0.ballColour }.removeDuplicates()` (RxSwift's
    /// `distinctUntilChanged()`), the chain's `ballColour` over the copy's subject.
    package let ball: AnyPublisher<FlatColour, Never>
    /// The screen's colour: `ball.scan(white, screenColour).removeDuplicates()`, the chain's
    /// `background` over the copy's ball; the screen is white until its first value.
    package let screen: AnyPublisher<FlatColour, Never>
    /// The subscription that sends the copy each new position, while it follows one.
    private var feed: AnyCancellable?

    /// A copy that no position was sent to yet.
    package init() {
        let ball = subject.map { $0.ballColour }.removeDuplicates()
        self.ball = ball.eraseToAnyPublisher()
        screen = ball.scan(BallState.screenBeforeTheBall, screenColour).removeDuplicates().eraseToAnyPublisher()
    }

    /// A copy sent each new position `position` publishes from now on (not the one it holds
    /// now: the copy's subject stands for a Publish subject, which hands its subscribers only
    /// what comes after they subscribed).
    package convenience init(following position: CurrentValueSubject<BallPosition, Never>) {
        self.init()
        feed = position.dropFirst().bind { [subject] in subject.send($0) }
    }

    /// Sends `position` through the copy.
    package func send(_ position: BallPosition) { subject.send(position) }

    /// Stops sending the copy positions (``init(following:)``).
    package func stopFollowing() {
        feed?.cancel()
        feed = nil
    }

    /// The colours a screen bound to a new copy shows once `positions` were sent through it:
    /// the white view until the first.
    package static func colours(after positions: some Sequence<BallPosition>) -> ScreenColours {
        let copy = PublishCopy()
        var colours = ScreenColours(ball: BallState.screenBeforeTheBall, background: BallState.screenBeforeTheBall)
        let bindings = [copy.ball.bind { colours.ball = $0 }, copy.screen.bind { colours.background = $0 }]
        for position in positions { copy.send(position) }
        withExtendedLifetime(bindings) {}
        return colours
    }
}

/// The ball's colour and the screen's, as a screen shows them.
package struct ScreenColours: Hashable, Sendable {
    /// The ball's colour.
    package var ball: FlatColour
    /// The screen's colour.
    package var background: FlatColour

    /// The two colours.
    package init(ball: FlatColour, background: FlatColour) {
        self.ball = ball
        self.background = background
    }
}

/// How many times `map` ran in two copies of the chain's first operators, each with two
/// subscribers (`learn`'s share lesson, `u`): one ends in `share(replay: 1)`, as `ballColour`
/// does, the other does not. Counted by the closures themselves, from the moment both
/// subscribed: `position` is a Behavior subject, so each subscription to it is handed its value
/// at once and `map` runs then (shared once, unshared once for each subscriber), as RxSwift's
/// `BehaviorSubject.map { … }.share(replay: 1)` does.
package final class MapRuns {
    /// How many positions were sent to the copies (the one handed at once among them).
    package fileprivate(set) var positions = 0
    /// How many times the shared copy's `map` ran.
    package fileprivate(set) var shared = 0
    /// How many times the unshared copy's `map` ran.
    package fileprivate(set) var unshared = 0
    /// The subscriptions, and the shared copy (its one subscription to `position`).
    private var subscriptions: [AnyCancellable] = []
    private var sharedCopy: ReplaySubject<FlatColour, Never>?

    /// Subscribes two subscribers to each copy, over `position` (its value now, then each new one);
    /// with `taps`, each subscription to a copy's `map` is tapped there (for the trace): whether
    /// it is the shared copy's, its number among that copy's (from 1), and its event.
    package init(position: CurrentValueSubject<BallPosition, Never>, taps: MapRunTaps? = nil) {
        let shared = Self.tapped(
            position.map { [unowned self] in
                self.shared += 1
                return $0.ballColour
            }, shared: true, taps
        ).removeDuplicates().share(replay: 1)
        let unshared = Self.tapped(
            position.map { [unowned self] in
                self.unshared += 1
                return $0.ballColour
            }, shared: false, taps
        ).removeDuplicates()
        sharedCopy = shared
        subscriptions = [
            position.bind { [unowned self] _ in positions += 1 },
            shared.bind { _ in }, shared.bind { _ in }, unshared.bind { _ in }, unshared.bind { _ in },
        ]
    }

    /// `mapped`, each subscription to it numbered and its events sent to `taps`, if given.
    private static func tapped(
        _ mapped: some Publisher<FlatColour, Never>, shared: Bool, _ taps: MapRunTaps?
    ) -> AnyPublisher<FlatColour, Never> {
        guard let taps else { return mapped.eraseToAnyPublisher() }
        var made = 0
        return mapped.tapped(numbering: {
            made += 1
            return made
        }) { taps.send((shared, $0, $1)) }
    }

    /// The counts now.
    package var counts: MapCounts { MapCounts(positions: positions, shared: shared, unshared: unshared) }

    /// The counts of copies subscribed over a Behavior subject holding `start`, once it was sent
    /// `positions` (the replay player's `u`: what the tour's card said there).
    package static func counts(from start: BallPosition, then positions: some Sequence<BallPosition>) -> MapCounts {
        let position = CurrentValueSubject<BallPosition, Never>(start)
        let runs = MapRuns(position: position)
        for next in positions { position.send(next) }
        return runs.counts
    }
}

/// Where ``MapRuns`` sends what happens to each subscription to a copy's `map`: whether it is the
/// shared copy's, its number among that copy's subscriptions, and the event.
package typealias MapRunTaps = PassthroughSubject<(shared: Bool, subscription: Int, event: MapRunEvent), Never>

/// What happened to a subscription to one of ``MapRuns``' `map`s: subscribed (`u`), handed a
/// colour (`map` ran), completed with the position, or cancelled (`u` again, or the lesson left).
package typealias MapRunEvent = SubscriptionEvent<FlatColour>

/// The counts of ``MapRuns`` at one moment, as the card says them.
package struct MapCounts: Hashable, Sendable {
    /// How many positions were sent to the copies.
    package var positions: Int
    /// How many times the shared copy's `map` ran.
    package var shared: Int
    /// How many times the unshared copy's `map` ran.
    package var unshared: Int

    /// Counts of `positions` positions, `shared` runs of the shared copy's `map`, `unshared` of the other's.
    package init(positions: Int, shared: Int, unshared: Int) {
        self.positions = positions
        self.shared = shared
        self.unshared = unshared
    }

    /// `map ran: shared 4, unshared 8, for 4 positions`.
    package var words: String {
        "map ran: shared \(shared), unshared \(unshared), for \(positions) position\(positions == 1 ? "" : "s")"
    }
}

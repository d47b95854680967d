import OpenCombine

// MARK: - The operator slot

/// The operator the learner puts into the chain between `position` and the ball's colour: the
/// ball's colour follows what it passes on, while the position itself stays live. Chosen with
/// a key (or `--operator` at the start), an intent like any other, so a recording replays it.
///
/// Each case is one real operator on the position subject (``applied(to:mirror:grabbed:on:)``):
/// OpenCombine's, and ours where OpenCombine has none (`combineLatest`, `sample`, written as
/// RxSwift's); the reducer models what it passes on (``output(for:mirror:)``), and the session
/// checks the two agree.
package enum SlotOperator: String, Sendable, Hashable, CaseIterable {
    /// Nothing in the slot: every position goes through.
    case none
    /// `filter`: only positions in the right half go through (``BallPosition/isInRightHalf``).
    case filter
    /// `map`: each position goes through as its mirror image (``BallPosition/mirrored``), so
    /// the ball takes the colour of the place opposite it.
    case map
    /// `debounce`: a position goes through once ``debounceInterval`` has passed with no new
    /// one, so the ball keeps its colour while it moves and takes the new one when it stops.
    case debounce
    /// `throttle`: at most one position every ``throttleInterval``: the first at once, then,
    /// when its window ends, the latest that came in it (`latest: true`). Subscribing, it asks
    /// `position` for values before it is asked for any, so it drops the position it is handed
    /// then (Combine's throttle; Rx's passes it on).
    case throttle
    /// `combineLatest`: the position combined with the second subject, `mirror` (the learner
    /// flips it with a key): each time either changes, the latest position, mirrored while
    /// `mirror` is on. So flipping the mirror changes the colour with the ball still.
    case combineLatest
    /// `sample`: the latest position goes through each time `mirror` sends a value (a flip), if
    /// a new one came since the last; so the colour changes only when the learner flips it.
    case sample
    /// `flatMapLatest` (Combine's `map` then `switchToLatest`): the classic Rx drag. Each press
    /// (the subject `grabbed` turning true) maps to the position stream, which hands its latest
    /// at once and every new position until the release (`grabbed` turning false) maps to
    /// `Empty()`: the colour follows the ball only while the button is down, never the keys.
    case flatMapLatest

    /// How long `debounce` waits for quiet: 300 ms.
    package static let debounceInterval = SessionTime.Stride.milliseconds(300)
    /// How long `throttle`'s window lasts after it lets a position through: 300 ms.
    package static let throttleInterval = SessionTime.Stride.milliseconds(300)

    /// The operator's name, as the replay file and `--operator` write it.
    package var name: String { rawValue }

    /// The slot's code, as the chain applies it to `position`: `position.filter { $0.isInRightHalf }`.
    package var code: String {
        switch self {
        case .none: "position"
        case .filter: "position.filter { $0.isInRightHalf }"
        case .map: "position.map { $0.mirrored }"
        case .debounce: "position.debounce(for: .milliseconds(300), scheduler: clock)"
        case .throttle: "position.throttle(for: .milliseconds(300), scheduler: clock, latest: true)"
        case .combineLatest: "position.combineLatest(mirror) { $1 ? $0.mirrored : $0 }"
        case .sample: "position.sample(mirror)"
        case .flatMapLatest: "grabbed.map { $0 ? position : Empty() }.switchToLatest()"
        }
    }

    /// What it does, in a few words: `only the right half goes through`.
    package var words: String {
        switch self {
        case .none: "every position goes through"
        case .filter: "only positions in the right half go through"
        case .map: "each position goes through mirrored, left for right"
        case .debounce: "a position goes through once 300 ms pass with no new one"
        case .throttle: "at most one position each 300 ms: the first at once, then the latest"
        case .combineLatest: "the latest position, mirrored while the mirror is on (i flips it)"
        case .sample: "the latest position, each time the mirror flips (i)"
        case .flatMapLatest: "each press maps to the positions until its release: the colour follows drags only"
        }
    }

    /// The operator on `position` (and `mirror`, the second subject, or `grabbed`, whether the
    /// button is down on the ball), its timers on `clock` (the session's): what the slot passes
    /// on to the ball's colour. The chain switches to it when it is chosen (`switchToLatest`),
    /// so it subscribes to `position` (then `mirror`; or to `grabbed`, and to `position` while
    /// that is true) then, and is handed the current position (and the mirror's value) at once.
    package func applied<Upstream: Publisher, Mirror: Publisher, Grabbed: Publisher>(
        to position: Upstream, mirror: Mirror, grabbed: Grabbed, on clock: SessionScheduler
    ) -> AnyPublisher<BallPosition, Never>
    where
        Upstream.Output == BallPosition, Upstream.Failure == Never, Mirror.Output == Bool, Mirror.Failure == Never,
        Grabbed.Output == Bool, Grabbed.Failure == Never
    {
        switch self {
        case .none: position.eraseToAnyPublisher()
        case .filter: position.filter { $0.isInRightHalf }.eraseToAnyPublisher()
        case .map: position.map { $0.mirrored }.eraseToAnyPublisher()
        case .debounce: position.debounce(for: .milliseconds(300), scheduler: clock).eraseToAnyPublisher()
        case .throttle:
            position.throttle(for: .milliseconds(300), scheduler: clock, latest: true).eraseToAnyPublisher()
        case .combineLatest: position.combineLatest(mirror) { $1 ? $0.mirrored : $0 }.eraseToAnyPublisher()
        case .sample: position.sample(mirror).eraseToAnyPublisher()
        case .flatMapLatest:
            grabbed.map { $0 ? position.eraseToAnyPublisher() : Empty().eraseToAnyPublisher() }.switchToLatest()
                .eraseToAnyPublisher()
        }
    }

    /// How long the operator holds a position back, if it runs on the session's clock: its
    /// timer goes off this long after what it holds started (``BallState/heldSince``).
    package var interval: SessionTime.Stride? {
        switch self {
        case .debounce: Self.debounceInterval
        case .throttle: Self.throttleInterval
        case .none, .filter, .map, .combineLatest, .sample, .flatMapLatest: nil
        }
    }

    /// When the operator's timer goes off for what it has held since `heldSince`, if it holds
    /// anything and runs on the session's clock: the reducer's and the session's next timer.
    package func timer(heldSince: SessionTime?) -> SessionTime? {
        guard let heldSince, let interval else { return nil }
        return heldSince.advanced(by: interval)
    }

    /// What the slot passes on at once when it is handed `position` (with the mirror as
    /// `mirror` says), if anything: the reducer's model of ``applied(to:mirror:on:)`` (a timed
    /// operator and `sample` pass nothing on at once; the reducer keeps what they hold,
    /// ``BallState/heldSince``; `flatMapLatest` passes it on only while the ball is grabbed,
    /// which the reducer knows).
    package func output(for position: BallPosition, mirror: Bool) -> BallPosition? {
        switch self {
        case .none: position
        case .filter: position.isInRightHalf ? position : nil
        case .map: position.mirrored
        case .combineLatest: mirror ? position.mirrored : position
        case .debounce, .throttle, .sample, .flatMapLatest: nil
        }
    }

    /// Whether the operator reads the second subject, `mirror`.
    package var readsMirror: Bool { self == .combineLatest || self == .sample }
}

extension BallPosition {
    /// Whether the ball's centre is in the right half of its screen (from the middle column on,
    /// the column the ball starts in).
    package var isInRightHalf: Bool { centre.column >= screen.columns / 2 }

    /// The position mirrored left for right on its screen: column `c` becomes
    /// `columns - 1 - c`, the row stays.
    package var mirrored: BallPosition {
        BallPosition(centre: Cell(column: screen.columns - 1 - centre.column, row: centre.row), screen: screen)
    }
}

extension BallState {
    /// The positions, each at its time, that give a chain built in this state (the player's
    /// jumps, the streams page) the memory the reducer models for the operator in its slot: a
    /// real operator's memory cannot be set, only made. The chain is built at the first one's
    /// time with the subject holding its position (which the operator is handed as it
    /// subscribes); the rest are sent at their times. Empty: built now, on the position.
    ///
    /// - `debounce` is handed the position at the time it came (held since then).
    /// - `throttle`, once it has let a position through, drops the one it is handed (as it does
    ///   subscribing), then lets through what it last let through, at the time it did (its
    ///   window starts there), then, if it holds one, is sent the position now (held until the
    ///   window ends).
    /// - `sample`, holding a position, is handed the one it last passed on (which the mirror's
    ///   value samples at once as it subscribes), then sent the position now (held until the
    ///   mirror flips).
    package var warmUp: [(time: SessionTime, position: BallPosition)] {
        switch slot {
        case .debounce: return [(heldSince ?? time, position)]
        case .throttle:
            guard let windowStart else { return [] }
            let passed = [(windowStart, slotted), (windowStart, slotted)]
            return heldSince == nil ? passed : passed + [(time, position)]
        case .sample: return heldSince == nil ? [] : [(time, slotted), (time, position)]
        case .none, .filter, .map, .combineLatest, .flatMapLatest: return []
        }
    }
}

import OpenCombine

// MARK: - The operator slot

/// The operator the learner puts into the chain between `position` and the ball's colour: the
/// ball's colour follows what it passes on, while the position itself stays live. Chosen with
/// a key (or `--operator` at the start), an intent like any other, so a recording replays it.
///
/// Each case is one real OpenCombine operator on the position subject (``applied(to:)``); the
/// reducer models what it passes on (``output(for:)``), and the session checks the two agree.
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

    /// How long `debounce` waits for quiet: 300 ms.
    package static let debounceInterval = SessionTime.Stride.milliseconds(300)

    /// The operator's name, as the replay file and `--operator` write it.
    package var name: String { rawValue }

    /// The slot's code, as the chain applies it to `position`: `position.filter { $0.isInRightHalf }`.
    package var code: String {
        switch self {
        case .none: "position"
        case .filter: "position.filter { $0.isInRightHalf }"
        case .map: "position.map { $0.mirrored }"
        case .debounce: "position.debounce(for: .milliseconds(300), scheduler: clock)"
        }
    }

    /// What it does, in a few words: `only the right half goes through`.
    package var words: String {
        switch self {
        case .none: "every position goes through"
        case .filter: "only positions in the right half go through"
        case .map: "each position goes through mirrored, left for right"
        case .debounce: "a position goes through once 300 ms pass with no new one"
        }
    }

    /// The operator on `position`, its timers on `clock` (the session's): what the slot passes
    /// on to the ball's colour. The chain switches to it when it is chosen (`switchToLatest`),
    /// so it subscribes to `position` then, and is handed the current position at once.
    package func applied<Upstream: Publisher>(to position: Upstream, on clock: SessionScheduler) -> AnyPublisher<
        BallPosition, Never
    >
    where Upstream.Output == BallPosition, Upstream.Failure == Never {
        switch self {
        case .none: position.eraseToAnyPublisher()
        case .filter: position.filter { $0.isInRightHalf }.eraseToAnyPublisher()
        case .map: position.map { $0.mirrored }.eraseToAnyPublisher()
        case .debounce: position.debounce(for: .milliseconds(300), scheduler: clock).eraseToAnyPublisher()
        }
    }

    /// Whether the operator holds a position back for a while (it runs on the session's clock).
    package var isTimed: Bool { self == .debounce }

    /// What the slot passes on at once when it is handed `position`, if anything: the
    /// reducer's model of ``applied(to:on:)`` (a timed operator passes nothing on at once; the
    /// reducer keeps what it holds, ``BallState/heldSince``).
    package func output(for position: BallPosition) -> BallPosition? {
        switch self {
        case .none: position
        case .filter: position.isInRightHalf ? position : nil
        case .map: position.mirrored
        case .debounce: nil
        }
    }
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

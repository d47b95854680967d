import ColourCore
import OpenCombine

// MARK: - The operator slot

/// The operator the learner puts into the chain between `position` and the ball's colour: the
/// ball's colour follows what it passes on, while the position itself stays live. Chosen with
/// a key (or `--operator` at the start), an intent like any other, so a recording replays it.
///
/// Each case is one real operator on the position subject (``applied(to:resuming:)``):
/// OpenCombine's, and ours where OpenCombine has none (`combineLatest`, `sample`, `merge`,
/// written as RxSwift's); the reducer models what it passes on (``output(for:mirror:)``), and the session
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
    /// The counter, `map` then `scan`: each position maps to a 1, and `scan` adds them up, so
    /// what goes on is how many positions came since it went in (the one it is handed counts).
    /// The ball takes the count's colour (``SlotOutput/countColours``): the next with each move.
    case counter
    /// `merge`: the positions the mouse made and those the keys made, two streams (`mouse`
    /// and `keys`, `PassthroughSubject`s the session sends each new position to, by what made
    /// it), merged into one as they come. Chosen, it is handed nothing (neither holds a
    /// value); a resize's clamp, made by neither, does not go through.
    case merge
    /// `startWith` (Combine's `prepend`): the middle of the screen first, then each new
    /// position; `dropFirst()` skips the position the subject hands over, so what goes on when
    /// it is chosen is the middle, and the ball takes the middle's colour until it moves.
    case startWith

    /// How long `debounce` waits for quiet: 300 ms.
    package static let debounceInterval = SessionTime.Stride.milliseconds(300)
    /// How long `throttle`'s window lasts after it lets a position through: 300 ms.
    package static let throttleInterval = SessionTime.Stride.milliseconds(300)

    /// The operator's name, as the replay file and `--operator` write it.
    package var name: String { rawValue }

    /// The digit that puts it in from the operators box (`f`): 1 for none, 2 for `filter`, …,
    /// 9 for the counter, then 0 for the tenth, `merge`; nil for `startWith`, which the key
    /// `a` (at the start) puts in (``key``).
    package var digit: Int? {
        let number = Self.allCases.firstIndex(of: self)! + 1
        return number <= 10 ? number % 10 : nil
    }

    /// The key that puts it in from the operators box: its digit, or `a` for `startWith`.
    package var key: Unicode.Scalar { digit.map { Unicode.Scalar(UInt8(48 + $0)) } ?? "a" }

    /// The operator whose ``digit`` is `digit`, if one has it.
    package init?(digit: Int) {
        guard let found = Self.allCases.first(where: { $0.digit == digit }) else { return nil }
        self = found
    }

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
        case .counter: "position.map { _ in 1 }.scan(0, +)"
        case .merge: "mouse.merge(with: keys)"
        case .startWith: "position.dropFirst().prepend(.centred(on: screen))"
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
        case .counter: "the moves counted: each position a 1, added up; the ball takes the count's colour"
        case .merge: "the mouse's moves and the keys' moves, two streams merged into one as they come"
        case .startWith: "the middle of the screen first, then each new position"
        }
    }

    /// The operator on the chain's subjects (``SlotInputs``: `position`; `mirror`, the second
    /// subject; `grabbed`, whether the button is down on the ball; `mouse` and `keys`, the new
    /// positions by what made them), its timers on the session's clock: what the slot passes
    /// on to the ball's colour. The chain switches to it when it is chosen (`switchToLatest`),
    /// so it subscribes to what it reads then, and a subject that holds a value hands it over
    /// at once. What it passes on goes on as a ``SlotOutput``: a position, or the counter's
    /// count. Chosen, an operator starts afresh (`resuming` nil); the first operator of a chain
    /// built part-way, in state `resuming`, resumes that state's memory: the counter's `scan`
    /// starts from the state's count (``BallState/countedBefore``), as `background`'s `scan`
    /// resumes the state's colour, and `startWith` puts nothing first (it did when chosen).
    package func applied(to inputs: SlotInputs, resuming: BallState? = nil) -> AnyPublisher<SlotOutput, Never> {
        let (position, mirror, grabbed, clock) = (inputs.position, inputs.mirror, inputs.grabbed, inputs.clock)
        // (Each ends in one `map` to a SlotOutput and one erasure: a hop fewer than mapping an
        // erased publisher of positions.)
        return switch self {
        case .none: position.map(SlotOutput.position).eraseToAnyPublisher()
        case .filter: position.filter { $0.isInRightHalf }.map(SlotOutput.position).eraseToAnyPublisher()
        case .map: position.map { .position($0.mirrored) }.eraseToAnyPublisher()
        case .debounce:
            position.debounce(for: .milliseconds(300), scheduler: clock).map(SlotOutput.position)
                .eraseToAnyPublisher()
        case .throttle:
            position.throttle(for: .milliseconds(300), scheduler: clock, latest: true).map(SlotOutput.position)
                .eraseToAnyPublisher()
        case .combineLatest: position.combineLatest(mirror) { .position($1 ? $0.mirrored : $0) }.eraseToAnyPublisher()
        case .sample: position.sample(mirror).map(SlotOutput.position).eraseToAnyPublisher()
        case .flatMapLatest:
            grabbed.map { $0 ? position.eraseToAnyPublisher() : Empty().eraseToAnyPublisher() }.switchToLatest()
                .map(SlotOutput.position).eraseToAnyPublisher()
        case .counter:
            position.map { _ in 1 }.scan(resuming?.countedBefore ?? 0, +).map(SlotOutput.count).eraseToAnyPublisher()
        case .merge: inputs.mouse.merge(with: inputs.keys).map(SlotOutput.position).eraseToAnyPublisher()
        case .startWith where resuming != nil: position.dropFirst().map(SlotOutput.position).eraseToAnyPublisher()
        case .startWith:
            position.dropFirst().prepend(.centred(on: position.value.screen)).map(SlotOutput.position)
                .eraseToAnyPublisher()
        }
    }

    /// How long the operator holds a position back, if it runs on the session's clock: its
    /// timer goes off this long after what it holds started (``BallState/heldSince``).
    package var interval: SessionTime.Stride? {
        switch self {
        case .debounce: Self.debounceInterval
        case .throttle: Self.throttleInterval
        case .none, .filter, .map, .combineLatest, .sample, .flatMapLatest, .counter, .merge, .startWith: nil
        }
    }

    /// When the operator's timer goes off for what it has held since `heldSince`, if it holds
    /// anything and runs on the session's clock: the reducer's and the session's next timer.
    package func timer(heldSince: SessionTime?) -> SessionTime? {
        guard let heldSince, let interval else { return nil }
        return heldSince.advanced(by: interval)
    }

    /// What the slot passes on at once when it is handed `position` (with the mirror as
    /// `mirror` says), if anything: the reducer's model of ``applied(to:resuming:)`` (a timed
    /// operator and `sample` pass nothing on at once; the reducer keeps what they hold,
    /// ``BallState/heldSince``; `flatMapLatest` passes it on only while the ball is grabbed,
    /// which the reducer knows; the counter passes on a count, the reducer's too).
    package func output(for position: BallPosition, mirror: Bool) -> BallPosition? {
        switch self {
        case .none: position
        case .filter: position.isInRightHalf ? position : nil
        case .map: position.mirrored
        case .combineLatest: mirror ? position.mirrored : position
        case .debounce, .throttle, .sample, .flatMapLatest, .counter, .merge, .startWith: nil
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
    /// What the counter in the slot had counted before the position a chain built in this state
    /// hands it (its count less one), for its `scan` to resume from; 0 for the other operators.
    package var countedBefore: Int {
        guard slot == .counter, let count = slotted.count else { return 0 }
        return count - 1
    }

    package var warmUp: [(time: SessionTime, position: BallPosition)] {
        switch slot {
        case .debounce: return [(heldSince ?? time, position)]
        case .throttle:
            guard let windowStart, let passed = slotted.position else { return [] }
            let held = [(windowStart, passed), (windowStart, passed)]
            return heldSince == nil ? held : held + [(time, position)]
        case .sample:
            guard heldSince != nil, let passed = slotted.position else { return [] }
            return [(time, passed), (time, position)]
        case .none, .filter, .map, .combineLatest, .flatMapLatest, .counter, .merge, .startWith: return []
        }
    }
}

// MARK: - What the slot reads, and what it passes on

/// What an operator in the slot may read: the chain's subjects, and the session's clock its
/// timers run on.
package struct SlotInputs {
    /// Where the ball is (``BallViewModel/position``).
    package let position: CurrentValueSubject<BallPosition, Never>
    /// Whether the mirror is on (``BallViewModel/mirror``).
    package let mirror: CurrentValueSubject<Bool, Never>
    /// Whether the mouse button is down on the ball (``BallViewModel/grabbed``).
    package let grabbed: CurrentValueSubject<Bool, Never>
    /// Each new position the mouse made (``BallViewModel/mouse``).
    package let mouse: PassthroughSubject<BallPosition, Never>
    /// Each new position the keys made (``BallViewModel/keys``).
    package let keys: PassthroughSubject<BallPosition, Never>
    /// The session's clock.
    package let clock: SessionScheduler
}

/// What the operator in the slot passes on, which the ball's colour follows: a position (every
/// operator but the counter), or a count (the counter, `map` then `scan`).
package enum SlotOutput: Hashable, Sendable {
    /// A position, which the ball takes the colour rule's colour for.
    case position(BallPosition)
    /// The counter's count, which the ball takes one of ``countColours`` for.
    case count(Int)

    /// The colours the counter's counts step through, one each: 1 is flatRed, 2 flatOrange, and
    /// round again after flatPurple. None is its own complement, so the screen always takes
    /// the complement of a count's colour.
    package static let countColours: [FlatColour] = [
        .flatRed, .flatOrange, .flatYellow, .flatGreen, .flatSkyBlue, .flatPurple,
    ]

    /// The ball's colour for this: the colour rule's for a position, or the count's.
    package var ballColour: FlatColour {
        switch self {
        case .position(let position): position.ballColour
        case .count(let count):
            // (A count is 1 or more; any other wraps round as well.)
            Self.countColours[
                ((count - 1) % Self.countColours.count + Self.countColours.count) % Self.countColours.count]
        }
    }

    /// The position, if this is one.
    package var position: BallPosition? {
        if case .position(let position) = self { position } else { nil }
    }

    /// The count, if this is one.
    package var count: Int? {
        if case .count(let count) = self { count } else { nil }
    }
}

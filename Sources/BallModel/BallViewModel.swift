import ColourCore
import OpenCombine

// MARK: - What the screen shows

/// Everything the screen shows, derived from the position: where the ball is, its colour and
/// the screen's colour.
package struct Appearance: Hashable, Sendable {
    /// Where the ball is.
    package var position: BallPosition
    /// The ball's flat colour.
    package var ball: FlatColour
    /// The screen's flat colour.
    package var background: FlatColour

    /// An appearance from its parts.
    package init(position: BallPosition, ball: FlatColour, background: FlatColour) {
        self.position = position
        self.ball = ball
        self.background = background
    }

    /// The ball centre in points, as the colour rule takes it.
    package var points: PointPosition { position.centre.points }
}

// MARK: - The view-model

/// The colourful ball's view-model: one subject holds the position; every colour is derived
/// from it.
///
/// `position` is the BehaviorSubject of the original (`Variable<CGPoint?>`): subscribers get
/// the latest value at once, then every change. The screen starts flatWhite (the original's
/// white view); afterwards the background changes only when the ball's complement differs
/// from the ball's colour, so `appearance` keeps its latest value too, for late subscribers.
package final class BallViewModel {
    /// The single source of truth: where the ball is.
    package let position: CurrentValueSubject<BallPosition, Never>

    /// The derived state, latest value first (a late subscriber gets the current appearance).
    package var appearance: AnyPublisher<Appearance, Never> { derived.eraseToAnyPublisher() }

    /// The ball's colour, without repeats.
    package var ballColour: AnyPublisher<FlatColour, Never> {
        derived.map { $0.ball }.removeDuplicates().eraseToAnyPublisher()
    }

    /// The screen's colour, without repeats.
    package var backgroundColour: AnyPublisher<FlatColour, Never> {
        derived.map { $0.background }.removeDuplicates().eraseToAnyPublisher()
    }

    /// The current derived state, for code that reads rather than subscribes.
    package var currentAppearance: Appearance { derived.value }

    private let derived: CurrentValueSubject<Appearance, Never>
    private var subscription: AnyCancellable?

    /// The colour the screen has before the ball first colours it.
    package static let startBackground = FlatColour.flatWhite

    /// A view-model with the ball at `position`.
    package init(position start: BallPosition) {
        position = CurrentValueSubject(start)
        derived = CurrentValueSubject(Self.appearance(at: start, after: nil))
        // One subscription, no operator chain: the subject hands it the start at once (derived
        // again, to the same appearance, before anyone listens), then every value it publishes.
        subscription = position.sink { [unowned self] position in
            let previous = restoring ?? derived.value.background
            derived.send(Self.appearance(at: position, afterBackground: previous))
        }
    }

    /// The screen's colour a restored position follows (see ``restore(position:background:)``).
    private var restoring: FlatColour?

    /// Puts the ball at `position` on a screen coloured `background`, as the derived state was
    /// at some point of a recording: the subject publishes `position`, and the appearance
    /// derived from it follows `background` instead of the current screen's colour.
    ///
    /// `background` must be what the rule gave for this position at that point (as a replay
    /// index keeps it); the rule then gives it again: the complement of the ball's colour, or,
    /// in the black band, the colour the screen had.
    package func restore(position restored: BallPosition, background: FlatColour) {
        restoring = background
        defer { restoring = nil }
        position.send(restored)
    }

    /// The appearance at `position`, following `previous` (the background remembers).
    package static func appearance(at position: BallPosition, after previous: Appearance?) -> Appearance {
        appearance(at: position, afterBackground: previous?.background ?? startBackground)
    }

    /// The appearance at `position` on a screen coloured `background` before it.
    package static func appearance(at position: BallPosition, afterBackground background: FlatColour) -> Appearance {
        let ball = BallColourRule.ballColour(column: position.centre.column, row: position.centre.row)
        return Appearance(
            position: position, ball: ball, background: BallColourRule.background(forBall: ball, current: background))
    }
}

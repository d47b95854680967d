import ColourCore
import OpenCombine

// MARK: - What the screen shows

/// Everything the screen shows, derived from the position: where the ball is, its colour and
/// the screen's colour.
public struct Appearance: Hashable, Sendable {
    /// Where the ball is.
    public var position: BallPosition
    /// The ball's flat colour.
    public var ball: FlatColour
    /// The screen's flat colour.
    public var background: FlatColour

    /// An appearance from its parts.
    public init(position: BallPosition, ball: FlatColour, background: FlatColour) {
        self.position = position
        self.ball = ball
        self.background = background
    }

    /// The ball centre in points, as the colour rule takes it.
    public var points: PointPosition { position.centre.points }
}

// MARK: - The view-model

/// The colourful ball's view-model: one subject holds the position; every colour is derived
/// from it.
///
/// `position` is the BehaviorSubject of the original (`Variable<CGPoint?>`): subscribers get
/// the latest value at once, then every change. The screen starts flatWhite (the original's
/// white view); afterwards the background changes only when the ball's complement differs
/// from the ball's colour, so `appearance` keeps its latest value too, for late subscribers.
public final class BallViewModel {
    /// The single source of truth: where the ball is.
    public let position: CurrentValueSubject<BallPosition, Never>

    /// The derived state, latest value first (a late subscriber gets the current appearance).
    public var appearance: AnyPublisher<Appearance, Never> { derived.eraseToAnyPublisher() }

    /// The ball's colour, without repeats.
    public var ballColour: AnyPublisher<FlatColour, Never> {
        derived.map(\.ball).removeDuplicates().eraseToAnyPublisher()
    }

    /// The screen's colour, without repeats.
    public var backgroundColour: AnyPublisher<FlatColour, Never> {
        derived.map(\.background).removeDuplicates().eraseToAnyPublisher()
    }

    /// The current derived state, for code that reads rather than subscribes.
    public var currentAppearance: Appearance { derived.value }

    private let derived: CurrentValueSubject<Appearance, Never>
    private var subscription: AnyCancellable?

    /// The colour the screen has before the ball first colours it.
    public static let startBackground = FlatColour.flatWhite

    /// A view-model with the ball at `position`.
    public init(position start: BallPosition) {
        position = CurrentValueSubject(start)
        derived = CurrentValueSubject(Self.appearance(at: start, after: nil))
        // One subscription, no operator chain: the subject hands it the start at once (derived
        // again, to the same appearance, before anyone listens), then every value it publishes.
        subscription = position.sink { [derived] position in
            derived.send(Self.appearance(at: position, after: derived.value))
        }
    }

    /// The appearance at `position`, following `previous` (the background remembers).
    public static func appearance(at position: BallPosition, after previous: Appearance?) -> Appearance {
        let ball = BallColourRule.ballColour(column: position.centre.column, row: position.centre.row)
        let background = BallColourRule.background(
            forBall: ball, current: previous?.background ?? startBackground)
        return Appearance(position: position, ball: ball, background: background)
    }
}

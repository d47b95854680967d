import BallModel

// MARK: - Looking: events that are not intents

/// Something the learner did to look at the streams, not to change the ball: a late
/// subscriber subscribed or cancelled, the streams panel opened or closed. None goes to the
/// session or the reducer; a recording keeps them beside the intents (format version 2), so a
/// demonstration of late subscribers replays, and every export shows their lanes.
package enum Observation: Hashable, Sendable {
    /// A late subscriber of this kind subscribed (its key).
    case subscribed(LateSubscriber)
    /// The late subscriber of this kind was cancelled (its key again).
    case unsubscribed(LateSubscriber)
    /// The streams panel opened (`s`, `--streams`).
    case panelOpened
    /// The streams panel closed (`s`).
    case panelClosed
    /// A lesson of `learn` began: a marker (the player, the cast and the exports show "Lesson 4 ·
    /// Publish").
    case lessonBegan(number: Int, title: String)
    /// The screen's colours were bound through a Publish copy of the chain (`learn`'s `o`), or
    /// back to the chain itself.
    case screenThroughPublish(Bool)
    /// Two copies of `map`, shared and not, were subscribed (`learn`'s `u`), or cancelled.
    case mapCopies(Bool)
}

extension Observation {
    /// The title of the closing card's marker (numbered one past the last lesson): the tour after
    /// its lessons, where the player says "The closing card · after lesson 18".
    package static let closingTitle = "The closing card"

    /// What the tour had on, as the player's status line says it after a marker: `Lesson 4 ·
    /// Publish`, `o: the screen through Publish`, `u: copies of map`; nil for the lanes' own.
    package var tourWords: String? {
        switch self {
        case .lessonBegan(let number, Self.closingTitle): "\(Self.closingTitle) · after lesson \(number - 1)"
        case .lessonBegan(let number, let title): "Lesson \(number) · \(title)"
        case .screenThroughPublish(true): "o: the screen through Publish"
        case .mapCopies(true): "u: copies of map counted"
        default: nil
        }
    }

    /// A marker's name in short, where its full words do not fit: `Lesson 4`, or `Closing card`
    /// (the tour after its lessons is no lesson); nil for what is no marker.
    package var shortTourWords: String? {
        switch self {
        case .lessonBegan(_, Self.closingTitle): "Closing card"
        case .lessonBegan(let number, _): "Lesson \(number)"
        default: nil
        }
    }

    /// A marker's name at its shortest: the lesson's number, or `end` for the closing card.
    package var tinyTourWords: String? {
        switch self {
        case .lessonBegan(_, Self.closingTitle): "end"
        case .lessonBegan(let number, _): String(number)
        default: nil
        }
    }
}

/// An observation at a time, as a recording keeps it.
package struct ObservationEvent: Hashable, Sendable {
    /// Seconds since the start.
    package var time: Double
    /// What the learner did.
    package var observation: Observation

    /// An observation at `time`.
    package init(time: Double, observation: Observation) {
        self.time = time
        self.observation = observation
    }
}

/// What happened to a late subscriber's subscription, in order: what RxSwift's `debug()` on it
/// would print (the trace writes these).
package enum LateLaneEvent: Hashable, Sendable {
    /// It subscribed.
    case subscribed
    /// It received a position (as it subscribed: one it was handed).
    case next(BallPosition)
    /// Its subject completed.
    case completed
    /// It was disposed of: after the completion, or cancelled.
    case disposed
}

extension LateSubscriber {
    /// The kind's name in a replay file: `behavior`, `publish`, `replay`, `relay`.
    package var fileName: String {
        switch self {
        case .behavior: "behavior"
        case .publish: "publish"
        case .replay: "replay"
        case .relay: "relay"
        }
    }

    /// The kind a replay file names, if any.
    package init?(fileName: String) {
        guard let kind = Self.allCases.first(where: { $0.fileName == fileName }) else { return nil }
        self = kind
    }
}

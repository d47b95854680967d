import BallModel
import ColourCore
import OpenCombine
import TextFormats

// MARK: - The streams, as marble lanes

/// The streams the panel draws, one lane each, named as the code names them.
package enum StreamLane: Hashable, Sendable {
    /// Every intent as it enters the session (``BallSession/intents``).
    case intents
    /// The position subject, a `CurrentValueSubject` (``BallViewModel/position``).
    case position
    /// `position.map(colour).removeDuplicates()` (``BallViewModel/ballColour``).
    case ballColour
    /// `ballColour.scan(flatWhite, background).removeDuplicates()` (``BallViewModel/background``).
    case background
    /// A subscriber that came late, of this kind.
    case late(LateSubscriber)

    /// The lane's label, as the code names the stream.
    package var label: String {
        switch self {
        case .intents: "intents"
        case .position: "position"
        case .ballColour: "ballColour"
        case .background: "background"
        case .late(.behavior): "late Behavior"
        case .late(.passthrough): "late Passthrough"
        }
    }

    /// The four lanes every panel has, top to bottom.
    package static let main: [StreamLane] = [.intents, .position, .ballColour, .background]

    /// The code that makes this lane's stream, as the source writes it (the chain's lines are
    /// ``BallViewModel/init(start:)``'s own, which a test checks).
    package var expression: String {
        switch self {
        case .intents: "session.intents, a PassthroughSubject<Intent, Never>"
        case .position: "position = CurrentValueSubject(start.position)"
        case .ballColour: "ballColour = position.map { $0.ballColour }.removeDuplicates().share(replay: 1)"
        case .background:
            "background = ballColour.scan(start.background, screenColour).removeDuplicates().share(replay: 1)"
        case .late(.behavior): "position.bind { … }, subscribed late: handed the latest position"
        case .late(.passthrough): "positionChanges.bind { … }, a PassthroughSubject subscribed late"
        }
    }

    /// The code in short, for a narrow panel: `position.map { $0.ballColour }.removeDuplicates()`.
    package var shortExpression: String {
        switch self {
        case .intents: "session.intents"
        case .position: "CurrentValueSubject(start.position)"
        case .ballColour: "position.map { $0.ballColour }.removeDuplicates()"
        case .background: "ballColour.scan(\(Glyph.ellipsis), screenColour).removeDuplicates()"
        case .late(.behavior): "position.bind { \(Glyph.ellipsis) }, late"
        case .late(.passthrough): "positionChanges.bind { \(Glyph.ellipsis) }, late"
        }
    }
}

/// The two kinds of late subscriber the article opens with.
package enum LateSubscriber: Hashable, Sendable {
    /// Subscribed to the position subject itself: handed the current value at once, as a
    /// BehaviorSubject (here a `CurrentValueSubject`) does.
    case behavior
    /// Subscribed to a `PassthroughSubject` the position's changes are sent through: nothing
    /// until the next change.
    case passthrough
}

/// What a lane shows in one column.
package enum Marble: Hashable, Sendable {
    /// Nothing was emitted: the lane's line.
    case line
    /// The subscription began here (`^`), with the value it was handed at once, if any.
    indirect case subscribed(handed: Marble?)
    /// The stream ended here (`|`).
    case ended
    /// An intent entered (its glyph).
    case intent(Intent)
    /// A position was published (`○`).
    case value
    /// A colour was emitted: `●` (the ball) or `■` (the background), painted in it.
    case colour(FlatColour, background: Bool)
    /// A value was worked out and swallowed (`·`): a duplicate colour, or the screen keeping
    /// its colour in the black band.
    case ghost
    /// The intent was skipped in the replay player (`×`): nothing went through.
    case skipped

    /// The marble's glyph (for ``subscribed(handed:)``, the `^`; the handed value follows it).
    package var glyph: Unicode.Scalar {
        switch self {
        case .line: Glyph.line
        case .subscribed: "^"
        case .ended: "|"
        case .intent(let intent): Self.glyph(of: intent)
        case .value: Glyph.value
        case .colour(_, let background): background ? Glyph.background : Glyph.ball
        case .ghost: Glyph.ghost
        case .skipped: Glyph.skipped
        }
    }

    /// An intent's glyph: press `▼`, drag `•`, release `▲`, arrows `←↑→↓`, recentre `◙`,
    /// resize `↔`, quit `|` (``Glyph``).
    package static func glyph(of intent: Intent) -> Unicode.Scalar {
        switch intent {
        case .pressed: Glyph.pressed
        case .dragged: Glyph.dragged
        case .released: Glyph.released
        case .arrowPressed(.left, _): Glyph.left
        case .arrowPressed(.up, _): Glyph.up
        case .arrowPressed(.right, _): Glyph.right
        case .arrowPressed(.down, _): Glyph.down
        case .recentred: Glyph.recentred
        case .resized: Glyph.resized
        case .quitRequested: "|"
        }
    }

    /// The two characters of a column: the first is `^` or `|` where a subscription begins or
    /// ends and the line otherwise, the second the marble (`─` for none).
    package var cells: (Unicode.Scalar, Marble) {
        switch self {
        case .subscribed(let handed): ("^", handed ?? .line)
        case .ended: ("|", .line)
        default: (Glyph.line, self)
        }
    }
}

// MARK: - One column per intent

/// What happened in the streams while one intent went through (column 0: the subscriptions
/// at the start, before any intent).
package struct StreamColumn: Hashable, Sendable {
    /// The intent's index in the session, from 1 (0: the start).
    package var index: Int
    /// The intent, if this column has one.
    package var intent: Intent?
    /// The position published, if one was.
    package var position: BallPosition?
    /// The ball colour emitted, if one was.
    package var ballColour: FlatColour?
    /// The background emitted, if one was.
    package var background: FlatColour?
    /// The derived state after the intent (whether or not anything was emitted).
    package var state: Appearance?
    /// Whether the intent was skipped (the replay player's `x`): it never entered the session.
    package var skipped = false

    /// An empty column for the intent at `index`.
    package init(index: Int, intent: Intent? = nil, state: Appearance? = nil) {
        self.index = index
        self.intent = intent
        self.state = state
    }

    /// What `lane` shows in this column, for the four main lanes (the start column marks
    /// their subscriptions; a quit ends them).
    package func marble(_ lane: StreamLane) -> Marble {
        let shown = emission(lane)
        if index == 0 { return .subscribed(handed: lane == .intents ? nil : shown) }
        if skipped { return lane == .intents ? .skipped : .line }
        if intent == .quitRequested { return .ended }
        return shown ?? .line
    }

    /// What `lane` emitted here, ghosts included; nil: nothing.
    func emission(_ lane: StreamLane) -> Marble? {
        switch lane {
        case .intents: return intent.map(Marble.intent)
        case .position, .late: return position == nil ? nil : .value
        case .ballColour:
            if let ballColour { return .colour(ballColour, background: false) }
            // A position was published, so a colour was worked out from it: swallowed.
            return position == nil ? nil : .ghost
        case .background:
            if let background { return .colour(background, background: true) }
            // A new ball colour went through the scan, which gave the screen's colour again
            // (the black band keeps it): swallowed.
            return ballColour == nil ? nil : .ghost
        }
    }
}

/// A late subscriber's lane: where it began, and the columns it received a value in.
package struct LateLane: Hashable, Sendable {
    /// Tells lanes apart (a third late subscriber replaces the first).
    package var id: Int
    /// The kind of subscriber.
    package var kind: LateSubscriber
    /// The column (intent index) where it subscribed.
    package var start: Int
    /// Whether it was handed a value as it subscribed.
    package var handed = false
    /// The columns (intent indices) after `start` where it received a value.
    package var received: Set<Int> = []

    /// What the lane shows in `column`: nothing before the subscription, `^` (with the value
    /// handed) where it began, a marble where it received one, `|` where the session quit.
    package func marble(in column: StreamColumn) -> Marble? {
        let index = column.index
        if index < start { return nil }
        if index == start { return .subscribed(handed: handed ? .value : nil) }
        if column.intent == .quitRequested, !column.skipped { return .ended }
        return received.contains(index) ? .value : .line
    }
}

// MARK: - The recorder: the lanes are subscriptions

/// Subscribes to the session's streams and notes, one column per intent, what each emitted:
/// the lanes show the real publishers, not a model of them. Keeps at least the latest
/// ``capacity`` columns. A binding: it only records; drawing is the renderer's.
package final class StreamRecorder {
    /// How many columns are kept at least (older ones are dropped in batches).
    package let capacity: Int
    /// The columns kept, oldest first (the last is the latest intent's).
    package var columns: [StreamColumn] { columns(from: .min) }
    /// The columns as noted: the latest one's state is filled in when it is read or the next
    /// intent comes (what the three subscriptions last received).
    private var recorded: [StreamColumn]
    /// The late subscribers' lanes, oldest first (at most two).
    package private(set) var lateLanes: [LateLane] = []
    /// Called after anything changed (an intent, an emission, a late subscription).
    package var changed: (() -> Void)?
    private let session: BallSession
    /// What the position, ballColour and background subscriptions last received.
    private var seen: Appearance
    /// The position's changes, sent on: what a late Passthrough subscriber subscribes to.
    private let positionChanges = PassthroughSubject<BallPosition, Never>()
    private var cancellables: [AnyCancellable] = []
    private var lateCancellables: [AnyCancellable] = []
    /// Sends the position's changes on to ``positionChanges`` (made for the first late
    /// Passthrough subscriber).
    private var relay: AnyCancellable?
    private var nextLateID = 0
    /// The late lane whose subscription is being made (what it receives now, it was handed).
    private var subscribing: Int?

    /// Subscribes to `session`'s streams now (the start column, numbered `firstIndex`, holds
    /// what they hand over at once); keeps at least the latest `capacity` columns.
    package init(session: BallSession, capacity: Int = 1_024, firstIndex: Int = 0) {
        self.session = session
        seen = session.viewModel.current
        self.capacity = max(2, capacity)
        recorded = [StreamColumn(index: firstIndex)]
        let viewModel = session.viewModel
        cancellables = [
            session.intents.bind { [unowned self] intent in
                startColumn(StreamColumn(index: latestIndex + 1, intent: intent))
            },
            viewModel.position.bind { [unowned self] position in
                seen.position = position
                note { $0.position = position }
            },
            viewModel.ballColour.bind { [unowned self] colour in
                seen.ball = colour
                note { $0.ballColour = colour }
            },
            viewModel.background.bind { [unowned self] colour in
                seen.background = colour
                note { $0.background = colour }
            },
        ]
    }

    /// The columns from intent index `start` on, the latest with the state after it.
    package func columns(from start: Int) -> [StreamColumn] {
        let first = recorded.firstIndex { $0.index >= start } ?? recorded.count
        var columns = Array(recorded[first...])
        if !columns.isEmpty { columns[columns.count - 1].state = seen }
        return columns
    }

    /// Closes the latest column (its state is the current appearance: the next intent has not
    /// been stepped yet) and starts `column`.
    private func startColumn(_ column: StreamColumn) {
        recorded[recorded.count - 1].state = seen
        if recorded.count >= 2 * capacity { recorded.removeFirst(capacity) }
        recorded.append(column)
        changed?()
    }

    /// Notes something in the latest column.
    private func note(_ change: (inout StreamColumn) -> Void) {
        change(&recorded[recorded.count - 1])
        changed?()
    }

    /// The latest column's intent index.
    package var latestIndex: Int { recorded.last?.index ?? 0 }

    /// Whether the streams ended (the session quit).
    package var ended: Bool { recorded.last?.intent == .quitRequested }

    /// Notes that `intent` was skipped: a column of its own, where nothing went through.
    package func noteSkipped(_ intent: Intent) {
        var column = StreamColumn(index: latestIndex + 1, intent: intent)
        column.skipped = true
        startColumn(column)
    }

    /// Subscribes a late subscriber of `kind` now; its lane begins in the latest column, or in
    /// column `start` when given (the replay player subscribes again, while working out a
    /// page, the subscribers the user made earlier). A third replaces the oldest.
    package func subscribeLate(_ kind: LateSubscriber, start: Int? = nil) {
        if lateLanes.count == 2 {
            lateLanes.removeFirst()
            lateCancellables.removeFirst()
        }
        let id = nextLateID
        nextLateID += 1
        lateLanes.append(LateLane(id: id, kind: kind, start: start ?? latestIndex))
        subscribing = id
        defer { subscribing = nil }
        let receive: (BallPosition) -> Void = { [unowned self] _ in lateReceived(id) }
        switch kind {
        case .behavior: lateCancellables.append(session.viewModel.position.bind(onNext: receive))
        case .passthrough:
            // The relay starts with the first Passthrough subscriber: it forwards only what
            // comes after, so nothing is lost by not relaying before.
            if relay == nil {
                relay = session.viewModel.position.dropFirst().sink { [unowned self] in positionChanges.send($0) }
            }
            lateCancellables.append(positionChanges.bind(onNext: receive))
        }
        changed?()
    }

    private func lateReceived(_ id: Int) {
        guard let slot = lateLanes.firstIndex(where: { $0.id == id }) else { return }
        if subscribing == id {
            lateLanes[slot].handed = true
        } else {
            lateLanes[slot].received.insert(latestIndex)
            if lateLanes[slot].received.count > 2 * capacity {
                let oldest = recorded.first?.index ?? 0
                lateLanes[slot].received = lateLanes[slot].received.filter { $0 >= oldest }
            }
        }
        changed?()
    }
}

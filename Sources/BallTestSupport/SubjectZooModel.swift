import BallModel
import BallStreams
import TextFormats

// MARK: - A reference model of the subject kinds

/// The late lanes as the ReactiveX definitions of the subject kinds say they go
/// (reactivex.io/documentation/subject.html), written from those and not from the program's
/// code, for the tests to hold the program's lanes (recorded and drawn) against:
///
/// - Behavior: a new subscriber gets the latest value, then every later one; after the
///   subject completed, only the completion.
/// - Publish: only what comes after the subscription; after completion, only the completion.
/// - Replay(n): the last n values at once, then every later one; after completion, those n
///   values and then the completion.
/// - Relay (RxSwift's BehaviorRelay): as Behavior, but it never completes.
///
/// And for every kind: cancelling ends the lane (`!`) and nothing more arrives; a new
/// subscription of a kind replaces its ended lane on the live panel, and comes after it in the
/// player's (``ended``). A subscription and a cancel happen between two intents: each is drawn
/// at its own time, in a column of its own after the intent before it (``drawnColumn``).
package struct SubjectZooModel {
    /// One late lane as the model expects it.
    package struct Lane: Equatable, CustomStringConvertible {
        package var kind: LateSubscriber
        package var start: Int
        package var handed: Int
        package var received: Set<Int> = []
        package var end: LateLane.End?
        /// The drawn columns (``SubjectZooModel/drawnColumn``) of its subscription, of each value
        /// it received, and of its end.
        package var drawnStart = 0, drawnReceived: Set<Int> = [], drawnEnd: Int?

        package init(kind: LateSubscriber, start: Int, handed: Int, received: Set<Int> = [], end: LateLane.End? = nil) {
            self.kind = kind
            self.start = start
            self.handed = handed
            self.received = received
            self.end = end
        }

        /// The same subscription, by what it received and where (its drawn columns aside: the
        /// recorder notes intents' columns, the panel draws the rest).
        package static func == (_ one: Self, _ other: Self) -> Bool {
            (one.kind, one.start, one.handed, one.received, one.end)
                == (other.kind, other.start, other.handed, other.received, other.end)
        }

        package var description: String {
            "\(kind) from \(start) handed \(handed) got \(received.sorted()) end \(String(describing: end))"
        }

        /// Whether it still receives values.
        package var isLive: Bool { end == nil }
    }

    /// The columns in which a position was published (0: the start's).
    package private(set) var published: [Int] = [0]
    /// The column now: how many intents went through.
    package private(set) var column = 0
    /// The drawn column now: a column each intent, and each subscription or cancel one of its
    /// own after the intent before it.
    package private(set) var drawnColumn = 0
    /// Whether the position completed (a quit).
    package private(set) var completed = false
    /// The latest lane of each kind.
    package private(set) var lanes: [LateSubscriber: Lane] = [:]
    /// The ended lanes of each kind a later subscription of it came after, oldest first.
    package private(set) var ended: [LateSubscriber: [Lane]] = [:]

    /// A model at the start, before any intent.
    package init() {}

    /// An intent went through; `published` whether it made the position subject publish.
    package mutating func intent(published: Bool) {
        column += 1
        drawnColumn += 1
        guard published else { return }
        self.published.append(column)
        for (kind, lane) in lanes where lane.end == nil {
            lanes[kind]!.received.insert(column)
            lanes[kind]!.drawnReceived.insert(drawnColumn)
        }
    }

    /// A quit went through: the position completed, and with it every late lane but a relay's.
    package mutating func quit() {
        column += 1
        drawnColumn += 1
        completed = true
        for (kind, lane) in lanes where lane.end == nil && kind != .relay {
            lanes[kind]!.end = LateLane.End(column: column, ending: .completed)
            lanes[kind]!.drawnEnd = drawnColumn
        }
    }

    /// The kind's key: subscribes one, or cancels the one subscribed.
    package mutating func toggle(_ kind: LateSubscriber) {
        drawnColumn += 1
        if let lane = lanes[kind], lane.end == nil {
            lanes[kind]!.end = LateLane.End(column: column, ending: .unsubscribed)
            lanes[kind]!.drawnEnd = drawnColumn
            return
        }
        var lane = Lane(kind: kind, start: column, handed: 0)
        lane.drawnStart = drawnColumn
        switch kind {
        case .behavior: lane.handed = completed ? 0 : 1
        case .publish: lane.handed = 0
        case .replay: lane.handed = min(LateSubscriber.replayBufferSize, published.count)
        case .relay: lane.handed = 1
        }
        if completed && kind != .relay {
            lane.end = LateLane.End(column: column, ending: .completed)
            lane.drawnEnd = drawnColumn
        }
        if let before = lanes[kind] { ended[kind, default: []].append(before) }
        lanes[kind] = lane
    }

    /// The lanes, in the panel's order of kinds.
    package var ordered: [Lane] { LateSubscriber.allCases.compactMap { lanes[$0] } }

    /// What a lane of `kind` must draw in the drawn columns so far (``drawnColumn``), two cells a
    /// column from the first
    /// (and the cell after the last), as the marble legend says: `^`, then what it was handed
    /// (`○`, a group's mark, `³`), then how it ended there if it did (`!`, `|`); a `○` in each column
    /// it received a value; `!` or `|` after what it received in the column it ended, in Rx's
    /// order: `─○` then the end in the next column's first cell, or `○!` where another lane of the
    /// row begins in that column. Blanks before and after the lane; nil when there is no lane of
    /// `kind`.
    ///
    /// With `keepingEnded` (the player's page), the ended lanes before it are drawn too, in the
    /// same row, each that ended after an intent before the one the next began after.
    package func drawn(_ kind: LateSubscriber, keepingEnded: Bool = false) -> String? {
        let last = drawnColumn
        guard let latest = lanes[kind] else { return nil }
        var cells = [Character](repeating: " ", count: 2 * (last + 1) + 1)
        var row = [latest]
        for lane in (keepingEnded ? ended[kind] ?? [] : []).reversed() {
            let next = row[0]
            guard let end = lane.end, end.column < next.start else { continue }
            row.insert(lane, at: 0)
        }
        for (at, lane) in row.enumerated() {
            draw(lane, through: last, nextStart: at + 1 < row.count ? row[at + 1].drawnStart : nil, into: &cells)
        }
        return String(String(cells).reversed().drop { $0 == " " }.reversed())
    }

    /// Draws `lane` into `cells`, two a column (the next lane in its row begins at `nextStart`).
    private func draw(_ lane: Lane, through last: Int, nextStart: Int?, into cells: inout [Character]) {
        let endGlyph: Character? = lane.end.map { $0.ending == .completed ? "|" : "!" }
        for column in lane.drawnStart...(lane.drawnEnd ?? last) where column <= last {
            let (first, second) = (2 * column, 2 * column + 1)
            let receivedHere = lane.drawnReceived.contains(column)
            let endsHere = lane.drawnEnd == column
            if column == lane.drawnStart {
                cells[first] = "^"
                switch lane.handed {
                case 0: cells[second] = endsHere ? endGlyph! : "─"
                case 1: cells[second] = "○"
                default: cells[second] = Character(Glyph.group(lane.handed))
                }
                if lane.handed > 0, endsHere { cells[second + 1] = endGlyph! }
            } else if endsHere, receivedHere, nextStart != column + 1 {
                (cells[first], cells[second], cells[second + 1]) = ("─", "○", endGlyph!)
            } else if endsHere {
                cells[first] = receivedHere ? "○" : "─"
                cells[second] = endGlyph!
            } else {
                cells[first] = "─"
                cells[second] = receivedHere ? "○" : "─"
            }
        }
    }
}

import BallModel

// MARK: - The time view: a column per span of time

/// A run of equal spans of the session's clock, numbered from the session's start (span `n`
/// runs from `n × length` to the next): the time view's columns. The lanes are the same
/// recorded columns as the event view's, projected: each event goes in the span of its own time
/// (each value the slot passed on, at its own of ``StreamColumn/slottedTimes``), so a quiet
/// 300 ms is three spans of 100 ms with nothing in them.
package struct TimeSpans: Hashable, Sendable {
    /// How long each span lasts.
    package var length: SessionTime.Stride
    /// The number of the first span.
    package var first: Int
    /// How many spans.
    package var count: Int

    /// `count` spans of `length` from span number `first`.
    package init(length: SessionTime.Stride, first: Int, count: Int) {
        self.length = length
        self.first = first
        self.count = max(0, count)
    }

    /// The number of the span `time` falls in.
    package func number(of time: SessionTime) -> Int { Self.number(of: time, length: length) }

    /// The number of the span of `length` that `time` falls in.
    package static func number(of time: SessionTime, length: SessionTime.Stride) -> Int {
        Int(time.microseconds / max(1, length.microseconds))
    }

    /// When span `number` starts.
    package func start(of number: Int) -> SessionTime {
        SessionTime(microseconds: Int64(number) * length.microseconds)
    }

    /// The times span `number` covers.
    package func range(of number: Int) -> Range<SessionTime> {
        start(of: number)..<start(of: number + 1)
    }

    /// The span numbers, first to last.
    package var numbers: Range<Int> { first..<(first + count) }

    /// The offset among these spans of the span `time` falls in, if it is one of them.
    private func offset(of time: SessionTime) -> Int? {
        let offset = number(of: time) - first
        return (0..<count).contains(offset) ? offset : nil
    }

    /// What a lane shows in each span, from `columns` (oldest first, the one before the first span
    /// included: it says whether the lane lives as the spans begin): the marbles of the events
    /// (`events`: what the lane showed in a column, at its time) that fall in a span, merged
    /// (``MarbleGroup``); the lane's line where it lives and nothing came; nil where it does not
    /// live (before a late lane subscribed, after it ended). After the last column, the lane lives
    /// to the last span.
    package func lane(_ columns: [StreamColumn], events: (StreamColumn) -> LaneEvents) -> [Marble?] {
        lane(columns[...], events: events)
    }

    /// The same, of a part of a page's columns (each column's events fall between its own time
    /// and the next one's: the columns before the last that came before the first span draw
    /// nothing on these spans).
    package func lane(_ columns: ArraySlice<StreamColumn>, events: (StreamColumn) -> LaneEvents) -> [Marble?] {
        var groups = [MarbleGroup](repeating: MarbleGroup(), count: count)
        var lives = [Bool](repeating: false, count: count)
        // By index, and with no closure over what it changes: a frame of the live view runs this
        // for every lane and every column on the page (a column holds many references).
        for position in columns.indices {
            // From this intent to the next, the lane lives where it began (at its subscription's
            // own time) or went on, until it ends.
            let happened = events(columns[position])
            var from = columns[position].time
            var alive = false
            if let event = happened.first { take(event, &groups, &lives, from: &from, alive: &alive) }
            if let event = happened.second { take(event, &groups, &lives, from: &from, alive: &alive) }
            for event in happened.rest { take(event, &groups, &lives, from: &from, alive: &alive) }
            if alive, let from {
                live(from: from, to: position + 1 < columns.endIndex ? columns[position + 1].time : nil, in: &lives)
            }
        }
        return (0..<count).map { offset in
            groups[offset].marble ?? (lives[offset] ? .line : nil)
        }
    }

    /// Puts `event` in its span's group; a subscription starts the lane living (`from`), an
    /// ending marks it living up to there and ends it (`alive`).
    private func take(
        _ event: LaneEvent, _ groups: inout [MarbleGroup], _ lives: inout [Bool], from: inout SessionTime?,
        alive: inout Bool
    ) {
        if let at = event.time, let offset = offset(of: at) { groups[offset].add(event.marble) }
        if case .subscribed = event.marble { from = event.time }
        alive = true
        if event.marble.ends {
            if let start = from { live(from: start, to: event.time ?? start, in: &lives) }
            alive = false
        }
    }

    /// Marks a lane living from `from` to `to` (to the last span: nil) in `lives`.
    private func live(from: SessionTime, to: SessionTime?, in lives: inout [Bool]) {
        let lower = max(0, number(of: from) - first)
        let upper = min(count - 1, to.map { number(of: $0) - first } ?? count - 1)
        // (A half-open range: a closed one is iterated through its generic index here.)
        if lower <= upper { for offset in lower..<(upper + 1) { lives[offset] = true } }
    }

    /// What a lane showed in a recorded column, and when (the time view puts it in that time's span).
    package struct LaneEvent: Hashable, Sendable {
        /// When it happened.
        package var time: SessionTime?
        /// What the lane showed (a line: it lived, and nothing came).
        package var marble: Marble

        /// `marble` at `time`.
        package init(_ marble: Marble, at time: SessionTime?) {
            self.marble = marble
            self.time = time
        }
    }

    /// What a lane showed in one recorded column: nothing, one event, or more at their own times
    /// (a late lane that subscribed, or received a value, and ended there; the slot's values
    /// passed on at two instants, as `throttle` after flatMap passes its copies on).
    package struct LaneEvents: Hashable, Sendable {
        /// The first, if any.
        package var first: LaneEvent?
        /// The second, if any.
        package var second: LaneEvent?
        /// Those after the second (the common one or two need no array: a frame of the live view
        /// makes these for every lane and column on the page).
        package var rest: [LaneEvent] = []

        /// `first` then `second`.
        package init(_ first: LaneEvent? = nil, _ second: LaneEvent? = nil) {
            self.first = first
            self.second = second
        }

        /// `events`, in order.
        package init(_ events: [LaneEvent]) {
            first = events.first
            second = events.count > 1 ? events[1] : nil
            rest = Array(events.dropFirst(2))
        }
    }

    /// Where the slot's timed operator waits, from `columns` (as for ``lane(_:events:)``):
    /// whether it waited in each span. A column's wait runs from its intent to
    /// ``StreamColumn/waitsUntil``, or to the next intent when that comes first, and no further
    /// than `now` (a wait is drawn as far as it has gone).
    package func waits(_ columns: [StreamColumn], now: SessionTime) -> [Bool] {
        var waits = [Bool](repeating: false, count: count)
        for position in columns.indices {
            guard let from = columns[position].time, var until = columns[position].waitsUntil else { continue }
            if position + 1 < columns.count, let next = columns[position + 1].time { until = min(until, next) }
            // A wait still running at `now` is drawn into the column of now.
            until = until > now ? now.advanced(by: .microseconds(1)) : until
            guard from < until else { continue }
            let lower = max(0, number(of: from) - first)
            // The span the wait's last microsecond is in.
            let upper = min(count - 1, number(of: until.advanced(by: .microseconds(-1))) - first)
            guard lower <= upper else { continue }
            for offset in lower..<(upper + 1) { waits[offset] = true }
        }
        return waits
    }
}

/// The marbles of one lane in one span of the time view, merged into the one a column draws:
/// several values are a group (their count, as a Replay subject's replay is), with the
/// subscription before them and the ending after them, as in one column of the event view.
package struct MarbleGroup: Hashable, Sendable {
    /// Whether the lane subscribed in the span.
    private var subscribed = false
    /// How many values it emitted in the span.
    private(set) var count = 0
    /// The value, when it emitted one.
    private var single: Marble?
    /// Whether a value was worked out and swallowed by `removeDuplicates` in the span.
    private var ghost = false
    /// How the lane ended in the span, if it did.
    private var ending: LaneEnding?

    /// An empty span.
    package init() {}

    /// Adds what a lane showed in one column (a line adds nothing).
    package mutating func add(_ marble: Marble) {
        switch marble {
        case .line, .waiting: break
        case .mark: break
        case .subscribed(let handed, let end):
            subscribed = true
            if let handed { addValue(handed) }
            if let end { ending = end }
        case .ended(let after):
            if let after { addValue(after) }
            ending = .completed
        case .unsubscribed(let after), .resubscribed(let after):
            if let after { addValue(after) }
            ending = .unsubscribed
        case .failed(let after):
            if let after { addValue(after) }
            ending = .failed
        default: addValue(marble)
        }
    }

    private mutating func addValue(_ marble: Marble) {
        switch marble {
        case .ghost: ghost = true
        case .group(let values), .repeated(_, let values): count += values
        default: count += 1
        }
        single = count == 1 ? (single ?? marble) : nil
        if case .group = marble { single = nil }
        if case .repeated = marble { single = nil }
    }

    /// The marble the span draws; nil: nothing happened in it.
    package var marble: Marble? {
        let body: Marble? =
            switch count {
            case 0: ghost ? .ghost : nil
            case 1: single
            default: .group(min(9, count))
            }
        if subscribed { return .subscribed(handed: body, ending: ending) }
        switch ending {
        case .completed?: return .ended(after: body)
        case .unsubscribed?: return .unsubscribed(after: body)
        case .failed?: return .failed(after: body)
        case nil: return body
        }
    }
}

extension Marble {
    /// The marble with `value` in place of what it shows, its subscription and its ending kept
    /// (`|` after the slot's last run of values, when the column's own was the whole column's).
    package func showing(_ value: Marble) -> Marble {
        switch self {
        case .ended: .ended(after: value)
        case .unsubscribed: .unsubscribed(after: value)
        case .failed: .failed(after: value)
        case .subscribed(_, let ending): .subscribed(handed: value, ending: ending)
        default: value
        }
    }

    /// Whether the lane ends here (`|` or `!`): it draws nothing after.
    package var ends: Bool {
        switch self {
        case .ended, .unsubscribed, .failed: true
        case .subscribed(_, let ending): ending != nil
        default: false
        }
    }
}

import BallModel
import BallReplay
import BallStreams

// MARK: - A replay, column by column

/// A replay's streams as the panel records them, handed on a column at a time, each followed
/// by what happened to the late subscribers in it: what the exports that write each lane whole
/// (`--syntax`, `--svg`, `--marbles`) are made from.
enum ReplayColumns {
    /// One thing the streams did, in order.
    enum Item {
        /// A column, complete: an intent and what each main lane emitted for it, and the
        /// session's letter book (``ValueLetterBook``) as it stood after it: after its intent and
        /// what the chain's timers did until the next, what the live panel drew its values with
        /// then (the player's ``LetterBooks`` give the same).
        case column(StreamColumn, book: ValueLetterBook)
        /// A late subscriber's subscription did `event` in column `column` (after that column's
        /// own emissions: late subscribers subscribe and cancel between intents), at `time` on
        /// the session's clock (a subscription's own time, which may be later than its
        /// column's intent), the column's ``StreamColumn/lateMoments`` entry it is, where it has one
        /// (a subscription or a cancel made after the intent; a completion handed at once: its
        /// subscription's).
        case late(LateSubscriber, LateLaneEvent, column: Int, time: SessionTime, moment: Int? = nil)
        /// A recorded tour's lesson began after column `column`'s intent (before the next), at
        /// `time`: its marker (``LessonStart``).
        case lesson(LessonStart)
    }

    /// Replays `reader` through a session with a ``StreamRecorder``, the recording's
    /// observations applied to it where they were made, and calls `body` with each column in
    /// order once it is complete (the last at the end) and the letter book after it, each
    /// followed by its late subscribers' events. Columns are taken in batches of 32, and the
    /// recorder keeps twice as many, so memory stays flat. A line the reader refuses is thrown
    /// after every column before it.
    static func forEach(in reader: ReplayReader, _ body: (Item) throws -> Void) throws {
        let player = try ReplayPlayer(reader: reader)
        let recorder = StreamRecorder(session: player.session, capacity: 64)
        // The book after each column not yet handed on, by index: taken as the next intent is
        // published, before anything it sets off (the recorder starts a column for each intent,
        // from 0; counted here, as a subject tells its subscribers in no set order).
        var books: [Int: ValueLetterBook] = [:]
        var closing = 0
        let closed = player.session.intents.bind { [unowned recorder] _ in
            books[closing] = recorder.letterBook
            closing += 1
        }
        defer { closed.cancel() }
        // What happened after each column, in order: the late subscribers' events and the
        // lessons' markers, each with its column.
        var after: [(column: Int, item: Item)] = []
        let lateEvents = recorder.lateEvents.bind { [unowned recorder, unowned player] kind, event in
            // The recorder's lane, told first: which of its column's moments this is.
            let lane = recorder.lateLane(kind)
            let moment: Int? =
                switch event {
                case .subscribed: lane?.startMoment
                case .completed, .disposed: lane?.end?.moment
                case .next: nil
                }
            after.append(
                (
                    recorder.latestIndex,
                    .late(kind, event, column: recorder.latestIndex, time: player.session.now, moment: moment)
                ))
        }
        defer { lateEvents.cancel() }
        player.observed = { [unowned recorder] event in
            if case .lessonBegan(let number, let title) = event.observation {
                let start = LessonStart(
                    number: number, title: title, column: recorder.latestIndex,
                    time: SessionTime(seconds: event.time))
                after.append((start.column, .lesson(start)))
            }
            recorder.apply(event.observation)
        }
        var next = 0
        var taken = 0
        func take(_ columns: ArraySlice<StreamColumn>) throws {
            for column in columns {
                // (The latest column's book is the recorder's own: no intent has closed it.)
                try body(.column(column, book: books.removeValue(forKey: column.index) ?? recorder.letterBook))
                next = column.index + 1
                while taken < after.count, after[taken].column <= column.index {
                    try body(after[taken].item)
                    taken += 1
                }
            }
            after.removeFirst(taken)
            taken = 0
        }
        do {
            while let event = try player.nextEvent() {
                player.apply(event)
                // Every column before the latest is complete.
                if recorder.latestIndex - next >= 32 { try take(recorder.columns(from: next).dropLast()) }
            }
        } catch let error as ReplayError {
            // A bad line later in the file: the columns before it are handed on all the same.
            try take(recorder.columns(from: next)[...])
            throw error
        }
        try take(recorder.columns(from: next)[...])
    }
}

// MARK: - Where a recorded tour's lessons start

/// A recorded tour's lesson marker as the exports place it: the lesson began after column
/// `column`'s intent (the last intent before it, where a late subscriber subscribing then has its
/// `^`), at `time` on the session's clock.
package struct LessonStart: Hashable, Sendable {
    /// The lesson's number in the tour.
    package var number: Int
    /// Its title.
    package var title: String
    /// The column after whose intent it began (0: at the start).
    package var column: Int
    /// When it began.
    package var time: SessionTime

    /// A lesson start from its parts.
    package init(number: Int, title: String, column: Int, time: SessionTime) {
        self.number = number
        self.title = title
        self.column = column
        self.time = time
    }

    /// What the exports call it, as the player and the cast do: `Lesson 4 · Publish`.
    package var label: String {
        Observation.lessonBegan(number: number, title: title).tourWords ?? "Lesson \(number) · \(title)"
    }

    /// Its name in at most `width` cells: `Lesson 4 · Publish` where it fits, else `Lesson 4`,
    /// else `4` (the closing card: `Closing card`, else `end`; cut with `…` where not even that
    /// fits).
    package func label(width: Int) -> String {
        let marker = Observation.lessonBegan(number: number, title: title)
        return String.first(
            of: [label, marker.shortTourWords, marker.tinyTourWords].compactMap { $0 }, fittingWidth: width)
    }
}

// MARK: - Late subscriptions, whole

/// The late subscriptions of a replay as lanes, built from their events (``ReplayColumns/Item``):
/// each is handed on whole once it ended (cancelled, or disposed of after its completion).
struct LateSubscriptions {
    /// The lanes under way, by kind.
    private(set) var live: [LateSubscriber: LateLane] = [:]
    private var nextID = 0

    /// Takes `event` of `kind`'s subscription in `column`; the lane, when it ended with it.
    /// A value in the subscription's own column is one it was handed as it subscribed (it
    /// subscribed after that column's intent); a later one is one it received.
    /// With `moment`, the subscription or its end is drawn in that moment's column of its own
    /// after the intent's (``StreamColumn/withMoments(_:)``), as the live panel draws it.
    mutating func note(_ kind: LateSubscriber, _ event: LateLaneEvent, column: Int, moment: Int? = nil) -> LateLane? {
        switch event {
        case .subscribed:
            live[kind] = LateLane(id: nextID, kind: kind, start: column)
            live[kind]!.startMoment = moment
            nextID += 1
        case .next(let position):
            guard live[kind] != nil else { return nil }
            if column == live[kind]!.start {
                live[kind]!.handedPositions.append(position)
            } else {
                live[kind]!.received.insert(column)
            }
        case .completed:
            // Handed at once to a subscriber of a completed subject: where it subscribed.
            let atOnce = moment != nil && moment == live[kind]?.startMoment && column == live[kind]?.start
            live[kind]?.end = LateLane.End(column: column, ending: .completed, moment: atOnce ? moment : nil)
        case .disposed:
            guard var lane = live.removeValue(forKey: kind) else { return nil }
            if lane.end == nil { lane.end = LateLane.End(column: column, ending: .unsubscribed, moment: moment) }
            return lane
        }
        return nil
    }

    /// Forgets the columns before `column` of the lanes under way (they were written).
    mutating func forget(before column: Int) {
        for kind in live.keys { live[kind]!.received = live[kind]!.received.filter { $0 >= column } }
    }
}

/// The late lanes an export drawn in blocks of columns needs (the text diagram, the SVG): each
/// block draws the lanes that ended in it and those under way, and then forgets what only it
/// needed, so memory stays flat however long the recording.
struct LateLanesByBlock {
    private var late = LateSubscriptions()
    /// The lanes that ended since the last block written.
    private var ended: [LateLane] = []

    /// Takes `event` of `kind`'s subscription in `column`, at `moment` there (see
    /// ``LateSubscriptions/note(_:_:column:moment:)``).
    mutating func note(_ kind: LateSubscriber, _ event: LateLaneEvent, column: Int, moment: Int? = nil) {
        if let lane = late.note(kind, event, column: column, moment: moment) { ended.append(lane) }
    }

    /// The lanes a block ending at column `last` draws: those that ended since the last block,
    /// then those under way, in the panel's order of kinds; none that began after `last`.
    func lanes(through last: Int) -> [LateLane] {
        (ended + LateSubscriber.allCases.compactMap { late.live[$0] }).filter { $0.start <= last }
    }

    /// The block ending at column `last` is written: what only it needed is forgotten.
    mutating func written(through last: Int) {
        ended.removeAll { $0.end!.column <= last }
        late.forget(before: last + 1)
    }
}

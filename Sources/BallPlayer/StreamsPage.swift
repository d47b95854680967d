import BallModel
import BallRendering
import BallReplay
import BallStreams

// MARK: - The streams panel around a place

/// The streams panel's page around the player's place, worked out by real subscriptions: a
/// scratch session built at the state just before the page, a ``StreamRecorder`` on it, and
/// the page's intents sent through (skipped ones noted, not sent). Intents after the place are
/// drawn dim (the future).
package enum StreamsPage {
    /// A late subscriber subscribed or cancelled in a recording, or by a key in the player: what,
    /// the place it happened at (after that many intents), and when, if the recording says (a
    /// key in the player: at the place's time).
    package typealias LateObservation = (place: Int, observation: Observation, time: SessionTime?)

    /// The page of `index` that shows `place` at `width`, with `observations` (in the order of
    /// their places) made again where they were made: each subscribes, or cancels, the lane of
    /// its kind (one that cannot, a subscribe of a live lane or a cancel of none, does nothing).
    /// On `axis`'s time, the page of spans that shows the place's time.
    /// In a recorded tour (``Observation/lessonBegan(number:title:)`` markers among them), the
    /// page holds the lesson of the place only, as the tour's lanes did: from where it began (its
    /// lanes as they stood there, the late lanes subscribed in it) to where the next began.
    /// `through`: the last intent the page holds (nil: as many as it has room for). Each value is
    /// drawn with the letter the session's live panel drew it with at the place (`books`: the
    /// session's letter book at each place, ``LetterBooks``).
    /// `lessons`: how a recorded tour's lesson drew its lanes (``TourLessonLanes``), by its marker's
    /// number and title (nil: not this program's lesson). `kept`: the page last worked out, which
    /// a step within it shows again (``KeptPage``). `reached`: how far the place has gone on the
    /// session's clock where a timer of the chain is still to come before the next intent (nil:
    /// the place whole): its column holds what the live panel held then, and no more.
    package static func panel(
        index: ReplayIndex, place: Int, width: Int, observations: [LateObservation], axis: PanelAxis = PanelAxis(),
        through: Int? = nil, books: LetterBooks, lessons: (Int, String) -> TourLessonLanes? = { _, _ in nil },
        kept: KeptPage? = nil, reached: SessionTime? = nil
    ) -> StreamPanel {
        page(
            index: index, place: place, width: width, observations: observations, axis: axis, through: through,
            books: books, lessons: lessons, kept: kept, reached: reached)
    }

    /// The page of ``panel(index:place:width:observations:axis:through:books:lessons:)``; without `books`,
    /// no letters (for what is on it, not how it is drawn). With them, the page's scratch session
    /// begins with the book at its first place, and its replay notes the book at `place` on the way.
    static func page(
        index: ReplayIndex, place: Int, width: Int, observations: [LateObservation], axis: PanelAxis = PanelAxis(),
        through: Int? = nil, books: LetterBooks? = nil, lessons: (Int, String) -> TourLessonLanes? = { _, _ in nil },
        kept: KeptPage? = nil, reached: SessionTime? = nil
    ) -> StreamPanel {
        let present = reached.map { (place: place, reached: $0) }
        let lesson = TourLesson(of: place, in: observations) { marker in
            marker.time.map { beganAtIntent(place: marker.place, time: $0, in: index) } ?? false
        }
        // A tour's lesson: its lanes in the rows the tour gave them, as that lesson drew them.
        let lanes = lesson.map { lesson -> TourLessonLanes in
            guard case .lessonBegan(let number, let title) = observations[lesson.marker].observation,
                let lanes = lessons(number, title)
            else { return TourLessonLanes(slot: index.buildsPipes) }
            return lanes
        }
        let observations = lesson.map { Array(observations[..<$0.end]) } ?? observations
        let ceiling = min(lesson?.ceiling ?? index.count, through ?? index.count)
        guard axis.time else {
            let size = StreamPanel.pageSize(width: width)
            let start = StreamPanel.pageStart(latest: place, width: width, from: lesson?.floor ?? 0)
            let end = min(ceiling, start + size - 1)
            let (recorded, home) = self.recorded(
                index, from: max(0, start - 1), through: end, columnsFrom: start, observations: observations,
                marker: lesson?.marker, letters: books.map { ($0, place) }, kept: kept, present: present)
            let floor = recorded.floor
            var panel = StreamPanel(
                columns: StreamColumn.withMoments(recorded.columns), lateLanes: recorded.lateLanes, present: place)
            panel.reached = reached
            if let home { panel.homeLetters = home }
            // The slot's lane, on every page of a recording that puts an operator in the slot.
            panel.showsSlot = index.buildsPipes
            if let floor { panel.lessonOnly(from: floor) }
            panel.fitToPage(width: width)
            return panel.readingEveryOperator(asTheTourDrew: lanes)
        }
        // The spans of the page that holds the place's time, and the intents in them, with the
        // one before the first (it says how each lane stands as the page begins).
        let length = axis.span
        let time = { (number: Int) in number == 0 ? SessionTime.start : index.sessionTime(of: number) }
        let base = lesson.map { TimeSpans.number(of: time($0.floor), length: length) } ?? 0
        // The place lasts until the next intent: a late subscription made in it (after the last
        // intent, Completion's after `e`) is on the page, at its own time.
        // Its page is the one of its intent's time, turned on as far as such a subscription needs,
        // and no further: the intent stays on it where both fit.
        let latest = TimeSpans.number(of: time(place), length: length)
        let madeAt = observations.lazy.filter { $0.place == place }.compactMap(\.time).max()
        let made = TimeSpans.number(of: max(time(place), madeAt ?? .start), length: length)
        let size = StreamPanel.pageSize(width: width, time: true)
        var first = StreamPanel.pageStart(latest: latest, width: width, time: true, from: min(base, latest))
        if made >= first + size { first = made - size + 1 }
        // At the recording's end its last span keeps the cell after it free, on the page: the
        // marks that follow a value there (`^³|`, `^b!`) stand in it, whole.
        if place == index.count, size > 1, made == first + size - 1 { first += 1 }
        var spans = TimeSpans(length: length, first: first, count: size)
        let pageStart = spans.start(of: first)
        let pageEnd = spans.start(of: first + spans.count)
        let before = max(lesson?.floor ?? 0, lastIntent(in: index, before: pageStart, time: time))
        let last = min(ceiling, max(before, lastIntent(in: index, before: pageEnd, time: time)))
        // The scratch session starts at the intent before `before`: `before`'s column is then
        // what it did, where the start column would hold what the subscriptions were handed.
        let (recorded, home) = self.recorded(
            index, from: max(0, before - 1), through: last, columnsFrom: before, timed: true,
            observations: observations, marker: lesson?.marker, letters: books.map { ($0, place) }, kept: kept,
            present: present)
        let floor = recorded.floor
        // On the last page the lanes end with the recording: its time ends with the last thing
        // recorded, its last intent or a late subscription made after it (a wait then running
        // is drawn to there, as the live view draws it to now).
        var panel = StreamPanel(columns: recorded.columns, lateLanes: recorded.lateLanes, present: place)
        panel.reached = reached
        if let home { panel.homeLetters = home }
        if let floor { panel.lessonOnly(from: floor) }
        if last == index.count {
            // (And on to the tour's quit after `e`, format 8's last line: the recording's end.)
            let quit = index.reader.quitAfterCompletion.map(SessionTime.init(seconds:)) ?? .start
            let end = max(time(index.count), observations.lazy.compactMap(\.time).max() ?? .start, quit)
            spans.count = min(spans.count, max(1, TimeSpans.number(of: end, length: length) - first + 1))
            panel.now = end
        }
        panel.spans = spans
        panel.showsSlot = index.buildsPipes
        return panel.readingEveryOperator(asTheTourDrew: lanes)
    }

    /// The positions the position subject published after intent `start`, through intent `end`
    /// (it publishes a position only where it changed), oldest first.
    static func positionsPublished(in index: ReplayIndex, after start: Int, through end: Int) -> [BallPosition] {
        guard start < end else { return [] }
        var last = index.state(at: start).position
        var positions: [BallPosition] = []
        for number in (start + 1)...end {
            let position = index.state(at: number).position
            if position != last { positions.append(position) }
            last = position
        }
        return positions
    }

    /// The number of the last intent before `time` (0: none), by halves: the times only grow.
    private static func lastIntent(in index: ReplayIndex, before time: SessionTime, time of: (Int) -> SessionTime)
        -> Int
    {
        var (low, high) = (1, index.count + 1)
        while low < high {
            let middle = (low + high) / 2
            if of(middle) < time { low = middle + 1 } else { high = middle }
        }
        return low - 1
    }

    /// Whether a lesson's marker recorded after intent `place` at `time` follows the slot emptied
    /// as the lesson began (an intent at the marker's time): the intent is the lesson's, which the
    /// tour drew as the place it began, never the lesson before's.
    static func beganAtIntent(place: Int, time: SessionTime, in index: ReplayIndex) -> Bool {
        guard place > 0, case .operatorChosen(.none) = index.event(place).intent else { return false }
        return time == index.sessionTime(of: place)
    }

    /// Whether the recording's observation `number`, a lesson's marker, follows the slot emptied
    /// as its lesson began (``beganAtIntent(place:time:in:)``).
    package static func beganAtIntent(_ number: Int, in index: ReplayIndex) -> Bool {
        let entry = index.observations[number]
        return beganAtIntent(place: entry.place, time: SessionTime(seconds: entry.event.time), in: index)
    }

    /// Where among the recording's observations the start of the lesson whose marker is
    /// `marker` begins: the tour's learn records, as a lesson begins and before its marker, the
    /// late subscribers cancelled, `o` and `u` turned off and the panel opened or closed, all at
    /// the marker's time (those before the place's intent, the slot emptied, excepted).
    package static func beginning(of marker: Int, in index: ReplayIndex) -> Int {
        let (place, time) = (index.observations[marker].place, index.observations[marker].event.time)
        var start = marker
        while start > 0, index.observations[start - 1].place == place, index.observations[start - 1].event.time == time
        {
            switch index.observations[start - 1].event.observation {
            case .unsubscribed, .panelOpened, .panelClosed, .screenThroughPublish(false), .mapCopies(false): start -= 1
            case .subscribed, .lessonBegan, .screenThroughPublish(true), .mapCopies(true): return start
            }
        }
        return start
    }

    /// The lesson of a recorded tour shown at a place: the last begun by then (the observations
    /// given are those that happened by the place's stop).
    struct TourLesson {
        /// Where among the observations its marker is, and the next lesson's (their count: none).
        var marker: Int, nextMarker: Int
        /// Where among the observations the lesson's own end: before what the next lesson's start
        /// did (its late lanes cancelled, the copy disposed of, at its marker's place and time,
        /// before it), which the tour drew on the next lesson's fresh lanes, never on this one's.
        var end: Int
        /// The place it began at (after that many intents), and where the next began (nil: none did).
        var floor: Int, ceiling: Int?

        /// The lesson of `place` among `observations` (in the order of their places); nil: they
        /// hold no lesson's marker (not a tour). A marker after intent `k` begins its lesson at
        /// place `k` (at the stop after it: the tour drew the lesson from the column it began in),
        /// and the lesson before ends there. Where intent `k` was made by the lesson's start
        /// (`began` says so of a marker: the slot emptied), the lesson before ends at `k - 1`.
        init?(of place: Int, in observations: [LateObservation], began: (LateObservation) -> Bool = { _ in false }) {
            let markers = observations.indices.filter {
                if case .lessonBegan = observations[$0].observation { true } else { false }
            }
            let beganAtIntent = Set(markers.filter { began(observations[$0]) })
            guard
                let marker = markers.last(where: { observations[$0].place <= place }) ?? markers.first
            else { return nil }
            self.marker = marker
            floor = observations[marker].place
            let next = markers.first { $0 > marker }
            nextMarker = next ?? observations.count
            end = nextMarker
            if let next, let time = observations[next].time {
                while end - 1 > marker, observations[end - 1].place == observations[next].place,
                    observations[end - 1].time == time, Self.endsALesson(observations[end - 1].observation)
                {
                    end -= 1
                }
            }
            ceiling = next.map { observations[$0].place - (beganAtIntent.contains($0) ? 1 : 0) }
        }

        /// Whether `observation` is of what the tour does as a lesson begins, before its marker
        /// (``StreamsPage/beginning(of:in:)``): a late lane cancelled, `o` or `u` turned off.
        private static func endsALesson(_ observation: Observation) -> Bool {
            switch observation {
            case .unsubscribed, .panelOpened, .panelClosed, .screenThroughPublish(false), .mapCopies(false): true
            case .subscribed, .lessonBegan, .screenThroughPublish(true), .mapCopies(true): false
            }
        }
    }

    /// The columns from `start` on and the late lanes of ``record(_:from:through:observations:marker:letters:)``
    /// (`timed`: on a time axis, where a first column at the start is drawn at the start's
    /// time), with the letters at the place as it gives them; the page `kept` has, where it was
    /// worked out from the same (the letters at the place then from the books), and kept there.
    /// With `present`, its place's column as it stood when the clock had reached its time (the
    /// later columns, the future, whole).
    private static func recorded(
        _ index: ReplayIndex, from first: Int, through end: Int, columnsFrom start: Int, timed: Bool = false,
        observations: [LateObservation], marker: Int?, letters: (books: LetterBooks, place: Int)?, kept: KeptPage?,
        present: (place: Int, reached: SessionTime)?
    ) -> (page: KeptPage.Recorded, home: ValueLetters?) {
        let key = kept.map { _ in
            KeptPage.Key(
                revision: index.revision, count: index.count, first: first, end: end, start: start, timed: timed,
                marker: marker, letters: letters != nil,
                present: present.map { KeptPage.Present(place: $0.place, reached: $0.reached) },
                observations: observations.map {
                    KeptPage.Made(place: $0.place, observation: $0.observation, time: $0.time)
                })
        }
        if let kept, let key, let page = kept.page(for: key) {
            // The book at the place is the one the page's replay notes on the way (TimeTravelTests:
            // a page's letters hold the session's book at its place).
            let home = letters.map { letters in
                letters.books.book(at: letters.place, in: index).letters.merging(page.endLetters ?? [:]) { atPlace, _ in
                    atPlace
                }
            }
            return (page, home)
        }
        let (recorder, floor, home, paused) = record(
            index, from: first, through: end, observations: observations, marker: marker, letters: letters,
            present: present)
        var columns = recorder.columns(from: start)
        if let paused, let present {
            // The present's column, and those before it, as they stood at its time.
            columns =
                paused.filter { $0.index >= start && $0.index <= present.place }
                + columns.filter { $0.index > present.place }
        }
        if timed, start == 0, !columns.isEmpty { columns[0].moveToTheStart() }
        let page = KeptPage.Recorded(
            columns: columns, lateLanes: recorder.lateLanes, floor: floor,
            endLetters: letters == nil ? nil : recorder.letterBook.letters)
        if let kept, let key { kept.keep(page, for: key) }
        return (page, home)
    }

    /// A recorder of the intents `first + 1` to `end` sent through a scratch session built at the
    /// state after `first` (skipped ones noted, not sent), with `observations` made again where
    /// they were made; and where the lesson whose marker is `marker` (among them) began, if it
    /// is given: its column, and the first late subscription made in it. With `letters`, the
    /// session's letters at their place too: the recorder begins with the book at `first`
    /// (from the books), and notes it on (late subscriptions note no letters); a value first met
    /// after the place has the letter the book gives it then. With `present`, the columns too as
    /// they stood when the clock had reached its time at its place (nil: not on the page).
    private static func record(
        _ index: ReplayIndex, from first: Int, through end: Int, observations: [LateObservation], marker: Int? = nil,
        letters: (books: LetterBooks, place: Int)? = nil, present: (place: Int, reached: SessionTime)? = nil
    ) -> (StreamRecorder, PageFloor?, ValueLetters?, [StreamColumn]?) {
        let atFirst = present.flatMap { $0.place == first ? $0.reached : nil }
        let scratch = BallSession(start: index.state(at: first, timersUntil: atFirst))
        let earlier = index.positions(before: first, count: LateSubscriber.replayBufferSize + 1).dropLast()
        let recorder = StreamRecorder(
            session: scratch, capacity: end - first + 2, firstIndex: first, earlierPositions: Array(earlier),
            letterBook: letters?.books.book(at: first, in: index))
        recorder.keepsEndedLanes = true
        var pending = observations[...]
        var floor: PageFloor?
        var book = letters?.place == first ? recorder.letterBook : nil
        func observe(upTo number: Int) {
            while let next = pending.first, next.place <= number {
                if pending.startIndex == marker {
                    floor = PageFloor(
                        column: next.place, subscription: recorder.subscriptionsMade, copy: recorder.copiesMade)
                }
                let placeTime = next.place == 0 ? SessionTime.start : index.sessionTime(of: next.place)
                recorder.apply(next.observation, at: next.place, time: next.time ?? placeTime)
                // A Publish copy subscribed before the scratch session's start: sent what the
                // position published since, as the tour's copy was.
                if case .screenThroughPublish(true) = next.observation, next.place < first {
                    recorder.warmUpCopy(with: positionsPublished(in: index, after: next.place, through: first))
                }
                pending.removeFirst()
            }
        }
        observe(upTo: first)
        var paused: [StreamColumn]?
        let pause = present.map { present in
            (
                place: present.place, at: present.reached,
                then: {
                    observe(upTo: present.place)
                    if present.place == letters?.place { book = recorder.letterBook }
                    paused = recorder.columns
                }
            )
        }
        index.replay(after: first, through: end, on: scratch, noting: recorder, pause: pause) { number in
            if number == letters?.place, number != present?.place { book = recorder.letterBook }
            observe(upTo: number)
        }
        // A place off the page (none the player shows): its book worked out on its own.
        if book == nil, let letters { book = letters.books.book(at: letters.place, in: index) }
        // A value the page draws after the place (the player's future) takes the letter the
        // session gives it when it comes, not one free on the page: the book at the page's end.
        let home = book.map { $0.letters.merging(recorder.letterBook.letters) { atPlace, _ in atPlace } }
        return (recorder, floor, home, paused)
    }
}

extension StreamPanel {
    /// The page with the lanes of what every operator on it read (a page holds several operators'
    /// parts, each drawn under its inputs, as the tour drew it: `mirror` under combineLatest's),
    /// in the rows the panel takes where an operator is in the slot: a late kind with no lane (a
    /// key's hint, which `?` lists) gives its row up first. A tour's lesson (`lanes`) is drawn in
    /// the tour's rows (``StreamPanel/tourRows``), its slot's and background's lanes where the
    /// lesson drew them, the late rows it kept, labelled as the tour labelled them: an idle row
    /// names its key alone, never what its kind hands (a lesson's answer).
    fileprivate func readingEveryOperator(asTheTourDrew lanes: TourLessonLanes?) -> StreamPanel {
        var panel = self
        if let lanes {
            panel.showsSlot = lanes.slot
            panel.showsBackground = lanes.background
            panel.keptLateKinds = lanes.lateRows
            panel.rowBudget = StreamPanel.tourRows
            panel.plainLabels = lanes.plainLabels
        }
        guard panel.showsSlot else { return panel }
        panel.inputsOfEveryOperator = true
        if lanes == nil { panel.rowBudget = StreamPanel.rows(slot: true) }
        return panel
    }
}

extension StreamColumn {
    /// The start column of a scratch session built at place 0, moved to the start on the time
    /// axis: the session stands where the next intent comes (``ReplayIndex/state(at:)``), so
    /// what the lanes were handed as they subscribed, the colours and what the slot passed on
    /// too, is noted at that intent's time; it was the start's.
    fileprivate mutating func moveToTheStart() {
        time = .start
        let start = { (time: SessionTime?) in time.map { _ in SessionTime.start } }
        (passedAt, ballColourAt, backgroundAt, failedAt) = (
            start(passedAt), start(ballColourAt), start(backgroundAt), start(failedAt)
        )
        slottedTimes = slottedTimes.map { _ in .start }
        for number in stagesPassed.indices {
            stagesPassed[number].times = stagesPassed[number].times.map { _ in .start }
            stagesPassed[number].at = start(stagesPassed[number].at)
            stagesPassed[number].completedAt = start(stagesPassed[number].completedAt)
            stagesPassed[number].failedAt = start(stagesPassed[number].failedAt)
        }
    }
}

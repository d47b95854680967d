import BallModel
import BallRendering
import BallReplay
import BallStreams
import TextFormats

// MARK: - The replay player

/// Travels in a recording: plays it forward, steps back and forth, jumps, scrubs, skips
/// intents and writes the edited log.
///
/// "At `n`" means the first `n` intents applied. A step forward sends the next intent through
/// the session, as the live program does; any other move builds a new session, its chain and
/// all, at the index's state for the new place. Either way the session shows what playing the
/// edited log forward to `n` shows, which the tests check. What the player puts on the screen
/// around the ball is ``view``; the program that runs it binds the screen to ``session``.
package final class TimeTravelPlayer {
    /// The recording.
    package let index: ReplayIndex
    /// The session at the current place (built anew wherever the player travels to other than
    /// one step forward).
    package private(set) var session: BallSession
    /// How many intents are applied.
    package private(set) var place = 0
    /// Of the stops after the place's intent (``stops(at:)``: a recorded tour's `o`, `u` and
    /// lessons begun there, and each timer of the chain that goes off before the next intent),
    /// how many are passed; nil: all, the place whole. Stepping stops after the intent, then after
    /// each.
    package private(set) var stop: Int?
    /// The timing, whether paused, and when the next intent is due.
    package private(set) var playback: PlaybackClock
    /// What the last move changed, in words (``ChangeLine``); nil before the first.
    package private(set) var change: ChangeLine?
    /// Whether the streams panel is open.
    package private(set) var streamsOpen = false
    /// How the panel lays out its columns (the screen's, which `T` changes): its page is of
    /// intents, or of spans of time around the place's time.
    package var panelAxis = PanelAxis()
    /// Counts the moves, pauses and speed changes: the next intent is planned again when it
    /// changes (``plan(from:)``).
    package private(set) var revision = 0
    /// Writes the recording as edited (``ReplayIndex/copyEdited(from:emit:)``) to a new file and
    /// returns its name (set by the command, which owns files); nil: `w` says it cannot write.
    package var writeEdited: ((ReplayIndex) throws -> String)?
    /// The skips as they were when the edited log was last written, and the file's name.
    private var written: (revision: Int, name: String)?
    /// How much of the file has been read, from 0 to 1 (nil: unknown).
    package var readProgress: (() -> Double?)?
    /// The terminal's size.
    package private(set) var terminal: ScreenSize

    /// How a recorded tour's lesson drew its lanes, by its marker's number and title (set by the
    /// program, which knows the tour's lessons; nil: not one of them).
    package var lessonLanes: (Int, String) -> TourLessonLanes? = { _, _ in nil }

    /// The late subscribers the user subscribed and cancelled here (beside those the recording
    /// holds), in the order of their places.
    private var userObservations: [StreamsPage.LateObservation] = []
    /// The session's letter book at each place, for the streams panel's pages.
    private let letterBooks = LetterBooks()
    /// The streams page last shown, which a step within it shows again.
    private let keptPage = KeptPage()
    /// A note for the status line (a file written, a skip refused), until the next move.
    private var message: String?
    private var timeline = TimelineCache()

    /// A player of `index` in a terminal of `terminal`, at `timing`; `paused` starts it paused.
    package init(
        index: ReplayIndex, terminal: ScreenSize, timing: ReplayTiming, paused: Bool,
        userObservationLimit: Int = TimeTravelPlayer.userObservationLimit
    ) {
        self.index = index
        self.userObservationLimit = userObservationLimit
        self.terminal = terminal
        playback = PlaybackClock(timing: timing, paused: paused)
        session = BallSession(start: index.state(at: 0))
        followRecordedPanel(at: 0)
    }

    /// Whether playback is paused.
    package var paused: Bool { playback.paused }

    // MARK: - Playing

    /// Plans the next intent from `now`: its recorded pause at the current speed (nothing while
    /// paused, at the end, or while the next intent has not been read yet).
    package func plan(from now: Duration) {
        let start = playedTo.flatMap { $0.place == place ? $0.time : nil } ?? index.time(at: place)
        // Paused, the time reached stays shown until playing goes on from it.
        if !paused { playedTo = nil }
        playback.plan(from: now, recorded: start, next: nextTime)
    }

    /// The recorded time playing had reached in its place when the speed changed or playback
    /// paused: shown while paused there, and played on from when planned again (the clock shown
    /// does not go back).
    private var playedTo: (place: Int, time: Double)?

    /// The recorded time of the next intent, if it has been read.
    private var nextTime: Double? { place < index.count ? index.time(at: place + 1) : nil }

    /// The run loop's clock as the player last heard it (a key, a frame): the recorded time shown
    /// runs with it while playing (``PlaybackClock/recorded(at:current:next:)``).
    package var now = Duration.zero

    /// The recorded time the status line shows: the place's, and while playing, the time played
    /// since, up to the next intent's.
    package var shownTime: Double {
        if paused, let playedTo, playedTo.place == place { return playedTo.time }
        return playback.recorded(at: now, current: placeTime, next: nextTime)
    }

    /// The recorded time the place shows, whole: its intent's; the last place's runs on to the
    /// last thing recorded after its intent (Completion's late subscriptions after `e`), and to
    /// the tour's quit after them (format 8), where the recording ends, as the exports end it;
    /// the time view's axis ends there too.
    private var placeTime: Double {
        let time = index.time(at: place)
        guard place == index.count, stop == nil else { return time }
        let last = index.observations(at: place).lazy.map(\.event.time).max().map { max(time, $0) } ?? time
        return index.reader.quitAfterCompletion.map { max(last, $0) } ?? last
    }

    /// Plays the next intent (its time has come) and plans the one after from its due time; at
    /// the end of a fully read file, pauses.
    package func playNext() {
        guard !paused else { return }
        if place < index.count {
            move(to: place + 1, how: .forward)
            playback.played(recorded: index.time(at: place), next: nextTime)
        }
        if place == index.count, index.isComplete {
            playback.setPaused(true)
            revision += 1
        }
    }

    /// The program was stopped for `duration` (Ctrl-Z): the next intent is due that much later.
    package func resumed(after duration: Duration) {
        playback.postpone(by: duration)
    }

    /// The terminal is now `size`.
    package func resized(to size: ScreenSize) {
        terminal = size
    }

    // MARK: - What the keys do

    /// Plays, or pauses; at the end of the recording, plays it again from the start. Paused
    /// before a timer of the chain came, the place stops there: the timer is a step away.
    package func togglePause() {
        if paused, place == index.count, index.isComplete {
            move(to: 0, how: .jump)
        }
        // Paused between two intents, the time stays where playing had reached.
        if !paused { playedTo = (place, shownTime) }
        playback.setPaused(!paused)
        if paused {
            let now = session.now
            stop = reached == nil ? nil : stops(at: place).firstIndex { $0.time > now }
            if stop == nil { finishPlace(place) }
        }
        revision += 1
    }

    /// When the chain's next timer at this place comes, on the run loop's clock, while playing:
    /// a timed operator lets a position through between two intents, as it did when recorded.
    package var timerDue: Duration? {
        guard let timer = session.nextTimer, let end = index.endTime(of: place), timer < end else { return nil }
        return playback.due(recorded: timer.seconds, after: index.time(at: place))
    }

    /// The chain's timer came: the session's clock moves on to it (past its stop, where the
    /// place was stopped before it).
    package func timerReached() {
        guard let timer = session.nextTimer else { return }
        session.advance(to: timer)
        if let stop {
            let stops = stops(at: place)
            if stop < stops.count, stops[stop].isTimer, stops[stop].time <= timer {
                self.stop = stop + 1 < stops.count ? stop + 1 : nil
            }
        }
        revision += 1
    }

    /// The session's clock moves on to the time of the intent after `place`: the place shows
    /// what the chain did until then.
    private func finishPlace(_ place: Int) {
        if let end = index.endTime(of: place) { session.reach(end) }
    }

    /// Goes `count` intents forward (back, when negative) and pauses; one step goes to the next
    /// (or previous) place, where a recorded `o` or `u` after an intent, and a lesson begun
    /// there, is a place of its own (``stop``): it changes what is drawn, the screen's colours,
    /// the tour's row, the lesson's lanes.
    package func step(by count: Int) {
        playback.setPaused(true)
        let stops = stops(at: place).count
        switch (count, stop) {
        case (1, let stop?): moveStop(to: stop + 1 < stops ? stop + 1 : nil, forward: true)
        case (-1, let stop?) where stop > 0: moveStop(to: stop - 1, forward: false)
        case (-1, 0?) where place == 0: break
        case (-1, nil) where stops > 0: moveStop(to: stops - 1, forward: false)
        default: move(to: place + count, how: count == 1 ? .forward : .jump)
        }
    }

    /// Goes to the start (intent 0), and pauses.
    package func jumpToStart() { jump(to: 0) }

    /// Goes to the end (the last intent read), and pauses.
    package func jumpToEnd() { jump(to: index.count) }

    /// Goes to the next change of the ball's colour, if there is one, and pauses.
    package func nextColourChange() {
        if let change = index.colourChange(after: place) { jump(to: change.intent) }
    }

    /// Goes to the previous change of the ball's colour, if there is one, and pauses.
    package func previousColourChange() {
        if let change = index.colourChange(before: place) { jump(to: change.intent) }
    }

    /// Goes to `target` and pauses there: every key that goes somewhere stops there, so that what
    /// it changed can be read (the change line shows while paused).
    private func jump(to target: Int) {
        playback.setPaused(true)
        move(to: target, how: .jump)
    }

    /// Plays twice as fast, or half as fast.
    package func changeSpeed(faster: Bool) {
        if !paused { playedTo = (place, shownTime) }
        playback.changeSpeed(faster: faster)
        revision += 1
    }

    /// A press or drag at `cell`: on the timeline, goes to the place its column stands for.
    package func scrub(at cell: Cell) {
        guard cell.row == timelineRow else { return }
        move(to: Timeline.place(atColumn: cell.column, width: frameSize.columns, count: index.count), how: .jump)
    }

    /// Opens or closes the streams panel.
    package func toggleStreams() { streamsOpen.toggle() }

    /// A late subscriber of `kind` subscribes at the current place, or is cancelled there if one
    /// is subscribed there (by the recording or a key); the message says which, what it was
    /// handed, and where to see it while the panel is closed.
    package func toggleLate(_ kind: LateSubscriber) {
        let live = lanes(width: StreamPanel.labelWidth + 4).last { $0.kind == kind }.map { lane in
            lane.start <= place && (lane.end.map { $0.column > place } ?? true)
        }
        let observation: Observation = live == true ? .unsubscribed(kind) : .subscribed(kind)
        guard keep(observation) else {
            message = "\(userObservationLimit) subscribes and cancels kept: this one is not"
            return
        }
        let lane = lanes(width: StreamPanel.labelWidth + 4).last { $0.kind == kind }
        var words = "\(StreamLane.late(kind).label) \(live == true ? "cancelled" : "subscribed") at #\(place)"
        if live != true, let lane, !lane.handedPositions.isEmpty {
            words += ": handed \(lane.handedPositions.map { "\($0.centre)" }.joined(separator: " · "))"
        }
        message = streamsOpen ? words : "\(words); s shows its lane"
    }

    /// Keeps `observation` at the current place, after every other there: each press is drawn
    /// in a column of its own after the place's intent, as the session draws it, so none is
    /// dropped (two that cancel out still drew a subscription and its end). False when the limit
    /// (``userObservationLimit``) are kept.
    private func keep(_ observation: Observation) -> Bool {
        guard userObservations.count < userObservationLimit else { return false }
        let slot = userObservations.firstIndex { $0.place > place } ?? userObservations.count
        userObservations.insert((place, observation, nil), at: slot)
        return true
    }

    /// How many subscribes and cancels the player keeps of the user's.
    package static let userObservationLimit = 4_096
    /// This player's limit (a test's is smaller).
    private let userObservationLimit: Int

    /// Every late subscription and cancel, the recording's and the user's, in the order of
    /// their places (the recording's first at a place: the user's are made at the place as it is
    /// shown, on the page of its lesson at the stop), with a recorded tour's `o` (the screen bound
    /// through a Publish copy of the chain, and back), whose lanes the page draws too, and its
    /// lessons' markers (the page holds the lesson shown only). Those of the place after the stop
    /// have not happened.
    private var lateObservations: [StreamsPage.LateObservation] {
        let cutoff = self.cutoff
        let recorded = index.observations.indices.compactMap { number -> StreamsPage.LateObservation? in
            let entry = index.observations[number]
            guard Self.applied(number, place: entry.place, at: place, cutoff: cutoff) else { return nil }
            switch entry.event.observation {
            case .subscribed, .unsubscribed, .screenThroughPublish, .lessonBegan:
                return (entry.place, entry.event.observation, SessionTime(seconds: entry.event.time))
            case .panelOpened, .panelClosed, .mapCopies: return nil
            }
        }
        guard !userObservations.isEmpty else { return recorded }
        var merged: [StreamsPage.LateObservation] = []
        merged.reserveCapacity(recorded.count + userObservations.count)
        var user = userObservations[...]
        for entry in recorded {
            while let next = user.first, next.place < entry.place {
                merged.append(next)
                user.removeFirst()
            }
            merged.append(entry)
        }
        return merged + user
    }

    /// The late lanes on the page that shows the place (at its stop) at `width`.
    private func lanes(width: Int) -> [LateLane] {
        StreamsPage.page(
            index: index, place: place, width: width, observations: lateObservations,
            through: cutoff == nil ? nil : place, lessons: lessonLanes
        ).lateLanes
    }

    /// Opens or closes the panel as the recording did after intent `place`, if it did there: among
    /// the observations there from `start` up to `end` (nil: from the first, to the last).
    private func followRecordedPanel(at place: Int, from start: Int? = nil, to end: Int? = nil) {
        let slice = index.observations(at: place)
        for entry in slice[(start ?? slice.startIndex)..<(end ?? slice.endIndex)] {
            switch entry.event.observation {
            case .panelOpened: streamsOpen = true
            case .panelClosed: streamsOpen = false
            default: break
            }
        }
    }

    /// Skips the current intent, or takes the skip back: everything after it is worked out again.
    package func toggleSkip() {
        guard place > 0 else {
            message = "at the start: step forward to an intent to skip it"
            return
        }
        guard index.canSkip(place) else {
            message = "a resize is the terminal's: it cannot be skipped"
            return
        }
        let skip = !index.skipped.contains(place)
        playback.setPaused(true)
        index.setSkipped(place, skip)
        move(to: place, how: .skip(skip))
    }

    /// Writes the edited log beside the recording; the status line says where, or why not.
    package func writeEditedLog() {
        guard let writeEdited else {
            message = "cannot write here"
            return
        }
        guard index.isComplete else {
            message = "still reading the recording: write when it is read"
            return
        }
        if let written, written.revision == index.revision {
            // Nothing changed since: another copy would only fill the disk (a held `w`).
            message = "already written as \(written.name.visibleInMessage)"
            return
        }
        do {
            let name = try writeEdited(index)
            written = (index.revision, name)
            message = "wrote \(name.visibleInMessage)"
        } catch {
            message = "not written: \(String(describing: error).withoutFinalStop.visibleInMessage)"
        }
    }

    // MARK: - Moving

    /// How the player got to a place, for the change line.
    enum Move {
        case forward, jump, skip(Bool)
    }

    /// Goes to `target` (kept within what has been read) and says what changed: a step forward,
    /// while paused, to the place's first stop where it has `o` or `u` after its intent.
    private func move(to target: Int, how: Move) {
        let target = min(max(0, target), index.count)
        let before = session.viewModel.current
        let screenBefore = coloursThroughPublish
        if case .forward = how, target == place + 1 {
            if !index.skipped.contains(target) {
                session.send(index.event(target).intent, at: index.sessionTime(of: target))
            }
            // The place shows what the chain did until the next intent (a timed operator's
            // timer) when its time comes: while playing, then; stepping, a step later (its stop),
            // as the live panel drew nothing of it at the intent.
            // (The state the session is at is the intent's: no fold from a checkpoint for its timers.)
            let atIntent = index.skipped.contains(target) ? nil : session.state
            if paused, !stops(at: target, atIntent: atIntent).contains(where: \.isTimer) { finishPlace(target) }
        } else {
            session = BallSession(start: index.state(at: target))
        }
        let from = place
        place = target
        stop = nil
        playedTo = nil
        if case .forward = how, target == from + 1 {
            let stops = paused ? stops(at: target) : []
            if !stops.isEmpty { stop = 0 }
            // Played forward, the panel opens and closes where the recording's did (up to the stop).
            followRecordedPanel(at: target, to: Self.observationStart(stops, from: 0))
        }
        message = nil
        // A step names its intent as the panel does; anything else, where it went.
        let words: String
        var shortWords: String?
        switch how {
        case .forward where target == from + 1:
            let glyph = Self.glyph(target, in: index)
            words =
                index.skipped.contains(target)
                ? "#\(target) \(glyph) skipped" : "#\(target) \(Marble.describe(index.event(target).intent))"
            shortWords = "#\(target) \(glyph)"
        case .forward, .jump: words = from == target ? "#\(target)" : "#\(from) → #\(target)"
        case .skip(true): words = "skip #\(target)"
        case .skip(false): words = "unskip #\(target)"
        }
        change = ChangeLine(
            words, short: shortWords, before: before, after: session.viewModel.current, screenBefore: screenBefore,
            screenAfter: coloursThroughPublish)
        revision += 1
    }

    /// Goes to stop `target` of the place (nil: the place whole), forward or back, and says what
    /// the `o`, `u` or timer passed changed: the screen's colours where it bound them, the tour's
    /// row, what the timer let through. A timer passed moves the session's clock on to it; back
    /// before one, the session is built again at the stop's time.
    private func moveStop(to target: Int?, forward: Bool) {
        let stops = stops(at: place)
        let passed = forward ? stop.map { stops[$0] } : target.map { stops[$0] }
        let screenBefore = coloursThroughPublish
        let before = session.viewModel.current
        if forward, let from = Self.observationStart(stops, from: stop) {
            followRecordedPanel(at: place, from: from, to: Self.observationStart(stops, from: target))
        }
        if forward, let passed, passed.isTimer { session.advance(to: passed.time) }
        if forward, target == nil { finishPlace(place) }
        if !forward, let target, stops.contains(where: \.isTimer) {
            let clock = stops[..<target].last(where: \.isTimer)?.time ?? index.sessionTime(of: place)
            session = BallSession(start: index.state(at: place, timersUntil: clock))
        }
        stop = target
        message = nil
        let said = passed.map { passed in
            passed.observation.map { Self.stopWords(index.observations[$0.named].event.observation) }
                ?? timerWords(at: passed.time)
        }
        let words = forward ? "#\(place) \(said?.words ?? "")" : "#\(place) before \(said?.short ?? "")"
        let backShort = passed?.isTimer == true ? said?.short ?? "" : String(said?.short.prefix(1) ?? "")
        let short = forward ? "#\(place) \(said?.short ?? "")" : "#\(place) before \(backShort)"
        change = ChangeLine(
            words, short: short, before: before, after: session.viewModel.current, screenBefore: screenBefore,
            screenAfter: coloursThroughPublish)
        revision += 1
    }

    /// What a timer of the chain at `time` is, in full and in short: `debounce's timer at 15.80 s`,
    /// `timer 15.80 s` (the status line's time is the intent's).
    private func timerWords(at time: SessionTime) -> (words: String, short: String) {
        let at = "\(time.seconds.decimals(2)) s"
        return ("\(session.state.slot.name)'s timer at \(at)", "timer \(at)")
    }

    /// What a stop's `o`, `u` or lesson did, in full and in short.
    private static func stopWords(_ observation: Observation) -> (words: String, short: String) {
        switch observation {
        case .lessonBegan(let number, Observation.closingTitle):
            ("\(Observation.closingTitle) after lesson \(number - 1): the tour's lessons ended", "Closing card")
        case .lessonBegan(let number, let title):
            ("Lesson \(number) · \(title) began: its lanes from here", "Lesson \(number)")
        case .screenThroughPublish(true):
            ("o: the screen bound through a Publish copy of the chain", "o: a Publish copy")
        case .screenThroughPublish(false):
            ("o: the screen bound back to the chain, the copy disposed of", "o: the chain")
        case .mapCopies(true): ("u: the copies of map subscribed", "u: map's copies")
        case .mapCopies(false): ("u: the copies of map cancelled", "u: map's copies cancelled")
        default: ("", "")
        }
    }

    /// A stop after a place's intent (``stop``): a recorded `o`, `u` or lesson begun, or a timer of
    /// the chain going off.
    private struct Stop {
        /// When it happened, on the session's clock.
        var time: SessionTime
        /// A recorded stop's (``observationStops(at:)``); nil: a timer's.
        var observation: (start: Int, named: Int)?

        /// Whether it is a timer's.
        var isTimer: Bool { observation == nil }
    }

    /// The stops after intent `place` (``stop``), in the order they happened: the recorded ones
    /// (``observationStops(at:)``), and each timer of the chain that goes off before the next
    /// intent (at one instant, the timer first: the live loop runs what is due before a key).
    /// Kept until the place, the skips or what was read change. `atIntent`: the state at the
    /// place's intent, where it is known.
    private func stops(at place: Int, atIntent: BallState? = nil) -> [Stop] {
        if let kept = stopsKept, kept.place == place, kept.revision == index.revision, kept.count == index.count,
            kept.observations == index.observations.count
        {
            return kept.stops
        }
        let recorded = observationStops(at: place).map {
            Stop(time: SessionTime(seconds: index.observations[$0.named].event.time), observation: $0)
        }
        var stops: [Stop] = []
        var timers = timers(at: place, atIntent: atIntent)[...]
        for stop in recorded {
            while let timer = timers.first, timer <= stop.time {
                stops.append(Stop(time: timer))
                timers.removeFirst()
            }
            stops.append(stop)
        }
        stops += timers.map { Stop(time: $0) }
        stopsKept = (place, index.revision, index.count, index.observations.count, stops)
        return stops
    }
    private var stopsKept: (place: Int, revision: Int, count: Int, observations: Int, stops: [Stop])?

    /// When the chain's timers go off after intent `place` and before the next (none at the start,
    /// after a skipped intent, or after the last: a recording's time ends with its last intent),
    /// from the state at its intent (`atIntent`, else worked out).
    private func timers(at place: Int, atIntent: BallState?) -> [SessionTime] {
        guard place > 0, !index.skipped.contains(place), let end = index.endTime(of: place) else { return [] }
        var state = atIntent ?? index.state(at: place, timersUntil: index.sessionTime(of: place))
        var timers: [SessionTime] = []
        while let due = state.nextTimer, due < end {
            timers.append(due)
            state = state.advanced(to: due)
        }
        return timers
    }

    /// The first of the recording's observations that has not happened at stop `stop` of `stops`:
    /// the next recorded stop's start (nil: none is left, or the place whole).
    private static func observationStart(_ stops: [Stop], from stop: Int?) -> Int? {
        guard let stop else { return nil }
        return stops[stop...].first { !$0.isTimer }?.observation?.start
    }

    /// Where the session's clock is at the place, where a timer of the chain is still to come
    /// before the next intent (the page draws what the live panel held then); nil: the place whole.
    package var reached: SessionTime? {
        guard let timer = session.nextTimer, let end = index.endTime(of: place), timer < end else { return nil }
        return session.now
    }

    /// The recorded stops after intent `place`, in order: each recorded `o` and `u`, and each
    /// lesson begun there but the recording's first, so that a lesson made of no intent (its
    /// question answered, a late key pressed) has a place to look at too. A stop's `start`: the
    /// first of the recording's observations that has not happened at it (a lesson's: the first
    /// of what the tour did as the lesson began, ``StreamsPage/beginning(of:in:)``); `named`: the
    /// `o`, `u` or lesson's marker the stop is before.
    private func observationStops(at place: Int) -> [(start: Int, named: Int)] {
        let slice = index.observations(at: place)
        var stops: [(start: Int, named: Int)] = []
        // Whether a lesson began before (looked for only where one begins here: a recording of play
        // has none).
        var lessonBefore: Bool?
        for number in slice.indices {
            switch index.observations[number].event.observation {
            case .screenThroughPublish, .mapCopies: stops.append((number, number))
            case .lessonBegan:
                let after =
                    lessonBefore
                    ?? index.observations[..<number].contains {
                        if case .lessonBegan = $0.event.observation { true } else { false }
                    }
                lessonBefore = true
                // A lesson begun by its own intent (the slot emptied) began with the place.
                guard after, !StreamsPage.beganAtIntent(number, in: index) else { continue }
                let start = StreamsPage.beginning(of: number, in: index)
                // The `o` and `u` the lesson's start turned off are the lesson's stop.
                stops.removeAll { $0.start >= start }
                stops.append((start, number))
            default: break
            }
        }
        return stops
    }

    /// The first of the recording's observations after the place's intent that has not happened at
    /// the stop (nil: the place whole, all have).
    private var cutoff: Int? {
        guard let stop else { return nil }
        let stops = stops(at: place)
        return stop < stops.count ? Self.observationStart(stops, from: stop) : nil
    }

    /// Whether the recording's observation `number`, made at `entryPlace`, has happened at `place`
    /// stopped at `cutoff` (those after later intents are drawn where they were, as the future).
    private static func applied(_ number: Int, place entryPlace: Int, at place: Int, cutoff: Int?) -> Bool {
        guard let cutoff, entryPlace == place else { return true }
        return number < cutoff
    }

    /// The intent's glyph, or `ø` when it is skipped.
    private static func glyph(_ number: Int, in index: ReplayIndex) -> Unicode.Scalar {
        index.skipped.contains(number) ? Glyph.skipped : Marble.glyph(of: index.event(number).intent)
    }

    // MARK: - What the player shows

    /// The status line's facts: `replay  intent 12/340  t 3.20 s  1×`.
    package var facts: String {
        var text = "\(paused ? "paused" : "replay")  intent \(place)/\(index.count)"
        if !index.isComplete {
            let percent = readProgress?().map { " \(Int(($0 * 100).rounded(.down)))%" } ?? ""
            text += "  reading\(percent)"
        } else if !index.isDerived {
            text += "  working out \(index.derived * 100 / max(1, index.count))%"
        }
        // A tour's lesson before the time, which goes first where the keys need the room; in
        // full on a row of its own where there is one.
        let layout = self.layout
        if !layout.hasTourRow, let tour = shortTourWords { text += "  \(tour)" }
        // Stopped after a timer of the chain, the time it went off; playing, the time played since.
        let timer = stop.flatMap { stop in stops(at: place)[..<stop].last(where: \.isTimer)?.time.seconds }
        text += "  t \(max(timer ?? 0, shownTime).decimals(2)) s  \(playback.speedText)"
        // The player's rows over the recording's bottom rows (the view follows the ball).
        let covered = layout.coveredRows
        if covered > 0 { text += "  \(covered) row\(covered == 1 ? "" : "s") hidden" }
        return text
    }

    /// What a recorded tour had on at the place and stop: its lesson, and `o` or `u` while on:
    /// `Lesson 5 · Why Behavior · o: the screen through Publish`, `Lesson 9 · share · u: map ran:
    /// shared 2, unshared 3, for 2 positions`. A lesson's marker recorded after intent `k` labels
    /// place `k` from its stop on (``stops(at:)``: before it, place `k` shows intent `k` in the
    /// lesson it was made in), and the places after. `o` and `u` pressed after intent `k` hold
    /// from place `k` on, which shows what happened until the next intent.
    package var tourWords: String? {
        let words = [lessonBegun?.tourWords, copiesWords].compactMap { $0 }
        return words.isEmpty ? nil : words.joined(separator: " · ")
    }

    /// What `o` or `u` showed at the place while on: `o: the screen through Publish`, `u: map ran:
    /// shared 2, unshared 3, for 2 positions`.
    private var copiesWords: String? {
        let copies = tourCopies
        var words: [String] = []
        if copies.colours != nil, let said = Observation.screenThroughPublish(true).tourWords { words.append(said) }
        if let counts = copies.counts { words.append("u: \(counts.words)") }
        return words.isEmpty ? nil : words.joined(separator: " · ")
    }

    /// What the rows under the recorded area say where they are free (the terminal is taller than
    /// the recording, or the panel is closed), each line's choices longest first: what the area
    /// is, and in a tour with its streams closed, what the tour had in the lanes' rows.
    private var areaWords: [[String]] {
        let area = session.state.position.screen
        guard isTour else {
            return [["▲ the recorded area, \(area): the player's rows are at the bottom", "▲ recorded at \(area)"]]
        }
        // The area as recorded (the header's size, the size every position on its lanes and in its
        // trace is on): its last row, the one a status line takes in play, was the lanes' first in
        // the tour, and is where this line goes.
        var lines = [
            [
                "▲ the tour's ball area as recorded, \(area), this its last row (the lanes' first in the tour)",
                "▲ the tour's ball area as recorded, \(area), this its last row",
                "▲ the tour's ball area, \(area)",
            ]
        ]
        if !streamsOpen {
            lines.append([
                "The streams were closed here in the tour: s opens them (a lane for each stream).",
                "The streams were closed here in the tour: s opens them.", "streams closed: s opens them",
            ])
        }
        return lines
    }

    /// The marker of the lesson shown at the place and stop, in a recorded tour: the last begun
    /// by then.
    private var lessonBegun: Observation? {
        guard isTour else { return nil }
        let cutoff = self.cutoff
        let through = index.observations(at: place).endIndex
        for number in (0..<through).reversed() {
            let entry = index.observations[number]
            guard case .lessonBegan = entry.event.observation,
                Self.applied(number, place: entry.place, at: place, cutoff: cutoff)
            else { continue }
            return entry.event.observation
        }
        return nil
    }

    /// The number and title of the lesson shown at the place and stop, in a recorded tour.
    package var tourLesson: (number: Int, title: String)? {
        guard case .lessonBegan(let number, let title)? = lessonBegun else { return nil }
        return (number, title)
    }

    /// The status line's short word for the tour where it has no row of its own: `Lesson 9`.
    private var shortTourWords: String? { lessonBegun?.shortTourWords }

    /// Whether the recording is a tour's (it holds a lesson's marker).
    private var isTour: Bool {
        if let known = tourKnown, known.observations == index.observations.count { return known.isTour }
        let isTour = index.observations.contains { if case .lessonBegan = $0.event.observation { true } else { false } }
        tourKnown = (index.observations.count, isTour)
        return isTour
    }
    private var tourKnown: (observations: Int, isTour: Bool)?

    /// The place after whose intent a recorded tour's `o` (``Observation/screenThroughPublish(_:)``)
    /// or `u` (``Observation/mapCopies(_:)``) was turned on, while it is on at the place and stop
    /// (its last `o` or `u` by then turned it on).
    private func turnedOn(_ marker: (Observation) -> Bool?) -> Int? {
        let cutoff = self.cutoff
        let through = index.observations(at: place).endIndex
        for number in (0..<through).reversed() {
            let entry = index.observations[number]
            guard Self.applied(number, place: entry.place, at: place, cutoff: cutoff),
                let on = marker(entry.event.observation)
            else { continue }
            return on ? entry.place : nil
        }
        return nil
    }

    /// The positions the position subject published after intent `start`, up to the place.
    private func positionsPublished(after start: Int) -> [BallPosition] {
        StreamsPage.positionsPublished(in: index, after: start, through: place)
    }

    /// What a recorded tour's `o` and `u` showed at the place, worked out again with the same
    /// operators (``PublishCopy``, ``MapRuns``): the Publish copy's colours, the copies of `map`'s
    /// counts; nil where off. Kept until the place or the skips change.
    private var tourCopies: (colours: ScreenColours?, counts: MapCounts?) {
        if let cached = copiesCache, cached.place == place, cached.stop == stop, cached.revision == index.revision,
            cached.observations == index.observations.count
        {
            return cached.copies
        }
        let screen = turnedOn { if case .screenThroughPublish(let on) = $0 { on } else { nil } }
        let copies = turnedOn { if case .mapCopies(let on) = $0 { on } else { nil } }
        let result = (
            colours: screen.map { PublishCopy.colours(after: positionsPublished(after: $0)) },
            counts: copies.map {
                MapRuns.counts(from: index.state(at: $0).position, then: positionsPublished(after: $0))
            }
        )
        copiesCache = (place, stop, index.revision, index.observations.count, result)
        return result
    }
    private var copiesCache:
        (place: Int, stop: Int?, revision: Int, observations: Int, copies: (ScreenColours?, MapCounts?))?

    /// The colours a recorded tour's screen showed at the place while bound through a Publish
    /// copy of the chain (`o`); nil: bound to the chain itself.
    package var coloursThroughPublish: ScreenColours? { tourCopies.colours }

    /// The frame row of the timeline now (nil: no room for it).
    package var timelineRow: Int? { layout.timelineRow(in: frameSize) }

    /// The frame's size: the terminal's, kept within the largest area there is.
    private var frameSize: ScreenSize {
        ScreenSize(
            columns: min(terminal.columns, ScreenSize.largest.columns),
            rows: min(terminal.rows, ScreenSize.largest.rows))
    }

    /// Where the rows go in the terminal now.
    package var layout: PlayerLayout {
        PlayerLayout(
            terminal: terminal, area: session.state.position.screen, streamsOpen: streamsOpen,
            showsChange: paused && (change != nil || message != nil), slot: index.buildsPipes, tour: isTour)
    }

    /// What the player puts on the screen around the ball: its rows (a message or the change
    /// line, the timeline), the status line's facts and keys, a notice where a message has no
    /// row, and the streams panel's page when it is open.
    package var view: PlayerView {
        let width = frameSize.columns
        let layout = self.layout
        var rows: [[LaneCell]] = []
        var notice: String?
        // A message (a file written, a skip refused) before what the last move changed; where
        // there is no row for them, a message goes on the status line and the change is left
        // out. The row is kept while there is room, empty before the first move, so that the
        // status line stays where it is.
        // At the end of what was read, when reading stopped at a bad line, the row says why.
        let stopped = index.readingStopped.flatMap { place == index.count ? $0.description : nil }
        var header: [[LaneCell]] = []
        if layout.hasTourRow {
            // In full where it fits; else the lesson's number with `o` or `u`, else the lesson alone.
            let copies = copiesWords
            let numbered: String = [shortTourWords, copies].compactMap { $0 }.joined(separator: " · ")
            let choices: [String] = [tourWords ?? "", numbered, shortTourWords ?? ""]
            let longest = String.first(of: choices, fittingWidth: width - 1)
            header.append(LaneCell.text(" " + longest, width: width))
        }
        let underArea = areaWords.map {
            LaneCell.text(" " + String.first(of: $0, fittingWidth: width - 1), width: width, dim: true)
        }
        if layout.hasChangeRow {
            let line = message ?? stopped ?? change?.fitted(toWidth: width - 1)
            rows.append(LaneCell.text(line.map { " " + $0 } ?? "", width: width))
        } else if let message {
            notice = message
        }
        if layout.hasTimeline { rows.append(timeline.cells(index: index, width: width, place: place)) }
        if let wanted = layout.panelWantsRows { notice = "streams need \(wanted) more rows" }
        if notice == nil, let stopped = index.readingStopped {
            notice = "stopped reading at line \(stopped.line ?? 0)"
        }
        let panel = layout.panelFits.map { fits in
            // Stopped before an `o` or `u` of the place, the page ends with it: what comes after
            // the place is what that `o` or `u` began.
            var page = StreamsPage.panel(
                index: index, place: place, width: width, observations: lateObservations, axis: panelAxis,
                through: cutoff == nil ? nil : place, books: letterBooks, lessons: lessonLanes,
                kept: keptPage, reached: reached)
            page.fits = fits
            page.missingRows = layout.panelMissingRows
            return page
        }
        return PlayerView(
            rows: PlayerRows(
                terminal: frameSize, facts: facts, rows: rows, header: header, underArea: underArea,
                shortfall: layout.shortfall),
            keys: paused ? .replayPaused : .replay, notice: notice, panel: panel)
    }
}

/// What the replay player puts on the screen around the ball.
package struct PlayerView: Hashable, Sendable {
    /// Its rows, the status line's facts, and a shortfall when the terminal is too small.
    package var rows: PlayerRows
    /// What the status line says about the keys.
    package var keys: StatusKeys
    /// A notice for the status line, where a message has no row of its own.
    package var notice: String?
    /// The streams panel's page around the place (with whether it fits); nil: closed.
    package var panel: StreamPanel?
}

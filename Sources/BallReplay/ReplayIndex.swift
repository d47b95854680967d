import BallModel
import BallStreams
import ColourCore

// MARK: - Colour changes

/// A place where the ball's colour changed: the intent (from 1) after which it has `colour`.
package struct ColourChange: Hashable, Sendable {
    /// The intent's number, kept in 32 bits: 8 bytes a change, as a random drag changes colour
    /// often (an index of four billion intents would need 64 GB for its log first).
    private var number: UInt32
    /// The ball's colour from there on.
    package var colour: FlatColour

    /// The intent's number, from 1.
    package var intent: Int { Int(number) }

    /// A change to `colour` after intent `intent`.
    package init(intent: Int, colour: FlatColour) {
        number = UInt32(clamping: intent)
        self.colour = colour
    }
}

// MARK: - The index

/// A recording held for travelling in it: its intents packed small, the state every
/// ``checkpointInterval`` intents, and where the ball's colour changes. Any point is the
/// nearest checkpoint before it with fewer than ``checkpointInterval`` intents folded in by
/// ``reduce(_:_:)``, the reducer the session uses, each at its time (``BallState/advanced(to:)``
/// first), and the clock moved on to the next intent's time.
///
/// Intents are numbered from 1; "at `n`" means the first `n` applied (0: the start). An intent
/// can be skipped: everything after it is worked out again without it, and the edited log
/// (``copyEdited(from:emit:)``) leaves it out. The index reads its file a part at a time
/// (``read(atMost:)``), so the part already read can be played while the rest is read.
package final class ReplayIndex {
    /// How many intents lie between two checkpoints.
    package static let checkpointInterval = 1_024

    /// The recording's header.
    package let header: ReplayHeader
    /// The reader the intents come from (its file name, its warnings).
    package let reader: ReplayReader
    /// Whether the file has been read as far as it goes: to its end, or to a line the reader
    /// refused (``readingStopped``).
    package private(set) var isComplete = false
    /// The line the reader refused, if reading stopped before the end of the file: everything
    /// before it stays to play, travel in and write.
    package private(set) var readingStopped: ReplayError?
    /// The skipped intents' numbers.
    package private(set) var skipped: Set<Int> = []
    /// Counts the skips and unskips: what was worked out from the index before is out of date
    /// when it changed.
    package private(set) var revision = 0
    /// Where the ball's colour changes, in order.
    package private(set) var colourChanges: [ColourChange] = []
    /// Whether the recording puts an operator in the chain's slot (in what has been read; `none`
    /// is no operator): the streams panel then draws the slot's lane.
    package private(set) var buildsPipes = false
    /// The largest terminal the recording is replayed on (its header's, or a later resize's).
    package private(set) var largestTerminal: ScreenSize

    /// The observations recorded beside the intents (late subscribers, the panel), each with
    /// its place: how many intents came before it.
    package private(set) var observations: [(place: Int, event: ObservationEvent)] = []

    private var events: [PackedEvent] = []
    /// `checkpoints[k]`: the state at `k × checkpointInterval`.
    private var checkpoints: [BallState]
    /// How many intents the checkpoints and colour changes are worked out for: all read, but
    /// after a skip, while the intents after it are worked out again a part at a time
    /// (``deriveMore(atMost:)``).
    package private(set) var derived = 0
    /// The state at ``derived``, where working out goes on.
    private var last: BallState

    /// Reads `reader`'s header and nothing else yet.
    package init(reader: ReplayReader) throws {
        self.reader = reader
        header = try reader.readHeader()
        largestTerminal = header.terminal
        last = .start(on: header.terminal)
        checkpoints = [last]
        reader.observed = { [unowned self] in observations.append((events.count, $0)) }
    }

    /// How many intents have been read.
    package var count: Int { events.count }

    /// The observations recorded at `place` (after intent `place`, before the next), in order.
    package func observations(at place: Int) -> ArraySlice<(place: Int, event: ObservationEvent)> {
        var (low, high) = (0, observations.count)
        while low < high {
            let middle = (low + high) / 2
            if observations[middle].place < place { low = middle + 1 } else { high = middle }
        }
        var end = low
        while end < observations.count, observations[end].place == place { end += 1 }
        return observations[low..<end]
    }

    /// Reads up to `limit` more intents; false once the file is read as far as it goes. A line
    /// the reader refuses after at least one intent stops reading there (``readingStopped``); one
    /// before any intent is thrown, as there is nothing to keep.
    @discardableResult
    package func read(atMost limit: Int) throws -> Bool {
        guard !isComplete else { return false }
        for _ in 0..<limit {
            let next: ReplayEvent?
            do {
                next = try reader.next()
            } catch let error as ReplayError where count > 0 {
                readingStopped = error
                isComplete = true
                return false
            }
            guard let event = next else {
                isComplete = true
                return false
            }
            events.append(PackedEvent(event))
            if case .operatorChosen(let chosen) = event.intent, chosen != .none { buildsPipes = true }
            if case .resized(let size) = event.intent {
                largestTerminal = ScreenSize(
                    columns: max(largestTerminal.columns, size.columns), rows: max(largestTerminal.rows, size.rows))
            }
            // Worked out as read, unless a skip's tail is still being worked out before it.
            if derived == events.count - 1 { advance(to: events.count) }
        }
        return true
    }

    /// Whether everything read is worked out.
    package var isDerived: Bool { derived == count }

    /// Works out up to `limit` more intents after a skip; false once all read are worked out.
    @discardableResult
    package func deriveMore(atMost limit: Int) -> Bool {
        let end = min(count, derived + max(0, limit))
        while derived < end { advance(to: derived + 1) }
        return derived < count
    }

    /// Works out at least the first `n` intents.
    private func derive(through n: Int) {
        if n > derived { deriveMore(atMost: n - derived) }
    }

    /// Reads the whole file.
    package func readAll() throws {
        while try read(atMost: 65_536) {}
    }

    /// The event numbered `number` (from 1).
    package func event(_ number: Int) -> ReplayEvent { events[number - 1].event }

    /// The recording's time at `n` (0 at the start).
    package func time(at n: Int) -> Double { n == 0 ? 0 : events[n - 1].time }

    /// The state at `n` (0...``count``): the checkpoint before it, with the intents after it
    /// folded in.
    package func state(at n: Int) -> BallState {
        state(at: n, timersUntil: nil)
    }

    /// The state at `n`, with the chain's timers run until `time` (one due at `time` goes off),
    /// a time before the next intent's: the player's stop at a timer of the place (nil: until the
    /// next intent came, ``state(at:)``; the intent's own time: none after the intent).
    package func state(at n: Int, timersUntil time: SessionTime?) -> BallState {
        let n = min(max(0, n), count)
        derive(through: n / Self.checkpointInterval * Self.checkpointInterval)
        let checkpoint = n / Self.checkpointInterval
        var state = checkpoints[checkpoint]
        var number = checkpoint * Self.checkpointInterval
        while number < n {
            number += 1
            if !skipped.contains(number) { state = folded(state, number) }
        }
        if let time { return state.advanced(to: time) }
        // What the screen showed at `n`: until the next intent came, the chain's timers went on
        // (one due at its instant goes off after it).
        return endTime(of: n).map { state.reached($0) } ?? state
    }

    /// Intent `number` folded into `state` at its time: the clock reaches it, then the reducer,
    /// then a timer due at that instant.
    private func folded(_ state: BallState, _ number: Int) -> BallState {
        state.after(events[number - 1].intent, at: sessionTime(of: number))
    }

    /// The time of intent `number` on the session's clock.
    package func sessionTime(of number: Int) -> SessionTime { SessionTime(seconds: events[number - 1].time) }

    /// The time on the session's clock until which place `n` is shown: the next intent's that is
    /// not skipped (the edited log's next); nil after the last (a recording's time ends with its
    /// last intent).
    package func endTime(of n: Int) -> SessionTime? {
        var next = max(0, n) + 1
        while next <= count, skipped.contains(next) { next += 1 }
        return next <= count ? sessionTime(of: next) : nil
    }

    /// The last `count` positions the position subject published up to `n` (oldest first; at
    /// most `count`): the start's, then each that differs from the one before. What a Replay
    /// subject fed from the start holds at `n`.
    package func positions(before n: Int, count: Int) -> [BallPosition] {
        let n = min(max(0, n), self.count)
        var window = 64
        while true {
            let from = max(0, n - window)
            var state = state(at: from)
            var published = [state.position]
            var number = from
            while number < n {
                number += 1
                guard !skipped.contains(number) else { continue }
                let next = folded(state, number)
                if next.position != state.position { published.append(next.position) }
                state = next
            }
            // The position at `from` was published at or before it: the list is whole from it.
            if published.count >= count || from == 0 { return Array(published.suffix(count)) }
            window *= 4
        }
    }

    // MARK: - Colour changes

    /// The first colour change after `n`, if any (working out what a skip left to work out, as far
    /// as the next change).
    package func colourChange(after n: Int) -> ColourChange? {
        derive(through: n)
        var slot = firstChange(after: n)
        while slot == colourChanges.count, deriveMore(atMost: Self.checkpointInterval) { slot = firstChange(after: n) }
        return slot < colourChanges.count ? colourChanges[slot] : nil
    }

    /// The last colour change before `n`, if any.
    package func colourChange(before n: Int) -> ColourChange? {
        derive(through: n - 1)
        let slot = firstChange(after: n - 1)
        return slot > 0 ? colourChanges[slot - 1] : nil
    }

    /// The position in ``colourChanges`` of the first change after intent `n`.
    private func firstChange(after n: Int) -> Int {
        var low = 0
        var high = colourChanges.count
        while low < high {
            let middle = (low + high) / 2
            if colourChanges[middle].intent <= n { low = middle + 1 } else { high = middle }
        }
        return low
    }

    // MARK: - Skipping

    /// Whether intent `number` can be skipped: a resize cannot (it is the terminal's, not the
    /// user's, and the cells after it are checked against it), nor a change of the slot's pipe that
    /// a stage added or taken out after it builds on (before the next pipe chosen whole): the
    /// stage would not fit, or not be there.
    package func canSkip(_ number: Int) -> Bool {
        guard number >= 1, number <= count else { return false }
        let intent = events[number - 1].intent
        if case .resized = intent { return false }
        guard intent.buildsPipe else { return true }
        for later in events[number...] {
            switch later.intent {
            case .operatorChosen: return true
            case .stageAdded, .stageRemoved: return false
            default: continue
            }
        }
        return true
    }

    /// Skips intent `number` (or takes it back, `skip` false). Everything after it is to be worked
    /// out again: from the checkpoint before it, a part at a time (``deriveMore(atMost:)``, which
    /// the player runs between keys), or as far as a question needs (``state(at:)``). So a skip
    /// costs the same however long the recording, and a key held down never freezes the player.
    package func setSkipped(_ number: Int, _ skip: Bool) {
        guard canSkip(number), skipped.contains(number) != skip else { return }
        if skip { skipped.insert(number) } else { skipped.remove(number) }
        revision += 1
        // The checkpoint before the intent holds; everything from it on is out of date.
        let checkpoint = min((number - 1) / Self.checkpointInterval, derived / Self.checkpointInterval)
        checkpoints.removeSubrange((checkpoint + 1)...)
        let start = checkpoint * Self.checkpointInterval
        colourChanges.removeSubrange(firstChange(after: start)...)
        last = checkpoints[checkpoint]
        derived = start
    }

    /// Writes the edited recording by copying `original`, a reader of the same file from its
    /// start: its header line as it is (every field kept), then each intent's line as it is (its
    /// time as written), but the skipped ones'. `emit` gets each line's bytes, without a newline.
    /// Throws when the file no longer holds the intents read (it changed since).
    package func copyEdited(from original: ReplayReader, emit: ([UInt8]) throws -> Void) throws {
        original.keepsLines = true
        _ = try original.readHeader()
        try emit(original.lastLine)
        // The observations (late subscribers, the panel) are kept as they are, between the
        // intents they came between.
        try withoutActuallyEscaping(emit) { emit in
            original.observed = { [unowned original] _ in try emit(original.lastLine) }
            defer { original.observed = nil }
            for number in stride(from: 1, through: count, by: 1) {
                guard let event = try original.next(), event == self.event(number) else {
                    throw ReplayError(
                        file: original.file, line: nil,
                        problem: "changed since it was read (intent \(number) is not the one read): nothing written")
                }
                if !skipped.contains(number) { try emit(original.lastLine) }
            }
            // Observations after the last intent (after a quit too: a tour's late subscribers).
            if readingStopped == nil {
                _ = try original.next()
                // The tour's quit after `completed`, its last line, as it is.
                if original.quitAfterCompletion != nil { try emit(original.lastLine) }
            }
        }
    }

    /// Folds intent `number` (the one after ``derived``) into ``last``, noting a colour change
    /// and a checkpoint.
    private func advance(to number: Int) {
        derived = number
        guard !skipped.contains(number) else {
            if number % Self.checkpointInterval == 0 { checkpoints.append(last) }
            return
        }
        // A timed operator's colour change while waiting for this intent belongs to the place before.
        let waited = last.reached(sessionTime(of: number))
        noteColour(waited.ballColour, after: number - 1)
        last = waited.after(events[number - 1].intent, at: sessionTime(of: number))
        noteColour(last.ballColour, after: number)
        if number % Self.checkpointInterval == 0 { checkpoints.append(last) }
    }

    /// Notes that the ball's colour is `colour` after intent `number`: a change when it differs
    /// from the last (one change a place: a second at the same place replaces the first).
    private func noteColour(_ colour: FlatColour, after number: Int) {
        guard colour != (colourChanges.last?.colour ?? checkpoints[0].ballColour) else { return }
        if let latest = colourChanges.last, latest.intent == number {
            colourChanges.removeLast()
            if colour == (colourChanges.last?.colour ?? checkpoints[0].ballColour) { return }
        }
        colourChanges.append(ColourChange(intent: number, colour: colour))
    }
}

// MARK: - Packed events

/// One event in 16 bytes: its time, a kind and two small numbers (cells, sizes and distances
/// are at most 1000, see ``ReplayFormat``).
private struct PackedEvent {
    var time: Double
    var first: UInt16
    var second: UInt16
    var kind: UInt8

    init(_ event: ReplayEvent) {
        time = event.time
        switch event.intent {
        case .pressed(let cell): (kind, first, second) = (0, UInt16(cell.column), UInt16(cell.row))
        case .dragged(let cell): (kind, first, second) = (1, UInt16(cell.column), UInt16(cell.row))
        case .released(let cell): (kind, first, second) = (2, UInt16(cell.column), UInt16(cell.row))
        case .arrowPressed(let direction, let distance):
            let slot = Direction.allCases.firstIndex(of: direction)!
            (kind, first, second) = (3, UInt16(slot), UInt16(distance))
        case .recentred: (kind, first, second) = (4, 0, 0)
        case .resized(let size): (kind, first, second) = (5, UInt16(size.columns), UInt16(size.rows))
        case .quitRequested: (kind, first, second) = (6, 0, 0)
        case .operatorChosen(let chosen):
            // Each stage's place in the list, from 1, five bits a stage, the first lowest.
            // (A timed stage's interval in `second`: its place in the three.)
            let stages = chosen.stages.reversed().reduce(0) { packed, stage in
                packed << 5 | (SlotOperator.allCases.firstIndex { $0.name == stage.name }! + 1)
            }
            (kind, first, second) = (7, UInt16(stages), Self.packed(chosen.timing))
        case .stageAdded(let stage):
            let place = SlotOperator.allCases.firstIndex { $0.name == stage.name }!
            (kind, first, second) = (10, UInt16(place), Self.packed(stage.timing))
        case .stageRemoved: (kind, first, second) = (11, 0, 0)
        case .mirrorFlipped: (kind, first, second) = (8, 0, 0)
        case .completionRequested: (kind, first, second) = (9, 0, 0)
        }
    }

    /// A timed stage's interval as `second` holds it: its place in ``SlotInterval/allCases``
    /// (the usual where there is none).
    static func packed(_ timing: SlotInterval?) -> UInt16 {
        UInt16(SlotInterval.allCases.firstIndex(of: timing ?? .usual)!)
    }

    var intent: Intent {
        let cell = Cell(column: Int(first), row: Int(second))
        let interval = SlotInterval.allCases[min(Int(second), SlotInterval.allCases.count - 1)]
        switch kind {
        case 0: return .pressed(at: cell)
        case 1: return .dragged(to: cell)
        case 2: return .released(at: cell)
        case 3: return .arrowPressed(Direction.allCases[Int(first)], distance: Int(second))
        case 4: return .recentred
        case 5: return .resized(ScreenSize(columns: Int(first), rows: Int(second)))
        case 7:
            let stages = stride(from: 0, to: 15, by: 5).map { Int(first) >> $0 & 31 }.filter { $0 > 0 }
            return .operatorChosen(SlotPipe(stages.map { SlotOperator.allCases[$0 - 1].waiting(interval) }))
        case 10: return .stageAdded(SlotOperator.allCases[Int(first)].waiting(interval))
        case 11: return .stageRemoved
        case 8: return .mirrorFlipped
        case 9: return .completionRequested
        default: return .quitRequested
        }
    }

    var event: ReplayEvent { ReplayEvent(time: time, intent: intent) }
}

import BallModel
import BallReplay
import BallStreams
import ColourCore
import Platform
import TextFormats

// MARK: - Marbles in the syntax of Rx marble tests

/// The marble-test syntax a lane is written in.
package enum MarbleSyntax: String, Sendable, CaseIterable {
    /// RxJS's `TestScheduler` (`expectObservable(…).toBe(marbles, values)`): a group is `(ab)`.
    case rxjs
    /// RxPY's `reactivex.observable.marbles` (`parse`, `cold`, `hot`): a group is `(a,b)`.
    case rxpy

    /// How many frames one intent takes: room for the longest column before the last, the
    /// three values a late Replay(3) subscriber is handed at once (`(abc)`, `(a,b,c)`), so every
    /// intent starts on its own frame (a group takes a frame a character).
    package var framesPerIntent: Int {
        switch self {
        case .rxjs: 2 + LateSubscriber.replayBufferSize
        case .rxpy: 1 + 2 * LateSubscriber.replayBufferSize
        }
    }
}

/// Where a lane's events go: a frame per intent, or a frame per span of the session's clock.
package enum MarbleFraming: Hashable, Sendable {
    /// Intent `n` at frame `n × framesPerIntent` (0: the start).
    case perIntent
    /// A frame per `microseconds` of the session's clock: an event at time `t` in frame
    /// `⌊t / microseconds⌋`, whatever intent it came with.
    case time(microseconds: Int64)

    /// The longest frame `--frame` takes: an hour.
    package static let longest: Int64 = 3_600_000_000

    /// The framing `--frame` names: a number and its unit, `us` (or `µs`), `ms` or `s` (`1ms`,
    /// `10ms`, `250us`, `0.5s`), a whole number of microseconds from 1 µs to an hour; nil for
    /// anything else.
    package init?(duration text: String) {
        let units: [(String, Double)] = [("us", 1), ("µs", 1), ("ms", 1_000), ("s", 1_000_000)]
        guard let (unit, scale) = units.first(where: { text.hasSuffix($0.0) }) else { return nil }
        let number = text.dropLast(unit.count)
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            let value = Double(number)
        else { return nil }
        let microseconds = (value * scale).rounded()
        guard abs(value * scale - microseconds) < 1e-6, microseconds >= 1, microseconds <= Double(Self.longest)
        else { return nil }
        self = .time(microseconds: Int64(microseconds))
    }

    /// The sentence that refuses a `--frame` value that is not a duration.
    package static func refusal(_ text: String) -> String {
        "--frame must be a length of time with its unit, from 1us to 3600s, such as 1ms, 10ms, 100ms, 250us or 0.5s; got \(text.isEmpty ? "nothing" : text)."
    }

    /// The frame length in milliseconds, as a lane's JSON writes it: `1`, `0.25`.
    var milliseconds: String {
        guard case .time(let microseconds) = self else { return "null" }
        let whole = microseconds / 1_000
        let part = microseconds % 1_000
        guard part > 0 else { return String(whole) }
        var digits = String(part)
        digits = String(repeating: "0", count: 3 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)"
    }
}

/// A replay's lanes (what `--marbles` draws) as the expected side of marble tests: one JSON
/// object per lane and line, `{"lane":"position","syntax":"rxjs","framesPerIntent":5,
/// "marbles":"a----b----…","values":{"a":{"cell":[40,11],"screen":[80,24]},…}}`.
///
/// With a frame per intent (``MarbleFraming/perIntent``), intent `n` (0: the start, where
/// each lane is handed its first value) begins at frame `n × framesPerIntent`, and the lane
/// says `"framesPerIntent":5`; what a timer passed on after the intent (`debounce`'s quiet,
/// `throttle`'s window) is in the intent's last frame, `n × framesPerIntent + 4` (`+ 6` in
/// RxPY's syntax), never in the frame of the input before it. On a time axis (``MarbleFraming/time(microseconds:)``, `--frame
/// 1ms`) every event is in the frame of its own time on the session's clock (a timer's output
/// at the time it went off), and the lane says its frame's length, `"frameMs":1`: a marble
/// test of the operators, which RxPY's and RxJS's test schedulers run at those frames. RxJS's
/// lanes then write a quiet stretch of ten frames or more in its time-progression form,
/// ` 299ms ` (RxJS counts a frame a virtual millisecond); RxPY has none, and writes a `-` a
/// frame. A value written is a frame, a group `(…)` a frame a character: two events of one lane
/// closer than that are refused, with the way out (a shorter frame).
///
/// `-` is a frame with nothing, a letter a value (each lane's letters mapped to its values: an
/// intent as the replay file writes it, without its time; a position,
/// `{"cell":[column,row],"screen":[columns,rows]}`, as the position subject holds it (a resize
/// publishes one even where the ball stays); a colour's name; `true` or `false`), `|` the
/// completion a quit sends, a group `(…)` values at one frame. The main lanes are written as
/// their subscriptions see them from the start, so they have no `^` and no `!`; the slot's,
/// `slotted`, is always written (with nothing in the slot it repeats the position's). After
/// them, the inputs an operator in the slot may read (``SlotInputs``): `mirror` and `grabbed`
/// (subjects that hold a value: `false` at the start), `mouse` and `keys` (each new position
/// the mouse or the keys made).
///
/// Then each subscription of a stage of a pipe of several (`stage1`, `stage2`: a pipe built
/// subscribes its stages anew, `retry` the stages before it), in the late subscriptions' form
/// below, named by its operator and code: what the stage passed on, `|` where it completed, `#`
/// where it threw or an error came through it, `!` in its subscription where it completed,
/// failed or was cancelled (a pipe built, a stage after it failed). A lane is one stream: one
/// subscription, never two.
///
/// Then each inner subscription `flatMap` or `flatMapLatest` made (`inner 1`, `inner 2`: a
/// press each, as the panel names them), in the late subscriptions' form below: what it
/// received from the position, `|` where the position completed, and its subscription and
/// unsubscription (`flatMapLatest`'s release, a pipe built) as frames and in RxJS's
/// subscription marbles (RxPY's marbles have no mark for an unsubscription).
///
/// Then each late subscription the recording holds (in the order they ended, those that ended in
/// one column in the order they subscribed; then those still
/// subscribed at its end), with what it received at the frames it received it, and its
/// subscription as RxJS writes one (`expectObservable(source, subscription).toBe(marbles,
/// values)`): `"subscription":"----------^---------!"` (`(^!)` in one frame), and as frames,
/// `"subscribedFrame":10,"unsubscribedFrame":20` (null: still subscribed at the recording's end;
/// a completion ends a subscription as a cancel does, as RxJS's log has it). A late subscriber
/// subscribes after its column's intent: a Behavior subject hands it the value of that frame,
/// a Replay(3) subject the last three as a group.
///
/// A recorded tour's lessons are listed on the intents lane, outside its marbles:
/// `"lessons":[{"frame":35,"number":4,"title":"Publish","label":"Lesson 4 · Publish"}]`, each in
/// the frame of the intent after which it began (on a time axis, of its own time).
///
/// Last, each Publish copy of the chain a recorded tour's `o` bound the screen through
/// (``CopyMarbles``): `copy.subject`, `copy.ball` and `copy.screen`, in the late subscriptions'
/// form, subscribed where `o` bound the screen through it and cancelled where `o` bound it back.
///
/// It streams: each lane's marbles go to a temporary file as the replay runs, and are copied
/// out at the end, so memory stays flat however long the recording (the values are as many as
/// the distinct cells, colours and intents).
package enum MarbleTestExport {
    /// The lanes written, in order: the main lanes, then the inputs an operator in the slot may
    /// read beyond the position (``SlotInput``).
    static let lanesWritten = StreamLane.main(slot: true) + [StreamLane.mirror, .grabbed, .mouse, .keys]
    /// Their labels.
    static let labels = lanesWritten.map(\.label)

    /// `text` as a JSON string, quoted, its quotes, backslashes and control characters escaped.
    static func jsonString(_ text: String) -> String {
        var escaped = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped + "\""
    }

    /// Replays `reader` and writes the lanes in `syntax`, framed as `framing` says, through
    /// `write` (UTF-8 bytes, a line each).
    package static func run(
        reader: ReplayReader, syntax: MarbleSyntax, framing: MarbleFraming = .perIntent,
        write: ([UInt8]) throws -> Void
    ) throws {
        let frames = Frames(framing: framing, syntax: syntax)
        let lanes = try labels.map { try LaneWriter(label: $0, syntax: syntax, frames: frames) }
        let (intentLane, positionLane, slottedLane, ballLane, backgroundLane) = (
            lanes[0], lanes[1], lanes[2], lanes[3], lanes[4]
        )
        let (mirrorLane, grabbedLane, mouseLane, keysLane) = (lanes[5], lanes[6], lanes[7], lanes[8])
        // Each lane's letters, keyed by the value itself (its JSON is made once, for the map).
        var intents = TokenTable<Intent>(lane: labels[0]) { "{" + ReplayFormat.fields(of: $0) + "}" }
        var positions = TokenTable<BallPosition>(lane: labels[1], json: positionJSON)
        // A value that is its own mark in the panel is its own character here: a count from 1 to
        // 9 its digit, true and false T and F.
        var slotted = TokenTable<SlotOutput>(lane: labels[2], json: outputJSON) { MarbleValue($0).glyph }
        var balls = TokenTable<FlatColour>(lane: labels[3]) { #""\#($0.name)""# }
        var backgrounds = TokenTable<FlatColour>(lane: labels[4]) { #""\#($0.name)""# }
        var mirrors = TokenTable<Bool>(lane: labels[5], json: { String($0) }) { MarbleValue.flag($0).glyph }
        var grabs = TokenTable<Bool>(lane: labels[6], json: { String($0) }) { MarbleValue.flag($0).glyph }
        // The slot's lane in segments: where each operator's part starts (the start's, then each
        // one chosen), kept in a file as the lanes are, for a long recording's many.
        let segments = try Spool()
        var segmentCount = 0
        func noteSegment(_ slot: SlotPipe, at frame: Int) throws {
            try segments.append(
                Array(
                    #"\#(segmentCount == 0 ? "" : ","){"frame":\#(frame),"operator":"\#(slot.operatorNames)"\#(ReplayFormat.intervalField(slot.timing)),"label":"\#(slot.laneLabel)"}"#
                        .utf8))
            segmentCount += 1
        }
        // The last column, and the latest time anything happened at: where the lanes still
        // under way at the end stop.
        var lastColumn = 0
        var latest = SessionTime.start
        // Each subscription of a stage of a pipe of several (``StreamLane/stage(_:)``: `stage1`,
        // `stage2`, the last's the inner `switchToLatest` subscribes to) is a lane of its own: a
        // pipe built subscribes its stages anew, `retry` the stages before it. Those under way, by
        // stage, and the JSON lines of those that ended, in the order they ended.
        var stageRuns: [Int: LateMarbles<SlotOutput>] = [:]
        let stagesEnded = try Spool()
        func openStage(_ number: Int, of slot: SlotPipe, at frame: Int) throws {
            let stage = slot.stages[number]
            let named =
                #""operator":"\#(stage.name)"\#(ReplayFormat.intervalField(stage.timing)),"code":\#(jsonString(stage.stageCode)),"#
            stageRuns[number] = try LateMarbles(
                label: StreamLane.stage(number).label, start: frame, syntax: syntax, frames: frames,
                json: outputJSON, itself: { MarbleValue($0).glyph }, fields: named)
        }
        func endStage(_ number: Int, at frame: Int) throws {
            guard let run = stageRuns.removeValue(forKey: number) else { return }
            run.end = frame
            try run.write(label: run.label, ended: true, to: stagesEnded.append)
        }
        /// What each stage's subscriptions did in `column` (at `time`), at their own times.
        func noteStages(_ column: StreamColumn, time: SessionTime) throws {
            let at = column.index
            for number in 0..<SlotPipe.most {
                guard let stage = column.stage(number) else { continue }
                var passed = 0
                for moment in stage.moments {
                    latest = max(latest, moment.at)
                    let frame = frames.frame(column: at, time: moment.at, timer: moment.at != time)
                    switch moment.kind {
                    case .subscribed:
                        // (A run with no end of its own here is over: no stream outlives its subscription.)
                        try endStage(number, at: frame)
                        if Self.writes(number, of: column.slot) { try openStage(number, of: column.slot, at: frame) }
                    case .passed:
                        defer { passed += 1 }
                        try stageRuns[number]?.add(stage.values[passed], at: frame, time: moment.at, column: at)
                    case .completed:
                        try stageRuns[number]?.lane.complete(frame, moment.at)
                        try endStage(number, at: frame)
                    case .failed:
                        try stageRuns[number]?.lane.fail(frame, moment.at)
                        try endStage(number, at: frame)
                    case .cancelled: try endStage(number, at: frame)
                    }
                }
            }
        }
        // A recorded tour's lessons, where each began (written on the intents lane), kept in a
        // file as the segments are.
        let lessons = try Spool()
        var lessonCount = 0
        var mice = TokenTable<BallPosition>(lane: labels[7], json: positionJSON)
        var keys = TokenTable<BallPosition>(lane: labels[8], json: positionJSON)
        // flatMap's and flatMapLatest's inner subscriptions to the position, one a press (the
        // panel's `inner 1`, `inner 2`, numbered afresh with each pipe built): those under way by
        // number with their marbles so far, and the JSON lines of those that ended.
        var inners: [Int: LateMarbles<BallPosition>] = [:]
        let innersEnded = try Spool()
        func noteInners(_ column: StreamColumn, frame: Int, time: SessionTime) throws {
            let (before, after) = (column.innersBefore, column.innersAfter)
            let chosen = column.intent?.buildsPipe == true
            // The pipe's head ended here: every inner subscription ends then.
            let headEnded = column.headEnded
            // Inner subscriptions made and disposed of here (what each was handed set off an
            // error that ended it at once: a press in a corner, each `retry` made): `(^a!)`.
            let within = column.innersEndedWithin
            guard !before.isEmpty || !after.isEmpty || !within.isEmpty || !inners.isEmpty else { return }
            let handed = column.position ?? column.state?.position
            // The time the views draw it at too (``StreamColumn/events(_:)``).
            let endedAt = column.innersEndedAt ?? time
            let endFrame = frames.frame(column: column.index, time: endedAt, timer: endedAt != time)
            var ended: [(Int, LateMarbles<BallPosition>)] = []
            // Where the head ended, the inners the position reached before the error it set off
            // disposed of the rest: as many as values the head passed on (the subject hands a new
            // value to its subscribers in the order they subscribed, a press's new inner last).
            var reaches =
                headEnded ? (column.slot.stages.count == 1 ? column.slottedCount : column.stage(0)?.count ?? 0) : .max
            func receive(_ marbles: LateMarbles<BallPosition>?, _ position: BallPosition) throws {
                guard let marbles, reaches > 0 else { return }
                reaches -= 1
                try marbles.add(position, at: frame, time: time, column: column.index)
            }
            func subscribe(_ number: Int) throws -> LateMarbles<BallPosition> {
                guard inners.count < Self.mostInners else { throw Self.tooManyInners(at: column.index) }
                let marbles = try LateMarbles(
                    label: StreamLane.inner(number).label, start: frame, syntax: syntax, frames: frames)
                if let handed { try marbles.add(handed, at: frame, time: time, column: column.index) }
                return marbles
            }
            let lowest = min(before.lowerBound, after.lowerBound)
            for number in lowest..<max(before.upperBound, after.upperBound, lowest) {
                let (lived, lives) = (before.contains(number) && column.index > 0, after.contains(number))
                // Ended here: cancelled by the pipe built, or switched away from at the release
                // (after the release's position, which went through it first).
                if lived, chosen || !lives, let marbles = inners.removeValue(forKey: number) {
                    // A quit completes the position first, before what the pipe still holds (a
                    // debounce's value, passed on at the end) can set off an error that ends the
                    // head: the inner received the completion, as it does where no error comes.
                    if column.completed.contains(.position), !chosen {
                        try marbles.lane.complete(frame, time)
                        marbles.end = frame
                        ended.append((number, marbles))
                        continue
                    }
                    if !chosen, let position = column.position { try receive(marbles, position) }
                    // Disposed of with the head where no release switched away from it first
                    // (flatMapLatest's does; flatMap's inners outlive a release): at the error or
                    // completion, a timer's (a debounce's) after the intent's value.
                    let disposed = column.disposalTime(ofInner: number) ?? time
                    marbles.end = frames.frame(column: column.index, time: disposed, timer: disposed != time)
                    ended.append((number, marbles))
                }
                // Subscribed here (a press, or a pipe built with the button down): handed the
                // latest. (After an error the chain is over: nothing subscribes.)
                if lives, !lived || chosen, !column.dead.contains(.slotted), reaches > 0 {
                    // (What it is handed goes through the head too: where the head ended, a press
                    // whose position set off the error first subscribes nothing.)
                    reaches -= 1
                    inners[number] = try subscribe(number)
                } else if lived, lives, let position = column.position {
                    try receive(inners[number], position)
                }
            }
            for number in within where inners[number] == nil && reaches > 0 && !column.dead.contains(.slotted) {
                // Handed the position as it subscribed (it reached it), disposed of at the error.
                // The intent made it (its press, the pipe built with the button down, or `retry`
                // after an error at its instant), so it subscribed at the intent: the error may
                // come later, from a timer (a debounce between the head and `tryMap`).
                reaches -= 1
                let marbles = try subscribe(number)
                marbles.end = endFrame
                ended.append((number, marbles))
            }
            for number in inners.keys.sorted() {
                // The position completed (a quit): so did each inner subscription to it.
                if column.completed.contains(.position) {
                    let marbles = inners.removeValue(forKey: number)!
                    try marbles.lane.complete(frame, time)
                    marbles.end = frame
                    ended.append((number, marbles))
                } else if headEnded {
                    let marbles = inners.removeValue(forKey: number)!
                    marbles.end = endFrame
                    ended.append((number, marbles))
                }
            }
            for (number, marbles) in ended {
                try marbles.write(label: StreamLane.inner(number).label, ended: true, to: innersEnded.append)
            }
        }
        // learn's Publish copy of the chain (`o`): the one under way, its three lanes' marbles so
        // far, and the JSON lines of those that ended.
        var copy: CopyMarbles?
        let copiesEnded = try Spool()
        func noteCopy(_ column: StreamColumn, frame: Int, time: SessionTime) throws {
            guard let shown = column.copy else { return }
            if shown.lived, let marbles = copy {
                try marbles.add(shown, at: frame, time: time, column: column.index)
                if let endedAt = shown.endedAt {
                    try marbles.write(end: frames.frame(column: column.index, time: endedAt), to: copiesEnded.append)
                    copy = nil
                }
            }
            guard let beganAt = shown.beganAt else { return }
            let marbles = try CopyMarbles(
                start: frames.frame(column: column.index, time: beganAt), syntax: syntax, frames: frames)
            if shown.lives {
                copy = marbles
            } else {
                let endedAt = shown.endedAt ?? beganAt
                try marbles.write(end: frames.frame(column: column.index, time: endedAt), to: copiesEnded.append)
            }
        }
        // The late subscriptions: those under way with their marbles so far, and the JSON lines
        // of those that ended.
        var late = LateSubscriptions()
        var lateMarbles: [LateSubscriber: LateMarbles<BallPosition>] = [:]
        let ended = try Spool()
        // The lanes that ended in the latest column, written in the order they were subscribed
        // once the column is over: the subjects tell their subscribers of a completion in an
        // order that changes from run to run, and a file that does is no test.
        var endedInColumn: [(LateLane, LateMarbles<BallPosition>)] = []
        func writeEnded() throws {
            for (lane, marbles) in endedInColumn.sorted(by: { $0.0.id < $1.0.id }) {
                try marbles.write(lane, to: ended.append)
            }
            endedInColumn.removeAll()
        }
        var failure: ReplayError?
        do {
            try ReplayColumns.forEach(in: reader) { item in
                switch item {
                case .column(let column, _):
                    try writeEnded()
                    let at = column.index
                    lastColumn = at
                    let time = column.time ?? .start
                    let passed = column.passedAt ?? time
                    latest = max(latest, passed)
                    let frame = frames.frame(column: at, time: time)
                    if segmentCount == 0 || column.intent?.buildsPipe == true {
                        try noteSegment(column.slot, at: frame)
                    }
                    // What each stage's subscriptions did, at their own times (after a timer's, the
                    // timer's): each subscription a lane.
                    try noteStages(column, time: time)
                    // What the slot passed on (and the colours after it) is at its own time: a
                    // timer's output at the time it went off.
                    let slotFrame = frames.frame(column: at, time: passed, timer: passed != time)
                    if let intent = column.intent {
                        try intentLane.add(intents.token(for: intent, at: at), frame, time)
                    }
                    if let position = column.position {
                        try positionLane.add(positions.token(for: position, at: at), frame, time)
                    }
                    if let position = column.mouse { try mouseLane.add(mice.token(for: position, at: at), frame, time) }
                    if let position = column.keys { try keysLane.add(keys.token(for: position, at: at), frame, time) }
                    if let on = column.mirrorSent { try mirrorLane.add(mirrors.token(for: on, at: at), frame, time) }
                    if let on = column.grabbed { try grabbedLane.add(grabs.token(for: on, at: at), frame, time) }
                    try noteInners(column, frame: frame, time: time)
                    try noteCopy(column, frame: frame, time: time)
                    // flatMap's inner subscriptions each pass the position on: a group where they
                    // come at once, else each at its own time (throttle after flatMap passes the
                    // first copy on at once, the second at its window's end).
                    for (number, output) in column.slottedValues.enumerated() {
                        let passedAt = number < column.slottedTimes.count ? column.slottedTimes[number] : passed
                        try slottedLane.add(
                            slotted.token(for: output, at: at),
                            frames.frame(column: at, time: passedAt, timer: passedAt != time), passedAt)
                    }
                    // The colours at the time they were emitted, with the slot's value that made them.
                    if let colour = column.ballColour {
                        let emitted = column.time(of: .ballColour) ?? passed
                        try ballLane.add(
                            balls.token(for: colour, at: at),
                            frames.frame(column: at, time: emitted, timer: emitted != time),
                            emitted)
                    }
                    if let colour = column.background {
                        let emitted = column.time(of: .background) ?? passed
                        try backgroundLane.add(
                            backgrounds.token(for: colour, at: at),
                            frames.frame(column: at, time: emitted, timer: emitted != time), emitted)
                    }
                    // Each lane completes where its subscription received the completion: the
                    // colours' at the time the slot passed its last on; the slot's at its last
                    // stage's completion then (the session's end: a recovery's own completion
                    // is its stage's lane's, ``StreamColumn/completes(_:)``).
                    for (lane, stream) in zip(lanes, lanesWritten) where column.completes(stream) {
                        if stream == .slotted, let completedAt = column.completedAt(.slotted) {
                            try lane.complete(
                                frames.frame(column: at, time: completedAt, timer: completedAt != time), completedAt)
                            continue
                        }
                        let atSlot = [StreamLane.ballColour, .background].contains(stream)
                        try lane.complete(atSlot ? slotFrame : frame, atSlot ? passed : time)
                    }
                    // An error ends the slot's lane and the colours' where the slot threw.
                    let failedAt = column.failedAt ?? passed
                    let failFrame = frames.frame(column: at, time: failedAt, timer: failedAt != time)
                    for (lane, stream) in zip(lanes, lanesWritten) where column.failed.contains(stream) {
                        try lane.fail(failFrame, failedAt)
                    }
                case .late(let kind, let event, let column, let time, _):
                    latest = max(latest, time)
                    let frame = frames.frame(column: column, time: time)
                    switch event {
                    case .subscribed:
                        lateMarbles[kind] = try LateMarbles(kind, start: frame, syntax: syntax, frames: frames)
                    case .next(let position):
                        try lateMarbles[kind]?.add(position, at: frame, time: time, column: column)
                    case .completed: try lateMarbles[kind]?.lane.complete(frame, time)
                    case .disposed: break
                    }
                    if let lane = late.note(kind, event, column: column),
                        let marbles = lateMarbles.removeValue(forKey: kind)
                    {
                        marbles.end = frame
                        endedInColumn.append((lane, marbles))
                    }
                case .lesson(let start):
                    latest = max(latest, start.time)
                    try lessons.append(
                        Array(
                            #"\#(lessonCount == 0 ? "" : ","){"frame":\#(frames.frame(column: start.column, time: start.time)),"number":\#(start.number),"title":\#(jsonString(start.title)),"label":\#(jsonString(start.label))}"#
                                .utf8))
                    lessonCount += 1
                }
            }
        } catch let error as ReplayError {
            failure = error  // The lanes of what came before the bad line, then the error.
        }
        try writeEnded()
        let end = frames.end(of: frames.frame(column: lastColumn, time: latest))
        let maps = [
            intents.map, positions.map, slotted.map, balls.map, backgrounds.map, mirrors.map, grabs.map, mice.map,
            keys.map,
        ]
        for (slot, lane) in lanes.enumerated() {
            try lane.finish(through: end)
            try write(
                Array(#"{"lane":"\#(lane.label)","syntax":"\#(syntax.rawValue)",\#(frames.json),"marbles":""#.utf8))
            try lane.copy(to: write)
            try write(Array(#"","values":"#.utf8) + maps[slot])
            if lanesWritten[slot] == .slotted {
                try write(Array(#","segments":["#.utf8))
                try segments.copy(to: write)
                try write(Array("]".utf8))
            }
            if lanesWritten[slot] == .intents, lessonCount > 0 {
                try write(Array(#","lessons":["#.utf8))
                try lessons.copy(to: write)
                try write(Array("]".utf8))
            }
            try write(Array("}\n".utf8))
        }
        try stagesEnded.copy(to: write)
        for number in stageRuns.keys.sorted() {
            let run = stageRuns[number]!
            run.end = frames.frame(column: lastColumn, time: latest)
            try run.write(label: run.label, ended: false, to: write)
        }
        try innersEnded.copy(to: write)
        for number in inners.keys.sorted() {
            let marbles = inners[number]!
            marbles.end = frames.frame(column: lastColumn, time: latest)
            try marbles.write(label: StreamLane.inner(number).label, ended: false, to: write)
        }
        try ended.copy(to: write)
        for kind in LateSubscriber.allCases {
            guard let lane = late.live[kind], let marbles = lateMarbles[kind] else { continue }
            marbles.end = frames.frame(column: lastColumn, time: latest)
            try marbles.write(lane, to: write)
        }
        try copiesEnded.copy(to: write)
        try copy?.write(end: frames.frame(column: lastColumn, time: latest), cancelled: false, to: write)
        if let failure { throw failure }
    }

    /// Whether stage `number`'s lane is written for `pipe`: where the pipe has that stage, and
    /// several.
    static func writes(_ number: Int, of pipe: SlotPipe) -> Bool {
        pipe.stages.count > 1 && number < pipe.stages.count
    }

    /// The most inner subscriptions under way at once the export keeps a lane open for (each
    /// keeps a temporary file).
    static let mostInners = 64

    /// The refusal when flatMap holds more than ``mostInners`` inner subscriptions at once, at
    /// intent `column`.
    static func tooManyInners(at column: Int) -> MarbleExportError {
        MarbleExportError(
            description:
                "flatMap holds more than \(mostInners) inner subscriptions at once by intent \(column), more inner lanes than the export keeps open: export its first part, as head -n \(column) FILE > part.jsonl makes it.",
            code: 65)
    }

    /// A position as a lane's values map gives it: `{"cell":[40,11],"screen":[80,24]}`.
    static func positionJSON(_ position: BallPosition) -> String {
        #"{"cell":[\#(position.centre.column),\#(position.centre.row)],"screen":[\#(position.screen.columns),\#(position.screen.rows)]}"#
    }

    /// What the slot passed on as a value: a position as ``positionJSON(_:)`` writes it, or
    /// the counter's count, a number: `3`.
    static func outputJSON(_ output: SlotOutput) -> String {
        switch output {
        case .position(let position): positionJSON(position)
        case .count(let count): String(count)
        }
    }

    /// Where an event goes on the lanes, as ``MarbleFraming`` says, in `syntax`.
    struct Frames {
        let framing: MarbleFraming
        let syntax: MarbleSyntax

        /// The frame of an event of column `column` at `time` on the session's clock.
        func frame(column: Int, time: SessionTime, timer: Bool = false) -> Int {
            switch framing {
            // A timer's output after the intent: in the intent's last frame, free of the
            // intent's own group (a lane's timer output never shares a column with one at the
            // intent's time: the slot passes on one value a column at most).
            case .perIntent: column * syntax.framesPerIntent + (timer ? syntax.framesPerIntent - 1 : 0)
            case .time(let microseconds): Int(time.microseconds / microseconds)
            }
        }

        /// The frame after those that belong to frame `frame`: a column's, a frame an intent;
        /// the next, on a time axis.
        func end(of frame: Int) -> Int {
            switch framing {
            case .perIntent: (frame / syntax.framesPerIntent + 1) * syntax.framesPerIntent
            case .time: frame + 1
            }
        }

        /// Whether a quiet stretch is written in RxJS's time-progression form: on a time axis.
        var progresses: Bool {
            if case .time = framing { syntax == .rxjs } else { false }
        }

        /// The lane's JSON field for its frames: `"framesPerIntent":5` or `"frameMs":1`.
        var json: String {
            switch framing {
            case .perIntent: #""framesPerIntent":\#(syntax.framesPerIntent)"#
            case .time: #""frameMs":\#(framing.milliseconds)"#
            }
        }

        /// A quiet stretch of `count` frames as the syntax writes it: a `-` a frame, or in RxJS on a
        /// time axis, ten or more as ` 299ms `.
        func quiet(_ count: Int, into bytes: inout [UInt8]) {
            guard count > 0 else { return }
            if progresses, count >= 10 {
                bytes += Array(" \(count)ms ".utf8)
            } else {
                bytes += repeatElement(UInt8(ascii: "-"), count: count)
            }
        }

        /// A quiet stretch of `count` frames appended to `spool` a block at a time: an hour of
        /// `-` at 1 ms frames is 3.6 MB, which no buffer need hold whole.
        func quiet(_ count: Int, to spool: Spool) throws {
            guard !progresses || count < 10 else { return try spool.append { quiet(count, into: &$0) } }
            var left = count
            while left > 0 {
                let block = min(left, 1 << 16)
                try spool.append { quiet(block, into: &$0) }
                left -= block
            }
        }
    }

    /// One lane's marbles as the replay runs: what one frame holds is gathered, then written
    /// (a group when more than one), the quiet before it first; a temporary file keeps them.
    final class LaneWriter {
        /// The lane's name.
        let label: String
        private let syntax: MarbleSyntax
        private let frames: Frames
        private let spool: Spool
        /// The frame the next character written stands at.
        private(set) var cursor = 0
        /// The frame gathering, its tokens, whether the lane completed in it, and its time.
        private var frame: Int?
        private var tokens: [[UInt8]] = []
        private var completed = false
        /// Whether the last frame written ended the lane: nothing is written after it at the end.
        private var endedLast = false
        /// How the lane ended, when it did: `|`, or `#` for an error.
        private var ending = UInt8(ascii: "|")
        private var time: SessionTime?
        /// The time of the last frame written, and whether it was a value alone (RxPY would
        /// read a value right after it as one with it: `ab`).
        private var writtenTime: SessionTime?
        private var bareValue = false

        init(label: String, syntax: MarbleSyntax, frames: Frames) throws {
            self.label = label
            self.syntax = syntax
            self.frames = frames
            spool = try Spool()
        }

        /// `token`, a value at `frame` (at `time`).
        func add(_ token: [UInt8], _ frame: Int, _ time: SessionTime) throws {
            try gather(frame, time)
            tokens.append(token)
        }

        /// The completion at `frame` (at `time`): nothing follows it.
        func complete(_ frame: Int, _ time: SessionTime) throws {
            try gather(frame, time)
            completed = true
        }

        /// The error at `frame` (at `time`), `#`: nothing follows it.
        func fail(_ frame: Int, _ time: SessionTime) throws {
            try gather(frame, time)
            completed = true
            ending = UInt8(ascii: "#")
        }

        private func gather(_ next: Int, _ at: SessionTime) throws {
            if let frame, frame != next { try writeFrame() }
            if frame == nil {
                frame = next
                time = at
            }
        }

        /// Writes the frame gathered: the quiet up to it, then its values and completion.
        private func writeFrame() throws {
            guard var frame else { return }
            defer {
                self.frame = nil
                tokens.removeAll()
            }
            let (tokens, completed, ending, syntax, frames) = (tokens, completed, ending, syntax, frames)
            // A group a timer made (a recovery's fallback and its end), in the intent's last frame,
            // ends with the intent's frames, not in the next intent's: it starts as many frames
            // earlier as it needs, still after what came at the intent's own time.
            let marks = tokens.count + (completed ? 1 : 0)
            if case .perIntent = frames.framing, marks > 1, frame % syntax.framesPerIntent == syntax.framesPerIntent - 1
            {
                let needs = 2 + marks + (syntax == .rxpy ? marks - 1 : 0)
                frame = max(cursor, min(frame, frames.end(of: frame) - needs))
            }
            guard frame >= cursor else { throw crowded(at: frame) }
            // RxPY reads two values with nothing between as one: the second goes in a group.
            let group =
                tokens.count + (completed ? 1 : 0) > 1
                || (syntax == .rxpy && bareValue && frame == cursor && !completed)
            var width = 0
            try frames.quiet(frame - cursor, to: spool)
            try spool.append { bytes in
                if group { bytes.append(UInt8(ascii: "(")) }
                for (offset, token) in tokens.enumerated() {
                    if offset > 0, syntax == .rxpy { bytes.append(UInt8(ascii: ",")) }
                    bytes += token
                }
                if completed {
                    if !tokens.isEmpty, syntax == .rxpy { bytes.append(UInt8(ascii: ",")) }
                    bytes.append(ending)
                }
                if group { bytes.append(UInt8(ascii: ")")) }
                // A token is one character (one frame), whatever its bytes.
                let marks = tokens.count + (completed ? 1 : 0)
                width = group ? 2 + marks + (syntax == .rxpy ? marks - 1 : 0) : marks
            }
            bareValue = !group && !completed
            // A stage's lane goes on after a completion (a recovery's pipe completed; the next
            // pipe's stage passes on again on the same lane): the frame's end is its own.
            endedLast = completed
            self.completed = false
            self.ending = UInt8(ascii: "|")
            cursor = frame + width
            writtenTime = time
        }

        /// The refusal of a frame that falls inside what the frame before it took to write.
        private func crowded(at frame: Int) -> MarbleExportError {
            let times = [writtenTime, time].compactMap { $0.map(SlotMoment.seconds) }.joined(separator: " and ")
            guard case .time = frames.framing else {
                return MarbleExportError(
                    description:
                        "The \(label) lane has more events at \(times) than \(syntax.rawValue)'s marbles can write in the \(syntax.framesPerIntent) frames of an intent (a value takes a frame, a group a frame a character): export on the session's clock instead, with --frame 1ms.",
                    code: 65)
            }
            return MarbleExportError(
                description:
                    "The \(label) lane has events at \(times), closer than \(syntax.rawValue)'s marbles can write them on frames of \(frames.framing.milliseconds) ms (a value takes a frame, a group a frame a character): export with a shorter --frame, such as --frame 100us, or without --frame (a frame an intent).",
                code: 65)
        }

        /// Writes what is gathered, then the quiet up to frame `end` (not after a completion).
        func finish(through end: Int) throws {
            try writeFrame()
            let done = endedLast || cursor >= end
            if !done {
                try frames.quiet(end - cursor, to: spool)
                cursor = end
            }
        }

        /// Hands the marbles written to `write`.
        func copy(to write: ([UInt8]) throws -> Void) throws { try spool.copy(to: write) }
    }

    /// One late subscription's marbles while it is under way, from the frame it subscribed at:
    /// of positions (a late subscriber's, an inner subscription's, the Publish copy's subject), or
    /// of colours (the Publish copy's `ball` and `screen`).
    final class LateMarbles<Value: Hashable> {
        /// The lane's name.
        let label: String
        /// The frame it subscribed at.
        let start: Int
        /// The frame it ended at (nil: still under way).
        var end: Int?
        /// Its marbles.
        let lane: LaneWriter
        private let frames: Frames
        private let syntax: MarbleSyntax
        private var tokens: TokenTable<Value>
        /// JSON fields written after the lane's name and frames (each with its comma after it).
        private let fields: String

        /// The marbles of a subscription labelled `label`, each value's JSON written by `json`,
        /// the values `itself` gives a character as that character (``TokenTable``), with `fields`
        /// (JSON, each field followed by a comma) after its name.
        init(
            label: String, start: Int, syntax: MarbleSyntax, frames: Frames, json: @escaping (Value) -> String,
            itself: @escaping (Value) -> Unicode.Scalar? = { _ in nil }, fields: String = ""
        ) throws {
            tokens = TokenTable(lane: label, json: json, itself: itself)
            lane = try LaneWriter(label: label, syntax: syntax, frames: frames)
            self.label = label
            self.start = start
            self.frames = frames
            self.syntax = syntax
            self.fields = fields
        }

        /// A value it received (or was handed) at `frame`, at `time`, in column `column`.
        func add(_ value: Value, at frame: Int, time: SessionTime, column: Int) throws {
            try lane.add(tokens.token(for: value, at: column), frame, time)
        }

        /// Writes `lane`'s JSON line through `write`: its marbles through the frames of the one
        /// it ended at (or the last).
        func write(_ lane: LateLane, to write: ([UInt8]) throws -> Void) throws where Value == BallPosition {
            try self.write(
                label: StreamLane.late(lane.kind).label, ended: lane.end != nil, to: write)
        }

        /// Writes the JSON line of the lane labelled `label` through `write`; its subscription
        /// ended at its end when `ended` (`!` in its subscription): RxJS's and RxPY's subscription
        /// logs end a subscription where it is cancelled, and where what it subscribed to completes
        /// or fails (the subscriber lets go of it then), so `^--|` is subscribed `^--!`.
        func write(label: String, ended: Bool, to write: ([UInt8]) throws -> Void) throws {
            let last = end ?? start
            try self.lane.finish(through: frames.end(of: last))
            let unsubscribed = ended ? last : nil
            var subscription: [UInt8] = []
            let frames = Frames(framing: self.frames.framing, syntax: .rxjs)
            frames.quiet(start, into: &subscription)
            if let unsubscribed {
                if unsubscribed == start {
                    subscription += Array("(^!)".utf8)
                } else {
                    subscription.append(UInt8(ascii: "^"))
                    frames.quiet(unsubscribed - start - 1, into: &subscription)
                    subscription.append(UInt8(ascii: "!"))
                }
            } else {
                subscription.append(UInt8(ascii: "^"))
            }
            try write(
                Array(
                    #"{"lane":"\#(label)","syntax":"\#(syntax.rawValue)",\#(self.frames.json),\#(fields)"subscription":""#
                        .utf8) + subscription
                    + Array(
                        #"","subscribedFrame":\#(start),"unsubscribedFrame":\#(unsubscribed.map(String.init) ?? "null"),"marbles":""#
                            .utf8))
            try self.lane.copy(to: write)
            try write(Array(#"","values":"#.utf8) + tokens.map + Array("}\n".utf8))
        }
    }
}

extension MarbleTestExport {
    /// The marbles of `learn`'s Publish copy of the chain (`o`) while it is under way, from the
    /// frame `o` subscribed it at: its subject's (each new position), its `ball`'s and its
    /// `screen`'s (colours), each written as a subscription's lane, `copy.subject`, `copy.ball`,
    /// `copy.screen`, with `^` where `o` subscribed it and `!` where `o` bound the screen back.
    struct CopyMarbles {
        let subject: LateMarbles<BallPosition>
        let ball, screen: LateMarbles<FlatColour>

        /// The copy's lanes, subscribed at frame `start`.
        init(start: Int, syntax: MarbleSyntax, frames: Frames) throws {
            let label = { (stream: CopyStream) in StreamLane.copy(stream).label }
            let colour = { (colour: FlatColour) in #""\#(colour.name)""# }
            subject = try LateMarbles(label: label(.subject), start: start, syntax: syntax, frames: frames)
            ball = try LateMarbles(label: label(.ball), start: start, syntax: syntax, frames: frames, json: colour)
            screen = try LateMarbles(label: label(.screen), start: start, syntax: syntax, frames: frames, json: colour)
        }

        /// What `column`'s intent made reach the copy (`shown`), at `frame` and `time`.
        func add(_ shown: CopyColumn, at frame: Int, time: SessionTime, column: Int) throws {
            if let position = shown.subject { try subject.add(position, at: frame, time: time, column: column) }
            if let colour = shown.ball { try ball.add(colour, at: frame, time: time, column: column) }
            if let colour = shown.screen { try screen.add(colour, at: frame, time: time, column: column) }
        }

        /// Writes the three lanes' JSON lines through `write`, through frame `end`, where the copy
        /// was disposed of when `cancelled` (else: still under way as the recording ends).
        func write(end: Int, cancelled: Bool = true, to write: ([UInt8]) throws -> Void) throws {
            subject.end = end
            try subject.write(label: StreamLane.copy(.subject).label, ended: cancelled, to: write)
            ball.end = end
            try ball.write(label: StreamLane.copy(.ball).label, ended: cancelled, to: write)
            screen.end = end
            try screen.write(label: StreamLane.copy(.screen).label, ended: cancelled, to: write)
        }
    }
}

extension MarbleTestExport.LateMarbles where Value == BallPosition {
    /// The marbles of a late subscriber of `kind`.
    convenience init(_ kind: LateSubscriber, start: Int, syntax: MarbleSyntax, frames: MarbleTestExport.Frames)
        throws
    {
        try self.init(label: StreamLane.late(kind).label, start: start, syntax: syntax, frames: frames)
    }

    /// The marbles of a subscription to the position labelled `label` (an inner lane's).
    convenience init(label: String, start: Int, syntax: MarbleSyntax, frames: MarbleTestExport.Frames) throws {
        try self.init(label: label, start: start, syntax: syntax, frames: frames, json: MarbleTestExport.positionJSON)
    }
}

/// The letters of one lane: each distinct value gets the next of `a`…`z`, `A`…`Z`, then CJK
/// ideographs (one character each, none a digit or a marble symbol), and its JSON for the map;
/// a value that is its own mark, as the panel draws it (a count from 1 to 9, `T`, `F`), is that
/// character, and the map gives it too (`"3":3`: RxPY reads a digit as the number itself).
struct TokenTable<Value: Hashable> {
    private var tokens: [Value: [UInt8]] = [:]
    private var ordered: [(token: [UInt8], json: String)] = []
    /// How many letters were given out.
    private var lettered = 0
    /// The character a value is written as when it is its own mark; nil: a letter.
    private let itself: (Value) -> Unicode.Scalar?
    private let makeJSON: (Value) -> String
    /// The lane's name, as the export labels it: what a refusal names.
    private let lane: String

    /// A table for the lane named `lane` that writes a value's JSON with `json`, and the values
    /// `itself` gives a character as that character.
    init(
        lane: String, json: @escaping (Value) -> String, itself: @escaping (Value) -> Unicode.Scalar? = { _ in nil }
    ) {
        self.lane = lane
        makeJSON = json
        self.itself = itself
    }

    /// The token for `value` (UTF-8), given it the first time it is seen (at intent `column`);
    /// past the last token there is, an error naming the lane, the limit and what to export
    /// instead (a token is never given twice).
    mutating func token(for value: Value, at column: Int) throws -> [UInt8] {
        if let token = tokens[value] { return token }
        if let mark = itself(value) {
            let token = Array(String(mark).utf8)
            tokens[value] = token
            ordered.append((token, makeJSON(value)))
            return token
        }
        guard let token = Self.token(at: lettered) else {
            throw Self.full(lane: lane, at: column)
        }
        lettered += 1
        tokens[value] = token
        ordered.append((token, makeJSON(value)))
        return token
    }

    /// The refusal when the lane named `lane` needs one more token than there are, at intent
    /// `column`: the recording's lines before that intent fit (each line holds one event at
    /// most, and the header is one more).
    static func full(lane: String, at column: Int) -> MarbleExportError {
        MarbleExportError(
            description:
                "The \(lane) lane has more than \(count) distinct values by intent \(column), more than the marble syntax has letters for (a value is a letter or a character): export its first part, as head -n \(column) FILE > part.jsonl makes it.",
            code: 65)
    }

    /// How many tokens there are: 52 letters, then CJK ideographs from U+4E00 to U+9FFF.
    static var count: Int { 52 + 0x9FFF - 0x4E00 + 1 }

    /// The `n`-th token, in UTF-8; nil past the last.
    static func token(at n: Int) -> [UInt8]? {
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        if n < letters.count { return [letters[n]] }
        guard n < count else { return nil }
        return Array(String(Unicode.Scalar(0x4E00 + UInt32(n - letters.count))!).utf8)
    }

    /// The values as a JSON object, tokens in order: `{"a":"flatRed","b":"flatMint"}`.
    var map: [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        for (index, entry) in ordered.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "\""))
            bytes += entry.token
            bytes += Array("\":\(entry.json)".utf8)
        }
        return bytes + [UInt8(ascii: "}")]
    }
}

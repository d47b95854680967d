import BallModel
import BallStreams
import ColourCore
import TextFormats

// MARK: - The panel in words

/// What the panel says when the pointer is on it: a column in words, and what one lane did in it
/// and why (the slot's lane in its operator's own words, a late lane by its kind's rule). The
/// panel's geometry, its lanes and its hit-testing are in `StreamPanel.swift`.
extension StreamPanel {
    /// One column in words: the intent, then the state after it, `#12 • dragged to 41,12 ·
    /// 41,12 · ● flatRed #E84E3C on ■ flatMint #1ABD9C`.
    package func describe(_ column: StreamColumn?) -> String {
        descriptions(column)[0]
    }

    /// The same, longest first: in full; without the hex codes; only the intent's glyph and
    /// where things ended up.
    func descriptions(_ column: StreamColumn?) -> [String] {
        guard let column, let state = column.state else { return [""] }
        // No intent: the session's start, or (`learn`) the column a lesson's lanes (or the
        // closing card's) begin at, drawn without the events before it.
        let start = column.isStart
        var glyph = column.intent.map { "\(Marble.glyph(of: $0))" } ?? (start ? "^" : "─")
        // A late subscription's column, or a cancel's: the key, and what it did after the intent.
        let late = column.lateMoment.map { moment in
            guard let kind = moment.kind else {
                return moment.subscribed
                    ? "o: the screen bound through a Publish copy after it" : "o: the screen bound back after it"
            }
            return "\(kind.key): late \(kind.name) \(moment.subscribed ? "subscribed" : "cancelled") after it"
        }
        var intent = column.intent.map(Marble.describe) ?? late ?? (start ? "^ subscribed" : floorWords)
        // An arrow against the edge is an intent all the same (its mark on the intents' lane),
        // and the position lane has nothing under it: said, or the mark reads as a move.
        if case .arrowPressed? = column.intent, column.position == nil {
            intent = "\(glyph) at the edge: moved nothing"
            glyph += " at the edge:"
        }
        let centre = "\(state.position.centre.column),\(state.position.centre.row)"
        let (ball, background) = (state.ball, state.background)
        let described = [
            "#\(column.index) \(intent) · \(centre) · \(Glyph.ball) \(ball.name) \(ball.hex) on \(Glyph.background) \(background.name) \(background.hex)",
            "#\(column.index) \(intent) · \(centre) · \(Glyph.ball) \(ball.name) on \(Glyph.background) \(background.name)",
            "#\(column.index) \(glyph) \(centre) \(Glyph.ball) \(ball.name) \(Glyph.background) \(background.name)",
        ]
        // While the screen is bound through the Publish copy (`learn`'s `o`), it shows the copy's
        // colours, not the chain's: said too, each white until the copy's stream emits. An
        // intent's column says how the screen stands after it, `o` after it included: as its
        // last column of its own (``StreamColumn/withMoments(_:)``) draws the copy.
        let after =
            column.moment == nil && !column.lateMoments.isEmpty
            ? columns.last { $0.index == column.index && $0.moment != nil } ?? column : column
        guard let copy = after.copy, copy.lives else { return described }
        let white = BallState.screenBeforeTheBall
        let (shownBall, shownScreen) = (copy.heldBall ?? white, copy.heldScreen ?? white)
        let through = "\(Glyph.ball) \(shownBall.name) on \(Glyph.background) \(shownScreen.name)"
        return [
            "\(described[1]) · the screen, through the copy: \(through)", "\(described[1]) · copy: \(through)",
            "\(described[2]) · copy \(Glyph.ball) \(shownBall.name) \(Glyph.background) \(shownScreen.name)",
            "#\(column.index) \(glyph) copy \(Glyph.ball) \(shownBall.name) \(Glyph.background) \(shownScreen.name)",
        ]
    }

    /// What a colour lane (`ballColour`, `background`) did in a column, in full and in short: the
    /// colour it emitted (`glyph`, painted in it), or, where its `upstream` emitted, the colour it
    /// `held` worked out again and swallowed by distinctUntilChanged (`·`), or `nothing`.
    static func colourWords(
        _ emitted: FlatColour?, glyph: Unicode.Scalar, upstream: Bool, held: FlatColour?, nothing: String
    ) -> (String, String?) {
        if let emitted { return ("\(glyph) \(emitted.name)", nil) }
        guard upstream, let held else { return (nothing, nil) }
        return ("· \(held.name) again, swallowed by distinctUntilChanged", "· \(held.name), swallowed")
    }

    /// What `lane` did in `column`, then the lane's code: `#12: · flatRed again, swallowed by
    /// distinctUntilChanged ← ballColour = slotted.map { … }`.
    package func describe(_ column: StreamColumn, in lane: StreamLane) -> String {
        descriptions(column, in: lane)[0]
    }

    /// The same, longest first: with the lane's code in full; with it in short; in short with
    /// what the lane did in short; what the lane did alone.
    func descriptions(_ column: StreamColumn, in lane: StreamLane) -> [String] {
        // An operator's part says what its stage did, where the column's pipe has it.
        if case .part(let part) = lane, let stage = column.stageLane(part) { return descriptions(column, in: stage) }
        var did: String
        var shortDid: String?
        // A value as the lane draws it (its letter, its digits, T or F), then in words: `c 41,11`.
        let letters = lane == .intents || lane.isPipeLane ? [:] : letters()
        func drawn(_ value: MarbleValue) -> String {
            let mark = value.glyph.map { String($0) } ?? letters[value].map { String($0) } ?? "\(Glyph.value)"
            return "\(mark) \(value.words)"
        }
        // The slot's words: the last stage hands `switchToLatest` what the slot passes on.
        func slotWords() -> (String, String?) {
            // When the operator last passed something on before this column (`throttle`'s window).
            let last = columns.last { $0.index < column.index && $0.slot == column.slot && $0.slotted != nil }?.passedAt
            return Self.slotWords(column, next: columns.first { $0.index == column.index + 1 }, lastPassedAt: last)
        }
        switch lane {
        case .intents:
            did = column.intent.map(Marble.describe) ?? "subscribed"
        case .position:
            did =
                column.position.map { drawn(.position($0)) }
                ?? "nothing: the position did not change"
        case .slotted:
            (did, shortDid) = slotWords()
        case .stage(let number):
            (did, shortDid) = column.isLastStage(lane) ? slotWords() : Self.stageWords(number, column: column)
        case .part(let part):
            did =
                "nothing: the pipe here has no \(part.operation.name) at stage \(part.number + 1) (\(column.slot.shownName)): its lane is another row"
            shortDid = "nothing: not in the pipe here"
        case .ballColour:
            // Only what the slot passed on reaches the colour (a pipe that completed passes nothing).
            (did, shortDid) = Self.colourWords(
                column.ballColour, glyph: Glyph.ball, upstream: column.slotted != nil, held: column.state?.ball,
                nothing: column.position == nil ? "nothing: no new position" : "nothing: the slot passed nothing on")
            if column.pipeEnded, column.ballColour == nil {
                let colour = column.state?.ball.name ?? "as it was"
                did =
                    "nothing: the pipe in the slot completed, so nothing reaches the colour: it stays \(colour) until another pipe is built"
                shortDid = "nothing: the pipe completed, it stays \(colour)"
            }
        case .background:
            (did, shortDid) = Self.colourWords(
                column.background, glyph: Glyph.background, upstream: column.ballColour != nil,
                held: column.state?.background, nothing: "nothing: no new ball colour")
        case .mirror where column.index > 0 && column.handedAtSubscription(lane) != nil,
            .grabbed where column.index > 0 && column.handedAtSubscription(lane) != nil:
            // The subscription's value, not the subject's: the lane draws none (`─`).
            let on = column.handedAtSubscription(lane) ?? false
            did =
                "nothing new: the pipe put in here subscribed to \(lane.label) (a Behavior subject) and was handed \(drawn(.flag(on))) at once: the new subscription's value, not one \(lane.label) sent"
            shortDid = "nothing new: the pipe was handed \(drawn(.flag(on))) as it subscribed"
        case .mirror:
            did =
                column.mirrorSent.map { on in
                    column.index == 0 || column.intent == nil
                        ? "\(drawn(.flag(on))): the mirror's value, handed at once"
                        : "\(drawn(.flag(on))): the mirror flipped \(on ? "on" : "off")"
                } ?? "nothing: the mirror did not flip"
        case .grabbed:
            did =
                column.grabbed.map { on in
                    column.intent == nil
                        ? "\(drawn(.flag(on))): grabbed's value, handed at once"
                        : on
                            ? "\(drawn(.flag(on))): the press grabbed the ball"
                            : "\(drawn(.flag(on))): the release let it go"
                } ?? "nothing: the button neither grabbed nor let go"
        case .mouse:
            did =
                column.mouse.map { "\(drawn(.position($0))): a position the mouse made" }
                ?? "nothing: the mouse made no new position"
        case .keys:
            did =
                column.keys.map { "\(drawn(.position($0))): a position the keys made" }
                ?? "nothing: the keys made no new position"
        case .late(let kind):
            (did, shortDid) = Self.lateWords(kind, lane: lateLane(kind, in: column), column: column) { value in
                value.glyph.map { String($0) } ?? letters[value].map { String($0) } ?? "\(Glyph.value)"
            }
        case .inner(let number):
            (did, shortDid) = Self.innerWords(number, column: column, drawn: drawn)
        case .retried(let number, let subscription):
            (did, shortDid) = Self.retriedWords(number, subscription, column: column)
        case .copy(let stream):
            (did, shortDid) = Self.copyWords(stream, column: column, drawn: drawn)
        }
        if column.completes(lane) {
            // A stage ends without the session where a recovery passed its fallback on and
            // completed: the words say what its `|` is, unless they name it already.
            let quit = column.completed.contains(.position)
            let ended = "\(Glyph.completed) completed: the session quit"
            if quit || !lane.isPipeLane {
                did = column.emission(lane) == nil ? ended : "\(did), then \(ended)"
                shortDid = ended
            } else if column.emission(lane) == nil || !did.contains("\(Glyph.completed)") {
                let stage =
                    switch lane {
                    case .stage(let number) where column.slot.stages.indices.contains(number):
                        column.slot.stages[number].name
                    default: column.slot.last.name
                    }
                let recovered =
                    "\(Glyph.completed) completed: \(stage)'s fallback was its last value, so it ends (slotted lives on for the next pipe)"
                did = column.emission(lane) == nil ? recovered : "\(did), then \(recovered)"
                shortDid = "\(Glyph.completed) completed"
            }
        }
        if lane == .slotted, let last = column.slot.stages.indices.last, column.completed.contains(.stage(last)),
            !column.completes(.slotted)
        {
            // An inner's completion is its own: switchToLatest ends only with its source too.
            let name = column.slot.last.name
            shortDid = "\(shortDid ?? did); \(name) ended on its own lane, slotted lives on"
            did +=
                ", then \(name) completed (on its own lane): slotted, switchToLatest's output, lives on for the next pipe"
        }
        if lane == .slotted, column.pipeEnded {
            did =
                "nothing: \(column.slot.last.name) completed, and the pipe with it: nothing passes on until another pipe is built (slotted lives on, the colour stays)"
            shortDid = "nothing: \(column.slot.last.name) completed, until another pipe"
        }
        if column.failed.contains(lane), case .stage(let number) = lane {
            let name = column.slot.stages.indices.contains(number) ? column.slot.stages[number].name : "the stage"
            let again = column.resubscriptions(ofStage: number)
            let ended =
                again > 0
                ? "\(Glyph.error) \(name) threw: the error ends this subscription; retry subscribed anew \(again) \(again == 1 ? "time" : "times") (\(again + 1) subscriptions in all), each on its own row below"
                : "\(Glyph.error) an error: \(name) threw or passed one on: it ends this stage and the stages before it"
            did = column.emission(lane) == nil ? ended : "\(did), then \(ended)"
            shortDid =
                again > 0
                ? "\(Glyph.error) \(name) threw; retry subscribed anew \(again)× (rows below)"
                : "\(Glyph.error) an error"
        } else if column.failed.contains(lane) {
            let ended =
                lane == .slotted
                ? "\(Glyph.error) \(column.slot.failing?.name ?? column.slot.shownName) threw\(column.slot.stages.contains(.retry) ? ", as at each of retry's \(RetryOperation.attempts - 1) new subscriptions (\(RetryOperation.attempts) in all)" : ""): the error ends slotted and all after it"
                : "\(Glyph.error) the error came down from slotted: it ends this stream too"
            did = column.emission(lane) == nil ? ended : "\(did), then \(ended)"
            shortDid = "\(Glyph.error) an error"
        }
        if column.dead.contains(lane), case .stage = lane, !column.dead.contains(.slotted) {
            did =
                "nothing: this stage ended (an error, or its completion): nothing passes it until another pipe is built"
            shortDid = "nothing: the stage ended"
        } else if column.dead.contains(lane), column.index == columns.first?.index, completedBeforePage.contains(lane) {
            did = "nothing: this stream completed (\(Glyph.completed)) where these lanes begin: nothing comes after it"
            shortDid = "nothing: it completed"
        } else if column.dead.contains(lane) {
            did = "nothing: an error ended this stream: nothing comes after it (the binding is dead)"
            shortDid = "nothing: ended by an error"
        }
        let brief = shortDid ?? did
        // The slot's lane: the operator in it then, as the chain applies it; a stage's, its code in
        // the pipe's (the label column may have cut it).
        let (expression, shortExpression): (String, String)
        switch lane {
        case .slotted: (expression, shortExpression) = ("slotted = \(column.slot.code)", column.slot.code)
        case .ballColour where !showsSlot && column.slot == .none:
            // No slot's lane drawn, nothing in the slot: `slotted` is `position` itself, as the
            // lanes show it (position's lane right above) and the tour's first lesson says it.
            (expression, shortExpression) = (
                "ballColour = slotted.map { $0.ballColour }.distinctUntilChanged().share(replay: 1), slotted being position while the slot (f) is empty",
                "position.map { $0.ballColour }.distinctUntilChanged()"
            )
        case .stage(let number) where column.slot.stages.indices.contains(number):
            let stage = column.slot.stages[number]
            (expression, shortExpression) = (
                "\(stage.stageCode), stage \(number + 1) of \(column.slot.code)", stage.stageCode
            )
        case .retried(let number, let subscription) where column.slot.stages.indices.contains(number):
            let stage = column.slot.stages[number]
            (expression, shortExpression) = (
                "\(stage.stageCode), stage \(number + 1) of \(column.slot.code), its \(StreamLane.ordinal(subscription)) subscription",
                stage.stageCode
            )
        default: (expression, shortExpression) = (lane.expression, lane.shortExpression)
        }
        let said = unsaidCode.reduce(expression) { $0.replacing($1.key, with: $1.value) }
        return [
            "#\(column.index): \(did) ← \(said)", "#\(column.index): \(did) ← \(shortExpression)",
            "#\(column.index): \(brief) ← \(shortExpression)", "#\(column.index): \(did)",
            "#\(column.index): \(brief)",
        ]
    }

    /// What the Publish copy's `stream` lane (`learn`'s `o`) did in `column`, in full and in short
    /// (`drawn` writes a value as the lane draws it): subscribed (handed nothing), what it
    /// emitted or swallowed, disposed of (`o` bound the screen back).
    static func copyWords(_ stream: CopyStream, column: StreamColumn, drawn: (MarbleValue) -> String)
        -> (String, String?)
    {
        guard let copy = column.copy else { return ("nothing: no copy was subscribed here", nil) }
        let subscribed =
            "^ o bound the screen through the copy: a Publish subject hands a new subscriber nothing, so the screen is white"
        let disposed = "! o bound the screen back to the chain: the copy's subscriptions disposed of"
        // Bound back in a column of its own after the intent: nothing else happened there.
        if column.lateMoment?.copy != nil, copy.endedAt != nil, !copy.lives { return (disposed, "! disposed of") }
        guard copy.lived else {
            return copy.lives
                ? (subscribed, "^ subscribed: handed nothing")
                : ("\(subscribed), \(disposed)", "^! subscribed, disposed of")
        }
        var (did, shortDid): (String, String?) = ("", nil)
        switch stream {
        case .subject:
            did =
                copy.subject.map { "\(drawn(.position($0))): the new position, sent to the copy's subject" }
                ?? "nothing: no new position"
        case .ball:
            (did, shortDid) = colourWords(
                copy.ball, glyph: Glyph.ball, upstream: copy.subject != nil, held: copy.heldBall,
                nothing: "nothing: the copy's subject was sent nothing")
        case .screen:
            let white = "nothing yet: the screen shows its default, white (scan's seed, never emitted)"
            (did, shortDid) = colourWords(
                copy.screen, glyph: Glyph.background, upstream: copy.ball != nil, held: copy.heldScreen,
                nothing: copy.heldScreen == nil ? white : "nothing: no new ball colour")
        }
        if copy.endedAt != nil {
            let ending = copy.lives ? "\(disposed); then o subscribed a new copy (^)" : disposed
            return ("\(did), then \(ending)", copy.lives ? "!^ disposed of, a new copy subscribed" : "! disposed of")
        }
        return (did, shortDid)
    }

    /// What the inner lane `number` of flatMap or flatMapLatest did in `column`, in full and in
    /// short (`drawn` writes a value as the lane draws it).
    static func innerWords(_ number: Int, column: StreamColumn, drawn: (MarbleValue) -> String) -> (String, String?) {
        let name = column.slot.stages.first?.name ?? "flatMap"
        switch column.marble(.inner(number)) {
        case .subscribed?:
            let value = (column.position ?? column.state?.position).map { drawn(.position($0)) + ": " } ?? ""
            return (
                "^ \(value)grabbed turned true, so \(name) subscribed to position again (press \(number)), handed its latest",
                "^ \(value)press \(number) subscribed"
            )
        case .unsubscribed(let after)? where column.intent?.buildsPipe != true:
            let value = after.flatMap { if case .value(let value) = $0 { drawn(value) + ", then " } else { nil } } ?? ""
            return (
                "\(value)! the release: grabbed turned false, so flatMapLatest switched to .empty(), disposing press \(number)'s subscription",
                "\(value)! switched away at the release"
            )
        case .unsubscribed?:
            return ("! another operator went in: the chain cancelled \(name) and its inner subscriptions", nil)
        case .ended?: return ("\(Glyph.completed) completed: the position completed (the session quit)", nil)
        case .value(let value)?:
            return ("\(drawn(value)): a new position: each of flatMap's inner subscriptions gets it", nil)
        case nil: return ("no inner subscription on this lane here", nil)
        default: return ("nothing: the position did not change", nil)
        }
    }

    /// What the slot's lane did in `column`, and why, in full and in short: what it passed on
    /// (handed at once when the operator was chosen there, or as the operator's own words say),
    /// or why it passed nothing on (`next`, the column after, says how soon the next intent came;
    /// `lastPassedAt`, when the operator last passed something on before the column, if the lanes
    /// still hold it). The words are the operator's (``SlotOperation``), else these.
    static func slotWords(
        _ column: StreamColumn, next: StreamColumn? = nil, lastPassedAt: SessionTime? = nil
    ) -> (String, String?) {
        let operation = column.slot.last.operation
        let moment = SlotMoment(
            intent: column.intent, position: column.position, statePosition: column.state?.position,
            mirror: column.mirror, grabbed: column.grabbed, time: column.time, passedAt: column.passedAt,
            next: next.map { ($0.index, $0.time) }, lastPassedAt: lastPassedAt)
        if let passed = column.slotted {
            if let words = operation.passedWords(moment, passed) { return words }
            let cell =
                switch passed {
                case .position(let position): SlotMoment.marble(position)
                case .count(let count): "\(count)"
                }
            return moment.handedWords(cell, name: operation.name)
        }
        if let words = operation.quietWords(moment) { return words }
        // In a pipe, the stage before may have passed nothing on: nothing reached the last.
        if column.slot.stages.count > 1, !moment.chosen, column.position != nil,
            column.passed(byStage: column.slot.stages.count - 2) == nil, operation.interval == nil
        {
            let before = column.slot.stages[column.slot.stages.count - 2]
            return ("nothing: \(before.operation.rxName) before it passed nothing on", "nothing reached it")
        }
        // A chosen operator is handed the current position, as a new position is.
        guard let seen = moment.chosen ? column.state?.position : column.position else {
            return ("nothing: no new position", nil)
        }
        return operation.heldWords(moment, seen: seen)
    }

    /// What stage `number` of the pipe (one before its last) did in `column`, and why, in full and
    /// in short: what it passed on, in its operator's words, or why it passed nothing on (nothing
    /// reached it from the stage before, or its operator held what came).
    static func stageWords(_ number: Int, column: StreamColumn) -> (String, String?) {
        let stages = column.slot.stages
        guard stages.indices.contains(number), number < stages.count - 1 else {
            return ("no stage \(number + 1) here: the pipe in the slot has \(stages.count)", nil)
        }
        let operation = stages[number].operation
        let name = operation.rxName
        let next = stages[number + 1].operation.rxName
        let moment = SlotMoment(
            intent: column.intent, position: column.position, statePosition: column.state?.position,
            mirror: column.mirror, grabbed: column.grabbed, time: column.time,
            passedAt: column.passed(byStage: number)?.at, next: nil, lastPassedAt: nil)
        if let passed = column.passed(byStage: number), let value = passed.value {
            let cell =
                switch value {
                case .position(let position): SlotMoment.marble(position)
                case .count(let count): "\(count)"
                }
            let many = passed.count > 1 ? "\(passed.count) values, the last " : ""
            return ("\(many)\(cell): \(name) passed it on to \(next)", "\(many)\(cell) on to \(next)")
        }
        if number > 0, column.passed(byStage: number - 1) == nil {
            return ("nothing: \(stages[number - 1].operation.rxName) before it passed nothing on", "nothing reached it")
        }
        guard let seen = moment.chosen ? column.state?.position : column.position else {
            return ("nothing: no new position", nil)
        }
        return operation.heldWords(moment, seen: seen)
    }

    /// What the `subscription`-th subscription of stage `number` (`retry`'s, made anew after the
    /// error) did in `column`, in full and in short: what it was handed and how it ended.
    static func retriedWords(_ number: Int, _ subscription: Int, column: StreamColumn) -> (String, String?) {
        let made = column.retried(ofStage: number)
        let ordinal = StreamLane.ordinal(subscription)
        guard made.indices.contains(subscription - 2) else {
            return ("nothing: retry made no \(ordinal) subscription here", nil)
        }
        let stages = column.slot.stages
        let name = stages.indices.contains(number) ? stages[number].name : "the stage"
        let retry = stages.first { $0 == .retry }.map { String($0.stageCode.dropFirst()) } ?? "retry"
        let handed = (column.position ?? column.state?.position).map { " handed \(SlotMoment.cell($0)) at once," } ?? ""
        let last = subscription - 2 == made.count - 1
        let ending = made[subscription - 2].ending
        let (ended, short): (String, String) =
            switch ending {
            case .failed?:
                (
                    last
                        ? "and the error came again: \(retry) has no subscriptions left, so it passes this one on"
                        : "and the error came again: \(retry) subscribed anew (the row below)",
                    "the error again"
                )
            case .unsubscribed?: ("then disposed of by the error after it", "disposed of by the error")
            case .completed?: ("then it completed", "completed")
            case nil: ("and it lives on", "lives on")
            }
        let marks = "\(Glyph.subscribed)\(ending.map { String($0.glyph) } ?? "")"
        return (
            "\(marks) \(retry)'s \(ordinal) subscription to \(name), made anew after the error:\(handed) \(ended)",
            "\(marks) \(ordinal) subscription to \(name) (retry's): \(short)"
        )
    }

    /// What a late lane of `kind` did in `column`, and why (its kind's rule), in full and in
    /// short: the marks drawn, each value's as the lane draws it (`mark`: its letter), then the
    /// values received there, oldest first (`^³ handed c 38,10 · d 39,10 · e 40,10 at once`), and how it
    /// ended there.
    static func lateWords(
        _ kind: LateSubscriber, lane: LateLane?, column: StreamColumn, mark: (MarbleValue) -> String
    ) -> (String, String?) {
        let key = kind.key
        // Where it subscribed or ended between two intents: before or after that column of its own.
        let momentAfter = { (moment: Int?) in column.moment.map { shown in moment.map { shown > $0 } ?? true } ?? false
        }
        let momentBefore = { (moment: Int?) in
            moment.map { moment in column.moment.map { $0 < moment } ?? true } ?? false
        }
        guard let lane, column.index > lane.start || column.index == lane.start && !momentBefore(lane.startMoment)
        else { return ("not subscribed yet (\(key) subscribes)", nil) }
        if let end = lane.end, column.index > end.column || column.index == end.column && momentAfter(end.moment) {
            return end.ending == .completed
                ? ("nothing: it completed at #\(end.column)", nil)
                : ("nothing: unsubscribed at #\(end.column) (\(key) subscribes again)", nil)
        }
        let marble = lane.marble(in: column)
        let marks = (marble?.allCells ?? []).filter { $0 != .line }.map { cell in
            if case .value(let value) = cell { mark(value) } else { String(cell.glyph) }
        }.joined()
        let ending = lane.end?.column == column.index && lane.end?.moment == column.moment ? lane.end?.ending : nil
        let endWords: String? =
            switch ending {
            case .completed?: "\(Glyph.completed) completed: the position subject completed (the session quit)"
            case .unsubscribed?: "\(Glyph.unsubscribed) unsubscribed (\(key) again)"
            case .failed?: "\(Glyph.error) an error ended it"
            case nil: nil
            }
        guard column.index == lane.start, lane.startMoment == column.moment else {
            let value =
                lane.received.contains(column.index) && column.moment == nil
                ? column.position.map { "\(mark(.position($0))) \($0.centre)" } : nil
            switch (value, endWords) {
            case (let value?, let endWords?): return ("\(value), then \(endWords)", "\(marks) \(value)")
            case (let value?, nil): return (value, nil)
            case (nil, let endWords?): return (endWords, nil)
            case (nil, nil):
                if kind == .relay, column.completed.contains(.position) {
                    return ("nothing: the position completed, but a relay never completes", "never completes")
                }
                return ("nothing: the position did not change", "nothing")
            }
        }
        // The subscription's column: what it was handed at once, and why.
        // Several: each by its letter too, as the values line groups them (`³=(cde)`); one is
        // drawn as its letter already (`^e`).
        let values = lane.handedPositions.map {
            lane.handed > 1 ? "\(mark(.position($0))) \($0.centre)" : "\($0.centre)"
        }
        .joined(separator: " · ")
        let subjectCompleted = ending == .completed
        let handedWords: String
        switch kind {
        case .behavior where subjectCompleted:
            handedWords = "handed only the completion: the Behavior subject had completed"
        case .publish where subjectCompleted:
            handedWords = "handed only the completion: the Publish subject had completed"
        case .publish: handedWords = "handed nothing: a Publish subject waits for the next value"
        case .behavior: handedWords = "handed \(values) at once: a Behavior subject hands the latest"
        case .relay: handedWords = "handed \(values) at once: a relay is a Behavior subject underneath"
        case .replay:
            let size = LateSubscriber.replayBufferSize
            let holds = lane.handed < size ? ", it held only \(lane.handed)" : ""
            let what = lane.handed == 0 ? "handed nothing" : "handed \(values) at once"
            handedWords =
                "\(what): a Replay subject keeps the last \(size)\(holds)"
                + (subjectCompleted ? ", then the completion: it had completed" : "")
        }
        let full = "\(marks) \(handedWords)" + (ending == .unsubscribed ? ", then \(endWords!)" : "")
        let short = lane.handed == 0 ? marks : "\(marks) handed \(values)"
        return (full, short)
    }
}

// MARK: - A span of the time view in words

extension StreamPanel {
    /// What a span of the time view (number `number` of `spans`) holds, longest first, for
    /// `lane` (the intents' lane: every intent in it): its times, then each event in it (one: as
    /// the event view words it; several: each in short), or that nothing came, and, on the
    /// slot's lane, how long its timed operator waits (`12.3s–12.4s: nothing: debounce waits until
    /// 12.65s`).
    func spanDescriptions(_ number: Int, in lane: StreamLane, spans: TimeSpans) -> [String] {
        let range = spans.range(of: number)
        let when =
            "\(Self.secondsWords(.init(microseconds: range.lowerBound.microseconds)))–\(Self.secondsWords(.init(microseconds: range.upperBound.microseconds)))"
        let events = columns.filter { column in
            guard column.index > 0 || lane != .intents else { return false }
            // The slot's values and a stage's passed on at more than one instant: each at its own.
            if let runs = column.timedRuns(lane) { return runs.contains { range.contains($0.at) } }
            let time: SessionTime? =
                switch lane {
                case .late(let kind): lateLane(kind, in: column)?.time(in: column)
                default: column.time(of: lane)
                }
            guard let time, range.contains(time) else { return false }
            return emits(column, in: lane)
        }
        let laneName: String
        switch lane {
        case .intents: laneName = ""
        case .late(let kind): laneName = " \(lateLabel(kind))"
        default: laneName = " \(lane.label)"
        }
        guard !events.isEmpty else {
            let quiet = lane == .intents ? "no intent" : "nothing"
            if lane == .slotted, let waits = waitWords(in: range) { return ["\(when)\(laneName): \(quiet): \(waits)"] }
            return ["\(when)\(laneName): \(quiet)"]
        }
        if events.count == 1, let column = events.first {
            let words = lane == .intents ? descriptions(column) : descriptions(column, in: lane)
            return words.map { "\(when): \($0)" }
        }
        let each = events.map { column in
            lane == .intents
                ? column.intent.map { "#\(column.index) \(Marble.describe($0))" } ?? "#\(column.index)"
                : descriptions(column, in: lane).last!
        }
        let (firstIndex, lastIndex) = (events.first!.index, events.last!.index)
        return [
            "\(when)\(laneName), \(events.count) events: " + each.joined(separator: " · "),
            "\(when)\(laneName), \(events.count) events: #\(firstIndex)–#\(lastIndex)",
        ]
    }

    /// Whether `lane` did something in `column` (a marble other than its line).
    private func emits(_ column: StreamColumn, in lane: StreamLane) -> Bool {
        switch lane {
        case .late(let kind):
            let marble = lateLane(kind, in: column)?.marble(in: column)
            return marble != nil && marble != .line
        default: return column.marble(lane) != .line
        }
    }

    /// How the slot's timed operator waits in `range`, if it does: until when, by the column
    /// whose wait runs into it.
    private func waitWords(in range: Range<SessionTime>) -> String? {
        for (position, column) in columns.enumerated().reversed() {
            guard let from = column.time, from < range.upperBound, let until = column.waitsUntil else { continue }
            let next = position + 1 < columns.count ? columns[position + 1].time : nil
            let end = min(until, next ?? until)
            guard end > range.lowerBound, from < end else { return nil }
            let at = SlotMoment.seconds(until)
            let interval =
                column.slot.stages.compactMap(\.operation.interval).max().map { "its \(PanelAxis.words($0)) " } ?? ""
            return "\(column.slot.name) waits: \(interval)end at \(at)"
        }
        return nil
    }
}

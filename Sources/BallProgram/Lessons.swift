import BallModel
import BallStreams
import ColourCore
import OpenCombine

// MARK: - The article, as lessons

/// What a lesson's check reads: the streams as the panel records them, from the column the
/// lesson began at, and whether the panel is open. Every check reads real subscriptions.
package struct LessonFacts {
    /// The columns since the lesson began (its first is the column it began at).
    package var columns: [StreamColumn]
    /// The late lanes (those that began or ended since the lesson began matter).
    package var lateLanes: [LateLane]
    /// The column the lesson began at.
    package var start: Int
    /// Whether the streams panel is open.
    package var streamsOpen: Bool
    /// The first late subscription made since the lesson began (``StreamRecorder/subscriptionsMade``
    /// when it began): a lane with an id below it was there before.
    package var firstSubscription = 0
    /// What the learner did to look since the lesson began: subscribes, cancels, the panel.
    package var observed: [Observation] = []
    /// The column the session ended in (`e`: the position subject completed), if it has.
    package var endedAt: Int?
    /// The column the screen's colours were last bound through a Publish copy of the chain
    /// (`o`) in, while they still are.
    package var boundThroughPublishAt: Int?
    /// While the copies of `map` are subscribed (`u`): how many positions they were sent, and
    /// how many times each copy's `map` ran.
    package var mapRuns: MapCounts?
    /// The column the copies of `map` were subscribed in (`u`), while they are.
    package var mapRunsAt: Int?

    /// The newest late lane of `kind` subscribed since the lesson began, if any (not one
    /// subscribed in the lesson's first column before it began: after the lesson before was done).
    package func lane(_ kind: LateSubscriber) -> LateLane? {
        lateLanes.last { $0.kind == kind && $0.id >= firstSubscription }
    }

    /// The columns after the lesson's first.
    var later: ArraySlice<StreamColumn> { columns.dropFirst() }

    /// The columns after the lesson's first whose intent the user made by moving the ball (a
    /// drag, an arrow, a recentre; not a resize, which the window makes).
    package var moves: [StreamColumn] { later.filter { $0.intent?.mover != nil } }

    /// The first move after column `after` whose position `pipe` (a timed one, whatever
    /// interval it waited) let through on its timer, after the intent of its column.
    func passedOnTimer(_ pipe: SlotPipe, after: Int) -> Int? {
        moves.first { column in
            guard column.index > after, column.slot.waiting(.usual) == pipe, column.slotted != nil,
                let passedAt = column.passedAt,
                let time = column.time
            else { return false }
            return passedAt > time
        }?.index
    }
}

/// Where the streams panel is when a lesson begins.
package enum LessonPanel: Sendable {
    /// As the lesson before left it.
    case asLeft
    /// Closed: the lesson's task is to open it.
    case closed
    /// Open: the lesson's point is on a lane, and it is done only while the lanes are drawn.
    case open
}

/// One lesson of `colourful-ball learn`: the article's point, the task that shows it, a hint,
/// what was learnt, and the check, which reads the streams. Every lesson begins from a known
/// state: no late subscriber left from before, the panel as ``panel`` says.
package struct Lesson: Sendable {
    /// The lesson's name in the progress file (`one-subject`): it stays when lessons are added
    /// before it, as its number does not.
    package let id: String
    /// A short title.
    package let title: String
    /// The point, in a few sentences.
    package let text: String
    /// What to do.
    package let task: String
    /// A hint, for `h`.
    package let hint: String
    /// What the learner saw, once the task is done.
    package let learnt: String
    /// Where the streams panel is when the lesson begins (and, when open, must stay for it to
    /// be done).
    package var panel: LessonPanel = .open
    /// What the card says in the text's place while its question (``predicts``) is not answered:
    /// the setting, without the answer.
    package var setup: String? = nil
    /// The late subscriber the task asks for, if one: another one is answered on the card.
    package var wants: LateSubscriber? = nil
    /// When the card first asks a question (what a late ``wants`` subscriber is handed, or
    /// ``question``): the right one of ``choices`` (from 1). Its key (the subscriber's, or `f`
    /// for an operator) works only once the learner has answered.
    package var predicts: Int? = nil
    /// The card's question where it is not what a late subscriber is handed.
    package var question: String? = nil
    /// The answers the card offers to its question (1, 2, 3).
    package var choices = Lesson.handedChoices
    /// Whether a move answers the card's question: the ball moves once the learner has guessed.
    package var predictsMoves = false
    /// Whether `e` ends the session in this lesson (its point is the end).
    package var ends = false
    /// Whether its point is on the session's clock: the time view (`T`) stays on into it, where
    /// every other lesson begins in the intent view (a column an intent), as its task reads it.
    package var timed = false
    /// The tour's own key this lesson teaches, beside the keys of play: `o` (the screen bound
    /// through Publish) or `u` (the copies of `map`); elsewhere the card says which lesson has it.
    package var tourKey: Unicode.Scalar? = nil
    /// Whether its point is on the slot's lane, which the lanes then draw (in a late subscriber's
    /// row: `learn`'s lanes keep their rows).
    package var operators = false
    /// Whether its lanes draw background's: not before the lesson that asks what background gets
    /// where ballColour swallows a value (its `─` there would answer it).
    package var backgroundLane = true
    /// The operators of the slot whose lesson this is: until it is done, the operators box (`f`)
    /// names them without saying what they do (that is the lesson's question).
    package var slots: [SlotPipe] = []
    /// The count the slot's lane reads when the task is done by the learner's moves alone (the
    /// counter's, from the position it is handed): where the lane reads more (a resize hands
    /// the position again), the card's verdict says so.
    package var reads: Int? = nil
    /// What the card says while the task's steps were done in another order than it asks, in
    /// the note's place (the steps to do again), and when they were.
    package var outOfOrder: (words: String, when: @Sendable (LessonFacts) -> Bool)? = nil
    /// Whether the task is done.
    package let isDone: @Sendable (LessonFacts) -> Bool

    /// The late rows its task needs on screen from its start, each lane or not: the one it asks
    /// for, or every kind where the session ends (its task subscribes each after `e`).
    package var lateRows: Set<LateSubscriber> {
        ends ? Set(LateSubscriber.allCases) : Set(wants.map { [$0] } ?? [])
    }

    /// The tour's keys whose lane or screen shows the answer to its question, and so wait for
    /// it: its late subscriber's (`b`, `p`, `r`), its own (`o`, `u`), and where the session ends,
    /// `e` and the relay's `v` (it asks what a late Relay is handed after the end).
    package var keys: [Unicode.Scalar] {
        [wants?.key, tourKey].compactMap { $0 } + (ends ? ["e", LateSubscriber.relay.key] : [])
    }

    /// The card's question, if it asks one.
    package var asks: String? {
        guard predicts != nil else { return nil }
        // The kind by name alone: the lesson's setting says what it keeps, before the choices.
        return question
            ?? wants.map {
                "Predict: what is a late \($0.plainName) subscriber handed as it subscribes?"
            }
    }

    /// What the card offers as the answer to "what is a late subscriber handed?" (1, 2, 3).
    package static let handedChoices = ["nothing", "the latest position", "the last three positions"]

    /// The numbers (from 0, in ``all``) of the lessons named `ids`; a name no lesson has (a later
    /// program's lesson) is left out.
    package static func indices(of ids: Set<String>) -> Set<Int> {
        Set(all.indices.filter { ids.contains(all[$0].id) })
    }

    /// The names of the lessons numbered `indices` (from 0, in ``all``).
    package static func ids(of indices: Set<Int>) -> Set<String> {
        Set(indices.filter { all.indices.contains($0) }.map { all[$0].id })
    }

    /// The lessons, in the article's order.
    package static let all: [Lesson] = [
        Lesson(
            id: "one-subject", title: "One subject",
            text:
                "The ball's centre lives in one subject, position; its colour is derived: position.map { $0.ballColour }.distinctUntilChanged() (its ·: lesson 2).",
            task: "Move the ball till its colour changes, then s: each stream as a lane.",
            hint: "Shift+arrows move 5 cells; the colours change in diagonal bands.",
            learnt:
                "position published centres (letters); the chain derived ● the ball's colour (background: lesson 2). → an arrow key; the ruler counts intents.",
            panel: .closed, backgroundLane: false,
            isDone: { facts in facts.streamsOpen && facts.moves.contains { $0.ballColour != nil } }),
        Lesson(
            id: "ghost", title: "A ghost",
            text:
                "distinctUntilChanged() (Combine: removeDuplicates()) passes on only a value unlike the last: a repeat is swallowed, and goes no further.",
            task: "Move one cell so that the colour stays: see ballColour's · and what background gets.",
            hint: "One arrow press in a band: position gets a letter, ballColour a ·.",
            learnt:
                "Worked out again and swallowed: · on ballColour, which passed nothing on, so background got nothing (─).",
            setup:
                "ballColour is position.map { $0.ballColour }.distinctUntilChanged(); background follows ballColour.",
            predicts: 2, question: "Predict: one cell in a band, the colour the same: what does background get?",
            choices: ["■ the same colour again", "nothing", "· a swallowed value too"], predictsMoves: true,
            isDone: { facts in facts.moves.contains { $0.position != nil && $0.ballColour == nil } }),
        Lesson(
            id: "behavior", title: "Behavior",
            text:
                "position is a BehaviorSubject (the article's Variable wrapped one, and completed when deallocated): a new subscriber gets the latest value at once.",
            task: "Press b to subscribe a late Behavior subscriber.",
            hint: "Its lane starts ^ and a letter: handed the current position.",
            learnt: "^ and a letter: a Behavior subject hands a late subscriber the latest value, then every change.",
            setup:
                "position is a BehaviorSubject (Combine: CurrentValueSubject), the kind the article's Variable wrapped. A late subscriber comes after values went by.",
            wants: .behavior, predicts: 2,
            isDone: { facts in facts.lane(.behavior).map { $0.handed == 1 } ?? false }),
        Lesson(
            id: "publish", title: "Publish",
            text:
                "A PublishSubject (Combine: PassthroughSubject) hands a new subscriber nothing: only what comes after.",
            task: "Press p, then move: see what the Publish subscriber gets, and when.",
            hint: "Its lane starts ^─ (handed nothing); a move brings its first value.",
            learnt: "^─ then a letter: it missed where the ball was as it subscribed. Hence position is a Behavior.",
            setup:
                "A PublishSubject (Combine: PassthroughSubject) is the other kind the article names. Subscribe one late, then move.",
            wants: .publish, predicts: 1,
            isDone: { facts in
                // A value it received from a move (not from the window's resize).
                let moves = Set(facts.moves.map(\.index))
                return facts.lane(.publish).map { $0.handed == 0 && !$0.received.isDisjoint(with: moves) } ?? false
            }),
        Lesson(
            id: "why-behavior", title: "Why Behavior",
            text:
                "o binds the screen as if through a Publish subject from launch: a view shows its default colour (white) until its first value.",
            task: "Press o: the screen's colours bound through a Publish copy of the chain. Then move.",
            hint: "Before its first value a view shows its default: white, the ball hollow.",
            learnt:
                "Publish handed the screen nothing (copy.screen ^─): white until its first ■ (it stays white where the ball is its own complement). o: back.",
            panel: .asLeft,
            setup:
                "The screen is a subscriber too, bound to the chain as RxCocoa's bind(to:) binds a view. o binds it as if through a Publish subject from launch.",
            predicts: 2,
            question:
                "Predict: bound through a Publish subject from launch, what does the screen show until the next move?",
            // Three screens that look different (the colours at launch are the current ones for a
            // learner who starts here, before a move): the answer is seen, not argued.
            choices: ["the current colours", "white, the ball hollow", "no ball, the colours kept"],
            tourKey: "o",
            isDone: { facts in
                guard let bound = facts.boundThroughPublishAt else { return false }
                return facts.moves.contains { $0.index > bound && $0.position != nil }
            }),
        Lesson(
            id: "replay", title: "Replay",
            text: "A Replay subject keeps the last n values and hands them all to a new subscriber at once.",
            task: "Press r: a Replay(3) subscriber is handed the last three positions at once.",
            hint: "Its lane starts ^³ (three at once) once the ball has moved three times.",
            learnt:
                "^³: three at once. The centre is a Behavior, not a Replay(1): it always holds one value, from the start.",
            setup:
                "A Replay subject, here RxSwift's ReplaySubject.create(bufferSize: 3), is the third kind.",
            wants: .replay, predicts: 3,
            isDone: { facts in facts.lane(.replay).map { $0.handed == LateSubscriber.replayBufferSize } ?? false }),
        Lesson(
            id: "cancel", title: "Cancel",
            text: "A subscription lasts until it is cancelled (disposed of, in RxSwift); then nothing more arrives.",
            task: "Subscribe a late subscriber (b, p or r), press its key again to cancel it, then move.",
            hint: "Its lane ends ! and stays empty, while position gets the move.",
            learnt: "!: unsubscribed. The subject went on (a letter on position); that subscriber heard nothing more.",
            isDone: { facts in
                // A move after the cancel, its lane's row drawing nothing new: no subscriber of
                // its kind since.
                facts.lateLanes.contains { lane in
                    guard lane.id >= facts.firstSubscription, let end = lane.end, end.ending == .unsubscribed,
                        !facts.lateLanes.contains(where: { $0.kind == lane.kind && $0.id > lane.id })
                    else { return false }
                    return facts.moves.contains { $0.index > end.column && $0.position != nil }
                }
            }),
        Lesson(
            id: "scan", title: "scan remembers",
            text:
                "background is ballColour.scan(…).distinctUntilChanged(): scan's accumulator is the screen's colour, kept where the ball is its own complement.",
            task:
                "Take the ball into a dark band (the note says where), where the screen keeps its colour: · on background.",
            hint: "There the ball is flatBlackDark, its own complement: the screen stays.",
            learnt: "scan handed back its accumulator, the screen's colour, and distinctUntilChanged swallowed it: ·.",
            isDone: { facts in facts.moves.contains { $0.ballColour != nil && $0.background == nil } }),
        Lesson(
            id: "share", title: "share",
            text:
                "ballColour ends in share(replay: 1): one run of map for all its subscribers, and a late one is handed the last colour (Combine's share() hands nothing).",
            task:
                "Press u: two subscribers to a shared copy of map, two to an unshared one (not lanes: the note counts). Move three times.",
            hint: "position hands each new subscriber its value, so map runs at u too.",
            learnt: "Shared, map ran once a position for both subscribers; unshared, once for each of them.",
            panel: .asLeft, tourKey: "u",
            isDone: { facts in
                // Three positions the learner moved to (a resize sends the copies one too).
                guard facts.mapRuns != nil, let at = facts.mapRunsAt else { return false }
                return facts.moves.filter { $0.index > at && $0.position != nil }.count >= 3
            }),
        Lesson(
            id: "filter", title: "filter",
            text:
                "f puts an operator between position and the colour. position.filter { $0.isInRightHalf } passes on only positions in the right half.",
            task: "Press f then 2 (filter), then move the ball into the left half: the colour stops following.",
            hint: "Left of middle: a letter on position, none on .filter.",
            learnt: "position: a value; .filter: none: what filter drops never reaches the colour. f 1 takes it out.",
            operators: true, slots: [[.filter]],
            isDone: { facts in facts.moves.contains { $0.slot == [.filter] && $0.position != nil && $0.slotted == nil }
            }),
        Lesson(
            id: "counter", title: "map, scan: the counter",
            text:
                "position.map { _ in 1 }.scan(0) { $0 + $1 }, the Rx introductions' counter: map makes each position a 1, scan adds them up; the colour follows the count.",
            task: "Press f then 9 (the counter), then three moves: read .map.scan's count.",
            hint: "The lane reads each count; the colour steps with each.",
            learnt: "Each position a 1, the sum kept: how many, not where, sets the colour.",
            predicts: 2, question: "Predict: after f 9 and three moves, what will .map.scan read?",
            choices: ["it reads 3", "it reads 4", "the ball's column"],
            operators: true, slots: [.counter], reads: 4,
            isDone: { facts in
                // Three moves counted since the counter last went in (its count starts again
                // there); a resize is counted too, but is not the learner's.
                let built = facts.later.last { $0.intent?.buildsPipe == true }?.index ?? facts.start
                return facts.moves.filter { $0.index >= built && $0.slot == .counter && $0.slotted != nil }.count >= 3
            }),
        Lesson(
            id: "compose", title: "operators compose",
            text:
                "Each operator returns a new Observable; the one before stays as it was: the counter is map { _ in 1 } then scan(0) { $0 + $1 }, a lane each.",
            task:
                "f z (map { _ in 1 }), two moves; then f | 9 (scan after it), three moves.",
            hint: "in the f box, | adds a stage after the last; Backspace takes it out.",
            learnt:
                "map alone: all 1s, one colour (· swallowed). Adding scan subscribed the chain anew: map's lane starts again ├1, scan counts its 1s; the colour steps.",
            setup:
                "Lesson 11's counter, built by you a stage at a time: first position.map { _ in 1 }, then .scan(0) { $0 + $1 } after it.",
            predicts: 2, question: "Predict: map { _ in 1 } alone, two moves: what does the colour do?",
            choices: ["steps on each move", "stays the same", "follows the ball"],
            operators: true,
            outOfOrder: (
                "f 9 put the counter in whole; the task builds it in stages: f z, then f | 9.",
                { facts in
                    // The counter in the slot as f 9 put it, whole: its lanes read as when built
                    // by hand, so the card says why the lesson does not pass.
                    guard facts.columns.last?.slot == .counter else { return false }
                    return facts.later.last { $0.intent?.buildsPipe == true }?.intent == .operatorChosen(.counter)
                }
            ),
            isDone: { facts in
                // Built here a stage at a time (not the counter chosen whole, f 9): two moves
                // through map alone, then three that passed through both stages.
                guard
                    let built = facts.later.last(where: { $0.intent == .stageAdded(.scan) && $0.slot == .counter })?
                        .index
                else { return false }
                let alone = facts.moves.filter { column in
                    column.index < built && column.slot == [.mapToOne] && column.slotted != nil
                }
                guard alone.count >= 2 else { return false }
                let counted = facts.moves.filter { column in
                    column.index > built && column.slot == .counter && column.slotted != nil
                        && column.emission(.stage(0)) != nil
                }
                return counted.count >= 3
            }),
        Lesson(
            id: "debounce-throttle", title: "debounce, throttle",
            text:
                "On the session's clock (T lays the lanes on it; a wait is ~), debounce passes a value once 300 ms pass with no new one; throttle one each 300 ms at most.",
            task: "f 4 (debounce), a few quick moves, then stop; then f 5 (throttle) and a few quick moves again.",
            hint: "Hold an arrow, then let go: watch when each lane gets a value.",
            learnt:
                "debounce passed the last position after 300 ms quiet; throttle the first at once, then the latest at each 300 ms window's end.",
            setup: "Timing operators run on the session's clock: debounce and throttle hold positions back.",
            predicts: 1, question: "Predict: quick moves with throttle (f 5) in: what does it pass first?",
            choices: ["the first, at once", "the last, 300 ms later", "nothing till you stop"],
            timed: true, operators: true, slots: [[.debounce], [.throttle]],
            outOfOrder: (
                "throttle came first; the card asks debounce first. f 5, quick moves again.",
                { facts in
                    // Both passed on their timers, throttle only before debounce.
                    guard let debounced = facts.passedOnTimer([.debounce], after: facts.start) else { return false }
                    return facts.passedOnTimer([.throttle], after: facts.start).map { $0 < debounced } ?? false
                }
            ),
            isDone: { facts in
                // In the card's order: debounce let a position the learner moved to through on its
                // timer; then, on a move after that, throttle did.
                guard let debounced = facts.passedOnTimer([.debounce], after: facts.start) else { return false }
                return facts.passedOnTimer([.throttle], after: debounced) != nil
            }),
        Lesson(
            id: "combine-latest", title: "combineLatest",
            text:
                "combineLatest joins two subjects: position and mirror, a switch i flips. When either changes, it passes on the latest of both.",
            task: "Press f then 6 (combineLatest), then i without moving the ball: watch position and .combineLatest.",
            // Near the middle the mirror image is a column or two away, mostly in the ball's own
            // colour band (not at a band's edge): the ball and the status line's ● do not change,
            // which reads as combineLatest passing nothing on.
            hint: "Mid-screen the mirror image mostly has the same colour: watch the lanes.",
            learnt: "¦ then a value, no new position: combineLatest passes on when either subject changes.",
            setup:
                "combineLatest joins two subjects: position and mirror, a switch i flips. The ball stays where it is.",
            predicts: 2,
            question:
                "Predict: with combineLatest in (f 6), i flips the mirror, the ball still: what does .combineLatest do?",
            choices: ["passes nothing on", "passes on a value", "waits for a move"],
            operators: true, slots: [[.combineLatest]],
            isDone: { facts in
                facts.later.contains { column in
                    column.intent == .mirrorFlipped && column.slot == [.combineLatest] && column.slotted != nil
                }
            }),
        Lesson(
            id: "flat-map-latest", title: "flatMapLatest, the drag",
            text:
                "The classic Rx drag: each press maps to the positions until its release; flatMapLatest is map then switchLatest (Combine: switchToLatest).",
            task:
                "Press f then 8 (flatMapLatest). Move with an arrow key, then drag the ball with the mouse and let go.",
            hint: "A key moves position alone; a drag moves position and .flatMapLatest.",
            learnt:
                "Drags only. Latest: the release's .empty() took the press's place, its inner stream cancelled (!).",
            operators: true, slots: [[.flatMapLatest]],
            isDone: { facts in
                let keyed = facts.moves.contains { column in
                    guard case .arrowPressed? = column.intent else { return false }
                    return column.slot == [.flatMapLatest] && column.position != nil && column.slotted == nil
                }
                let dragged = facts.moves.contains { column in
                    guard case .dragged? = column.intent else { return false }
                    return column.slot == [.flatMapLatest] && column.slotted != nil
                }
                // Latest: the release switched to its .empty(), cancelling the press's inner
                // subscription (its lane's `!`).
                let switched = facts.later.contains { column in
                    guard case .released? = column.intent, column.slot == [.flatMapLatest] else { return false }
                    return column.innersBefore.contains { !column.innersAfter.contains($0) }
                }
                return keyed && dragged && switched
            }),
        Lesson(
            id: "flat-map", title: "flatMap or flatMapLatest",
            text:
                "flatMap maps each press to position as flatMapLatest does, but cancels none: every press's inner subscription lives on and passes each position.",
            task:
                "f g (flatMap), then drag the ball twice: the second drag passes each position twice. Then f 8, drag twice.",
            hint: "under .flatMap a lane per press: two live, two values a column.",
            learnt:
                "flatMap kept the first press's subscription: each position twice. flatMapLatest cancelled it: once. Hence the drag's Latest.",
            setup:
                "flatMap (Combine's too) maps each press to position and each release to .empty(), as flatMapLatest does.",
            predicts: 2,
            question:
                "Predict: flatMap in (f g), the ball pressed twice: how often does .flatMap pass each new position?",
            choices: ["once", "twice", "not at all"],
            operators: true, slots: [[.flatMap]],
            isDone: { facts in
                // flatMap passed a position twice in one column (two inner subscriptions), and
                // flatMapLatest, after two presses of its own, passed a drag's position once.
                let doubled = facts.moves.contains { $0.slot == [.flatMap] && $0.slottedCount >= 2 }
                var presses = 0
                var once = false
                for column in facts.later where column.slot == [.flatMapLatest] {
                    switch column.intent {
                    case .pressed?: presses += 1
                    case .dragged?: once = once || presses >= 2 && column.slotted != nil && column.slottedCount <= 1
                    case .operatorChosen?, .stageAdded?, .stageRemoved?: presses = 0
                    default: break
                    }
                }
                return doubled && once
            }),
        Lesson(
            id: "error", title: "an error ends the stream",
            text:
                "An error ends a stream: tryMap throws in a corner (#) and nothing after it comes. catch puts a fallback in its place: .just(centre), which completes.",
            task:
                "f X (tryMap, then catch), then c, Shift+Right to the right edge, Shift+Down into the corner.",
            hint: "Without catch the # would reach the binding: the colour dead for good.",
            learnt:
                "tryMap's # caught: catch handed the centre, then its |. slotted, a switchLatest over the pipes, lives on. Uncaught, the binding dies.",
            setup:
                "tryMap, RxSwift's map { … } that throws (Combine: tryMap), throws in a corner; catch { _ in .just(centre) } after it.",
            predicts: 2, question: "Predict: f X (tryMap, catch), the ball into a corner: what does the colour do?",
            choices: ["stops for good", "the centre's, then stays", "goes on following"],
            operators: true, slots: [[.tryMap, .catch]],
            outOfOrder: (
                "No change seen: the ball had the centre's colour. Leave the corner, f X, c.",
                { facts in facts.moves.last.map { Lesson.caughtInACorner($0) && $0.ballColour == nil } ?? false }
            ),
            isDone: { facts in
                // Caught in a corner, the colour seen to change: the centre's, which the ball did
                // not have (else catch's fallback would look like no change).
                facts.moves.contains { Lesson.caughtInACorner($0) && $0.ballColour != nil }
            }),
        Lesson(
            id: "completion", title: "Completion",
            text:
                "e completes position and all after it: each lane ends |, as the article's Variable did when deallocated. BehaviorRelay (v) never ends.",
            task: "Press e to end the session, then b, p, r and v: what does each late subscriber get?",
            hint: "Each late lane says it in its first column; point at it for the words.",
            learnt:
                "Behavior and Publish ^|: the end alone; Replay ^, what it holds, then |; the relay ^ and its value: no end.",
            setup:
                "e completes position and all after it: each lane ends |, as the article's Variable did when deallocated. v's relay is a BehaviorRelay, what Variable became.",
            predicts: 2, question: "Predict: after e ends position, what is a late Relay (v) handed?",
            choices: ["only the end", "its latest value, no end", "nothing at all"],
            ends: true,
            isDone: { facts in
                guard let end = facts.endedAt else { return false }
                return LateSubscriber.allCases.allSatisfy { kind in facts.lane(kind).map { $0.start >= end } ?? false }
            }),
    ]

    /// Whether `column` is lesson 17's catch at work: in a corner, with catch after tryMap (R's
    /// retry between them too), the error replaced by the centre, passed on to the colour.
    static func caughtInACorner(_ column: StreamColumn) -> Bool {
        guard
            column.slot == [.tryMap, .catch] || column.slot == SlotOperator.retry.alone(catchingRetry: true),
            let position = column.position, position.isInCorner
        else { return false }
        return column.slotted == .position(.centred(on: position.screen))
    }
}

import ColourCore
import OpenCombine
import TextFormats

// MARK: - The operator slot

/// The operator the learner puts into the chain between `position` and the ball's colour: the
/// ball's colour follows what it passes on, while the position itself stays live. Chosen with
/// a key (or `--operator` at the start), an intent like any other, so a recording replays it.
///
/// Each operator is one file under `SlotOperators/`, a ``SlotOperation`` that holds both its
/// forms side by side: the real operator on the chain's subjects (OpenCombine's, and ours where
/// OpenCombine has none, written as RxSwift's) and the reducer's model of what it passes on;
/// the session checks the two agree. ``allCases`` is the one list that registers them.
package struct SlotOperator: RawRepresentable, Hashable, Sendable, CaseIterable {
    /// The operators, in the operators box's order: the one list a new operator joins.
    package static let allCases: [SlotOperator] = [
        .none, .filter, .map, .debounce, .throttle, .combineLatest, .sample, .flatMapLatest, .mapToOne, .scan,
        .merge, .startWith, .distinctUntilChanged, .flatMap, .tryMap, .catch, .retry, .catchAndReturn,
    ]

    /// What the operator is and does.
    package let operation: any SlotOperation

    /// The operator `operation` describes.
    package init(_ operation: any SlotOperation) { self.operation = operation }

    /// The operator `rawValue` names (as `--operator` and the status line write it: `debounce`,
    /// `debounce:1000ms`), if it names one (``parse(_:)``).
    package init?(rawValue: String) {
        guard case .success(let found) = Self.parse(rawValue) else { return nil }
        self = found
    }

    /// The operator `text` names: an operator's name (or a name it had, which older recordings
    /// wrote: ``SlotOperation/formerNames``), and for a timed one its interval after a colon
    /// (`debounce:1000ms`; `debounce` alone waits ``SlotInterval/usual``). A failure says in one
    /// sentence what is wrong.
    package static func parse(_ text: String) -> Result<SlotOperator, PipeProblem> {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let found = allCases.first(where: { $0.name == parts[0] || $0.operation.formerNames.contains(parts[0]) })
        else { return .failure(.unknown(text)) }
        guard parts.count == 2 else { return .success(found) }
        guard found.timing != nil else { return .failure(.notTimed(found)) }
        guard parts[1].hasSuffix("ms"), let milliseconds = Int(parts[1].dropLast(2)),
            let interval = SlotInterval(rawValue: milliseconds)
        else { return .failure(.badInterval(found, parts[1])) }
        return .success(found.waiting(interval))
    }

    /// The operator as `--operator` and the status line write it: its name, and a timed one's
    /// interval after a colon where it is not ``SlotInterval/usual`` (`debounce:1000ms`).
    package var rawValue: String {
        guard let timing, timing != .usual else { return operation.name }
        return "\(operation.name):\(timing.name)"
    }
    /// The operator's name, as the replay file writes it (a timed one's interval apart, in the
    /// event's `interval`).
    package var name: String { operation.name }

    /// The same operator waiting the same: its name and its interval, as ``rawValue`` names it
    /// (compared without making that string: the time view compares every column's pipe).
    package static func == (lhs: SlotOperator, rhs: SlotOperator) -> Bool {
        lhs.name == rhs.name && lhs.timing == rhs.timing
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(timing)
    }
    /// How long it waits, if it runs on the session's clock (`debounce`, `throttle`).
    package var timing: SlotInterval? { operation.timing }

    /// The same operator waiting `interval`, if it runs on the session's clock; else itself.
    package func waiting(_ interval: SlotInterval) -> SlotOperator {
        timing == nil ? self : SlotOperator(operation.waiting(interval))
    }
    /// The key that puts it in from the operators box (`f`).
    package var key: Unicode.Scalar { operation.key }
    /// The slot's code, as the chain applies it to `position`: `position.filter { $0.isInRightHalf }`.
    package var code: String { operation.code }
    /// What it does, in a few words: `only the right half goes through`.
    package var words: String { operation.words }
    /// The subjects the operator reads, as its code names them (``SlotOperation/inputs``).
    package var inputs: [SlotInput] { operation.inputs }
    /// Whether the operator reads the second subject, `mirror`.
    package var readsMirror: Bool { inputs.contains(.mirror) }

    /// The name of its part of the slot's lane (`slotted`), in the row above the lane: `.filter`;
    /// `none` for the empty slot (the position goes through as it is); a timed one with its
    /// interval where it is not the usual, `.debounce(1000ms)`.
    package var laneLabel: String {
        guard self != .none else { return name }
        guard let timing, timing != .usual else { return "." + operation.rxName }
        return ".\(operation.rxName)(\(timing.name))"
    }

    /// A timed one's interval after a colon where it is not the usual, as `--operator` writes it
    /// (`:1000ms`); else nothing.
    package var intervalSuffix: String { String(rawValue.dropFirst(name.count)) }

    /// The pipe its key puts in the slot from the operators box: itself, or, for an operator that
    /// takes counts, the counter's `map { _ in 1 }` before it (`scan` alone: `mapToOne,scan`); for
    /// one that recovers from an error, `tryMap` before it, which throws one (`catch` alone:
    /// `tryMap,catch`).
    package var alone: SlotPipe {
        if operation.recovers { return [.tryMap, self] }
        return operation.takes == .count ? [.mapToOne, self] : [self]
    }

    /// The pipe its key puts in (``alone``), with `catch` after `retry` when `catchingRetry`
    /// (`learn`): retry's last error goes on, and would end the colour for good; after it,
    /// `catch` hands the middle, so the resubscriptions are seen and the colour lives.
    package func alone(catchingRetry: Bool) -> SlotPipe {
        guard catchingRetry, self == .retry, case .success(let caught) = alone.adding(.catch) else { return alone }
        return caught
    }

    /// The digit that puts it in from the operators box, when its key is one.
    package var digit: Int? { key.properties.numericType == nil ? nil : Int(String(key)) }

    /// The operator whose ``digit`` is `digit`, if one has it.
    package init?(digit: Int) {
        guard let found = Self.allCases.first(where: { $0.digit == digit }) else { return nil }
        self = found
    }

    /// When the operator's timer goes off for what `stage` holds, if it holds anything and runs
    /// on the session's clock: the reducer's and the session's next timer.
    package func timer(_ stage: SlotStage) -> SessionTime? { operation.timer(stage) }

    /// Until when the operator waits in `stage`, if it runs on the session's clock and waits: its
    /// timer for what it holds (`debounce`'s quiet, `throttle`'s window with a value held), or
    /// the end of `throttle`'s window, open with nothing held (a value that came would be held).
    /// What the time view draws as a wait (`~`); the reducer's model, as ``timer(_:)`` is.
    package func waitsUntil(_ stage: SlotStage) -> SessionTime? {
        guard let interval = operation.interval else { return nil }
        let ends = [stage.heldSince, stage.windowStart].compactMap { $0?.advanced(by: interval) }
        return ends.max()
    }
}

/// One operator the chain's slot can hold, whole: its name, key and code; the real operator
/// it applies to the stage before it; the reducer's model of it (its step, its timer); and the
/// words the operators box, the status line and the slot's lane say of it.
///
/// One file each under `SlotOperators/`, registered in ``SlotOperator/allCases``. The slot holds
/// a pipe of up to three of them (``SlotPipe``): each applied to what the one before passes on.
package protocol SlotOperation: Sendable {
    /// The name, as the replay file and `--operator` write it (Rx's name).
    var name: String { get }
    /// Names it had before, which older replay files wrote (Combine's `replaceError`, now
    /// `catchAndReturn`): read as ``name``, never written.
    var formerNames: [String] { get }
    /// The key that puts it in from the operators box (`f`): a digit, or a letter.
    var key: Unicode.Scalar { get }
    /// Its operator's name in Rx, as its lane names it: ``name`` unless two share one
    /// (`mapToOne` is a `map`).
    var rxName: String { get }
    /// The code, as the chain applies it to `position`: `position.filter { $0.isInRightHalf }`.
    var code: String { get }
    /// The code as the tour names it before its lesson's guess: without what the lesson asks
    /// (`catch`'s fallback, `position.catch { _ in … }`); ``code`` where none of it does.
    var unsaidCode: String { get }
    /// What it does, in a few words, for the operators box and `--help`.
    var words: String { get }
    /// Whether ``words`` say what a Behavior subject hands a new subscriber (`sample`'s: the
    /// mirror's value, as it subscribes), which the tour's Behavior lesson asks first.
    var wordsTellWhatBehaviorHands: Bool { get }
    /// The same operator in RxPY, for `scripts/check_rxpy_marbles.py`: an expression over its
    /// names (`upstream`, what the stage before passes on, or the position subject for the first;
    /// `subject`, `mirror`, `grabbed`, `sources`, `ops`, `reactivex`, `scheduler` and the helpers
    /// it defines).
    var rxpy: String { get }
    /// What the bench's idle row types with it in the slot (the keys, or a drag's mouse bytes),
    /// what the row's name says came before the idle (`after moves`), and how long it lets the
    /// screen settle after them, in seconds.
    var benchIdle: (keys: String, after: String, settle: Double) { get }
    /// The subjects it reads, in the order its code names them (`position`, `mirror`): each has a
    /// lane in the streams panel while it is in the slot, and the exports write them (the status
    /// line shows the mirror when it reads `mirror`). A stage after the first reads the stage
    /// before it where the code says `position`.
    var inputs: [SlotInput] { get }
    /// What it takes from the stage before it: positions, counts, either (nil); or, for an
    /// operator that reads the chain's subjects itself and not the stage before (`merge`,
    /// `flatMapLatest`, `startWith`), nothing: it can only start a pipe (``startsPipe``).
    var takes: SlotValueKind? { get }
    /// Whether it reads the chain's subjects itself, so it can only be a pipe's first stage.
    var startsPipe: Bool { get }
    /// What it passes on when handed `input`: positions or counts.
    func gives(_ input: SlotValueKind) -> SlotValueKind

    /// The operator applied to `upstream` (what the stage before passes on, or the position for
    /// the first), its timers on the session's clock (``SlotInputs``): what the stage passes on.
    /// A new pipe subscribes afresh (`resuming` nil), handed at once what the subjects hold; a
    /// chain built part-way resumes each stage's memory (``SlotResume``), and its upstream
    /// hands nothing as it subscribes.
    func applied(
        to upstream: AnyPublisher<SlotOutput, Never>, inputs: SlotInputs, resuming: SlotResume?
    ) -> AnyPublisher<SlotOutput, Never>
    /// The operator as the chain runs it on what cannot fail, its failure an `Error`:
    /// ``applied(to:inputs:resuming:)``, which cannot fail, but for an operator that throws
    /// (`tryMap`), which says here how.
    func running(
        on upstream: AnyPublisher<SlotOutput, Never>, inputs: SlotInputs, resuming: SlotResume?
    ) -> AnyPublisher<SlotOutput, Error>
    /// Whether it can fail (`tryMap`): an error ends it and every stage after it, up to one that
    /// recovers (``recovers``); without one, the chain after the slot too.
    var canFail: Bool { get }
    /// The reducer's model of its failing in `step`, if it does: the error that ends it and the
    /// stages after it, up to one that recovers.
    func failure(_ step: SlotStep) -> SlotError?
    /// Whether it recovers from an error of a stage before it (`catch`, `retry`, `catchAndReturn`):
    /// it goes only after a stage that can fail.
    var recovers: Bool { get }
    /// Whether no error comes out of it, whatever came before (`catch`, `catchAndReturn`; `retry`'s
    /// last error goes on).
    var endsErrors: Bool { get }
    /// Whether it goes after a stage that can fail: ``passingErrors(_:afresh:inputs:resuming:)``
    /// gives its form for what can fail.
    var passesErrors: Bool { get }
    /// The operator after a stage that can fail, on what can fail: an error from before goes
    /// through it at once, as through each of Rx's operators, unless it recovers from it; nil
    /// when it does not go after a stage that can fail (``PipeProblem/afterFailing(_:_:)``).
    /// `afresh` is the stages before it subscribed anew, as `retry` resubscribes (a chain built
    /// part-way resumes its stages, which a new subscription must not).
    func passingErrors(
        _ upstream: AnyPublisher<SlotOutput, Error>, afresh: @escaping () -> AnyPublisher<SlotOutput, Error>,
        inputs: SlotInputs, resuming: SlotResume?
    ) -> AnyPublisher<SlotOutput, Error>?
    /// The reducer's model of its recovering from `error` in `step` (what a stage before it threw),
    /// if it does: nil, the error goes on to the stages after it.
    func recovery(_ stage: inout SlotStage, from error: SlotError, _ step: SlotStep) -> SlotRecovery?
    /// Every value it passes on in `step`, in order: ``step(_:_:)``'s, or several for an
    /// operator that passes one value on more than once (`flatMap`'s inner subscriptions).
    func steps(_ stage: inout SlotStage, _ step: SlotStep) -> [SlotOutput]

    /// How long it holds a value back, if it runs on the session's clock: its timer goes off
    /// this long after what it holds started (``SlotStage/heldSince``). The learner chooses it
    /// (``waiting(_:)``).
    var timing: SlotInterval? { get }
    /// The same operator waiting `interval`, for one that runs on the session's clock; itself
    /// for the rest.
    func waiting(_ interval: SlotInterval) -> any SlotOperation
    /// Whether it remembers what it last passed on (`scan`'s sum, `distinctUntilChanged`'s last):
    /// the last stage keeps it in ``SlotStage/passed`` only then.
    var remembersPassed: Bool { get }
    /// When its timer goes off for what `stage` holds, if it holds anything: ``interval`` after
    /// ``SlotStage/heldSince`` unless it says otherwise (`throttle`: when its window ends).
    func timer(_ stage: SlotStage) -> SessionTime?
    /// The reducer's model of it, for one step of the pipe (``SlotStep``): what it passes on,
    /// if anything; it sets what it holds in `stage`.
    func step(_ stage: inout SlotStage, _ step: SlotStep) -> SlotOutput?
    /// Whether the stage completes when what it is handed completes (in `step`): most do at once;
    /// one that holds a value back may complete later, or never.
    func ends(_ stage: SlotStage, _ step: SlotStep) -> Bool
    /// The reducer's model of its timer going off at `due`: what it held (`latest`, the last
    /// value the stage before passed on) goes through.
    func timerWentOff(_ stage: inout SlotStage, at due: SessionTime, latest: SlotOutput?) -> SlotOutput?

    /// Its own words for what it passed on, `passed`, in `moment`, in full and in short; nil: the
    /// words every operator says (chosen and handed the position, or the value alone).
    func passedWords(_ moment: SlotMoment, _ passed: SlotOutput) -> (String, String?)?
    /// Its own words for passing nothing on in `moment`, whatever came; nil: as for the position
    /// that came (``heldWords(_:seen:)``), or that no position came.
    func quietWords(_ moment: SlotMoment) -> (String, String?)?
    /// Why it passed nothing on for `seen`, the position it was handed in `moment`, in full and in
    /// short.
    func heldWords(_ moment: SlotMoment, seen: BallPosition) -> (String, String?)
}

extension SlotOperation {
    package func running(
        on upstream: AnyPublisher<SlotOutput, Never>, inputs: SlotInputs, resuming: SlotResume?
    ) -> AnyPublisher<SlotOutput, Error> {
        applied(to: upstream, inputs: inputs, resuming: resuming).setFailureType(to: Error.self).eraseToAnyPublisher()
    }
    package var canFail: Bool { false }
    package func failure(_ step: SlotStep) -> SlotError? { nil }
    package var recovers: Bool { false }
    package var endsErrors: Bool { false }
    package var passesErrors: Bool { false }
    package func passingErrors(
        _ upstream: AnyPublisher<SlotOutput, Error>, afresh: @escaping () -> AnyPublisher<SlotOutput, Error>,
        inputs: SlotInputs, resuming: SlotResume?
    ) -> AnyPublisher<SlotOutput, Error>? { nil }
    package func recovery(_ stage: inout SlotStage, from error: SlotError, _ step: SlotStep) -> SlotRecovery? { nil }
    package func steps(_ stage: inout SlotStage, _ step: SlotStep) -> [SlotOutput] {
        self.step(&stage, step).map { [$0] } ?? []
    }
    package var inputs: [SlotInput] { [.position] }
    package var rxName: String { name }
    package var unsaidCode: String { code }
    package var wordsTellWhatBehaviorHands: Bool { false }
    package var formerNames: [String] { [] }
    package var takes: SlotValueKind? { .position }
    package var startsPipe: Bool { false }
    package func gives(_ input: SlotValueKind) -> SlotValueKind { input }
    package var timing: SlotInterval? { nil }
    package func waiting(_ interval: SlotInterval) -> any SlotOperation { self }
    /// How long it holds a value back, if it runs on the session's clock (``timing``).
    package var interval: SessionTime.Stride? { timing?.stride }
    package var remembersPassed: Bool { false }
    package func step(_ stage: inout SlotStage, _ step: SlotStep) -> SlotOutput? { nil }
    package func timer(_ stage: SlotStage) -> SessionTime? {
        guard let heldSince = stage.heldSince, let interval else { return nil }
        return heldSince.advanced(by: interval)
    }
    package var benchIdle: (keys: String, after: String, settle: Double) { ("hhhh", "after moves", 0.5) }
    package func timerWentOff(_ stage: inout SlotStage, at due: SessionTime, latest: SlotOutput?) -> SlotOutput? {
        stage.heldSince = nil
        return latest
    }
    package func passedWords(_ moment: SlotMoment, _ passed: SlotOutput) -> (String, String?)? { nil }
    package func quietWords(_ moment: SlotMoment) -> (String, String?)? { nil }
    package func heldWords(_ moment: SlotMoment, seen position: BallPosition) -> (String, String?) { ("nothing", nil) }
}

/// An operator that recovers from an error of a stage before it (`catch`, `retry`, `catchAndReturn`):
/// it goes only after a stage that can fail, and acts only in its form for what can fail
/// (``SlotOperation/passingErrors(_:afresh:inputs:resuming:)``).
package protocol RecoveringOperation: SlotOperation {}

extension RecoveringOperation {
    package var recovers: Bool { true }
    package var passesErrors: Bool { true }
    /// Nothing to recover from: what cannot fail goes through as it is (a pipe puts it only after
    /// a stage that can fail: ``PipeProblem/nothingToRecover(_:)``).
    package func applied(
        to upstream: AnyPublisher<SlotOutput, Never>, inputs: SlotInputs, resuming: SlotResume?
    ) -> AnyPublisher<SlotOutput, Never> { upstream }
}

/// How long a timed operator waits (`debounce`'s quiet, `throttle`'s window): one of three, so
/// the learner sees the same drag debounced three ways. Chosen in the operators box (`(`, `)`)
/// or on the command line (`debounce:1000ms`); the intent that builds the pipe carries it.
package enum SlotInterval: Int, Hashable, Sendable, CaseIterable, Comparable {
    /// 100 ms.
    case short = 100
    /// 300 ms: what `debounce` and `throttle` wait unless told otherwise.
    case usual = 300
    /// 1000 ms.
    case long = 1000

    /// The interval of `milliseconds`, if it is one of the three.
    package init?(milliseconds: Int) { self.init(rawValue: milliseconds) }

    /// How many milliseconds it lasts.
    package var milliseconds: Int { rawValue }
    /// It on the session's clock.
    package var stride: SessionTime.Stride { .milliseconds(rawValue) }
    /// As names write it: `1000ms`.
    package var name: String { "\(rawValue)ms" }
    /// As words say it: `1000 ms`.
    package var words: String { "\(rawValue) ms" }
    /// The next shorter, if one is.
    package var shorter: SlotInterval? { Self.allCases.last { $0 < self } }
    /// The next longer, if one is.
    package var longer: SlotInterval? { Self.allCases.first { $0 > self } }

    package static func < (left: SlotInterval, right: SlotInterval) -> Bool { left.rawValue < right.rawValue }
}

/// How a stage recovers from an error of a stage before it, in the reducer's model.
package enum SlotRecovery: Hashable, Sendable {
    /// It passes this value on, then completes (`catch`'s `.just`, `catchAndReturn`'s value): the
    /// stages before it ended with the error, and nothing comes through it again.
    case fallback(SlotOutput)
    /// It subscribes anew to the stages before it (`retry`): each starts afresh, handed what the
    /// subjects hold at once.
    case resubscribe
}

/// What the values a stage passes on are: positions, or counts.
package enum SlotValueKind: String, Hashable, Sendable {
    /// Positions: the colour rule colours them.
    case position
    /// Counts (`map { _ in 1 }`, `scan(0) { $0 + $1 }`): the ball takes the count's colour.
    case count
}

/// What the slot's lane shows in one column, for an operator's words: the intent, what came
/// and when, the mirror and the grab, and the columns around it.
package struct SlotMoment {
    /// The intent, if the column has one.
    package var intent: Intent?
    /// The position published in the column, if one was.
    package var position: BallPosition?
    /// Where the ball is after the intent.
    package var statePosition: BallPosition?
    /// Whether the mirror is on after the intent.
    package var mirror: Bool
    /// What `grabbed` published in the column, if it did.
    package var grabbed: Bool?
    /// When the intent came.
    package var time: SessionTime?
    /// When the slot passed on what it passed on in the column.
    package var passedAt: SessionTime?
    /// The next column's index and time, if the lanes hold it.
    package var next: (index: Int, time: SessionTime?)?
    /// When the same operator last passed something on before the column, if the lanes hold it.
    package var lastPassedAt: SessionTime?

    /// A moment from its parts.
    package init(
        intent: Intent?, position: BallPosition?, statePosition: BallPosition?, mirror: Bool, grabbed: Bool?,
        time: SessionTime?, passedAt: SessionTime?, next: (index: Int, time: SessionTime?)?,
        lastPassedAt: SessionTime?
    ) {
        self.intent = intent
        self.position = position
        self.statePosition = statePosition
        self.mirror = mirror
        self.grabbed = grabbed
        self.time = time
        self.passedAt = passedAt
        self.next = next
        self.lastPassedAt = lastPassedAt
    }

    /// Whether the intent built the pipe (chose it, added a stage or took one out).
    package var chosen: Bool { intent?.buildsPipe == true }

    /// A cell as the lanes' words write it: `38,10`.
    package static func cell(_ position: BallPosition) -> String { "\(position.centre.column),\(position.centre.row)" }

    /// A value passed on, as the lanes' words write it: `○ 38,10`.
    package static func marble(_ position: BallPosition) -> String { "\(Glyph.value) \(cell(position))" }

    /// The words every operator says of passing `cell` on: chosen, handed the position at once;
    /// else the value alone.
    package func handedWords(_ cell: String, name: String) -> (String, String?) {
        chosen ? ("\(cell): \(name) chosen, subscribed and handed the position at once", cell) : (cell, nil)
    }

    /// `passed`, a mirror image, as the lanes' words write it, with the position it mirrors:
    /// `○ 41,10 (38,10 mirrored)`.
    package func mirroredMarble(_ passed: BallPosition) -> String {
        guard let from = position ?? statePosition else { return Self.marble(passed) }
        return "\(Self.marble(passed)) (\(Self.cell(from)) mirrored)"
    }

    /// A time on the session's clock as the lanes' words say it: `12.345 s`.
    package static func seconds(_ time: SessionTime) -> String { "\(time.seconds.decimals(3)) s" }
}

extension BallPosition {
    /// Whether the ball's centre is in the right half of its screen (from the middle column on,
    /// the column the ball starts in).
    package var isInRightHalf: Bool { centre.column >= screen.columns / 2 }

    /// The position mirrored left for right on its screen: column `c` becomes
    /// `columns - 1 - c`, the row stays.
    package var mirrored: BallPosition {
        BallPosition(centre: Cell(column: screen.columns - 1 - centre.column, row: centre.row), screen: screen)
    }
}

// MARK: - What the slot reads, and what it passes on

/// A subject an operator in the slot may read (one of ``SlotInputs``), named as the code names
/// it: what an operator declares it reads (``SlotOperation/inputs``).
package enum SlotInput: String, Hashable, Sendable, CaseIterable {
    /// ``BallViewModel/position``, where the ball is.
    case position
    /// ``BallViewModel/mirror``, whether the mirror is on.
    case mirror
    /// ``BallViewModel/grabbed``, whether the mouse button is down on the ball.
    case grabbed
    /// ``BallViewModel/mouse``, each new position the mouse made.
    case mouse
    /// ``BallViewModel/keys``, each new position the keys made.
    case keys
}

/// What an operator in the slot may read: the chain's subjects, and the session's clock its
/// timers run on.
package struct SlotInputs {
    /// Where the ball is (``BallViewModel/position``).
    package let position: CurrentValueSubject<BallPosition, Never>
    /// Whether the mirror is on (``BallViewModel/mirror``): what it holds at once, then each flip.
    package let mirror: AnyPublisher<Bool, Never>
    /// Whether the mouse button is down on the ball (``BallViewModel/grabbed``).
    package let grabbed: CurrentValueSubject<Bool, Never>
    /// Each new position the mouse made (``BallViewModel/mouse``).
    package let mouse: PassthroughSubject<BallPosition, Never>
    /// Each new position the keys made (``BallViewModel/keys``).
    package let keys: PassthroughSubject<BallPosition, Never>
    /// The session's clock.
    package let clock: SessionScheduler
    /// Where `flatMap` and `flatMapLatest` tap the inner subscriptions they make (for the trace).
    package let inners = InnerTaps()

    /// Inputs from their parts.
    package init(
        position: CurrentValueSubject<BallPosition, Never>, mirror: CurrentValueSubject<Bool, Never>,
        grabbed: CurrentValueSubject<Bool, Never>, mouse: PassthroughSubject<BallPosition, Never>,
        keys: PassthroughSubject<BallPosition, Never>, clock: SessionScheduler
    ) {
        self.position = position
        self.mirror = mirror.eraseToAnyPublisher()
        self.grabbed = grabbed
        self.mouse = mouse
        self.keys = keys
        self.clock = clock
    }
}

/// What the operator in the slot passes on, which the ball's colour follows: a position (every
/// operator but the counter), or a count (the counter, `map` then `scan`).
package enum SlotOutput: Hashable, Sendable {
    /// A position, which the ball takes the colour rule's colour for.
    case position(BallPosition)
    /// The counter's count, which the ball takes one of ``countColours`` for.
    case count(Int)

    /// The colours the counter's counts step through, one each: 1 is flatRed, 2 flatOrange, and
    /// round again after flatPurple. None is its own complement, so the screen always takes
    /// the complement of a count's colour.
    package static let countColours: [FlatColour] = [
        .flatRed, .flatOrange, .flatYellow, .flatGreen, .flatSkyBlue, .flatPurple,
    ]

    /// The ball's colour for this: the colour rule's for a position, or the count's.
    package var ballColour: FlatColour {
        switch self {
        case .position(let position): position.ballColour
        case .count(let count):
            // (A count is 1 or more; any other wraps round as well.)
            Self.countColours[
                ((count - 1) % Self.countColours.count + Self.countColours.count) % Self.countColours.count]
        }
    }

    /// The position, if this is one.
    package var position: BallPosition? {
        if case .position(let position) = self { position } else { nil }
    }

    /// Whether it is a position or a count.
    package var kind: SlotValueKind {
        switch self {
        case .position: .position
        case .count: .count
        }
    }

    /// The count, if this is one.
    package var count: Int? {
        if case .count(let count) = self { count } else { nil }
    }
}

import OpenCombine
import TextFormats

// MARK: - The pipe in the slot

/// What the chain's slot holds: a pipe of up to ``most`` operators, each applied to what the one
/// before passes on (the first to the position, or to the subjects it reads), the ball's colour
/// following the last. Empty: every position goes through. `--operator filter,debounce` and the
/// replay file write it as the stages' names joined by commas (a timed stage's interval after a
/// colon on the command line, `debounce:1000ms`; in its own field in the replay file).
package struct SlotPipe: Hashable, Sendable, ExpressibleByArrayLiteral, RawRepresentable {
    /// The most stages a pipe holds.
    package static let most = 3
    /// The stages, first to last (never ``SlotOperator/none``).
    package let stages: [SlotOperator]

    /// The pipe of `stages` (``SlotOperator/none`` is no stage), whether or not they fit together
    /// (``problem``).
    package init(_ stages: [SlotOperator]) { self.stages = stages.filter { $0 != .none } }

    /// The pipe of `stages`.
    package init(arrayLiteral stages: SlotOperator...) { self.init(stages) }

    /// Nothing in the slot: every position goes through.
    package static let none = SlotPipe([])
    /// The seed's counter: each position a 1, added up (`map { _ in 1 }`, then `scan(0) { $0 + $1 }`).
    package static let counter: SlotPipe = [.mapToOne, .scan]

    /// The pipe `rawValue` names (``parse(_:)``), if it names one that fits together.
    package init?(rawValue: String) {
        guard case .success(let pipe) = Self.parse(rawValue) else { return nil }
        self = pipe
    }

    /// The stages joined by commas, as `--operator` writes it (a timed stage's interval after a
    /// colon where it is not the usual: `filter,debounce:1000ms`); `none` for the empty pipe.
    package var rawValue: String { stages.isEmpty ? "none" : stages.map(\.rawValue).joined(separator: ",") }
    /// The name, as `--operator` writes it (``rawValue``).
    package var name: String { rawValue }

    /// Whether two pipes have the same stages: the same as their ``rawValue``s being the same,
    /// without joining them (RawRepresentable's own `==` would, each time: the panel compares a
    /// column's pipe for every column on its page).
    package static func == (lhs: SlotPipe, rhs: SlotPipe) -> Bool { lhs.stages == rhs.stages }

    /// Hashes the stages (as ``==(_:_:)`` compares them).
    package func hash(into hasher: inout Hasher) { hasher.combine(stages) }
    /// The stages' names joined by commas, as the replay file's `name` writes them, the
    /// interval apart (``timing``, the event's `interval`); `none` for the empty pipe.
    package var operatorNames: String { stages.isEmpty ? "none" : stages.map(\.name).joined(separator: ",") }

    /// How long its timed stage waits, if it has one (a pipe has one at most:
    /// ``PipeProblem/twoTimed``).
    package var timing: SlotInterval? { stages.lazy.compactMap(\.timing).first }

    /// The pipe with its timed stage waiting `interval` (the pipe itself if it has none).
    package func waiting(_ interval: SlotInterval) -> SlotPipe { SlotPipe(stages.map { $0.waiting(interval) }) }

    /// The pipe `text` names: operators joined by commas (`filter,debounce`; a timed one's
    /// interval after a colon, `debounce:1000ms`), `none`, or `counter` (`mapToOne,scan`). `map`
    /// just before a stage that takes counts (`map,scan`) is the seed's `map { _ in 1 }`:
    /// `map { $0.mirrored }` would give it positions. A failure says in one sentence what is wrong.
    package static func parse(_ text: String) -> Result<SlotPipe, PipeProblem> {
        if text == "counter" { return .success(.counter) }
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        var stages: [SlotOperator] = []
        for name in names {
            switch SlotOperator.parse(name) {
            case .success(let stage): stages.append(stage)
            case .failure(let problem): return .failure(problem)
            }
        }
        if stages.count > 1, stages.contains(.none) { return .failure(.noneInAPipe) }
        for index in stages.indices.dropLast()
        where stages[index] == .map && stages[index + 1].operation.takes == .count {
            stages[index] = .mapToOne
        }
        let pipe = SlotPipe(stages)
        if let problem = pipe.problem { return .failure(problem) }
        return .success(pipe)
    }

    /// Why the stages do not fit together, if they do not: too many, an operator that reads the
    /// subjects itself after the first stage, or one handed what it cannot take.
    package var problem: PipeProblem? {
        if stages.count > Self.most { return .tooMany(stages.count) }
        if stages.filter({ $0.operation.interval != nil }).count > 1 { return .twoTimed }
        if stages.filter({ $0.inputs.contains(.mirror) }).count > 1 { return .twoReadMirror }
        if let timed = stages.firstIndex(where: { $0.operation.interval != nil }),
            stages[(timed + 1)...].contains(.combineLatest)
        {
            return .combinedAfterTimer
        }
        var kind = SlotValueKind.position
        // The stage before that can fail, if one did (and whether an error of it can still come).
        var failing: SlotOperator?
        var errorsCome = false
        for (index, stage) in stages.enumerated() {
            let operation = stage.operation
            if index > 0, operation.startsPipe { return .startsPipe(stage) }
            if let failing, !operation.passesErrors { return .afterFailing(stage, failing) }
            if operation.recovers, !errorsCome { return .nothingToRecover(stage) }
            if let takes = operation.takes, takes != kind { return .takes(stage, kind) }
            kind = operation.gives(kind)
            if operation.canFail { (failing, errorsCome) = (failing ?? stage, true) }
            if operation.endsErrors { errorsCome = false }
        }
        return nil
    }

    /// What the pipe passes on: positions, or counts.
    package var gives: SlotValueKind {
        stages.reduce(SlotValueKind.position) { $1.operation.gives($0) }
    }

    /// The pipe with `stage` added at its end, or why it cannot take it.
    package func adding(_ stage: SlotOperator) -> Result<SlotPipe, PipeProblem> {
        guard stage != .none else { return .failure(.noneInAPipe) }
        var stages = stages + [stage]
        // `map` before a stage that counts is the seed's `map { _ in 1 }`, as `map,scan` reads.
        if stages.count > 1, stages[stages.count - 2] == .map, stage.operation.takes == .count,
            SlotPipe(stages).problem != nil
        {
            stages[stages.count - 2] = .mapToOne
        }
        let pipe = SlotPipe(stages)
        if let problem = pipe.problem { return .failure(problem) }
        return .success(pipe)
    }

    /// The pipe without its last stage.
    package var removingLast: SlotPipe { SlotPipe(Array(stages.dropLast())) }

    /// The pipe as the lanes name its stages, joined by commas: `map,scan` (`mapToOne` is a
    /// `map`; `--operator map,scan` reads it back), `none` for the empty pipe. The status line says it.
    package var shownName: String {
        stages.isEmpty ? "none" : stages.map { $0.operation.rxName + $0.intervalSuffix }.joined(separator: ",")
    }

    /// Whether an error of a stage can come out of the pipe's end: a stage that can fail with no
    /// recovery after it that ends the error (`tryMap`, `tryMap,retry`: retry's last error goes on).
    /// It would end `slotted` and the colours after it for good.
    package var errorReachesEnd: Bool {
        var errorsCome = false
        for stage in stages {
            if stage.operation.canFail { errorsCome = true }
            if stage.operation.endsErrors { errorsCome = false }
        }
        return errorsCome
    }

    /// The first stage that can fail (`tryMap`), if one can.
    package var failing: SlotOperator? { stages.first { $0.operation.canFail } }

    /// The last stage, whose words the slot's lane says; ``SlotOperator/none`` for the empty pipe.
    package var last: SlotOperator { stages.last ?? .none }

    /// The pipe's code, as the chain applies it: `position.filter { $0.isInRightHalf }.debounce(…)`.
    /// Each stage's code reads what the stage before passes on where it says `position`, so
    /// RxSwift's static form wraps it: `Observable.combineLatest(position.filter { … }, mirror) { … }`.
    package var code: String { code(unsaid: []) }

    /// The pipe's code as the tour names it before a lesson's guess: each stage in `unsaid` (its
    /// lesson not done) by its ``SlotOperation/unsaidCode``, without what the lesson asks.
    package func code(unsaid: Set<SlotOperator>) -> String {
        func said(_ stage: SlotOperator) -> String { unsaid.contains(stage) ? stage.operation.unsaidCode : stage.code }
        guard let first = stages.first else { return SlotOperator.none.code }
        return stages.dropFirst().reduce(said(first)) { code, stage in
            var wrapping = said(stage)
            guard let upstream = wrapping.firstRange(of: "position") else { return code + wrapping }
            wrapping.replaceSubrange(upstream, with: code)
            return wrapping
        }
    }

    /// What the pipe does, in a few words: its stage's, or each stage's for a longer pipe.
    package var words: String {
        stages.count == 1 ? stages[0].words : stages.map(\.words).joined(separator: "; then ")
    }

    /// The subjects the pipe reads, each once, in the order its code names them.
    package var inputs: [SlotInput] {
        var read: [SlotInput] = []
        for input in stages.flatMap(\.inputs) where !read.contains(input) { read.append(input) }
        return stages.isEmpty ? [.position] : read
    }

    /// Whether the pipe reads the second subject, `mirror`.
    package var readsMirror: Bool { inputs.contains(.mirror) }

    /// The name of its part of the slot's lane (`slotted`), in the row above the lane: `.filter`,
    /// `.filter.debounce`, `.map.scan` (each stage as Rx names it; a timed one's interval where it
    /// is not the usual, `.debounce(1000ms)`); `none` for the empty pipe (the position goes
    /// through as it is).
    package var laneLabel: String {
        stages.isEmpty ? "none" : stages.map(\.laneLabel).joined()
    }

    /// Whether a stage runs on the session's clock.
    package var isTimed: Bool { stages.contains { $0.operation.interval != nil } }
}

/// Why operators do not make a pipe, in one sentence each.
package enum PipeProblem: Error, Hashable, Sendable, CustomStringConvertible {
    /// A name that is no operator's.
    case unknown(String)
    /// More stages than ``SlotPipe/most``.
    case tooMany(Int)
    /// `none` named with other stages.
    case noneInAPipe
    /// An operator that reads the subjects itself, after the first stage.
    case startsPipe(SlotOperator)
    /// An operator handed values it cannot take.
    case takes(SlotOperator, SlotValueKind)
    /// An interval given to an operator that does not run on the session's clock.
    case notTimed(SlotOperator)
    /// An interval that is not one of ``SlotInterval``'s, as given (`250ms`).
    case badInterval(SlotOperator, String)
    /// Two operators on the session's clock.
    case twoTimed
    /// Two operators that read the mirror.
    case twoReadMirror
    /// `combineLatest` after a timed operator.
    case combinedAfterTimer
    /// An operator (the first) after one that can fail (the second), which has no form for what
    /// can fail.
    case afterFailing(SlotOperator, SlotOperator)
    /// An operator that recovers from an error, with no error to recover from before it.
    case nothingToRecover(SlotOperator)

    package var description: String {
        switch self {
        case .unknown(let name):
            "\(name.isEmpty ? "an empty name" : "'\(name)'") is no operator: give one of \(SlotOperator.allCases.map(\.name).joined(separator: ", ")), or several joined by commas (filter,debounce)"
        case .notTimed(let stage):
            "\(stage.name) does not run on a clock, so it takes no interval: only \(SlotOperator.allCases.filter { $0.timing != nil }.map(\.name).joined(separator: " and ")) do"
        case .badInterval(let stage, let given):
            "'\(given)' is no interval \(stage.name) takes: give \(SlotInterval.allCases.dropLast().map { "\(stage.name):\($0.name)" }.joined(separator: ", ")) or \(stage.name):\(SlotInterval.allCases.last!.name) (\(stage.name) alone waits \(SlotInterval.usual.words))"
        case .tooMany(let count): "a pipe holds at most \(SlotPipe.most) stages, not \(count)"
        case .noneInAPipe: "none is the empty pipe: it cannot be a stage of one"
        case .startsPipe(let stage): "\(stage.name) reads the subjects itself, so it can only be a pipe's first stage"
        case .takes(let stage, let kind):
            "\(stage.name) takes \(stage.operation.takes == .count ? "counts" : "positions"), but the stage before it passes on \(kind == .count ? "counts" : "positions")\(stage == .scan ? " (map,scan counts)" : "")"
        case .twoTimed:
            "a pipe holds one timed operator (debounce or throttle) at most, so each intent's column shows what it let through"
        case .twoReadMirror:
            "a pipe holds one operator that reads the mirror (combineLatest or sample) at most: with two, each flip would reach the second twice"
        case .afterFailing(let stage, let failing):
            "\(stage.name) cannot go after \(failing.name): after a stage that can fail go only \(SlotOperator.allCases.filter(\.operation.passesErrors).map(\.name).joined(separator: ", "))"
        case .nothingToRecover(let stage):
            "\(stage.name) recovers from an error, but no stage before it can fail (tryMap,\(stage.name))"
        case .combinedAfterTimer:
            "combineLatest goes before debounce or throttle, not after: after, a flip and the timer would each pass a value on in one intent's column"
        }
    }
}

extension PipeProblem {
    /// The problem in a short sentence for the status line, where the operators box says it
    /// (at most 78 columns for any operator's name: ``description`` says it in full).
    package var brief: String {
        switch self {
        case .unknown(let name): "'\(name.prefix(20))' is no operator"
        case .notTimed(let stage): "\(stage.name) takes no interval"
        case .badInterval(let stage, _):
            "\(stage.name) waits \(SlotInterval.allCases.map { String($0.milliseconds) }.joined(separator: ", ")) ms"
        case .tooMany: "a pipe holds \(SlotPipe.most) stages at most: Backspace takes the last out"
        case .noneInAPipe: "none is the empty pipe, not a stage of one"
        case .startsPipe(let stage): "\(stage.name) reads the subjects itself: only a first stage"
        case .takes(let stage, let kind):
            "\(stage.name) takes \(stage.operation.takes == .count ? "counts" : "positions"), not \(kind == .count ? "counts" : "positions")"
        case .twoTimed: "one timed operator (debounce or throttle) in a pipe at most"
        case .twoReadMirror: "one operator that reads the mirror in a pipe at most"
        case .combinedAfterTimer: "combineLatest goes before debounce or throttle, not after"
        case .afterFailing(let stage, let failing): "\(stage.name) cannot go after \(failing.name), which can fail"
        case .nothingToRecover(let stage): "\(stage.name) recovers from an error: tryMap first"
        }
    }
}

// MARK: - The reducer's model of the pipe

/// What one stage of the pipe remembers in the reducer's model of it, as the real operator does.
package struct SlotStage: Hashable, Sendable {
    /// What it last passed on since the pipe was built (nil: nothing yet): the next stage's
    /// latest value. The last stage keeps it only when its operator remembers it
    /// (``SlotOperation/remembersPassed``: `scan`'s sum).
    package var passed: SlotOutput?
    /// Since when it holds a value back: for `debounce`, when the held value came (it goes
    /// through once its interval passes with no new one); for `throttle`, when the first value it
    /// holds in its window came (the latest goes through when the window ends); for `sample`,
    /// when the first value it has not passed on came (the latest goes through when the mirror
    /// flips); nil: nothing held. Its timer was set then.
    package var heldSince: SessionTime?
    /// When `throttle` last let a value through: its window runs from there, and a value that
    /// comes in it is held until it ends. Nil before it has let one through.
    package var windowStart: SessionTime?
    /// Whether what it is handed has completed (the position, at a quit; a later stage's, when the
    /// stage before it completed).
    package var upstreamEnded = false
    /// How many inner subscriptions `flatMap` holds: one for each press since the pipe was built
    /// (one if it was built with the button down), each a subscription to the position that
    /// nothing cancels, so each new position goes through this many times. For `flatMapLatest`,
    /// how many it made (the latest lives while the ball is grabbed: it passes each position once).
    package var innerSubscriptions = 0
    /// How many inner subscriptions `flatMap` or `flatMapLatest` made since the pipe was built,
    /// those `retry` made when it subscribed anew to the stages after an error included (each
    /// handed the position that set the error off, and disposed of by it again at once): what
    /// numbers them, as Rx counts its subscriptions.
    package var innersMade = 0
    /// Whether it ended, unsubscribed for good: by an error a later stage caught (`catch`,
    /// `catchAndReturn`), or as that stage, which then completed. Nothing passes it again.
    package var finished = false
    /// How many times `retry` subscribed anew to the stages before it since the pipe was built.
    package var retries = 0
    /// The value it was given as the pipe was built, which it keeps (a subscription anew by
    /// `retry` gets the same): what `startWith` puts first, and `catchAndReturn` passes on for an
    /// error.
    package var given: SlotOutput?

    /// A stage's memory from its parts.
    package init(
        passed: SlotOutput? = nil, heldSince: SessionTime? = nil, windowStart: SessionTime? = nil,
        upstreamEnded: Bool = false, innerSubscriptions: Int = 0, finished: Bool = false, retries: Int = 0,
        given: SlotOutput? = nil, innersMade: Int? = nil
    ) {
        self.innersMade = innersMade ?? innerSubscriptions
        self.passed = passed
        self.heldSince = heldSince
        self.windowStart = windowStart
        self.upstreamEnded = upstreamEnded
        self.innerSubscriptions = innerSubscriptions
        self.finished = finished
        self.retries = retries
        self.given = given
    }
}

/// One stage's part of a step of the pipe, in the reducer's model: an intent (or a timer of a
/// stage before), what the stage was handed, and what it reads.
package struct SlotStep {
    /// The intent, nil when what reached the stage came from a stage before it (a timer, or a
    /// flip of the mirror that stage read first).
    package var intent: Intent?
    /// The state before the intent.
    package var state: BallState
    /// The state after the intent, the pipe not yet stepped (the position moved, the mirror
    /// flipped, the grab, the pipe built).
    package var next: BallState
    /// What it was handed: a value the stage before passed on (or the position, for the first).
    package var handed: SlotOutput?
    /// The latest value the stage before passed on (or the position, for the first), after
    /// ``handed``: what a timed operator holds.
    package var latest: SlotOutput?
    /// The latest value the stage before passed on before this step handed it anything: what
    /// `sample` held as the mirror completed, at a quit where what it is handed comes after.
    package var latestBefore: SlotOutput?
    /// Whether its upstream completed in this step (after ``handed``).
    package var upstreamEnded: Bool
    /// The mirror as the stage has seen it: at a flip, a stage handed a value before the flip
    /// reaches it (the stage before it read the mirror first) still holds the old one.
    package var mirror: Bool
    /// When it happened.
    package var time: SessionTime
    /// Whether `retry` subscribed anew to the stages before it in this step: each of them
    /// subscribes afresh, as when the pipe is built.
    package var resubscribed = false
    /// Whether the stages before this one complete after the mirror at a quit: one of them reads
    /// `grabbed`, `mouse` or `keys`, which the session completes after the mirror.
    package var upstreamOutlivesMirror = false

    /// Whether the mirror flip reached this stage in this step: each stage that reads it sees the
    /// flip in the order they subscribed to it (the first stage first), and what one passes on
    /// at the flip reaches the stages after it before the flip does.
    package var flipped: Bool { intent == .mirrorFlipped }
    /// Whether the stage subscribed in this step: the pipe was built, or `retry` subscribed anew.
    package var built: Bool { intent?.buildsPipe == true || resubscribed }
    /// Whether the session ended in this step: its subjects (the mirror too) complete.
    package var sessionEnds: Bool { intent?.endsSession == true }
}

/// What a stage of a chain built part-way resumes (``SlotOperation/applied(to:inputs:resuming:)``).
package struct SlotResume {
    /// The stage's memory in the state the chain is built at.
    package var stage: SlotStage
    /// The latest value the stage before passed on (the position, for the first).
    package var latest: SlotOutput?
    /// The state the chain is built at.
    package var state: BallState
}

extension Intent {
    /// Whether the intent builds the pipe anew: a choice, a stage added or the last removed.
    package var buildsPipe: Bool {
        switch self {
        case .operatorChosen, .stageAdded, .stageRemoved: true
        default: false
        }
    }
}

extension SlotPipe {
    /// Whether `intent` can happen to this pipe: a stage added must fit it, and one taken out
    /// must be there (the session lets in only those, and a replay file holds only those).
    package func accepts(_ intent: Intent) -> Bool {
        switch intent {
        case .stageAdded(let stage): if case .success = adding(stage) { true } else { false }
        case .stageRemoved: !stages.isEmpty
        default: true
        }
    }

    /// The pipe after `intent`: the chosen one, one stage more (when it fits; else as it was) or
    /// one fewer; else as it is.
    package func after(_ intent: Intent) -> SlotPipe {
        switch intent {
        case .operatorChosen(let chosen): chosen
        case .stageAdded(let stage): (try? adding(stage).get()) ?? self
        case .stageRemoved: removingLast
        default: self
        }
    }

    /// The reducer's model of the pipe for `intent`: `next` is `state` with the intent done (the
    /// position moved, the mirror flipped, the pipe built with its stages fresh); the position
    /// goes to the first stage when it moved (or the pipe was built), what each stage passes on
    /// to the next, and the last's to ``BallState/slotted``.
    func step(_ next: inout BallState, from state: BallState, by intent: Intent) {
        let moved = next.position != state.position || intent.buildsPipe
        guard !stages.isEmpty else {
            if moved { next.pass(.position(next.position)) }
            return
        }
        let step = SlotStep(
            intent: intent, state: state, next: next, handed: moved ? .position(next.position) : nil,
            latest: .position(next.position), latestBefore: .position(state.position),
            upstreamEnded: intent.endsSession, mirror: next.mirror, time: state.time)
        guard intent == .mirrorFlipped else {
            run(&next, step, from: 0)
            return
        }
        // A flip reaches the stages that read the mirror one by one, first to last (the order they
        // subscribed to it); what one passes on reaches the stages after it first, which still
        // see the mirror as it was.
        for index in stages.indices where stages[index].inputs.contains(.mirror) {
            var flip = step
            flip.latest = index == 0 ? .position(next.position) : next.stages[index - 1].passed
            flip.latestBefore = flip.latest
            let passedBefore = next.stages[index].passed
            for passed in run(&next, flip, from: index, through: index) where index + 1 < stages.count {
                var cascade = step
                (cascade.intent, cascade.mirror, cascade.handed, cascade.latest) = (nil, state.mirror, passed, passed)
                cascade.latestBefore = passedBefore
                run(&next, cascade, from: index + 1)
            }
        }
    }

    /// Runs `step` through the stages from `first` on (through `last`, or to the end), each
    /// handed, one by one, what the one before passed on; what the last of them passed on. A stage
    /// that fails ends the cascade (``BallState/failure``).
    @discardableResult
    private func run(_ next: inout BallState, _ step: SlotStep, from first: Int, through last: Int? = nil)
        -> [SlotOutput]
    {
        let index = first
        let operation = stages[index].operation
        guard next.failure == nil, !next.stages[index].finished else { return [] }
        let wasEnded = next.stages[index].upstreamEnded
        let passedBefore = next.stages[index].passed
        if step.upstreamEnded { next.stages[index].upstreamEnded = true }
        if let error = operation.failure(step) {
            fail(&next, error, at: index, step)
            return []
        }
        var step = step
        step.upstreamOutlivesMirror = stages[..<index].contains { stage in
            stage.inputs.contains { [.grabbed, .mouse, .keys].contains($0) }
        }
        let passed = operation.steps(&next.stages[index], step)
        let ends = step.upstreamEnded && !wasEnded && operation.ends(next.stages[index], step)
        if index == stages.count - 1 {
            for value in passed { next.pass(value) }
            if !operation.remembersPassed {
                next.stages[index].passed = nil
            } else if let value = passed.last {
                next.stages[index].passed = value
            }
            return passed
        }
        if index == last {
            if let value = passed.last { next.stages[index].passed = value }
            return passed
        }
        // Each value on to the next stage in turn, as it is passed on; none: the step goes on
        // (the mirror, the grab, the end, which the stages after read too).
        var onward = step
        onward.latestBefore = passedBefore
        guard !passed.isEmpty else {
            onward.handed = nil
            onward.latest = next.stages[index].passed
            onward.upstreamEnded = ends
            return run(&next, onward, from: index + 1, through: last)
        }
        var results: [SlotOutput] = []
        let subscriptions = next.stages.map(\.retries).reduce(0, +)
        for (number, value) in passed.enumerated() {
            // An error on the way ended this stage's subscription (or `retry` made a new one):
            // what it had yet to pass on goes nowhere.
            guard next.failure == nil, !next.stages[index].finished,
                next.stages.map(\.retries).reduce(0, +) == subscriptions
            else { break }
            next.stages[index].passed = value
            onward.handed = value
            onward.latest = value
            onward.upstreamEnded = ends && number == passed.count - 1
            results += run(&next, onward, from: index + 1, through: last)
        }
        return results
    }

    /// Stage `index` threw `error` in `step`: it goes down the stages after it to the first that
    /// recovers from it (``SlotOperation/recovery(_:from:_:)``), which passes a fallback on and
    /// completes, or subscribes anew to the stages before it; with none, it ends the chain after
    /// the slot (``BallState/failure``).
    private func fail(_ next: inout BallState, _ error: SlotError, at index: Int, _ step: SlotStep) {
        for later in stages.indices where later > index {
            guard let recovery = stages[later].operation.recovery(&next.stages[later], from: error, step) else {
                continue
            }
            switch recovery {
            case .fallback(let value):
                // The stages before it ended with the error; it passes the fallback on, then completes.
                // (The inner subscriptions made so far stay counted: they number the lanes.)
                for ended in 0...later {
                    next.stages[ended] = SlotStage(finished: true, innersMade: next.stages[ended].innersMade)
                }
                guard later < stages.count - 1 else { return next.pass(value) }
                var onward = step
                (onward.intent, onward.handed, onward.latest, onward.upstreamEnded) = (nil, value, value, true)
                run(&next, onward, from: later + 1)
            case .resubscribe:
                // Each stage before it subscribes afresh, handed what the subjects hold at once (or
                // only their completion, after a quit).
                let ended = next.stages[0].upstreamEnded
                // (What a stage was given as the pipe was built, it keeps.)
                for fresh in 0..<later {
                    next.stages[fresh] = SlotStage(
                        given: next.stages[fresh].given, innersMade: next.stages[fresh].innersMade)
                }
                var again = step
                again.resubscribed = true
                again.next = next
                // A release sends the position before `grabbed` turns false: what failed on the
                // move resubscribes while `grabbed` still holds true.
                if case .released? = step.intent { again.next.grab = step.state.grab }
                (again.handed, again.latest) = (ended ? nil : .position(next.position), .position(next.position))
                again.upstreamEnded = ended
                run(&next, again, from: 0)
            }
            return
        }
        next.failure = error
        // The error disposed of every stage's subscription: their timers with them.
        for index in next.stages.indices { (next.stages[index].heldSince, next.stages[index].windowStart) = (nil, nil) }
    }

    /// When the pipe's next timer goes off, and whose (a pipe has one timed stage at most:
    /// ``PipeProblem/twoTimed``).
    func nextTimer(_ stages: [SlotStage]) -> (due: SessionTime, stage: Int)? {
        for (index, stage) in self.stages.enumerated() {
            if let due = stage.timer(stages[index]) { return (due, index) }
        }
        return nil
    }

    /// The reducer's model of stage `index`'s timer going off at `due`: what it held goes through
    /// to the stages after it.
    func timerWentOff(_ next: inout BallState, stage index: Int, at due: SessionTime) {
        guard next.failure == nil, !next.stages[index].finished else { return }
        let operation = stages[index].operation
        let latest = index == 0 ? .position(next.position) : next.stages[index - 1].passed
        let passedBefore = next.stages[index].passed
        let passed = operation.timerWentOff(&next.stages[index], at: due, latest: latest)
        if let passed { next.stages[index].passed = passed }
        // A stage whose upstream completed while it held a value completes after it.
        let ends = next.stages[index].upstreamEnded && next.stages[index].heldSince == nil
        if index == stages.count - 1 {
            if !operation.remembersPassed { next.stages[index].passed = nil }
            if let passed { next.pass(passed) }
            return
        }
        run(
            &next,
            SlotStep(
                intent: nil, state: next, next: next, handed: passed, latest: next.stages[index].passed,
                latestBefore: passedBefore, upstreamEnded: ends, mirror: next.mirror, time: due),
            from: index + 1)
    }

    /// Until when the pipe's timed stages wait, at the latest (``SlotOperator/waitsUntil(_:)``).
    func waitsUntil(_ stages: [SlotStage]) -> SessionTime? {
        zip(self.stages, stages).compactMap { $0.waitsUntil($1) }.max()
    }
}

extension BallState {
    /// The pipe passes `value` on: the ball takes its colour, and the screen the complement (each
    /// value in turn, as the chain's `scan` folds each ball colour: a flip can make a stage pass
    /// on two values at once).
    fileprivate mutating func pass(_ value: SlotOutput) {
        slotted = value
        background = screenColour(background, value.ballColour)
    }
}

extension SlotOperation {
    package func ends(_ stage: SlotStage, _ step: SlotStep) -> Bool { true }
}

// MARK: - The real pipe

extension SlotPipe {
    /// The pipe on the chain's subjects (``SlotInputs``): each stage the real operator applied to
    /// the one before, its timers on the session's clock, what each stage passes on sent to
    /// `taps` (a subject a stage, and one for how it ended, for the streams' lanes; a side effect
    /// that subscribes to nothing). Built afresh (`resuming` nil), the position hands its value at once; a chain built
    /// part-way in state `resuming` resumes each stage's memory, and the position hands nothing.
    package func applied(
        to inputs: SlotInputs, resuming: BallState?, taps: StageTaps = StageTaps(count: 0)
    ) -> AnyPublisher<SlotOutput, Error> {
        // A chain built part-way after its error is built failed: it ends with that error at once.
        if let failure = resuming?.failure { return Fail(error: failure).eraseToAnyPublisher() }
        // After a recovery passed its fallback on and completed, nothing comes through again.
        if resuming?.stages.contains(where: \.finished) == true { return Empty().eraseToAnyPublisher() }
        return chain(inputs, resuming: resuming, taps: taps, stages: stages.count)
    }

    /// The first `count` stages on the chain's subjects, resumed in `resuming` or afresh: each
    /// that cannot fail on what cannot fail; from the first that can fail on, each in its form
    /// for what can fail (``SlotOperation/passingErrors(_:afresh:inputs:resuming:)``).
    private func chain(
        _ inputs: SlotInputs, resuming: BallState?, taps: StageTaps, stages count: Int
    ) -> AnyPublisher<SlotOutput, Error> {
        let position = inputs.position
        var upstream: AnyPublisher<SlotOutput, Never> =
            resuming == nil
            ? position.map(SlotOutput.position).eraseToAnyPublisher()
            : position.dropFirst().map(SlotOutput.position).eraseToAnyPublisher()
        var failing: AnyPublisher<SlotOutput, Error>?
        var latest: SlotOutput? = .position(position.value)
        func resume(_ index: Int) -> SlotResume? {
            resuming.map { state in
                SlotResume(
                    stage: state.stages.indices.contains(index) ? state.stages[index] : SlotStage(), latest: latest,
                    state: state)
            }
        }
        func tapped<Failure>(_ stage: AnyPublisher<SlotOutput, Failure>, _ index: Int) -> AnyPublisher<
            SlotOutput, Failure
        > {
            guard taps.outputs.indices.contains(index) else { return stage }
            let (tap, events) = (taps.outputs[index], taps.events[index])
            // How each subscription begins and ends goes to a subject of its own: the tap lives on
            // for the next pipe (and for each subscription `retry` makes anew).
            return stage.handleEvents(
                receiveSubscription: { _ in events.send(.subscribed) },
                receiveOutput: { tap.send($0) },
                receiveCompletion: { completion in
                    switch completion {
                    case .finished: events.send(.completed)
                    case .failure(let error): events.send(.failed(error as? SlotError))
                    }
                },
                receiveCancel: { events.send(.cancelled) }
            ).eraseToAnyPublisher()
        }
        for (index, stage) in stages.prefix(count).enumerated() {
            let operation = stage.operation
            if let before = failing {
                // What `retry` subscribes to anew: the stages before it, built afresh.
                let afresh = { self.chain(inputs, resuming: nil, taps: taps, stages: index) }
                guard
                    let applied = operation.passingErrors(
                        before, afresh: afresh, inputs: inputs, resuming: resume(index))
                else {
                    preconditionFailure(
                        "\(stage.name) after a stage that can fail: \(problem.map(\.description) ?? "")")
                }
                failing = tapped(applied, index)
            } else if operation.canFail {
                failing = tapped(operation.running(on: upstream, inputs: inputs, resuming: resume(index)), index)
            } else {
                upstream = tapped(operation.applied(to: upstream, inputs: inputs, resuming: resume(index)), index)
            }
            latest = resuming.flatMap { $0.stages.indices.contains(index) ? $0.stages[index].passed : nil }
        }
        return failing ?? upstream.setFailureType(to: Error.self).eraseToAnyPublisher()
    }
}

/// The subjects the pipe's stages are tapped into for the streams' lanes: what each passes on,
/// and where each of its subscriptions begins and ends (``BallViewModel/stageOutputs``,
/// ``BallViewModel/stageEvents``).
package struct StageTaps {
    /// What each stage passes on, first to last.
    package let outputs: [PassthroughSubject<SlotOutput, Never>]
    /// Where each stage's subscriptions begin and how they end, first to last.
    package let events: [PassthroughSubject<StageEvent, Never>]

    /// Taps for `count` stages.
    package init(count: Int) {
        outputs = (0..<count).map { _ in PassthroughSubject() }
        events = (0..<count).map { _ in PassthroughSubject() }
    }
}

/// The inner subscriptions to the position that `flatMap` and `flatMapLatest` make, tapped where
/// the operator makes them (``BallViewModel/innerEvents``, which the trace follows): each
/// subscription is numbered as it is made, from 1 for the session, and its events are sent with
/// its number. A side effect that subscribes to nothing.
package final class InnerTaps {
    /// Each inner subscription's events, with its number.
    package let events = PassthroughSubject<(subscription: Int, event: InnerEvent), Never>()
    /// How many inner subscriptions were made.
    private var made = 0

    /// Taps that tapped nothing yet.
    package init() {}

    /// `inner`, each subscription to it numbered and tapped.
    package func tapped(_ inner: AnyPublisher<BallPosition, Never>) -> AnyPublisher<BallPosition, Never> {
        inner.tapped(numbering: { [self] in
            made += 1
            return made
        }) { [events] in events.send(($0, $1)) }
    }
}

/// What happened to an inner subscription of `flatMap` or `flatMapLatest`: subscribed (a press,
/// or a pipe built with the button down), handed the position's values (as it subscribed, its
/// latest), completed with the position (a quit, or `learn`'s `e`), or cancelled (`flatMapLatest`
/// switched away at the release, a pipe built cancelled the one before, or an error after it
/// disposed of the pipe).
package typealias InnerEvent = SubscriptionEvent<BallPosition>

/// A stage's subscription beginning or ending: each pipe built subscribes its stages, and `retry`
/// subscribes the stages before it anew after an error.
package enum StageEvent: Hashable, Sendable {
    /// It was subscribed: a pipe built, or `retry` subscribing anew.
    case subscribed
    /// It completed: the session ended, or a recovery passed its fallback on and completed.
    case completed
    /// It threw (`tryMap` in a corner), or an error came through it from a stage before: the error.
    case failed(SlotError?)
    /// It was cancelled without an event of its own: the pipe after it was switched away from (a
    /// pipe built), or a stage after it failed and disposed of it.
    case cancelled
}

// MARK: - A stage's code, as its lane is labelled

extension SlotOperator {
    /// The stage's code as the pipe's chain has it: its operator applied to what the stage before
    /// passes on (`.filter { $0.isInRightHalf }`), or, for one that reads the subjects itself and
    /// so starts the pipe, with the subject it starts from (`grabbed.flatMap { … }`).
    package var stageCode: String {
        code.hasPrefix("position.") ? String(code.dropFirst("position".count)) : code
    }

    /// The stage's code in at most `width` cells, for the narrow label column of its lane: in
    /// full where it fits; else with its closure's braces tight (`.map {_ in 1}`); else with what
    /// its trailing closure says cut to `…` (`.scan(0) { … }`); else with what its closure or
    /// arguments say cut to `…` (`.filter { … }`, `.debounce(…)`), without the subject it starts from if need be, or the
    /// operator's name alone (`Observable.combineLatest(…) { … }` as `.combineLatest`); else cut
    /// at the end with `…`. Never cut silently: the lane's hover line says the code in full.
    package func stageLabel(width: Int) -> String {
        let full = stageCode
        guard full.terminalWidth > width else { return full }
        // A closure's braces without their inner spaces first (`.map {_ in 1}`): all of its words.
        var candidates = [full.replacing("{ ", with: "{").replacing(" }", with: "}")]
        if let brace = full.firstIndex(of: "{"), full[..<brace].hasSuffix(") ") {
            candidates.append(full[..<brace] + "{ \(Glyph.ellipsis) }")
        }
        if let opener = full.firstIndex(where: { $0 == "(" || $0 == "{" }) {
            let head = String(full[..<opener])
            let cut = full[opener] == "{" ? head + "{ \(Glyph.ellipsis) }" : head + "(\(Glyph.ellipsis))"
            candidates.append(cut)
            if let dot = head.firstIndex(of: "."), dot != head.startIndex {
                candidates += [String(cut[dot...]), String(head[dot...])]
            }
        }
        return candidates.first { $0.terminalWidth <= width } ?? full.fitted(toWidth: width)
    }
}

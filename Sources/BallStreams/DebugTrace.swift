import BallModel
import ColourCore
import OpenCombine
import TextFormats

// MARK: - The streams as RxSwift's debug() prints them

/// RxSwift's `debug()` for the session's named publishers (the chain's, and the inputs an
/// operator in the slot reads: `mouse`, `keys`, `mirror`, `grabbed`), each subscription of a stage
/// of a pipe of several (`stage1 tryMap`: a pipe built subscribes its stages, `retry` those before
/// it anew), each inner subscription `flatMap` and `flatMapLatest` make (`inner 1`, from the taps
/// where the operator makes them), the streams of `learn`'s Publish copy while the screen is bound
/// through it (`copy.subject`, `copy.ball`, `copy.screen`), each subscription to the `map` of its
/// copies while `u` subscribes them (`shared.map`, `unshared.map 1`), and the late subscribers: a
/// line for each subscription, value, completion, error and disposal, as someone who knows RxSwift
/// reads them at once:
///
/// ```text
/// 2026-11-21 09:40:19.000: position -> subscribed
/// 2026-11-21 09:40:19.000: position -> Event next(40,11 on 80×24)
/// 2026-11-21 09:40:19.494: ballColour -> Event next(flatBlackDark)
/// 2026-11-21 09:40:19.801: late Replay(3) -> subscribed
/// 2026-11-21 09:40:19.801: late Replay(3) -> Event next(40,11 on 80×24)
/// 2026-11-21 09:40:20.090: position -> Event completed
/// 2026-11-21 09:40:20.090: position -> isDisposed
/// ```
///
/// Each line is RxSwift's own (`Debug.swift`): the time as `yyyy-MM-dd HH:mm:ss.SSS`, then
/// `: name -> event`; the time in UTC (RxSwift writes the device's local time), counted from
/// `origin`, the session's start, so that tools which read RxSwift's debug logs read these.
///
/// A binding: it subscribes to the publishers the panel's lanes subscribe to (so its lines say
/// what the lanes show), to the pipe's stage and inner taps and the Publish copy the streams
/// recorder binds, and follows the late subscribers it makes. Within one step (an intent and all
/// it causes, then the subscriptions made before the next) its lines come by time, and at one time
/// in the chain's order, cause before effect: intents, position, mouse, keys, mirror, grabbed, the
/// inner subscriptions by number, the stages first to last, slotted, ballColour, background, the
/// Publish copy's streams, the copies of `map`, then the late lanes in the panel's order; OpenCombine hands a value to
/// a subject's subscribers in no set order, so the lines of a step are kept until the next
/// intent (or ``end()``) and written in that order. Each line goes to `write`, which keeps it
/// (the program writes them out in large blocks, off the drawing). `time` gives the seconds
/// since the session began, at `origin` (milliseconds since 1970-01-01 00:00:00 UTC).
package final class DebugTrace {
    /// The publishers traced, in the order their lines come at the start.
    package static let names = [
        "intents", "position", "mouse", "keys", "mirror", "grabbed", "slotted", "ballColour", "background",
    ]
    /// The place of a publisher's lines among those of one time: ten apart, so that the stages'
    /// go between the inputs' and what the slot passes on (``stageRank(_:)``).
    private static func rank(_ name: String) -> Int { 10 * names.firstIndex(of: name)! }
    /// The place of stage `number`'s lines: after the inputs', before `slotted`'s, first to last.
    private static func stageRank(_ number: Int) -> Int { rank("slotted") - SlotPipe.most + number }
    /// The place of the inner subscriptions' lines (`inner 1`, by number): after the inputs' (the
    /// press that makes one), before the stages' (what flatMap passes on from one).
    private static let innerRank = stageRank(0) - 1
    /// The place of the Publish copy's lines (`copy.subject`, `copy.ball`, `copy.screen`): after
    /// the chain's, before the late subscribers'.
    private static let copyRank = rank(names.last!) + 5
    /// The traced subscription of each stage under way, by stage: its name (`stage1 tryMap`).
    private var stages: [Int: String] = [:]
    /// The number each inner subscription under way is named by (`inner 2`), by its tap's number.
    private var inners: [Int: Int] = [:]
    /// How many inner subscriptions the pipe made since it was built (RxSwift's `debug("inner 1")`
    /// on each, numbered as the panel's lanes are: afresh with each pipe built, on across a
    /// `retry`'s subscriptions anew).
    private var innersMade = 0
    /// The traced subscriptions to the Publish copy's streams (`learn`'s `o`), while it is bound.
    private var copy: [AnyCancellable] = []
    /// The place of the lines of the copies of `map` (`learn`'s `u`): after the Publish copy's.
    private static let mapRunsRank = copyRank + 1
    /// The copies of `map` (`learn`'s `u`) made again on the session's position where the
    /// recording subscribed them, their `map`s tapped, while subscribed.
    private var mapRuns: MapRuns?
    /// Where ``mapRuns`` sends each subscription's events.
    private let mapRunTaps = MapRunTaps()
    /// The traced subscriptions to the copies' `map`s under way, by name (`unshared.map 2`).
    private var mapRunsLive: Set<String> = []
    private var cancellables: [AnyCancellable] = []
    private var live: Set<String> = []
    /// The session traced: its clock gives each line's time.
    private let session: BallSession
    private let origin: Int64
    private let write: (String) -> Void
    /// The lines of the step under way, each with the order it is written in: by time (as
    /// written, in milliseconds: what an intent causes at once shares its time; a timed
    /// operator's value comes later), then the publisher's place in the chain for the main six,
    /// the late subscribers after them, by kind.
    private var step: [(order: (Int64, Int, Int), line: String)] = []

    /// Subscribes to `session`'s publishers now, and follows `streams`' late subscribers (when
    /// given), writing each event's line through `write`.
    package init(
        session: BallSession, streams: StreamRecorder? = nil, origin: Int64, write: @escaping (String) -> Void
    ) {
        self.session = session
        self.origin = origin
        self.write = write
        let viewModel = session.viewModel
        cancellables = [
            trace("intents", session.intents) { Self.describe($0) },
            trace("position", viewModel.position) { Self.describe($0) },
            trace("mouse", viewModel.mouse) { Self.describe($0) },
            trace("keys", viewModel.keys) { Self.describe($0) },
            trace("mirror", viewModel.mirror) { String($0) },
            trace("grabbed", viewModel.grabbed) { String($0) },
            trace("slotted", viewModel.slotted) { Self.describe($0) },
            trace("ballColour", viewModel.ballColour) { $0.name },
            trace("background", viewModel.background) { $0.name },
        ]
        // Each stage's subscriptions, where the pipe has several stages (the panel's stage lanes).
        for (number, events) in viewModel.stageEvents.enumerated() {
            let rank = Self.stageRank(number)
            cancellables.append(
                events.bind { [unowned self] event in
                    switch event {
                    case .subscribed:
                        let pipe = session.viewModel.slot.value
                        guard pipe.stages.count > 1, number < pipe.stages.count else { return }
                        let name = "stage\(number + 1) \(pipe.stages[number].name)"
                        stages[number] = name
                        line(name, rank, "subscribed")
                    case .completed, .failed, .cancelled:
                        guard let name = stages.removeValue(forKey: number) else { return }
                        if event == .completed { line(name, rank, "Event completed") }
                        if case .failed(let error) = event {
                            line(name, rank, "Event error(\(error?.words ?? "an error"))")
                        }
                        line(name, rank, "isDisposed")
                    }
                })
            cancellables.append(
                viewModel.stageOutputs[number].bind { [unowned self] output in
                    guard let name = stages[number] else { return }
                    line(name, rank, "Event next(\(Self.describe(output)))")
                })
        }
        // The inner subscriptions flatMap and flatMapLatest make, from their taps.
        cancellables += [
            session.intents.bind { [unowned self] intent in
                if intent.buildsPipe { innersMade = 0 }
            },
            viewModel.innerEvents.bind { [unowned self] tap, event in
                if event == .subscribed {
                    innersMade += 1
                    inners[tap] = innersMade
                }
                guard let number = inners[tap] else { return }
                // Among the inner subscriptions' lines of one time, the older subscription's first
                // (the subject hands a value to its subscribers in the order they subscribed; a
                // pipe built disposes of the old pipe's before it subscribes its own).
                let name = StreamLane.inner(number).label
                switch event {
                case .subscribed: line(name, Self.innerRank, "subscribed", within: tap)
                case .next(let position):
                    line(name, Self.innerRank, "Event next(\(Self.describe(position)))", within: tap)
                case .completed:
                    line(name, Self.innerRank, "Event completed", within: tap)
                    fallthrough
                case .cancelled:
                    inners[tap] = nil
                    line(name, Self.innerRank, "isDisposed", within: tap)
                }
            },
        ]
        if let streams {
            // The Publish copy's streams (`learn`'s `o`), from where it is bound to where it is
            // bound back.
            // The copies of `map` (`learn`'s `u`), made again where the recording subscribed
            // them, as the streams recorder makes the Publish copy again.
            cancellables.append(
                streams.observations.bind { [unowned self] observation in
                    switch observation {
                    case .screenThroughPublish(let on):
                        endCopy()
                        if on, let bound = streams.publishCopy { traceCopy(bound) }
                    case .mapCopies(let on):
                        mapRuns = on ? MapRuns(position: session.viewModel.position, taps: mapRunTaps) : nil
                    default: break
                    }
                })
            cancellables.append(
                mapRunTaps.bind { [unowned self] shared, number, event in
                    // RxSwift's `debug` after each `map`: the shared copy's one subscription, the
                    // unshared copy's one for each subscriber.
                    let name = shared ? "shared.map" : "unshared.map \(number)"
                    let within = shared ? 0 : number
                    switch event {
                    case .subscribed:
                        mapRunsLive.insert(name)
                        line(name, Self.mapRunsRank, "subscribed", within: within)
                    case .next(let colour): line(name, Self.mapRunsRank, "Event next(\(colour.name))", within: within)
                    case .completed:
                        line(name, Self.mapRunsRank, "Event completed", within: within)
                        fallthrough
                    case .cancelled:
                        // (Disposed of once: a cancel after the completion says nothing more.)
                        guard mapRunsLive.remove(name) != nil else { return }
                        line(name, Self.mapRunsRank, "isDisposed", within: within)
                    }
                })
            cancellables.append(
                streams.lateEvents.bind { [unowned self] kind, event in
                    let name = StreamLane.late(kind).label
                    let rank = LateSubscriber.allCases.firstIndex(of: kind)!
                    switch event {
                    case .subscribed:
                        live.insert(name)
                        lateLine(name, rank, "subscribed")
                    case .next(let position): lateLine(name, rank, "Event next(\(Self.describe(position)))")
                    case .completed: lateLine(name, rank, "Event completed")
                    case .disposed:
                        live.remove(name)
                        lateLine(name, rank, "isDisposed")
                    }
                })
        }
        endStep()
    }

    /// Ends the trace: every subscription still live is disposed of, and says so, and every
    /// line is written.
    package func end() {
        for name in Self.names where live.contains(name) { line(name, Self.rank(name), "isDisposed") }
        for (number, name) in stages.sorted(by: { $0.key < $1.key }) {
            line(name, Self.stageRank(number), "isDisposed")
        }
        stages.removeAll()
        for (tap, number) in inners.sorted(by: { $0.key < $1.key }) {
            line(StreamLane.inner(number).label, Self.innerRank, "isDisposed", within: tap)
        }
        inners.removeAll()
        endCopy()
        mapRuns = nil
        for (rank, kind) in LateSubscriber.allCases.enumerated() where live.contains(StreamLane.late(kind).label) {
            lateLine(StreamLane.late(kind).label, rank, "isDisposed")
        }
        live.removeAll()
        cancellables.removeAll()
        endStep()
    }

    /// Writes the lines kept so far, in the chain's order: call when the step's intent has done
    /// all it causes (the program calls it each time it has handled what woke it, so that a
    /// signal loses no line already made). A late subscriber's lines that come later in the
    /// same step come after, as they would have.
    package func writeKept() { endStep() }

    /// Writes the step's lines in the chain's order (lines of one publisher in the order they
    /// came).
    private func endStep() {
        let ordered = step.enumerated().sorted { first, second in
            let (a, b) = (first.element.order, second.element.order)
            return (a.0, a.1, a.2, first.offset) < (b.0, b.1, b.2, second.offset)
        }
        for entry in ordered { write(entry.element.line) }
        step.removeAll(keepingCapacity: true)
    }

    private func trace<Upstream: Publisher>(
        _ name: String, _ publisher: Upstream, describe: @escaping (Upstream.Output) -> String
    ) -> AnyCancellable {
        let rank = Self.rank(name)
        line(name, rank, "subscribed")
        live.insert(name)
        // (A stream that cannot fail is traced as one that can: its error never comes.)
        return publisher.mapError { $0 as Error }.bind(
            onNext: { [unowned self] value in
                // An intent begins a step: the one before it is written.
                if name == "intents" { endStep() }
                line(name, rank, "Event next(\(describe(value)))")
            },
            onCompleted: { [unowned self] in
                line(name, rank, "Event completed")
                line(name, rank, "isDisposed")
                live.remove(name)
            },
            onError: { [unowned self] error in
                // RxSwift's debug writes an error as `Event error(…)`.
                line(name, rank, "Event error(\((error as? SlotError)?.words ?? "\(error)"))")
                line(name, rank, "isDisposed")
                live.remove(name)
            })
    }

    /// A line of `name` at `rank`, `within` its place among those of that rank (an inner
    /// subscription's tap number, a copy's stream).
    private func line(_ name: String, _ rank: Int, _ event: String, within: Int = 0) {
        let written = now()
        step.append(((written, rank, within), "\(Timestamp.debugText(milliseconds: written)): \(name) -> \(event)"))
    }

    /// Traces the streams of `bound`, the Publish copy the screen is bound through from now on,
    /// each a subscription of its own, as RxSwift's `debug("copy.ball")` on each.
    private func traceCopy(_ bound: PublishCopy) {
        func traced<Value>(
            _ stream: CopyStream, _ publisher: some Publisher<Value, Never>, _ text: @escaping (Value) -> String
        )
            -> AnyCancellable
        {
            let (name, within) = (StreamLane.copy(stream).label, CopyStream.allCases.firstIndex(of: stream)!)
            line(name, Self.copyRank, "subscribed", within: within)
            // (A copy's streams never end of themselves: a Publish subject the screen is bound through.)
            return publisher.bind { [unowned self] value in
                line(name, Self.copyRank, "Event next(\(text(value)))", within: within)
            }
        }
        copy = [
            traced(.subject, bound.subject) { Self.describe($0) }, traced(.ball, bound.ball) { $0.name },
            traced(.screen, bound.screen) { $0.name },
        ]
    }

    /// Disposes of the traced subscriptions to the Publish copy, if any: bound back (or the end).
    private func endCopy() {
        guard !copy.isEmpty else { return }
        copy.removeAll()
        for (within, stream) in CopyStream.allCases.enumerated() {
            line(StreamLane.copy(stream).label, Self.copyRank, "isDisposed", within: within)
        }
    }

    /// A late subscriber's line: by time, after the publishers' and the stages' of that time, then by kind (`rank`).
    private func lateLine(_ name: String, _ rank: Int, _ event: String) {
        // By the time as written (milliseconds): what one intent causes comes in the same one.
        let written = now()
        step.append(
            (
                (written, Self.rank(Self.names.last!) + 10, rank),
                "\(Timestamp.debugText(milliseconds: written)): \(name) -> \(event)"
            ))
    }

    /// The time now on the session's clock, as a line writes it: milliseconds since 1970 (the
    /// nearest).
    private func now() -> Int64 {
        origin + (session.now.microseconds + 500) / 1_000
    }

    /// An intent as a short call: `dragged(41,12)`, `arrow(left, 1)`, `resized(80×24)`, `quit`,
    /// `completionRequested` (learn's `e`).
    package static func describe(_ intent: Intent) -> String {
        switch intent {
        case .pressed(let cell): "pressed(\(cell))"
        case .dragged(let cell): "dragged(\(cell))"
        case .released(let cell): "released(\(cell))"
        case .arrowPressed(let direction, let distance): "arrow(\(direction.rawValue), \(distance))"
        case .recentred: "recentred"
        case .resized(let size): "resized(\(size))"
        case .quitRequested: "quit"
        // (The intent's own name: `completed` would read as the completion it asks for.)
        case .completionRequested: "completionRequested"
        case .operatorChosen(let chosen): "operator(\(chosen.name))"
        case .stageAdded(let stage): "stageAdded(\(stage.rawValue))"
        case .stageRemoved: "stageRemoved"
        case .mirrorFlipped: "mirrorFlipped"
        }
    }

    /// A position: `41,12 on 80×24` (the ball's cell, on its screen).
    package static func describe(_ position: BallPosition) -> String {
        "\(position.centre) on \(position.screen)"
    }

    /// What the slot passed on: a position as ``describe(_:)-(BallPosition)`` writes it, or
    /// the counter's count: `3`.
    package static func describe(_ output: SlotOutput) -> String {
        switch output {
        case .position(let position): describe(position)
        case .count(let count): String(count)
        }
    }
}

import BallModel
import ColourCore
import OpenCombine
import TextFormats

// MARK: - The streams as RxSwift's debug() prints them

/// RxSwift's `debug()` for the session's named publishers (the chain's, and the inputs an
/// operator in the slot reads: `mouse`, `keys`, `mirror`, `grabbed`), each subscription of a stage
/// of a pipe of several (`stage1 tryMap`: a pipe built subscribes its stages, `retry` those before
/// it anew), and the late subscribers: a line for each subscription, value, completion, error and
/// disposal, as someone who knows RxSwift reads them at once:
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
/// what the lanes show), to the pipe's stage taps, and follows the late subscribers the streams
/// recorder makes. Within one step (an intent and all it causes, then the subscriptions made
/// before the next) its lines come by time, and at one time in the chain's order, cause before
/// effect: intents, position, mouse, keys, mirror, grabbed, the stages first to last, slotted,
/// ballColour, background, then the late lanes in the panel's order; OpenCombine hands a value to a
/// subject's subscribers in no set order, so the lines of a step are kept until the next
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
    /// The traced subscription of each stage under way, by stage: its name (`stage1 tryMap`).
    private var stages: [Int: String] = [:]
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
        if let streams {
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

    private func line(_ name: String, _ rank: Int, _ event: String) {
        let written = now()
        step.append(((written, rank, 0), "\(Timestamp.debugText(milliseconds: written)): \(name) -> \(event)"))
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

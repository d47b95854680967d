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
        .none, .filter, .map, .debounce, .throttle, .combineLatest, .sample, .flatMapLatest, .counter, .merge,
        .startWith, .distinctUntilChanged, .flatMap, .tryMap,
    ]

    /// What the operator is and does.
    package let operation: any SlotOperation

    /// The operator `operation` describes.
    package init(_ operation: any SlotOperation) { self.operation = operation }

    /// The operator named `rawValue` (as the replay file and `--operator` write it), if one is.
    package init?(rawValue: String) {
        guard let found = Self.allCases.first(where: { $0.name == rawValue }) else { return nil }
        self = found
    }

    /// The operator's name, as the replay file and `--operator` write it.
    package var rawValue: String { operation.name }
    /// The operator's name, as the replay file and `--operator` write it.
    package var name: String { operation.name }
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
    /// `none` for the empty slot (the position goes through as it is).
    package var laneLabel: String { self == .none ? name : "." + name }

    /// The digit that puts it in from the operators box, when its key is one.
    package var digit: Int? { key.properties.numericType == nil ? nil : Int(String(key)) }

    /// The operator whose ``digit`` is `digit`, if one has it.
    package init?(digit: Int) {
        guard let found = Self.allCases.first(where: { $0.digit == digit }) else { return nil }
        self = found
    }

    /// The operator on the chain's subjects, its timers on the session's clock
    /// (``SlotOperation/applied(to:resuming:)``).
    /// (``SlotOperation/running(on:resuming:)``). A chain built part-way in a state whose chain
    /// had failed is built failed: its first operator ends with that error at once.
    package func applied(to inputs: SlotInputs, resuming: BallState? = nil) -> AnyPublisher<SlotOutput, Error> {
        if let failure = resuming?.failure { return Fail(error: failure).eraseToAnyPublisher() }
        return operation.running(on: inputs, resuming: resuming)
    }

    /// When the operator's timer goes off for what it has held since `heldSince`, if it holds
    /// anything and runs on the session's clock: the reducer's and the session's next timer.
    package func timer(heldSince: SessionTime?) -> SessionTime? {
        guard let heldSince, let interval = operation.interval else { return nil }
        return heldSince.advanced(by: interval)
    }

    /// Until when the operator waits, if it runs on the session's clock and waits: its timer for
    /// what it holds (`debounce`'s quiet, `throttle`'s window with a position held), or the end of
    /// `throttle`'s window, open with nothing held (a position that came would be held). What
    /// the time view draws as a wait (`~`); the reducer's model, as ``timer(heldSince:)`` is.
    package func waitsUntil(heldSince: SessionTime?, windowStart: SessionTime?) -> SessionTime? {
        guard let interval = operation.interval else { return nil }
        let ends = [heldSince, windowStart].compactMap { $0?.advanced(by: interval) }
        return ends.max()
    }
}

/// One operator the chain's slot can hold, whole: its name, key and code; the real operator
/// it applies; the reducer's model of it (its step, its timer, how a chain built part-way warms
/// it up); and the words the operators box, the status line and the slot's lane say of it.
///
/// One file each under `SlotOperators/`, registered in ``SlotOperator/allCases``.
package protocol SlotOperation: Sendable {
    /// The name, as the replay file and `--operator` write it (Rx's name).
    var name: String { get }
    /// The key that puts it in from the operators box (`f`): a digit, or a letter.
    var key: Unicode.Scalar { get }
    /// The code, as the chain applies it: `position.filter { $0.isInRightHalf }`.
    var code: String { get }
    /// What it does, in a few words, for the operators box and `--help`.
    var words: String { get }
    /// The same operator in RxPY, for `scripts/check_rxpy_marbles.py`: an expression over its
    /// names (`subject`, `mirror`, `grabbed`, `sources`, `ops`, `reactivex`, `scheduler` and the
    /// helpers it defines).
    var rxpy: String { get }
    /// What the bench's idle row types with it in the slot (the keys, or a drag's mouse bytes),
    /// what the row's name says came before the idle (`after moves`), and how long it lets the
    /// screen settle after them, in seconds.
    var benchIdle: (keys: String, after: String, settle: Double) { get }
    /// The subjects it reads, in the order its code names them (`position`, `mirror`): each has a
    /// lane in the streams panel while it is in the slot, and the exports write them (the status
    /// line shows the mirror when it reads `mirror`).
    var inputs: [SlotInput] { get }

    /// The operator on the chain's subjects (``SlotInputs``), its timers on the session's clock:
    /// what the slot passes on to the ball's colour. The chain switches to it when it is chosen
    /// (`switchToLatest`), so it subscribes to what it reads then, and a subject that holds a
    /// value hands it over at once. Chosen, it starts afresh (`resuming` nil); the first operator
    /// of a chain built part-way, in state `resuming`, resumes what of that state's memory it
    /// can only be given, not made (``warmUp(_:)`` makes the rest).
    func applied(to inputs: SlotInputs, resuming: BallState?) -> AnyPublisher<SlotOutput, Never>
    /// The operator as the chain runs it, whose failure is an `Error`: ``applied(to:resuming:)``,
    /// which cannot fail, but for an operator that throws (`tryMap`), which says here how.
    func running(on inputs: SlotInputs, resuming: BallState?) -> AnyPublisher<SlotOutput, Error>

    /// How long it holds a position back, if it runs on the session's clock: its timer goes off
    /// this long after what it holds started (``BallState/heldSince``).
    var interval: SessionTime.Stride? { get }
    /// The reducer's model of it, for one intent: `next` is `state` with the intent done (the
    /// position moved, the mirror flipped, the operator chosen with nothing held); `handed`: the
    /// slot is handed a position (a new one, or the current one as it is chosen). It sets what
    /// the slot passes on (``BallState/slotted``) and what it holds.
    func step(_ next: inout BallState, from state: BallState, by intent: Intent, handed: Bool)
    /// The reducer's model of its timer going off at `due`: what it held goes through.
    func timerWentOff(_ next: inout BallState, at due: SessionTime)
    /// The inputs that give a chain built in `state` the memory the reducer models for it (the
    /// player's jumps, the streams page): a real operator's memory cannot be set, only made.
    func warmUp(_ state: BallState) -> SlotWarmUp

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
    package func running(on inputs: SlotInputs, resuming: BallState?) -> AnyPublisher<SlotOutput, Error> {
        applied(to: inputs, resuming: resuming).setFailureType(to: Error.self).eraseToAnyPublisher()
    }
    package var inputs: [SlotInput] { [.position] }
    package var interval: SessionTime.Stride? { nil }
    package var benchIdle: (keys: String, after: String, settle: Double) { ("hhhh", "after moves", 0.5) }
    package func timerWentOff(_ next: inout BallState, at due: SessionTime) {
        next.heldSince = nil
        next.slotted = .position(next.position)
    }
    package func warmUp(_ state: BallState) -> SlotWarmUp { SlotWarmUp() }
    package func passedWords(_ moment: SlotMoment, _ passed: SlotOutput) -> (String, String?)? { nil }
    package func quietWords(_ moment: SlotMoment) -> (String, String?)? { nil }
    package func heldWords(_ moment: SlotMoment, seen: BallPosition) -> (String, String?) { ("nothing", nil) }
}

/// The inputs that warm up the operator of a chain built part-way (``SlotOperation/warmUp(_:)``).
package struct SlotWarmUp {
    /// The positions, each at its time: the chain is built at the first one's time with the
    /// subject holding its position (which the operator is handed as it subscribes); the rest
    /// are sent at their times. Empty: built now, on the position.
    package var inputs: [(time: SessionTime, position: BallPosition)] = []
    /// Whether the timer the first input set is dropped (it holds nothing in the state).
    package var dropsTimers = false

    /// Inputs `inputs`, dropping the first one's timer when `dropsTimers`.
    package init(_ inputs: [(time: SessionTime, position: BallPosition)] = [], dropsTimers: Bool = false) {
        self.inputs = inputs
        self.dropsTimers = dropsTimers
    }
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

    /// Whether the intent chose the operator.
    package var chosen: Bool {
        if case .operatorChosen? = intent { true } else { false }
    }

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

extension BallState {
    /// The inputs that give a chain built in this state the memory the reducer models for the
    /// operator in its slot (``SlotOperation/warmUp(_:)``).
    package var warmUp: SlotWarmUp { slot.operation.warmUp(self) }
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
    /// Whether the mirror is on (``BallViewModel/mirror``).
    package let mirror: CurrentValueSubject<Bool, Never>
    /// Whether the mouse button is down on the ball (``BallViewModel/grabbed``).
    package let grabbed: CurrentValueSubject<Bool, Never>
    /// Each new position the mouse made (``BallViewModel/mouse``).
    package let mouse: PassthroughSubject<BallPosition, Never>
    /// Each new position the keys made (``BallViewModel/keys``).
    package let keys: PassthroughSubject<BallPosition, Never>
    /// The session's clock.
    package let clock: SessionScheduler

    /// Inputs from their parts.
    package init(
        position: CurrentValueSubject<BallPosition, Never>, mirror: CurrentValueSubject<Bool, Never>,
        grabbed: CurrentValueSubject<Bool, Never>, mouse: PassthroughSubject<BallPosition, Never>,
        keys: PassthroughSubject<BallPosition, Never>, clock: SessionScheduler
    ) {
        self.position = position
        self.mirror = mirror
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

    /// The count, if this is one.
    package var count: Int? {
        if case .count(let count) = self { count } else { nil }
    }
}

extension Intent {
    /// Whether the intent puts an operator in the slot.
    package var choosesOperator: Bool {
        if case .operatorChosen = self { true } else { false }
    }
}

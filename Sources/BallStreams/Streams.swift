import BallModel
import ColourCore
import OpenCombine
import TextFormats

// MARK: - The streams, as marble lanes

/// The streams the panel draws, one lane each, named as the code names them.
package enum StreamLane: Hashable, Sendable {
    /// Every intent as it enters the session (``BallSession/intents``).
    case intents
    /// The position subject, a `CurrentValueSubject` (``BallViewModel/position``).
    case position
    /// What the operator in the slot passes on (``BallViewModel/slotted``): drawn once an
    /// operator has gone into the slot.
    case slotted
    /// `slotted.map(colour).distinctUntilChanged()` (``BallViewModel/ballColour``).
    case ballColour
    /// `ballColour.scan(flatWhite, background).distinctUntilChanged()` (``BallViewModel/background``).
    case background
    /// The second subject, whether the mirror is on (``BallViewModel/mirror``): drawn while the
    /// operator in the slot reads it.
    case mirror
    /// Whether the mouse button is down on the ball (``BallViewModel/grabbed``): drawn while the
    /// operator in the slot reads it.
    case grabbed
    /// Each new position the mouse made (``BallViewModel/mouse``): drawn while the operator in
    /// the slot reads it.
    case mouse
    /// Each new position the keys made (``BallViewModel/keys``): drawn while the operator in the
    /// slot reads it.
    case keys
    /// A subscriber that came late, of this kind.
    case late(LateSubscriber)
    /// The inner subscription to the position that `flatMap` or `flatMapLatest` in the slot made
    /// for a press, the first, the second, …: drawn under the lanes it reads, as Rx draws an inner
    /// observable.
    case inner(Int)
    /// What stage `n` (from 0) of a pipe of several passes on, for each stage before the last
    /// (the last's lane is ``slotted``: the colour follows it): drawn above the slot's lane, so a
    /// value is seen passing one stage and stopping at the next (``BallViewModel/stageOutputs``).
    case stage(Int)
    /// A subscription `retry` made anew to stage `stage` (from 0) after its error, the stage's
    /// `subscription`-th in its column (from 2: the first is the stage's own lane's): drawn under
    /// that lane, a row each, as Rx draws each subscription (RxSwift's test scheduler records a
    /// `Subscription(start, end)` for each, RxJS a subscription marble line each).
    case retried(stage: Int, subscription: Int)
    /// One operator's part of the pipe's stage lanes (``StagePart``): what ``stage(_:)`` draws in
    /// the columns whose pipe has that operator at that place, and nothing in the others. The
    /// panel draws a row for each part, so that a row holds one operator's marbles.
    case part(StagePart)
    /// A stream of `learn`'s Publish copy of the chain (`o`, ``PublishCopy``), which the screen's
    /// colours follow while `o` binds them: drawn under the main lanes, from where it subscribed
    /// (`^`, handed nothing) to where `o` bound the screen back (`!`).
    case copy(CopyStream)

    /// The lane of a subject an operator reads.
    package init(_ input: SlotInput) {
        switch input {
        case .position: self = .position
        case .mirror: self = .mirror
        case .grabbed: self = .grabbed
        case .mouse: self = .mouse
        case .keys: self = .keys
        }
    }

    /// The lanes of what `operation` reads beyond the position (whose lane is always drawn), in
    /// the order its code names them: drawn between the position's lane and the slot's.
    package static func inputs(of operation: SlotPipe) -> [StreamLane] {
        operation.inputs.filter { $0 != .position }.map(StreamLane.init)
    }

    /// The most input lanes one operator has (``inputs(of:)``): the rows a panel keeps for them
    /// (a pipe that reads more has the rest left out where rows are short).
    package static let mostInputs = SlotOperator.allCases.map { inputs(of: [$0]).count }.max() ?? 0

    /// The lane's label, as the code names the stream.
    package var label: String {
        switch self {
        case .intents: "intents"
        case .position: "position"
        case .slotted: "slotted"
        case .ballColour: "ballColour"
        case .background: "background"
        case .mirror: "mirror"
        case .grabbed: "grabbed"
        case .mouse: "mouse"
        case .keys: "keys"
        case .late(let kind): "late \(kind.name)"
        case .inner(let number): "inner \(number)"
        case .stage(let number): "stage\(number + 1)"
        case .retried(_, let subscription): "\u{2514} retry's \(Self.ordinal(subscription))"
        case .part(let part) where part.isRetried:
            Self.retried(stage: part.number, subscription: part.subscription).label
        case .part(let part): part.operation.stageCode
        case .copy(let stream): "copy.\(stream)"
        }
    }

    /// `2nd`, `3rd`, `4th`: which subscription of a stage a ``retried(stage:subscription:)`` lane is.
    package static func ordinal(_ number: Int) -> String {
        let suffix =
            switch (number % 10, number % 100) {
            case (_, 11...13): "th"
            case (1, _): "st"
            case (2, _): "nd"
            case (3, _): "rd"
            default: "th"
            }
        return "\(number)\(suffix)"
    }

    /// The lanes of `learn`'s Publish copy of the chain, top to bottom (``copy(_:)``).
    package static let copy = CopyStream.allCases.map(StreamLane.copy)

    /// The lanes of the inner subscriptions `flatMap` or `flatMapLatest` held in `columns`
    /// (``inner(_:)``), first to last: every number from the lowest that lived there to the highest.
    package static func inners(in columns: [StreamColumn]) -> [StreamLane] {
        var (lowest, highest) = (Int.max, 0)
        // By index, with no array a column: the panel works this out for every column on its page.
        for index in columns.indices {
            let (before, after) = (columns[index].innersBefore, columns[index].innersAfter)
            let within = columns[index].innersEndedWithin
            if !within.isEmpty {
                (lowest, highest) = (min(lowest, within.lowerBound), max(highest, within.upperBound - 1))
            }
            if !before.isEmpty {
                (lowest, highest) = (min(lowest, before.lowerBound), max(highest, before.upperBound - 1))
            }
            if !after.isEmpty {
                (lowest, highest) = (min(lowest, after.lowerBound), max(highest, after.upperBound - 1))
            }
        }
        return lowest > highest ? [] : (lowest...highest).map(StreamLane.inner)
    }

    /// The names of the inner subscriptions each inner lane (``inner(_:)``, by the number its pipe
    /// gave it) draws in `columns`, in order: the pipe's own numbers for the first pipe there, and
    /// for each pipe put in after it numbers past every one named before, so that no two
    /// subscriptions on one page share a name (a pipe put in numbers its inner subscriptions from
    /// 1 again, and its first one's marks share the lane of the pipe before's first).
    package static func innerNames(in columns: [StreamColumn]) -> [Int: [Int]] {
        var (names, offset, highest) = ([Int: [Int]](), 0, 0)
        func note(_ numbers: Range<Int>) {
            for number in numbers where names[number]?.last != number + offset {
                names[number, default: []].append(number + offset)
                highest = max(highest, number + offset)
            }
        }
        // By index, with no array a column: the panel works this out for every column on its page.
        for index in columns.indices {
            note(columns[index].innersBefore)
            // The pipe put in here numbers from 1 again: its inner subscriptions' names go on.
            if index > 0, columns[index].intent?.buildsPipe == true { offset = highest }
            note(columns[index].innersEndedWithin)
            note(columns[index].innersAfter)
        }
        return names
    }

    /// The label of inner lane `number` on a page of `columns` (``innerNames(in:)``): `inner 1`,
    /// or, where the lane draws several subscriptions, each by its name (`inner 1, 3`), in `room`
    /// cells at most.
    package static func innerLabel(_ number: Int, in columns: [StreamColumn], room: Int) -> String {
        let names = innerNames(in: columns)[number] ?? [number]
        let spaced = "inner " + names.map(String.init).joined(separator: ", ")
        guard spaced.count > room else { return spaced }
        let packed = "inner " + names.map(String.init).joined(separator: ",")
        return packed.count <= room ? packed : String(packed.prefix(room - 1)) + "…"
    }

    /// The four lanes every panel has, top to bottom.
    package static let main: [StreamLane] = [.intents, .position, .ballColour, .background]

    /// The main lanes, with the slot's under the position's when `slot` (the slot holds an operator),
    /// and between them the lanes of `inputs` (what the operator reads beyond the position), then
    /// those of `stages` (each stage of a pipe before its last, ``stage(_:)``) above the slot's.
    package static func main(slot: Bool, inputs: [StreamLane] = [], stages: [StreamLane] = []) -> [StreamLane] {
        slot ? [.intents, .position] + inputs + stages + [.slotted, .ballColour, .background] : main
    }

    /// The lanes of the stages before the last of the pipes in `columns` (``stage(_:)``): as many
    /// as the longest pipe among them has, less its last.
    package static func stages(in columns: [StreamColumn]) -> [StreamLane] {
        var most = 0
        // By index, with no array of counts: the panel works this out for every column on its page.
        for index in columns.indices { most = max(most, columns[index].slot.stages.count) }
        return (0..<max(0, most - 1)).map(StreamLane.stage)
    }

    /// `stages` (stage lanes, ``stage(_:)``), each followed by the lanes of the subscriptions
    /// `retry` made anew to it in `columns` (``retried(stage:subscription:)``): as many as it made
    /// in one column at most.
    package static func withRetried(_ stages: [StreamLane], in columns: [StreamColumn]) -> [StreamLane] {
        var most: [Int: Int] = [:]
        // By index: the panel works this out for every column on its page.
        for index in columns.indices {
            for number in columns[index].stagesPassed.indices {
                let made = columns[index].resubscriptions(ofStage: number)
                if made > most[number, default: 0] { most[number] = made }
            }
        }
        guard !most.isEmpty else { return stages }
        return stages.flatMap { lane -> [StreamLane] in
            guard case .stage(let number) = lane, let made = most[number] else { return [lane] }
            return [lane] + (0..<made).map { StreamLane.retried(stage: number, subscription: $0 + 2) }
        }
    }

    /// Whether this is the lane of a subscription `retry` made anew (``retried(stage:subscription:)``).
    package var isRetried: Bool {
        switch self {
        case .retried: true
        case .part(let part): part.isRetried
        default: false
        }
    }

    /// Whether this is the slot's lane or a stage's (``stage(_:)``): the lanes of the pipe.
    package var isPipeLane: Bool {
        switch self {
        case .slotted, .stage, .part: true
        default: false
        }
    }

    /// The code that makes this lane's stream, as the source writes it (the chain's lines are
    /// ``BallViewModel/init(start:)``'s own, which a test checks), spelt as RxSwift writes them
    /// where it differs: `BehaviorSubject(value:)` and `PublishSubject`, which the source makes as
    /// Combine's `CurrentValueSubject` and `PassthroughSubject`; `distinctUntilChanged()`, which it
    /// runs as Combine's `removeDuplicates()`; `switchLatest()` (Combine's `switchToLatest()`, the
    /// slot's lane leaving out what only Combine needs); and `scan`'s `accumulator:` label.
    package var expression: String {
        switch self {
        case .intents: "session.intents, a PublishSubject<Intent> (Combine: PassthroughSubject)"
        case .position: "position = BehaviorSubject(value: start.position)"
        case .slotted:
            "slotted = slot.map { $0.applied(to: inputs) }.switchLatest().share(replay: 1) (Combine: switchToLatest)"
        case .ballColour: "ballColour = slotted.map { $0.ballColour }.distinctUntilChanged().share(replay: 1)"
        case .background:
            "background = ballColour.scan(start.background, accumulator: screenColour).distinctUntilChanged().share(replay: 1)"
        case .mirror: "mirror = BehaviorSubject(value: start.mirror), flipped by i"
        case .grabbed: "grabbed = BehaviorSubject(value: start.isGrabbed), sent each press and release"
        case .mouse: "mouse = PublishSubject(), sent each new position the mouse made"
        case .keys: "keys = PublishSubject(), sent each new position the keys made"
        case .late(.behavior): "position.bind { … }: the BehaviorSubject itself, subscribed late"
        case .late(.publish): "published.bind { … }: position.subscribe(published), a PublishSubject"
        case .late(.replay): "replayed.bind { … }: position.subscribe(replayed), a ReplaySubject(bufferSize: 3)"
        case .late(.relay): "relay.publisher.bind { … }: a BehaviorRelay that accepts each position"
        case .inner(let number):
            "position, the inner subscription flatMap or flatMapLatest made for press \(number): { $0 ? position : .empty() } with $0 true"
        case .stage(let number): "stage \(number + 1) of the pipe in the slot, what it passes on to the next"
        case .retried(let number, let subscription):
            "stage \(number + 1) of the pipe in the slot, its \(Self.ordinal(subscription)) subscription in the column: retry's, made anew after the error"
        case .part(let part) where part.isRetried:
            "\(part.operation.stageCode), stage \(part.number + 1) of the pipes in the slot that have it there, its \(Self.ordinal(part.subscription)) subscription in the column: retry's, made anew after the error"
        case .part(let part):
            "\(part.operation.stageCode), stage \(part.number + 1) of the pipes in the slot that have it there"
        case .copy(.subject): "copy.subject = PublishSubject(), sent each new position from o on"
        case .copy(.ball):
            "copy.ball = copy.subject.map { $0.ballColour }.distinctUntilChanged(): the screen's ball follows it"
        case .copy(.screen):
            "copy.screen = copy.ball.scan(white, accumulator: screenColour).distinctUntilChanged(): the screen follows it"
        }
    }

    /// The code in short, for a narrow panel: `slotted.map { $0.ballColour }.distinctUntilChanged()`.
    package var shortExpression: String {
        switch self {
        case .intents: "session.intents"
        case .position: "BehaviorSubject(value: start.position)"
        case .slotted: "slot.map { $0.applied(to: inputs) }.switchLatest()"
        case .ballColour: "slotted.map { $0.ballColour }.distinctUntilChanged()"
        case .background: "ballColour.scan(\(Glyph.ellipsis), accumulator: screenColour).distinctUntilChanged()"
        case .mirror: "BehaviorSubject(value: start.mirror)"
        case .grabbed: "BehaviorSubject(value: start.isGrabbed)"
        case .mouse, .keys: "PublishSubject()"
        case .late(.behavior): "position.bind { \(Glyph.ellipsis) }"
        case .late(.publish): "PublishSubject, late"
        case .late(.replay): "ReplaySubject(bufferSize: 3), late"
        case .late(.relay): "BehaviorRelay, late"
        case .inner(let number): "position, the inner for press \(number)"
        case .stage(let number): "stage \(number + 1) of the slot's pipe"
        case .retried(let number, let subscription):
            "stage \(number + 1), its \(Self.ordinal(subscription)) subscription (retry's)"
        case .part(let part) where part.isRetried:
            "\(part.operation.stageCode), its \(Self.ordinal(part.subscription)) subscription (retry's)"
        case .part(let part): part.operation.stageCode
        case .copy(.subject): "PublishSubject(), from o on"
        case .copy(.ball): "copy.subject.map { $0.ballColour }"
        case .copy(.screen): "copy.ball.scan(white, accumulator: screenColour)"
        }
    }
}

/// The three streams of `learn`'s Publish copy of the chain (``PublishCopy``), as it names them.
package enum CopyStream: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Its subject, a `PassthroughSubject` (RxSwift's `PublishSubject`) sent each new position.
    case subject
    /// `subject.map { $0.ballColour }.distinctUntilChanged()`: the ball's colour on the screen.
    case ball
    /// `ball.scan(white, screenColour).distinctUntilChanged()`: the screen's colour.
    case screen

    /// Its name in the code: `subject`, `ball`, `screen`.
    package var description: String { rawValue }
}

/// The subject kinds the article opens with, each as a late subscriber the user can add: a
/// subscription made now, to a subject the position has been sent to all along.
package enum LateSubscriber: Hashable, Sendable, CaseIterable {
    /// Subscribed to the position subject itself, a `CurrentValueSubject` (RxSwift's
    /// BehaviorSubject): handed the latest value at once, then every change.
    case behavior
    /// Subscribed to a `PassthroughSubject` (RxSwift's PublishSubject) the position is sent
    /// to: nothing until the next change.
    case publish
    /// Subscribed to a ``ReplaySubject`` of three the position is sent to: handed the last three
    /// positions at once, then every change.
    case replay
    /// Subscribed to a ``BehaviorRelay`` that accepts each position (what the article's
    /// `Variable` became): like Behavior, but it never ends, not even when the position does.
    case relay

    /// The kind's name on its lane: `Behavior`, `Publish`, `Replay(3)`, `Relay`.
    package var name: String {
        switch self {
        case .behavior: "Behavior"
        case .publish: "Publish"
        case .replay: "Replay(\(Self.replayBufferSize))"
        case .relay: "Relay"
        }
    }

    /// The kind's name without what it keeps (`Replay`): what the tour says before the lesson
    /// that asks what each is handed.
    package var plainName: String { String(name.prefix { $0 != "(" }) }

    /// What a subscriber of this kind is handed as it subscribes, in a few words: the one place
    /// `play --help`, `replay --help`, the help box, the man page and the panel's empty late rows
    /// say it (a Replay subject holds fewer than its last three before three values came).
    package var handedWords: String {
        switch self {
        case .behavior: "the latest at once"
        case .publish: "nothing at once"
        case .replay: "up to its last \(Self.replayBufferSize)"
        case .relay: "the latest, never ends"
        }
    }

    /// The key that subscribes (and unsubscribes) one: `b`, `p`, `r`, `v` (the article's
    /// Variable). The key map binds these.
    package var key: Unicode.Scalar {
        switch self {
        case .behavior: "b"
        case .publish: "p"
        case .replay: "r"
        case .relay: "v"
        }
    }

    /// How many values the Replay subject keeps for a new subscriber.
    package static let replayBufferSize = 3
}

/// What a lane shows in one column.
package enum Marble: Hashable, Sendable {
    /// Nothing was emitted: the lane's line.
    case line
    /// A mark that is not a value: `^`, `|`, `!`.
    case mark(Unicode.Scalar)
    /// The subscription began here (`^`), with what it was handed at once, if anything, and how
    /// it ended in the same column, if it did (`^!`, `^○!`, `^3|`, `^|`).
    indirect case subscribed(handed: Marble?, ending: LaneEnding? = nil)
    /// The stream completed here (`|`), after what it emitted in this column, if anything.
    indirect case ended(after: Marble?)
    /// The subscriber unsubscribed here (`!`), after what it received in this column, if anything.
    indirect case unsubscribed(after: Marble?)
    /// The subscriber unsubscribed here (`!`), after what it received in this column, if anything,
    /// and a new one subscribed after it (`^`, in the next column's first cell): `learn`'s `o`
    /// pressed twice between two intents, which disposes of its Publish copy and binds a new one.
    indirect case resubscribed(after: Marble?)
    /// The stream ended here with an error (`#`), after what it emitted in this column, if anything.
    indirect case failed(after: Marble?)
    /// An intent entered (its glyph).
    case intent(Intent)
    /// A value was published: drawn as itself where it fits (a count's digits, `T` or `F`), else
    /// as a letter the panel's values line names (a position, `a = 41,12`), else `○`.
    case value(MarbleValue)
    /// Several values at once (a Replay subject's replay), or in one column of the time view:
    /// their count (``Glyph/group(_:)``: `²`, `³`, `»` for more).
    case group(Int)
    /// A colour was emitted: `●` (the ball) or `■` (the background), painted in it.
    case colour(FlatColour, background: Bool)
    /// A value was worked out and swallowed by `distinctUntilChanged` (`·`): the same ball colour
    /// again, or the same screen colour again (the black band keeps it).
    case ghost
    /// The intent was skipped in the replay player (`ø`): it never entered, nothing went through.
    case skipped
    /// In the time view, the slot's timed operator waits here (`~`): `debounce`'s timer runs,
    /// `throttle`'s window is open.
    case waiting
    /// The same value several times at once (`flatMap`'s inner subscriptions each passing the new
    /// position on): drawn as the value and the group's count (`b²`, `b³`), which the values line
    /// explains (`²=2 at once`), as the legend's groups are; in a span of the time view, the
    /// group's count.
    indirect case repeated(MarbleValue, count: Int)

    /// The marble's glyph (for the marks that take a column's two cells, its second cell's).
    package var glyph: Unicode.Scalar {
        switch self {
        case .line: Glyph.line
        case .mark(let mark): mark
        case .subscribed: Glyph.subscribed
        case .ended: Glyph.completed
        case .unsubscribed, .resubscribed: Glyph.unsubscribed
        case .failed: Glyph.error
        case .intent(let intent): Self.glyph(of: intent)
        case .value(let value): value.glyph ?? Glyph.value
        case .group(let count), .repeated(_, let count): Glyph.group(count)
        case .colour(_, let background): background ? Glyph.background : Glyph.ball
        case .ghost: Glyph.ghost
        case .skipped: Glyph.skipped
        case .waiting: Glyph.waiting
        }
    }

    /// An intent's glyph: press `▼`, drag `•`, release `▲`, arrows `←↑→↓`, recentre `◙`,
    /// resize `↔`, quit `q`, the tour's completion `e`, an operator chosen `ƒ`, the mirror
    /// flipped `¦` (``Glyph``).
    package static func glyph(of intent: Intent) -> Unicode.Scalar {
        switch intent {
        case .pressed: Glyph.pressed
        case .dragged: Glyph.dragged
        case .released: Glyph.released
        case .arrowPressed(.left, _): Glyph.left
        case .arrowPressed(.up, _): Glyph.up
        case .arrowPressed(.right, _): Glyph.right
        case .arrowPressed(.down, _): Glyph.down
        case .recentred: Glyph.recentred
        case .resized: Glyph.resized
        case .quitRequested: Glyph.quit
        case .completionRequested: Glyph.completion
        case .operatorChosen, .stageAdded, .stageRemoved: Glyph.operatorChosen
        case .mirrorFlipped: Glyph.mirrorFlipped
        }
    }

    /// An intent as every view describes it (the panel's description and hover line, the
    /// player's change line): its glyph, then a few words, `• dragged to 41,12`.
    package static func describe(_ intent: Intent) -> String {
        let words =
            switch intent {
            case .pressed(let cell): "pressed at \(cell)"
            case .dragged(let cell): "dragged to \(cell)"
            case .released(let cell): "released at \(cell)"
            case .arrowPressed(let direction, let distance): "arrow \(direction.rawValue) \(distance)"
            case .recentred: "recentred"
            case .resized(let size): "resized to \(size)"
            case .quitRequested: "quit"
            case .completionRequested: "position completed"
            case .operatorChosen(let chosen): "operator \(chosen.shownName)"
            case .stageAdded(let stage): "stage \(stage.rawValue) added"
            case .stageRemoved: "last stage removed"
            case .mirrorFlipped: "mirror flipped"
            }
        return "\(glyph(of: intent)) \(words)"
    }

    /// The two cells of a column, in the order things happened: `^` then what was handed (or
    /// how it ended, when nothing was handed); otherwise the line then the marble (`─` for none),
    /// where what was emitted stands in the marble's cell as on every other column (the intent's
    /// own cell: it came with it) and the `|`, `!` or `#` after it is the ``spill``; with nothing
    /// emitted, the line then the `|`, `!` or `#`.
    package var cells: (Marble, Marble) {
        switch self {
        case .subscribed(let handed, let ending):
            (.mark(Glyph.subscribed), handed ?? ending.map { .mark($0.glyph) } ?? .line)
        case .ended(let after): (.line, after ?? .mark(Glyph.completed))
        case .unsubscribed(let after): (.line, after ?? .mark(Glyph.unsubscribed))
        // What it received, then `!`, in the column's two cells: the `^` after them is the spill.
        case .resubscribed(let after): (after ?? .line, .mark(Glyph.unsubscribed))
        case .failed(let after): (.line, after ?? .mark(Glyph.error))
        case .waiting: (.waiting, .waiting)
        case .repeated(let value, let count): (.value(value), .group(count))
        default: (.line, self)
        }
    }

    /// The third mark of a column that holds three things, in Rx's order: a subscription handed
    /// something that ended in the same column (`^○!`, `^3|`), or a value then the end (`─○!`: the
    /// value came with the column's intent, the cancel after it). It is drawn in the next
    /// column's first cell, where the ended lane has nothing (a page leaves one cell for it after
    /// its last column).
    package var spill: Marble? {
        switch self {
        case .subscribed(_?, let ending?): .mark(ending.glyph)
        case .ended(_?): .mark(Glyph.completed)
        case .unsubscribed(_?): .mark(Glyph.unsubscribed)
        case .failed(_?): .mark(Glyph.error)
        case .resubscribed: .mark(Glyph.subscribed)
        default: nil
        }
    }

    /// The one cell of a span of the time view: the value where the span holds one (several: their
    /// group, `²`), over the mark it came with (`^`, `|`, `!`: the lane then begins or ends at
    /// that cell, blank before or after it, and the hover says what happened); with no value, the
    /// ending (`^|` is `|`), else the mark, `~` or `─`.
    package var spanCell: Marble {
        switch self {
        case .subscribed(let handed, let ending):
            handed ?? ending.map { .mark($0.glyph) } ?? .mark(Glyph.subscribed)
        case .ended(let after): after ?? .mark(Glyph.completed)
        case .unsubscribed(let after), .resubscribed(let after): after ?? .mark(Glyph.unsubscribed)
        case .failed(let after): after ?? .mark(Glyph.error)
        case .repeated(_, let count): .group(count)
        default: self
        }
    }

    /// The marks a span of the time view draws beside its one cell (``spanCell``), where the lane
    /// does not live: `^` in the cell before, where the subscription was handed a value or ended
    /// in the same span; `|`, `!` or `#` in the cell after, where a value came before the end.
    package var spanMarks: (before: Unicode.Scalar?, after: Unicode.Scalar?) {
        switch self {
        case .subscribed(_?, let ending): (Glyph.subscribed, ending?.glyph)
        case .subscribed(nil, _?): (Glyph.subscribed, nil)
        case .ended(_?): (nil, Glyph.completed)
        case .unsubscribed(_?): (nil, Glyph.unsubscribed)
        case .failed(_?): (nil, Glyph.error)
        default: (nil, nil)
        }
    }

    /// How many values ``spanCell`` stands for: a group's count, else one.
    package var spanCount: Int {
        if case .group(let count) = spanCell { return count }
        return 1
    }

    /// The column's marks in its two cells where the next column's first cell is taken (another
    /// lane begins there in the same row): what was emitted then `|`, `!` or `#`, when that is
    /// what it holds; nil for every other marble.
    package var compactCells: (Marble, Marble)? {
        switch self {
        case .ended(let after?): (after, .mark(Glyph.completed))
        case .unsubscribed(let after?): (after, .mark(Glyph.unsubscribed))
        case .failed(let after?): (after, .mark(Glyph.error))
        default: nil
        }
    }

    /// Every mark of the column, in order: its two cells and the spill (for the exports that
    /// write a column as text).
    package var allCells: [Marble] {
        let (first, second) = cells
        return [first, second] + (spill.map { [$0] } ?? [])
    }
}

/// What a value marble stands for.
package enum MarbleValue: Hashable, Sendable {
    /// A position (the position's lane, the slot's, the mouse's and keys', the late lanes').
    case position(BallPosition)
    /// The counter's count.
    case count(Int)
    /// A subject's true or false (`mirror`, `grabbed`).
    case flag(Bool)

    /// The value the slot passed on.
    package init(_ output: SlotOutput) {
        switch output {
        case .position(let position): self = .position(position)
        case .count(let count): self = .count(count)
        }
    }

    /// The glyph that is the value itself, when one cell holds it: a count from 1 to 9, `T` or
    /// `F`; nil: it takes a letter (or two cells, ``wideGlyphs``).
    package var glyph: Unicode.Scalar? {
        switch self {
        case .count(let count) where (1...9).contains(count): Unicode.Scalar(UInt8(ascii: "0") + UInt8(count))
        case .flag(let on): on ? "T" : "F"
        default: nil
        }
    }

    /// The two glyphs that are the value itself when it takes a column's two cells: a count from
    /// 10 to 99 (`10`); nil otherwise.
    package var wideGlyphs: (Unicode.Scalar, Unicode.Scalar)? {
        guard case .count(let count) = self, (10...99).contains(count) else { return nil }
        return (
            Unicode.Scalar(UInt8(ascii: "0") + UInt8(count / 10)), Unicode.Scalar(UInt8(ascii: "0") + UInt8(count % 10))
        )
    }

    /// The value in words, as the values line names a letter's: `41,12`, `120`, `true`.
    package var words: String {
        switch self {
        case .position(let position): "\(position.centre.column),\(position.centre.row)"
        case .count(let count): String(count)
        case .flag(let on): on ? "true" : "false"
        }
    }

    /// Each of `values` in words (``words``), as a values line names them side by side: a
    /// position with its screen's size after it (`36,5 (63×22)`) where another of them has the
    /// same centre on another screen, so that two letters never read as one value (a resize
    /// makes a new position of the same place).
    package static func words(of values: [MarbleValue]) -> [String] {
        var screens: [Cell: Set<ScreenSize>] = [:]
        for case .position(let position) in values { screens[position.centre, default: []].insert(position.screen) }
        return values.map { value in
            guard case .position(let position) = value, (screens[position.centre]?.count ?? 0) > 1 else {
                return value.words
            }
            return "\(value.words) (\(position.screen.columns)×\(position.screen.rows))"
        }
    }

    /// The letters a value that does not fit its column is drawn as, in the order they are given
    /// out on a page: `a`…`z`, then `A`…`Z`, but none that is another mark: `T` and `F` (true and
    /// false), `q` (the quit's intent), nor the ASCII panel's marks (``Glyph/ascii``: `o`, `r`,
    /// `v`, `x`, `A`, `C`, `I`, `S`, `V`). Forty.
    package static let letters: [Unicode.Scalar] = "abcdefghijklmnpstuwyzBDEGHJKLMNOPQRUWXYZ".unicodeScalars.map { $0 }
}

/// How a subscription's lane ended.
package enum LaneEnding: Hashable, Sendable {
    /// Its subject completed (`|`).
    case completed
    /// It was cancelled: the user unsubscribed (`!`).
    case unsubscribed
    /// Its stream ended with an error (`#`).
    case failed

    /// `|`, `!` or `#`.
    package var glyph: Unicode.Scalar {
        switch self {
        case .completed: Glyph.completed
        case .unsubscribed: Glyph.unsubscribed
        case .failed: Glyph.error
        }
    }
}

// MARK: - The legend

/// Every symbol the lanes draw, each with its one meaning, in the order a learner meets them:
/// the help box (with the panel open), `--help`, the man page and docs/streams.md print this list.
package enum MarbleLegend {
    /// The symbols and their meanings (each symbol's glyphs separated by spaces).
    package static let entries: [(symbol: String, meaning: String)] = [
        ("\(Glyph.subscribed)", "subscribed here; what it was handed at once follows"),
        ("\(Glyph.line)", "nothing emitted"),
        ("a 1 T F", "a value: a letter (see values; \(lettersSkipped) are marks, never letters), a count, true, false"),
        ("\(Glyph.value)", "a value past the letters a page has (point at it)"),
        (
            "\(Glyph.ball) \(Glyph.background)",
            "a ball colour, a screen colour (painted in it; on a light cell where it would not show)"
        ),
        (
            "\(Glyph.ghost)",
            "worked out, then swallowed by the lane's own distinctUntilChanged (Combine: removeDuplicates)"
        ),
        ("\(Glyph.waiting)", "a timer runs (time view, T: debounce, throttle)"),
        (
            groupSymbol,
            "two, three, more at once (Replay, a time column); after a value, that value so many times (b²)"
        ),
        ("\(Glyph.segment)", "an operator went into the slot: its part starts here"),
        (
            "\(Glyph.completed)",
            "completed (a quit, or learn's e, completes position and all after; catch ends its stage after its fallback)"
        ),
        ("\(Glyph.unsubscribed)", "unsubscribed (the lane's key again; an inner flatMapLatest let go)"),
        (
            "\(Glyph.error)",
            "an error (RxJS's #; many diagrams draw X): it ends the stream and all after it (tryMap in a corner)"
        ),
        ("\(Glyph.skipped)", "skipped in the player (x): the intent never entered"),
        ("\(Glyph.pressed) \(Glyph.dragged) \(Glyph.released)", "intents: pressed, dragged, released"),
        ("\(Glyph.left) \(Glyph.up) \(Glyph.right) \(Glyph.down)", "intents: the arrows"),
        (
            "\(Glyph.recentred) \(Glyph.resized) \(Glyph.quit) \(Glyph.completion)",
            "intents: recentred, resized, quit, position completed (learn's e)"
        ),
        ("\(Glyph.operatorChosen) \(Glyph.mirrorFlipped)", "intents: an operator chosen (f), the mirror flipped (i)"),
    ]

    /// The letters of `a`…`z`, `A`…`Z` no value is drawn as (another mark's), in that order:
    /// a learner reading `m n p s` otherwise takes the gaps for values missed.
    package static let lettersSkipped =
        (Array(Unicode.Scalar("a").value...Unicode.Scalar("z").value)
        + Array(Unicode.Scalar("A").value...Unicode.Scalar("Z").value))
        .compactMap(Unicode.Scalar.init).filter { !MarbleValue.letters.contains($0) }.map { String($0) }
        .joined(separator: " ")

    /// The groups' symbol: `² ³ »`.
    package static let groupSymbol =
        (2...LateSubscriber.replayBufferSize).map { String(Glyph.group($0)) }.joined(separator: " ")
        + " \(Glyph.groupOfMore)"

    /// The meanings `learn` says while the lessons they would answer are not done (what a late
    /// subscriber is handed at once is what lessons 3, 4 and 6 ask; what catch does after its
    /// fallback, lesson 17), by symbol: the same symbols, named without the answer.
    package static let neutralMeanings: [String: String] = [
        "\(Glyph.subscribed)": "subscribed here",
        groupSymbol: "two, three, more values in one column; after a value, that value so many times (b²)",
        "\(Glyph.completed)": "completed (a quit, or learn's e, completes position and all after)",
    ]

    /// The symbols with neutral words (``neutralMeanings``): all untold, as `learn --help` says them.
    package static var neutralSymbols: Set<String> { Set(neutralMeanings.keys) }

    /// The meaning of `entry`: telling (what the lessons teach), or, for a symbol in `untold`, its
    /// neutral words (``neutralMeanings``).
    package static func meaning(of entry: (symbol: String, meaning: String), untold: Set<String>) -> String {
        untold.contains(entry.symbol) ? neutralMeanings[entry.symbol] ?? entry.meaning : entry.meaning
    }

    /// Every glyph the legend explains (`a` and `1` stand for every letter and digit a value is
    /// drawn as).
    package static var glyphs: Set<Unicode.Scalar> {
        Set(entries.flatMap { $0.symbol.unicodeScalars.filter { $0 != " " } }).union(MarbleValue.letters)
            .union("0123456789".unicodeScalars)
    }

    /// The legend as text lines, `symbol  meaning`, the symbols in a column; the symbols in
    /// `untold` in their neutral words (``neutralMeanings``, as `learn` says them).
    package static func lines(untold: Set<String> = []) -> [String] {
        let symbolWidth = entries.map { $0.symbol.terminalWidth }.max() ?? 0
        return entries.map { entry in
            entry.symbol + String(repeating: " ", count: symbolWidth + 2 - entry.symbol.terminalWidth)
                + meaning(of: entry, untold: untold)
        }
    }

    /// The legend as a Markdown table (`| symbol | means |`), as docs/streams.md shows it.
    package static var markdownTable: String {
        let rows = entries.map { entry in
            let symbols = entry.symbol.split(separator: " ").map { $0 == "|" ? "`\\|`" : "`\($0)`" }
            return "| \(symbols.joined(separator: " ")) | \(entry.meaning) |"
        }
        return (["| symbol | means |", "|---|---|"] + rows).joined(separator: "\n")
    }
}

// MARK: - One column per intent

/// What happened in the streams while one intent went through (column 0: the subscriptions
/// at the start, before any intent).
package struct StreamColumn: Hashable, Sendable {
    /// The intent's index in the session, from 1 (0: the start).
    package var index: Int
    /// The intent, if this column has one.
    package var intent: Intent?
    /// The late subscriptions made and cancelled after the intent, before the next, in order: each
    /// drawn in a column of its own after this one (``withMoments(_:)``), where it happened.
    package var lateMoments: [LateMoment] = []
    /// Which of ``lateMoments`` this column draws, where it is one of those drawn after its
    /// intent's column (``withMoments(_:)``); nil: the intent's own column.
    package var moment: Int?
    /// The position published, if one was.
    package var position: BallPosition?
    /// What the slot passed on, if it passed anything (the last, when it passed on several).
    package var slotted: SlotOutput?
    /// How many values the slot passed on in the column: more than one where `flatMap`'s inner
    /// subscriptions each passed the new position on (``slottedValues``).
    package var slottedCount = 0
    /// The values before ``slotted`` the slot passed on in the column, in order (flatMap's inner
    /// subscriptions each pass the position on, and a `scan` after it counts each): empty where
    /// it passed on one at most.
    package var slottedEarlier: [SlotOutput] = []
    /// When the slot passed on each of ``slottedValues``, in order: the same instant for
    /// flatMap's copies, but `throttle` after flatMap passes the first copy on at once and the
    /// second at its window's end (``passedAt`` is the last of them).
    package var slottedTimes: [SessionTime] = []
    /// What each stage of the pipe passed on in the column, by stage (``StreamLane/stage(_:)``;
    /// the last stage's is ``slotted``): empty where none passed anything on.
    package var stagesPassed: [StagePassed] = []
    /// The pipe in the slot after the intent.
    package var slot: SlotPipe = .none
    /// Whether the mirror (the second subject) is on after the intent.
    package var mirror = false
    /// Whether the button is down on the ball after the intent (what `grabbed` holds).
    package var held = false
    /// What `grabbed` published here, if it did: true when a press grabbed the ball, false
    /// when a release let it go (in the first column, what it held as the lanes subscribed).
    package var grabbed: Bool?
    /// What `mirror` published here, if it did: its new state (in the first column, what it held
    /// as the lanes subscribed).
    package var mirrorSent: Bool?
    /// What `mouse` published here, if it did.
    package var mouse: BallPosition?
    /// What `keys` published here, if it did.
    package var keys: BallPosition?
    /// When the intent came, on the session's clock.
    package var time: SessionTime?
    /// When the slot passed on ``slotted`` (a timed operator passes it on after the intent).
    package var passedAt: SessionTime?
    /// Until when the slot's timed operator waited after the intent, at the latest, if it did
    /// (``BallSession/waitsUntil``: `debounce`'s timer, `throttle`'s window, including the window
    /// that opened when its timer went off here). The time view draws the wait from the
    /// intent's time to this, or to the next intent, when that comes first.
    package var waitsUntil: SessionTime?
    /// The ball colour emitted, if one was.
    package var ballColour: FlatColour?
    /// The background emitted, if one was.
    package var background: FlatColour?
    /// When ``ballColour`` and ``background`` were emitted: with the slot's value that made them,
    /// which need not be the slot's last (`throttle` after flatMap passes the first copy on at
    /// once, a new colour with it, and the second, the same colour swallowed, at its window's end).
    package var ballColourAt, backgroundAt: SessionTime?
    /// The derived state after the intent (whether or not anything was emitted).
    package var state: Appearance?
    /// Whether the intent was skipped (the replay player's `x`): it never entered the session.
    package var skipped = false
    /// The main lanes whose subscription received a completion here.
    package var completed: Set<StreamLane> = []
    /// The main lanes whose subscription received an error here (`slotted` and the colours after
    /// it, when the operator in the slot threw).
    package var failed: Set<StreamLane> = []
    /// When the slot's lane received its error, if it did here (a timer's in a pipe, after what
    /// the slot passed on in the column).
    package var failedAt: SessionTime?
    /// The main lanes whose subscription received an error in an earlier column: nothing is drawn
    /// on them, as nothing comes after an error (a stage's lane, until a pipe is built again).
    package var dead: Set<StreamLane> = []
    /// The stage lanes whose subscription was disposed of here without an event of its own (a
    /// stage after them failed): nothing is drawn on them after, until a pipe is built again.
    package var disposed: Set<StreamLane> = []
    /// `learn`'s Publish copy of the chain (`o`) here, if one lived in the column.
    package var copy: CopyColumn?
    /// The inner subscriptions `flatMap` or `flatMapLatest` in the slot held before the intent,
    /// and after it, by number (the session's model of them, ``BallSession/liveInners``): the
    /// inner lanes.
    package var innersBefore = 0..<0, innersAfter = 0..<0
    /// How many inner subscriptions the head had made before the intent and after it
    /// (``BallSession/innersMade``): those made here that do not live after it lived for an instant
    /// (``innersEndedWithin``).
    package var innersMadeBefore = 0, innersMadeAfter = 0

    /// The inner subscriptions made in the column and disposed of in it too, by number: handed
    /// the position as they subscribed, which set off an error that disposed of them at once (a
    /// press in a corner before a `map` that throws; each `retry` made subscribing anew).
    package var innersEndedWithin: Range<Int> {
        let first = (intent?.buildsPipe == true ? 0 : innersMadeBefore) + 1
        let last = innersAfter.isEmpty ? innersMadeAfter : min(innersMadeAfter, innersAfter.lowerBound - 1)
        return first <= last ? first..<(last + 1) : first..<first
    }

    /// An empty column for the intent at `index`.
    package init(index: Int, intent: Intent? = nil, state: Appearance? = nil) {
        self.index = index
        self.intent = intent
        self.state = state
    }

    /// Whether this is the start column: what the lanes were handed as they subscribed.
    package var isStart: Bool { index == 0 && moment == nil }

    /// The late subscription or cancellation this column draws, if it is one's
    /// (``withMoments(_:)``).
    package var lateMoment: LateMoment? { moment.map { lateMoments[$0] } }

    /// `columns` as the event view draws them: each followed by a column for each late
    /// subscription made or cancelled after its intent (``lateMoments``), in order, as Rx draws
    /// a subscription at its own time: the late lane's `^` and what it was handed, or its `!`;
    /// the Publish copy's (`o`) `^` (a Publish subject hands nothing), or its `!`; the other
    /// lanes' line, as nothing was emitted (not on the intents lane either: a key that subscribes
    /// is no intent), or nothing where a lane had ended or not begun. The intent's own column
    /// then draws the copy only as the intent found it.
    package static func withMoments(_ columns: some Collection<StreamColumn>) -> [StreamColumn] {
        var drawn: [StreamColumn] = []
        drawn.reserveCapacity(columns.count)
        for column in columns {
            guard !column.lateMoments.isEmpty else {
                drawn.append(column)
                continue
            }
            var own = column
            // What the intent found: a copy bound or bound back after it is drawn in its moment's column.
            let copyMoments = column.lateMoments.contains { $0.copy != nil }
            if copyMoments, let copy = column.copy {
                own.copy = copy.lived ? copy.asTheIntentFoundIt : nil
            }
            drawn.append(own)
            var copyLives = column.copy.map { copyMoments ? $0.lived : $0.lives } ?? false
            for (number, moment) in column.lateMoments.enumerated() {
                var quiet = StreamColumn(index: column.index, state: column.state)
                quiet.lateMoments = column.lateMoments
                quiet.moment = number
                quiet.time = moment.time
                quiet.slot = column.slot
                quiet.mirror = column.mirror
                quiet.held = column.held
                quiet.dead = column.dead.union(column.failed).union(column.disposed).union(column.completed)
                (quiet.innersBefore, quiet.innersAfter) = (column.innersAfter, column.innersAfter)
                (quiet.innersMadeBefore, quiet.innersMadeAfter) = (column.innersMadeAfter, column.innersMadeAfter)
                if moment.copy != nil {
                    // `^` as it was bound, handed nothing; `!` as it was bound back.
                    var copy = CopyColumn(lived: !moment.subscribed, lives: moment.subscribed)
                    if moment.subscribed { copy.beganAt = moment.time } else { copy.endedAt = moment.time }
                    quiet.copy = copy
                    copyLives = moment.subscribed
                } else if copyLives, let copy = column.copy {
                    quiet.copy = CopyColumn(
                        lived: true, lives: true, heldBall: copy.heldBall, heldScreen: copy.heldScreen)
                }
                drawn.append(quiet)
            }
        }
        return drawn
    }

    /// What `lane` shows in this column, for the main lanes and the inputs' (the start column marks
    /// their subscriptions; a completion or an error ends them); nil: nothing, after an error.
    package func marble(_ lane: StreamLane) -> Marble? {
        if case .copy(let stream) = lane { return copyMarble(stream) }
        if case .retried(let number, let subscription) = lane { return retriedMarble(number, subscription) }
        if case .part(let part) = lane { return stageLane(part).flatMap(marble) }
        if dead.contains(lane) { return nil }
        // A stage's lane lives where the pipe has that stage; the last's is drawn as what it
        // hands `switchToLatest`, the slot's lane's values.
        if case .stage(let number) = lane, number >= slot.stages.count - 1 {
            return isLastStage(lane) && !dead.contains(.slotted) ? lastStageMarble : nil
        }
        if case .stage = lane, dead.contains(.slotted) { return nil }
        if case .inner(let number) = lane {
            // The start column: the inner subscriptions a chain built part-way made again.
            guard isStart else { return innerMarble(number) }
            return innersAfter.contains(number) ? .subscribed(handed: emission(lane)) : nil
        }
        let shown = emission(lane)
        if isStart {
            return .subscribed(handed: lane == .intents ? nil : shown, ending: failed.contains(lane) ? .failed : nil)
        }
        // A skipped intent never entered; a timed operator's timer may still go off after it.
        if skipped, lane == .intents { return .skipped }
        if completes(lane) { return .ended(after: shown) }
        // `retry` after the stage subscribed to it anew: the lane is the stage's own subscription,
        // what it passed on and its `#`; each new one has a lane of its own (``retriedMarble``).
        if case .stage(let number) = lane, let passed = stage(number), let first = retried(ofStage: number).first {
            let own = emission(of: passed, number, values: 0..<first.firstValue)
            return failed.contains(lane) ? .failed(after: own) : own ?? .line
        }
        if failed.contains(lane) { return .failed(after: shown) }
        return shown ?? .line
    }

    /// How many subscriptions `retry` made anew to stage `number` here, each ended by an error
    /// as the one before it (the Behavior subject hands each the corner at once).
    package func resubscriptions(ofStage number: Int) -> Int { retried(ofStage: number).count }

    /// The subscriptions `retry` made anew to stage `number` here (``StagePassed/madeAnew(pipeBuilt:)``).
    package func retried(ofStage number: Int) -> [RetriedSubscription] {
        stage(number)?.madeAnew(pipeBuilt: index == 0 || intent?.buildsPipe == true) ?? []
    }

    /// The lane of the `subscription`-th subscription of stage `number` here (from 2: `retry`'s,
    /// made anew): `^`, what it passed on, and how it ended (`^#`); nothing where it made none.
    private func retriedMarble(_ number: Int, _ subscription: Int) -> Marble? {
        let retried = retried(ofStage: number)
        guard let passed = stage(number), retried.indices.contains(subscription - 2) else { return nil }
        let made = retried[subscription - 2]
        let values = made.firstValue..<(made.firstValue + made.values)
        return .subscribed(handed: emission(of: passed, number, values: values), ending: made.ending)
    }

    /// What stage `number` passed on of `values` (indices of ``StagePassed/values``) as one
    /// marble: the value, the same value several times, or their count; nil: none.
    private func emission(of passed: StagePassed, _ number: Int, values: Range<Int>) -> Marble? {
        guard let last = values.last, passed.values.indices.contains(last) else { return nil }
        let value = MarbleValue(passed.values[last])
        guard values.count > 1 else { return .value(value) }
        let same = !slot.stages.prefix(number + 1).contains { $0.operation.remembersPassed }
        return same ? .repeated(value, count: values.count) : .group(values.count)
    }

    /// Whether `lane` completed here: its subscription received the completion. A recovery
    /// (`catch`, `catchAndReturn`) at a pipe's end that passed its fallback on and completed, as
    /// RxSwift's does, completes its stage, the inner `switchToLatest` subscribed to: `slotted`,
    /// the switch's output, lives on for the next pipe (RxSwift's `switchLatest` ends only when
    /// its source and its latest inner have), and so do the colours; the session's end
    /// completes them all.
    package func completes(_ lane: StreamLane) -> Bool {
        completed.contains(lane)
    }

    /// Whether `lane` is the lane of the last stage of a pipe of several: the inner observable
    /// `switchToLatest` subscribes to, whose values are the slot's lane's, but whose completion
    /// is its own (a recovery's, after its fallback).
    package func isLastStage(_ lane: StreamLane) -> Bool {
        guard case .stage(let number) = lane else { return false }
        return slot.stages.count > 1 && number == slot.stages.count - 1
    }

    /// The last stage's lane here (``isLastStage(_:)``): what the slot passed on, and the
    /// stage's end; nothing after it completed (a stage lane's `dead`).
    private var lastStageMarble: Marble? {
        let shown = emission(.slotted)
        let last = StreamLane.stage(slot.stages.count - 1)
        if isStart { return .subscribed(handed: shown, ending: failed.contains(.slotted) ? .failed : nil) }
        if completed.contains(last) { return .ended(after: shown) }
        if failed.contains(.slotted) { return .failed(after: shown) }
        return shown ?? .line
    }

    /// When `lane` (the slot's, or a pipe's last stage's) completed here, if it did: at the last
    /// stage's completion, else (the session's end) when the slot last passed something on, or at
    /// the intent.
    package func completedAt(_ lane: StreamLane) -> SessionTime? {
        guard completes(lane) else { return nil }
        return slot.stages.indices.last.flatMap { stage($0)?.completedAt } ?? passedAt ?? time
    }

    /// Whether the pipe's last stage completed in an earlier column, and no pipe has been built
    /// since: nothing passes the slot (its stage is over), though `slotted` lives on.
    package var pipeEnded: Bool {
        guard let last = slot.stages.indices.last else { return false }
        return dead.contains(.stage(last)) && !dead.contains(.slotted)
    }

    /// What input lane `lane` (`mirror`, `grabbed`: Behavior subjects) handed the pipe built
    /// here, when that pipe reads it: the value it held, at once, as RxSwift's `combineLatest`
    /// and `sample` (and `flatMapLatest` over `grabbed`) subscribe; nil elsewhere. The lane draws
    /// nothing for it: the lane is the subject's, and a value handed to a new subscriber is that
    /// subscriber's, not one the subject emitted (as `position`'s lane draws nothing where an
    /// operator subscribes to it); the pointing words say it.
    package func handedAtSubscription(_ lane: StreamLane) -> Bool? {
        guard intent?.buildsPipe == true else { return nil }
        switch lane {
        case .mirror where slot.inputs.contains(.mirror): return mirrorSent ?? mirror
        case .grabbed where slot.inputs.contains(.grabbed): return grabbed ?? held
        default: return nil
        }
    }

    /// Inner lane `number` here: `^` and the position it was handed where its press subscribed
    /// it (or the operator went in with the button down), then each new position; `!` where
    /// choosing an operator cancelled it, or `flatMapLatest` switched away from it at the release
    /// (after the release's position, which went through it first), or an error disposed of the
    /// pipe; `^a!` where it was made and disposed of at once (``innersEndedWithin``); `|` where the
    /// position completed; nothing before or after.
    private func innerMarble(_ number: Int) -> Marble? {
        if innersEndedWithin.contains(number) {
            // Subscribed, handed the position, and disposed of by the error it set off: `^a!`.
            let handed = (position ?? state?.position).map { Marble.value(.position($0)) }
            return .subscribed(handed: handed, ending: .unsubscribed)
        }
        let chosen = intent?.buildsPipe == true
        let lived = innersBefore.contains(number)
        let lives = innersAfter.contains(number)
        if lives, !lived || chosen {
            return .subscribed(handed: (position ?? state?.position).map { .value(.position($0)) })
        }
        if lived, chosen || !lives {
            return .unsubscribed(after: chosen ? nil : position.map { .value(.position($0)) })
        }
        guard lives else { return nil }
        let value = position.map { Marble.value(.position($0)) }
        return completed.contains(.position) ? .ended(after: value) : value ?? .line
    }

    /// When `lane` emitted what this column holds of it (the time view puts it in that time's
    /// column): what the slot passed on, and the colours that followed from it, when the slot
    /// passed it on (a timed operator, after the intent); the rest at the intent's time.
    package func time(of lane: StreamLane) -> SessionTime? {
        switch lane {
        case .slotted: slotted == nil ? time : passedAt ?? time
        // A colour swallowed (`·`) was worked out from the slot's last value.
        case .ballColour: ballColourAt ?? (slotted == nil ? time : passedAt ?? time)
        case .background: backgroundAt ?? ballColourAt ?? (slotted == nil ? time : passedAt ?? time)
        case .stage(let number): passed(byStage: number)?.times.last ?? time
        case .retried(let number, let subscription):
            retried(ofStage: number).dropFirst(subscription - 2).first?.at ?? time
        case .part(let part): stageLane(part).flatMap(time(of:)) ?? time
        case .intents, .position, .mirror, .grabbed, .mouse, .keys, .late, .inner, .copy: time
        }
    }

    /// What `lane` shows in the column, each part at its own time: the time view's spans and the
    /// timed SVG's frames put each in its time's, the text export writes each at the same. The
    /// slot's values and a stage's at each instant they came (``timedRuns(_:)``); an error after
    /// what the slot passed on (a timer's, after the intent) at ``failedAt``, the colours' with
    /// it; an inner subscription's disposal with the pipe's head at its own time
    /// (``disposalTime(ofInner:)``); the Publish copy's (``copyEvents(_:)``); the rest as
    /// ``time(of:)`` says.
    package func events(_ lane: StreamLane) -> TimeSpans.LaneEvents {
        if case .copy(let stream) = lane { return copyEvents(stream) }
        guard let shown = marble(lane) else { return TimeSpans.LaneEvents() }
        if case .inner(let number) = lane { return innerEvents(number, shown) }
        var events: [TimeSpans.LaneEvent]
        if let runs = timedRuns(lane), let last = runs.last {
            // Each run of values at its own instant; the column's ending, if any, after the last.
            events =
                runs.dropLast().map { TimeSpans.LaneEvent($0.marble, at: $0.at) }
                + [TimeSpans.LaneEvent(shown.showing(last.marble), at: last.at)]
        } else {
            events = [TimeSpans.LaneEvent(shown, at: time(of: lane))]
        }
        if [.slotted, .ballColour, .background].contains(lane), failed.contains(lane), let failedAt,
            let last = events.last, last.time != failedAt, case .failed(let value) = last.marble
        {
            events.removeLast()
            if let value { events.append(TimeSpans.LaneEvent(value, at: last.time)) }
            events.append(TimeSpans.LaneEvent(.failed(after: nil), at: failedAt))
        }
        return TimeSpans.LaneEvents(events)
    }

    /// Inner lane `number`'s events (``events(_:)``): its subscription and what it received at
    /// the intent's time; its disposal where it lived before (``disposalTime(ofInner:)``), or,
    /// made and disposed of here (``innersEndedWithin``), with the head (``innersEndedAt``).
    private func innerEvents(_ number: Int, _ shown: Marble) -> TimeSpans.LaneEvents {
        let at = { (disposed: SessionTime?) in TimeSpans.LaneEvent(.unsubscribed(after: nil), at: disposed) }
        switch shown {
        case .subscribed(let handed, .unsubscribed?) where innersEndedAt != time:
            return TimeSpans.LaneEvents(TimeSpans.LaneEvent(.subscribed(handed: handed), at: time), at(innersEndedAt))
        case .unsubscribed(let value):
            guard let disposed = disposalTime(ofInner: number), disposed != time else { break }
            return TimeSpans.LaneEvents((value.map { [TimeSpans.LaneEvent($0, at: time)] } ?? []) + [at(disposed)])
        default: break
        }
        return TimeSpans.LaneEvents(TimeSpans.LaneEvent(shown, at: time))
    }

    /// Whether flatMap or flatMapLatest, the pipe's head, ended in the column (an error after it,
    /// or a fallback's completion, disposed of it; or the error reached the chain's end): every
    /// inner subscription ends then.
    package var headEnded: Bool {
        guard let head = slot.stages.first, head == .flatMap || head == .flatMapLatest else { return false }
        return disposed.contains(.stage(0)) || failed.contains(.stage(0)) || completed.contains(.stage(0))
            || failed.contains(.slotted)
    }

    /// When the pipe's head ended in the column, where the inner subscriptions it held were
    /// disposed of with it: the first error or completion of a stage or of the slot (a timer's,
    /// after the intent: a debounce between the head and `tryMap`); the intent's time where none
    /// came.
    package var innersEndedAt: SessionTime? {
        (stagesPassed.flatMap { [$0.failedAt, $0.completedAt] } + [failedAt]).compactMap { $0 }.min() ?? time
    }

    /// When inner subscription `number`, which lived before the intent, was disposed of in the
    /// column, if it was: with the head (``innersEndedAt``) where the head's end disposed of it;
    /// at the intent where the intent did (an operator chosen, or flatMapLatest's release
    /// switching away from it); nil where it lives on, or a quit completed it (the position
    /// completes first, and each inner with it).
    package func disposalTime(ofInner number: Int) -> SessionTime? {
        let chosen = intent?.buildsPipe == true
        guard innersBefore.contains(number), index > 0, chosen || !innersAfter.contains(number),
            chosen || !completed.contains(.position)
        else { return nil }
        let released = if case .released = intent { true } else { false }
        let switchedAway = released && slot.stages.first == .flatMapLatest
        return headEnded && !chosen && !switchedAway ? innersEndedAt : time
    }

    /// What stage `number` passed on in the column, if it passed anything on.
    package func passed(byStage number: Int) -> StagePassed? {
        stagesPassed.indices.contains(number) && stagesPassed[number].count > 0 ? stagesPassed[number] : nil
    }

    /// Every value the slot passed on in the column, in order.
    package var slottedValues: [SlotOutput] { slottedEarlier + (slotted.map { [$0] } ?? []) }

    /// What `lane` emitted in the column, a run for each instant it emitted at, in order, where
    /// it emitted at more than one (the slot's lane and a stage's: `throttle` after flatMap passes
    /// the first copy on at once and the second at its window's end): each run's values as one
    /// marble (as ``emission(_:)`` draws them, for the run alone) at its instant. Nil where
    /// everything it emitted here came at one instant (``time(of:)``).
    package func timedRuns(_ lane: StreamLane) -> [(marble: Marble, at: SessionTime)]? {
        if case .part(let part) = lane { return stageLane(part).flatMap(timedRuns) }
        let (values, stages): ([SlotOutput], ArraySlice<SlotOperator>)
        switch lane {
        case .slotted:
            guard let first = slottedTimes.first, first != slottedTimes.last else { return nil }
            (values, stages) = (slottedValues, slot.stages[...])
        case .stage(let number):
            guard let passed = passed(byStage: number), let first = passed.times.first, first != passed.times.last
            else { return nil }
            (values, stages) = (passed.values, slot.stages.prefix(number + 1))
        default: return nil
        }
        // One input passed on several times is the same value each time, unless a stage adds
        // them up (as ``emission(_:)`` says).
        let same = !stages.contains { $0.operation.remembersPassed }
        return runs(of: lane).map { run in
            let value = MarbleValue(values[run.values.upperBound - 1])
            let count = run.values.count
            return (count == 1 ? .value(value) : same ? .repeated(value, count: count) : .group(count), run.at)
        }
    }

    /// The index ranges of ``slottedValues`` (of ``StagePassed/values``, for a stage's lane)
    /// passed on at one instant each, in order, with the instant: one range where all came at
    /// once, none where nothing came.
    package func runs(of lane: StreamLane) -> [(values: Range<Int>, at: SessionTime)] {
        let times: [SessionTime]
        switch lane {
        case .slotted: times = slottedTimes
        case .stage(let number): times = stage(number)?.times ?? []
        default: return []
        }
        var runs: [(values: Range<Int>, at: SessionTime)] = []
        var start = 0
        for end in 1..<(times.count + 1) where end == times.count || times[end] != times[start] {
            runs.append((start..<end, times[start]))
            start = end
        }
        return runs
    }

    /// What stage `number` did in the column: its values and its completion, if any.
    package func stage(_ number: Int) -> StagePassed? {
        stagesPassed.indices.contains(number) ? stagesPassed[number] : nil
    }

    /// Notes that stage `number` passed `value` on at `time`.
    mutating func notePassed(_ value: SlotOutput, byStage number: Int, at time: SessionTime) {
        while stagesPassed.count <= number { stagesPassed.append(StagePassed()) }
        stagesPassed[number].values.append(value)
        stagesPassed[number].times.append(time)
        stagesPassed[number].at = stagesPassed[number].at ?? time
        stagesPassed[number].moments.append(StageMoment(.passed, at: time))
        // (A stage `retry` subscribed again lives again.)
        dead.remove(.stage(number))
    }

    /// Notes that stage `number` was subscribed at `time` (a pipe built, `retry` subscribing anew).
    mutating func noteSubscribed(byStage number: Int, at time: SessionTime) {
        while stagesPassed.count <= number { stagesPassed.append(StagePassed()) }
        stagesPassed[number].moments.append(StageMoment(.subscribed, at: time))
    }

    /// Notes that stage `number`'s subscription was cancelled at `time`, with no event of its own.
    mutating func noteCancelled(byStage number: Int, at time: SessionTime) {
        while stagesPassed.count <= number { stagesPassed.append(StagePassed()) }
        stagesPassed[number].moments.append(StageMoment(.cancelled, at: time))
    }

    /// Notes that stage `number` completed at `time`.
    mutating func noteCompleted(byStage number: Int, at time: SessionTime) {
        while stagesPassed.count <= number { stagesPassed.append(StagePassed()) }
        stagesPassed[number].completedAt = time
        stagesPassed[number].moments.append(StageMoment(.completed, at: time))
        completed.insert(.stage(number))
    }

    /// Notes that stage `number` failed at `time` (it threw, or an error came through it): its
    /// lane ends with `#`, and the stages before it, disposed of with it, end too (no mark: a
    /// disposal is no event).
    mutating func noteFailed(byStage number: Int, at time: SessionTime) {
        while stagesPassed.count <= number { stagesPassed.append(StagePassed()) }
        stagesPassed[number].failedAt = stagesPassed[number].failedAt ?? time
        stagesPassed[number].moments.append(StageMoment(.failed, at: time))
        failed.insert(.stage(number))
        for before in 0..<number where !failed.contains(.stage(before)) { disposed.insert(.stage(before)) }
    }

    /// Notes that the slot's operator waits until `end`, if it does: the latest end is kept (a
    /// wait that ended early, as `debounce`'s when its timer went off, still ran until then).
    mutating func noteWait(until end: SessionTime?) {
        guard let end else { return }
        waitsUntil = max(waitsUntil ?? end, end)
    }

    /// Whether an operator is in the slot after this column's intent: the views draw the slot's
    /// lane from the first such column on (``StreamRecorder/slotUsed``, ``ReplayIndex``'s
    /// `buildsPipes`: the same rule).
    package var involvesSlot: Bool { slot != .none }

    /// What `lane` emitted here, ghosts included; nil: nothing.
    package func emission(_ lane: StreamLane) -> Marble? {
        switch lane {
        case .part(let part): return stageLane(part).flatMap(emission)
        case .intents: return intent.map(Marble.intent)
        case .position, .late: return position.map { .value(.position($0)) }
        case .mirror: return mirrorSent.map { .value(.flag($0)) }
        case .grabbed: return grabbed.map { .value(.flag($0)) }
        case .mouse: return mouse.map { .value(.position($0)) }
        case .keys: return keys.map { .value(.position($0)) }
        case .inner(let number):
            // What the lane received here: the position its press was handed, or a new one.
            let chosen = intent?.buildsPipe == true
            let (lived, lives) = (innersBefore.contains(number), innersAfter.contains(number))
            // (Made and disposed of here, handed the position: ``innersEndedWithin``.)
            if lives && (!lived || chosen) || innersEndedWithin.contains(number) {
                return (position ?? state?.position).map { .value(.position($0)) }
            }
            // A live lane gets each new position; one switched away from at the release, its last.
            return lives || (lived && !chosen) ? position.map { .value(.position($0)) } : nil
        case .slotted:
            guard let slotted else { return nil }
            guard slottedCount > 1 else { return .value(MarbleValue(slotted)) }
            // One input passed on several times (flatMap's inner subscriptions) is the same value
            // each time, unless a stage adds them up (scan's sums differ).
            let same = !slot.stages.contains { $0.operation.remembersPassed }
            return same ? .repeated(MarbleValue(slotted), count: slottedCount) : .group(slottedCount)
        case .retried(let number, let subscription):
            guard case .subscribed(let handed, _)? = retriedMarble(number, subscription) else { return nil }
            return handed
        case .stage where isLastStage(lane):
            // What the last stage hands `switchToLatest` is what the slot passes on.
            return emission(.slotted)
        case .stage(let number):
            guard number < slot.stages.count - 1, let passed = passed(byStage: number), let value = passed.value
            else { return nil }
            guard passed.count > 1 else { return .value(MarbleValue(value)) }
            let same = !slot.stages.prefix(number + 1).contains { $0.operation.remembersPassed }
            return same ? .repeated(MarbleValue(value), count: passed.count) : .group(passed.count)
        case .ballColour:
            if let ballColour { return .colour(ballColour, background: false) }
            // The slot passed a position on, so a colour was worked out from it: swallowed.
            return slotted == nil ? nil : .ghost
        case .background:
            if let background { return .colour(background, background: true) }
            // A new ball colour went through the scan, which gave the screen's colour again
            // (the black band keeps it): swallowed.
            return ballColour == nil ? nil : .ghost
        case .copy(let stream):
            // Only what came while it was subscribed (the intent's, before `o` in the column).
            guard let copy, copy.lived else { return nil }
            switch stream {
            case .subject: return copy.subject.map { .value(.position($0)) }
            case .ball:
                if let ball = copy.ball { return .colour(ball, background: false) }
                return copy.subject == nil ? nil : .ghost
            case .screen:
                if let screen = copy.screen { return .colour(screen, background: true) }
                return copy.ball == nil ? nil : .ghost
            }
        }
    }

    /// What the Publish copy's `stream` lane shows here (``StreamLane/copy(_:)``): nothing where no
    /// copy lived; `^` where `o` subscribed it after the column's intent (a Publish subject hands
    /// nothing), `^!` where `o` bound back in the same column; what it emitted, then `!` where `o`
    /// bound the screen back (its subscriptions disposed of), and `^` after that where `o` bound
    /// it through a new copy too (``Marble/resubscribed(after:)``); else what it emitted, or its
    /// line.
    package func copyMarble(_ stream: CopyStream) -> Marble? {
        guard let copy else { return nil }
        let shown = emission(.copy(stream))
        // A copy subscribed here, and subscribed still: its lane begins afresh, after the one
        // that ended here, if one did (what it received, `!`, then the new one's `^`).
        if copy.beganAt != nil, copy.lives {
            return copy.lived && copy.endedAt != nil ? .resubscribed(after: shown) : .subscribed(handed: nil)
        }
        if copy.beganAt != nil, !copy.lived { return .subscribed(handed: nil, ending: .unsubscribed) }
        if copy.endedAt != nil { return .unsubscribed(after: shown) }
        return shown ?? .line
    }

    /// What the Publish copy's `stream` lane shows here, each part at its time, for the time view:
    /// a value at the intent's time, the disposal at `o`'s that bound the screen back, the
    /// subscription at `o`'s that bound it through a copy.
    package func copyEvents(_ stream: CopyStream) -> TimeSpans.LaneEvents {
        guard let copy, let marble = copyMarble(stream) else { return TimeSpans.LaneEvents() }
        guard copy.lived else {
            let began = TimeSpans.LaneEvent(.subscribed(handed: nil), at: copy.beganAt ?? time)
            guard !copy.lives else { return TimeSpans.LaneEvents(began) }
            return TimeSpans.LaneEvents(began, TimeSpans.LaneEvent(.unsubscribed(after: nil), at: copy.endedAt ?? time))
        }
        guard let endedAt = copy.endedAt else { return TimeSpans.LaneEvents(TimeSpans.LaneEvent(marble, at: time)) }
        var events = emission(.copy(stream)).map { [TimeSpans.LaneEvent($0, at: time)] } ?? []
        events.append(TimeSpans.LaneEvent(.unsubscribed(after: nil), at: endedAt))
        if let beganAt = copy.beganAt, copy.lives {
            events.append(TimeSpans.LaneEvent(.subscribed(handed: nil), at: beganAt))
        }
        return TimeSpans.LaneEvents(events)
    }
}

/// `learn`'s Publish copy of the chain (`o`, ``PublishCopy``) in one column: whether it was
/// subscribed as the column's intent came, what its three streams emitted for the intent, and
/// whether `o` subscribed one or bound the screen back after it.
package struct CopyColumn: Hashable, Sendable {
    /// Whether a copy was subscribed as the column's intent came: what the intent made reached it.
    package var lived: Bool
    /// Whether a copy is subscribed after the column (the screen's colours bound through it).
    package var lives: Bool
    /// When `o` subscribed a copy after the column's intent, if it did.
    package var beganAt: SessionTime?
    /// When `o` bound the screen back after the column's intent, disposing of the copy that
    /// lived, if it did.
    package var endedAt: SessionTime?
    /// What the copy's subject was sent.
    package var subject: BallPosition?
    /// What `copy.ball` emitted.
    package var ball: FlatColour?
    /// What `copy.screen` emitted.
    package var screen: FlatColour?
    /// What `copy.ball` and `copy.screen` last emitted, by the column's end (nil: nothing yet, the
    /// screen's default, white, in their place).
    package var heldBall, heldScreen: FlatColour?

    /// A column of a copy that `lived` as its intent came, and `lives` after it.
    package init(lived: Bool, lives: Bool, heldBall: FlatColour? = nil, heldScreen: FlatColour? = nil) {
        self.lived = lived
        self.lives = lives
        self.heldBall = heldBall
        self.heldScreen = heldScreen
    }

    /// The copy as its column's intent found it and left it: what it received, with no `o`
    /// after the intent (each drawn in a column of its own, ``StreamColumn/withMoments(_:)``).
    var asTheIntentFoundIt: CopyColumn {
        var copy = self
        (copy.lives, copy.beganAt, copy.endedAt) = (lived, nil, nil)
        return copy
    }
}

/// What one stage of the pipe passed on in one column: the values, in order, and when the first
/// came (a stage after a timed one passes on when its timer goes off, after the intent); and
/// when it completed, if it did.
package struct StagePassed: Hashable, Sendable {
    /// The values it passed on, in order.
    package var values: [SlotOutput] = []
    /// When it passed each of ``values`` on, in order (`throttle` after flatMap passes the
    /// first copy on at once, the second at its window's end).
    package var times: [SessionTime] = []
    /// When it passed the first on.
    package var at: SessionTime?
    /// When it completed, if it did in the column.
    package var completedAt: SessionTime?
    /// When it failed, if it did in the column.
    package var failedAt: SessionTime?
    /// Everything its subscriptions did in the column, in order, each at its time: a
    /// subscription made (a pipe built, `retry` subscribing anew), a value passed on (the next of
    /// ``values``), a completion, an error, a cancellation. Each subscription is one stream: the
    /// exports write each as a lane of its own.
    package var moments: [StageMoment] = []

    /// Nothing passed on yet.
    package init() {}

    /// The subscriptions `retry` made anew to the stage in the column, in order, with what each
    /// passed on and how it ended there, if it did: every subscription made in the column but the
    /// pipe's own where `pipeBuilt` (the column built the pipe, or is the session's start). Nothing
    /// else subscribes a stage again within a column: `retry` does at once, after an error of the
    /// stages before it (this one's, or a later one's that disposed of this one).
    package func madeAnew(pipeBuilt: Bool) -> [RetriedSubscription] {
        var made: [RetriedSubscription] = []
        var (pipe, passed) = (pipeBuilt, 0)
        for moment in moments {
            let ending: LaneEnding
            switch moment.kind {
            case .subscribed:
                if pipe { pipe = false } else { made.append(RetriedSubscription(at: moment.at, firstValue: passed)) }
                continue
            case .passed:
                passed += 1
                if let last = made.indices.last, made[last].ending == nil { made[last].values += 1 }
                continue
            case .completed: ending = .completed
            case .failed: ending = .failed
            case .cancelled: ending = .unsubscribed
            }
            guard let last = made.indices.last, made[last].ending == nil else { continue }
            (made[last].ending, made[last].endedAt) = (ending, moment.at)
        }
        return made
    }

    /// The last value it passed on, if any.
    package var value: SlotOutput? { values.last }
    /// How many values it passed on.
    package var count: Int { values.count }
}

/// A subscription `retry` made anew to a stage (``StagePassed/madeAnew(pipeBuilt:)``).
package struct RetriedSubscription: Hashable, Sendable {
    /// When it was made.
    package var at: SessionTime
    /// The index in the column's ``StagePassed/values`` of the first value it passed on, if any.
    package var firstValue: Int
    /// How many values it passed on.
    package var values = 0
    /// How it ended in the column, if it did.
    package var ending: LaneEnding?
    /// When it ended, if it did.
    package var endedAt: SessionTime?
}

/// One thing a stage's subscription did, at its time (``StagePassed/moments``).
package struct StageMoment: Hashable, Sendable {
    /// What it did.
    package enum Kind: Hashable, Sendable {
        /// It was subscribed.
        case subscribed
        /// It passed a value on (the next of the column's ``StagePassed/values``).
        case passed
        /// It completed.
        case completed
        /// It failed: it threw, or an error came through it.
        case failed
        /// It was cancelled, with no event of its own.
        case cancelled
    }

    /// What it did.
    package var kind: Kind
    /// When, on the session's clock.
    package var at: SessionTime

    /// `kind` at `time`.
    package init(_ kind: Kind, at time: SessionTime) {
        self.kind = kind
        at = time
    }
}

/// A late subscription made, or cancelled, between two intents (``StreamColumn/lateMoments``):
/// a late subscriber's, or `learn`'s Publish copy of the chain's (`o`).
package struct LateMoment: Hashable, Sendable {
    /// Whose subscription it is.
    package enum Subscriber: Hashable, Sendable {
        /// A late subscriber's: its lane's ``LateLane/id``, and its kind (the key pressed).
        case late(lane: Int, kind: LateSubscriber)
        /// The Publish copy's lanes' (`o`): the copy's number (``StreamRecorder/copiesMade``
        /// before it was bound).
        case publishCopy(Int)
    }

    /// Whose subscription it is.
    package var subscriber: Subscriber
    /// Whether it subscribed (else it was cancelled).
    package var subscribed: Bool
    /// When, on the session's clock.
    package var time: SessionTime?

    /// `subscriber` subscribed (or cancelled) at `time`.
    package init(_ subscriber: Subscriber, subscribed: Bool, time: SessionTime?) {
        self.subscriber = subscriber
        self.subscribed = subscribed
        self.time = time
    }

    /// The late lane's id, where it is a late subscriber's.
    package var lane: Int? { if case .late(let lane, _) = subscriber { lane } else { nil } }
    /// The late subscriber's kind, where it is one's.
    package var kind: LateSubscriber? { if case .late(_, let kind) = subscriber { kind } else { nil } }
    /// The Publish copy's number, where it is the copy's.
    package var copy: Int? { if case .publishCopy(let number) = subscriber { number } else { nil } }
}

/// A late subscriber's lane: where it began, what it was handed, the columns it received a
/// value in, and where it ended, if it did.
package struct LateLane: Hashable, Sendable {
    /// How a late lane ended.
    package typealias Ending = LaneEnding

    /// Tells subscriptions apart (a kind's lane is a new one after each subscribe).
    package var id: Int
    /// The kind of subscriber.
    package var kind: LateSubscriber
    /// The column (intent index) where it subscribed.
    package var start: Int
    /// Which of its column's ``StreamColumn/lateMoments`` its subscription is, where it has one
    /// (nil: it subscribed with the column, as the lanes did at the start, or before the page).
    package var startMoment: Int?
    /// The positions it was handed as it subscribed, oldest first.
    package var handedPositions: [BallPosition] = []
    /// The columns (intent indices) after `start` where it received a value (each column's
    /// position: every late subscriber is sent the position).
    package var received: Set<Int> = []
    /// Where and how it ended, if it did.
    package var end: End?
    /// When it subscribed, and when it ended, on the session's clock, where known: the time
    /// view draws its `^` and its `|` or `!` there (a key pressed a while after the last intent).
    package var startedAt, endedAt: SessionTime?

    /// Where a late lane ended, and how.
    package struct End: Hashable, Sendable {
        /// The column (intent index) it ended in.
        package var column: Int
        /// How it ended.
        package var ending: Ending
        /// Which of its column's ``StreamColumn/lateMoments`` it is, where it has one (a cancel,
        /// or a completion handed at once); nil: with the column's intent.
        package var moment: Int?

        /// An end in `column`, as `ending` says, at its `moment` there, if it has one.
        package init(column: Int, ending: Ending, moment: Int? = nil) {
            self.column = column
            self.ending = ending
            self.moment = moment
        }
    }

    /// A lane that subscribed in column `start`.
    package init(id: Int, kind: LateSubscriber, start: Int) {
        self.id = id
        self.kind = kind
        self.start = start
    }

    /// How many values it was handed as it subscribed.
    package var handed: Int { handedPositions.count }

    /// What the lane shows in `column`, each part at its time, for the time view: the
    /// subscription at ``startedAt``, a value at the intent's time, the end at ``endedAt`` (a
    /// lane subscribed and cancelled between two intents, `^○!` in one column of the event view,
    /// stands where each happened).
    package func events(in column: StreamColumn) -> TimeSpans.LaneEvents {
        guard let marble = marble(in: column, atMoments: false) else { return TimeSpans.LaneEvents() }
        let ending: Marble? =
            switch end?.ending {
            case _ where end?.column != column.index: nil
            case .completed?: .ended(after: nil)
            case .unsubscribed?: .unsubscribed(after: nil)
            case .failed?: .failed(after: nil)
            case nil: nil
            }
        guard let ending, let endedAt else {
            let at = column.index == start ? startedAt ?? column.time : column.time
            return TimeSpans.LaneEvents(TimeSpans.LaneEvent(marble, at: at))
        }
        let before: TimeSpans.LaneEvent? =
            switch marble {
            case .subscribed(let handed, _):
                TimeSpans.LaneEvent(.subscribed(handed: handed, ending: nil), at: startedAt ?? column.time)
            case .ended(let value?), .unsubscribed(let value?), .failed(let value?):
                TimeSpans.LaneEvent(value, at: column.time)
            default: nil
            }
        let end = TimeSpans.LaneEvent(ending, at: endedAt)
        return before.map { TimeSpans.LaneEvents($0, end) } ?? TimeSpans.LaneEvents(end)
    }

    /// When what the lane shows in `column` happened: its subscription at ``startedAt``, its end
    /// (with nothing received there) at ``endedAt``, a value at the intent's time.
    package func time(in column: StreamColumn) -> SessionTime? {
        if column.index == start, let startedAt { return startedAt }
        if column.index == end?.column, !received.contains(column.index), let endedAt { return endedAt }
        return column.time
    }

    /// Whether it still receives values.
    package var isLive: Bool { end == nil }

    /// What the lane shows in `column`: nothing before the subscription or after its end; where
    /// it began, `^` with what it was handed (`○`, or a group's count) and how it ended there,
    /// if it did (`^!`, `^○!`, `^3|`, `^|`); a marble where it received one; `|` or `!` where it
    /// ended, after what it received there.
    /// Where it subscribed or ended between two intents, that is drawn in the column of that
    /// moment (``StreamColumn/withMoments(_:)``): nothing in the intent's column before its
    /// subscription, `^` and what it was handed in the subscription's, `!` in the cancel's, the
    /// line in another's while it lives. `atMoments: false`: as if each happened with its
    /// column's intent (the time view, which places each at its own time).
    package func marble(in column: StreamColumn, atMoments: Bool = true) -> Marble? {
        let index = column.index
        if index < start { return nil }
        if let end, index > end.column { return nil }
        let (startMoment, endMoment) = atMoments ? (startMoment, end?.moment) : (nil, nil)
        if let moment = column.moment {
            guard atMoments else { return nil }
            let ends = end?.column == index && endMoment == moment
            if index == start, startMoment == moment { return subscribedMarble(ending: ends ? end?.ending : nil) }
            let begun = index > start || (startMoment.map { $0 < moment } ?? true)
            if ends { return begun ? Self.endMarble(end?.ending, after: nil) : nil }
            let ended = end.map { $0.column == index && (endMoment.map { $0 < moment } ?? true) } ?? false
            return begun && !ended ? .line : nil
        }
        // Subscribed after this column's intent: drawn in its own column after it.
        if index == start, startMoment != nil { return nil }
        let ending = end?.column == index && endMoment == nil ? end?.ending : nil
        if index == start { return subscribedMarble(ending: ending) }
        // Each late subscriber is sent the column's position.
        let position = column.position ?? column.state?.position
        let value: Marble? = received.contains(index) ? position.map { .value(.position($0)) } : nil
        return Self.endMarble(ending, after: value) ?? value ?? .line
    }

    /// `^`, with what it was handed (`○`, or a group's count), and how it ended at once, if it did.
    private func subscribedMarble(ending: Ending?) -> Marble {
        let shown: Marble? =
            switch handed {
            case 0: nil
            case 1: .value(.position(handedPositions[0]))
            default: .group(handed)
            }
        return .subscribed(handed: shown, ending: ending)
    }

    /// The marble of `ending`, after `value`; nil: no ending.
    private static func endMarble(_ ending: Ending?, after value: Marble?) -> Marble? {
        switch ending {
        case .completed?: .ended(after: value)
        case .unsubscribed?: .unsubscribed(after: value)
        case .failed?: .failed(after: value)
        case nil: nil
        }
    }
}

// MARK: - The recorder: the lanes are subscriptions

/// Subscribes to the session's streams and notes, one column per intent, what each emitted:
/// the lanes show the real publishers, not a model of them. Keeps at least the latest
/// ``capacity`` columns. A binding: it only records; drawing is the renderer's.
///
/// For the late subscribers it sends the position, from the start, to a subject of each kind
/// the position subject is not: a `PassthroughSubject` (Publish), a ``ReplaySubject`` of three
/// and a ``BehaviorRelay``. A late subscriber subscribes to one of them (or to the position
/// subject itself, for Behavior) when the user asks, and sees what that kind hands over.
package final class StreamRecorder {
    /// How many columns are kept at least (older ones are dropped in batches).
    package let capacity: Int
    /// The columns kept, oldest first (the last is the latest intent's).
    package var columns: [StreamColumn] { columns(from: .min) }
    /// The columns as noted: the latest one's state is filled in when it is read or the next
    /// intent comes (what the three subscriptions last received).
    private var recorded: [StreamColumn]
    /// The late subscribers' lanes, in ``LateSubscriber/allCases`` order: one a kind, or with
    /// ``keepsEndedLanes`` each kind's oldest first, at most one of them live.
    package private(set) var lateLanes: [LateLane] = []
    /// Whether a new subscription's lane comes after the ended lanes of its kind, which stay while
    /// their columns are kept (the replay player's page: a lane the tour cancelled reads `^a!`
    /// where it was drawn, beside a later one; and a tour's lanes from its first lesson on, live
    /// and in its cast: every subscription the learner made in a lesson keeps its lane, as each
    /// `subscribe` is its own subscriber); else it replaces them (play's panel, whose page moves
    /// on).
    package var keepsEndedLanes = false
    /// The letter of each value the position, each stage and the slot passed on, as they came
    /// (those of one moment in the order of their lanes): the same on every page
    /// (``ValueLetterBook``).
    package private(set) var letterBook = ValueLetterBook()
    /// Called after anything changed (an intent, an emission, a late subscription).
    package var changed: (() -> Void)?
    /// Every late subscription made or cancelled, and the panel opened or closed
    /// (``notePanel(open:)``), as it happens: a recording writes them down.
    package let observations = PassthroughSubject<Observation, Never>()
    /// What happens to each late subscription, in order (its subscription, each value, its
    /// completion, its disposal): the trace writes these.
    package let lateEvents = PassthroughSubject<(LateSubscriber, LateLaneEvent), Never>()
    private let session: BallSession
    /// What the position, ballColour and background subscriptions last received.
    private var seen: Appearance
    /// The Publish subject: every position is sent to it; it keeps none.
    private let published = PassthroughSubject<BallPosition, Never>()
    /// The Replay subject: every position is sent to it; it keeps the last three.
    private let replayed = ReplaySubject<BallPosition, Never>(bufferSize: LateSubscriber.replayBufferSize)
    /// The relay: it accepts every position, and never completes.
    private let relay: BehaviorRelay<BallPosition>
    private var cancellables: [AnyCancellable] = []
    /// The live late subscriptions, by lane id.
    private var lateCancellables: [Int: AnyCancellable] = [:]
    private var nextLateID = 0
    /// How many late subscriptions were made so far: a lane whose ``LateLane/id`` is at least
    /// what this said at some moment was subscribed after it.
    package var subscriptionsMade: Int { nextLateID }
    /// The late lane whose subscription is being made (what it receives now, it was handed).
    private var subscribing: Int?
    /// `learn`'s Publish copy of the chain (`o`), while the screen's colours are bound through it:
    /// its lanes subscribe to its three streams (``StreamLane/copy(_:)``).
    package private(set) var publishCopy: PublishCopy?
    /// How many Publish copies were bound so far: a copy's moments (``LateMoment/copy``) at least
    /// what this said at some moment are of a copy bound after it.
    package private(set) var copiesMade = 0
    /// The copy's lanes' subscriptions.
    private var copySubscriptions: [AnyCancellable] = []
    /// A colour for each of the copy's `ball` and `screen` (nil: none yet).
    private typealias CopyHeld = (ball: FlatColour?, screen: FlatColour?)
    /// What the copy's `ball` and `screen` last emitted.
    private var copyHeld: CopyHeld = (nil, nil)
    /// Whether the copy is being sent the positions published before the first column kept (a
    /// copy subscribed before it, in the player): its lanes note nothing.
    private var copyWarming = false

    /// Subscribes to `session`'s streams now (the start column, numbered `firstIndex`, holds
    /// what they hand over at once); keeps at least the latest `capacity` columns.
    /// `earlierPositions` (oldest first) are the positions published before the session began,
    /// when it begins part-way through a recording: the Replay subject keeps them as it would
    /// have, had it been there. `letterBook`: the book as it stood at that point of the session,
    /// when it begins part-way (what the subscriptions are handed at once is then noted nowhere:
    /// the session published it before).
    package init(
        session: BallSession, capacity: Int = 1_024, firstIndex: Int = 0, earlierPositions: [BallPosition] = [],
        letterBook seeded: ValueLetterBook? = nil
    ) {
        self.session = session
        seen = session.viewModel.current
        self.capacity = max(2, capacity)
        recorded = [StreamColumn(index: firstIndex)]
        recorded[0].time = session.now
        // A wait under way as the lanes subscribe (the player's page starts anywhere) runs on.
        recorded[0].noteWait(until: session.waitsUntil)
        (recorded[0].innersBefore, recorded[0].innersAfter) = (session.liveInners, session.liveInners)
        (recorded[0].innersMadeBefore, recorded[0].innersMadeAfter) = (session.innersMade, session.innersMade)
        // A chain built part-way after a recovery completed: the stages that ended draw nothing.
        let start = session.state
        for (number, stage) in start.stages.enumerated() where stage.finished && number < start.slot.stages.count {
            recorded[0].dead.insert(.stage(number))
        }
        let viewModel = session.viewModel
        relay = BehaviorRelay(value: viewModel.position.value)
        for position in earlierPositions.suffix(LateSubscriber.replayBufferSize) { replayed.send(position) }
        cancellables = [
            session.intents.bind(
                onNext: { [unowned self] intent in startColumn(StreamColumn(index: latestIndex + 1, intent: intent)) },
                onCompleted: { [unowned self] in note { $0.completed.insert(.intents) } }),
            // The wait as the intent left it, whatever it changed: a release, which moves nothing,
            // leaves debounce's timer running through its column.
            session.stepped.bind { [unowned self] in
                recorded[recorded.count - 1].noteWait(until: self.session.waitsUntil)
            },
            viewModel.position.bind(
                onNext: { [unowned self] position in
                    seen.position = position
                    letterBook.note(.position(position), lane: 0, at: moment)
                    note {
                        $0.position = position
                        $0.noteWait(until: self.session.waitsUntil)
                    }
                }, onCompleted: { [unowned self] in note { $0.completed.insert(.position) } }),
            viewModel.slot.bind { [unowned self] chosen in
                slot = chosen
                note {
                    $0.slot = chosen
                    $0.noteWait(until: self.session.waitsUntil)
                }
            },
            viewModel.mirror.bind(
                onNext: { [unowned self] on in
                    mirror = on
                    note {
                        $0.mirror = on
                        $0.mirrorSent = on
                    }
                }, onCompleted: { [unowned self] in note { $0.completed.insert(.mirror) } }),
            viewModel.grabbed.bind(
                onNext: { [unowned self] on in
                    held = on
                    note {
                        $0.held = on
                        $0.grabbed = on
                    }
                },
                onCompleted: { [unowned self] in note { $0.completed.insert(.grabbed) } }),
            viewModel.mouse.bind(
                onNext: { [unowned self] position in note { $0.mouse = position } },
                onCompleted: { [unowned self] in note { $0.completed.insert(.mouse) } }),
            viewModel.keys.bind(
                onNext: { [unowned self] position in note { $0.keys = position } },
                onCompleted: { [unowned self] in note { $0.completed.insert(.keys) } }),
            viewModel.slotted.bind(
                onNext: { [unowned self] output in
                    letterBook.note(MarbleValue(output), lane: .max, at: moment)
                    note {
                        if let earlier = $0.slotted { $0.slottedEarlier.append(earlier) }
                        $0.slotted = output
                        $0.slottedCount += 1
                        $0.passedAt = self.session.now
                        $0.slottedTimes.append(self.session.now)
                    }
                },
                onCompleted: { [unowned self] in note { $0.completed.insert(.slotted) } },
                onError: { [unowned self] _ in
                    note {
                        $0.failed.insert(.slotted)
                        $0.failedAt = self.session.now
                    }
                }),
            viewModel.ballColour.bind(
                onNext: { [unowned self] colour in
                    seen.ball = colour
                    note {
                        $0.ballColour = colour
                        $0.ballColourAt = self.session.now
                    }
                }, onCompleted: { [unowned self] in note { $0.completed.insert(.ballColour) } },
                onError: { [unowned self] _ in note { $0.failed.insert(.ballColour) } }),
            viewModel.background.bind(
                onNext: { [unowned self] colour in
                    seen.background = colour
                    note {
                        $0.background = colour
                        $0.backgroundAt = self.session.now
                    }
                }, onCompleted: { [unowned self] in note { $0.completed.insert(.background) } },
                onError: { [unowned self] _ in note { $0.failed.insert(.background) } }),
            // The late subscribers' subjects, each sent every position from now on, and the
            // completion (but for the relay, which never completes). Bindings, not
            // `subscribe(subject)`: that would let the first subscriber's demand pull the
            // position subject's current value through the Publish subject.
            viewModel.position.dropFirst().bind(
                onNext: { [published] in published.send($0) },
                onCompleted: { [published] in published.send(completion: .finished) }),
            viewModel.position.bind(
                onNext: { [replayed] in replayed.send($0) },
                onCompleted: { [replayed] in replayed.send(completion: .finished) }),
            viewModel.position.dropFirst().bind { [relay] in relay.accept($0) },
        ]
        // What each stage passes on, from inside the pipe (a tap, which subscribes to nothing).
        for (number, tap) in viewModel.stageOutputs.enumerated() {
            cancellables.append(
                tap.bind { [unowned self] output in
                    letterBook.note(MarbleValue(output), lane: 1 + number, at: moment)
                    note { $0.notePassed(output, byStage: number, at: self.session.now) }
                })
        }
        // Where each stage's subscriptions begin and how they end.
        for (number, events) in viewModel.stageEvents.enumerated() {
            cancellables.append(
                // (Weak: tearing the chain down as the recorder goes cancels the stages.)
                events.bind { [weak self] event in
                    guard let self else { return }
                    note {
                        switch event {
                        case .subscribed: $0.noteSubscribed(byStage: number, at: self.session.now)
                        case .completed: $0.noteCompleted(byStage: number, at: self.session.now)
                        case .failed: $0.noteFailed(byStage: number, at: self.session.now)
                        case .cancelled: $0.noteCancelled(byStage: number, at: self.session.now)
                        }
                    }
                })
        }
        if let seeded { letterBook = seeded }
    }

    /// The columns from intent index `start` on, the latest with the state after it.
    package func columns(from start: Int) -> [StreamColumn] {
        let first = recorded.firstIndex { $0.index >= start } ?? recorded.count
        var columns = Array(recorded[first...])
        if !columns.isEmpty {
            columns[columns.count - 1].state = seen
            columns[columns.count - 1].innersAfter = session.liveInners
            columns[columns.count - 1].innersMadeAfter = session.innersMade
            columns[columns.count - 1].noteWait(until: session.waitsUntil)
        }
        return columns
    }

    /// The columns from the last one whose intent came before `time` on (all, when none did),
    /// the latest with the state after it: the time view's page from `time`, with the column
    /// that says how each lane stands then.
    package func columns(before time: SessionTime) -> [StreamColumn] {
        // The times only grow: the first column at `time` or later, by halves.
        var (low, high) = (0, recorded.count)
        while low < high {
            let middle = (low + high) / 2
            if (recorded[middle].time ?? .start) < time { low = middle + 1 } else { high = middle }
        }
        return columns(from: recorded[max(0, low - 1)].index)
    }

    /// The moment values come at now, for the letter book: the latest column, the session's time.
    private var moment: ValueLetterBook.Moment { ValueLetterBook.Moment(column: latestIndex, time: session.now) }

    /// The time on the session's clock now: how far the time view's wait has gone.
    package var now: SessionTime { session.now }

    /// The pipe in the chain's slot now.
    package private(set) var slot = SlotPipe.none {
        didSet { if slot != .none { slotUsed = true } }
    }
    /// Whether the session has put an operator in the slot: the panel then draws the slot's lane.
    package private(set) var slotUsed = false
    /// Whether the mirror is on now.
    private var mirror = false
    /// Whether the button is down on the ball now (what `grabbed` holds).
    private var held = false

    /// Closes the latest column (its state is the current appearance: the next intent has not
    /// been stepped yet) and starts `column`, with the operator in the slot as it is.
    private func startColumn(_ column: StreamColumn) {
        var column = column
        let before = recorded[recorded.count - 1]
        column.dead = before.dead.union(before.failed).union(before.disposed)
            .union(before.completed.filter { if case .stage = $0 { true } else { false } })
        // A pipe built: each stage subscribes afresh, its lane lives again.
        if column.intent?.buildsPipe == true {
            column.dead = column.dead.filter { if case .stage = $0 { false } else { true } }
        }
        recorded[recorded.count - 1].innersAfter = session.liveInners
        recorded[recorded.count - 1].innersMadeAfter = session.innersMade
        column.innersBefore = session.liveInners
        column.innersMadeBefore = session.innersMade
        column.slot = slot
        column.mirror = mirror
        column.held = held
        if publishCopy != nil {
            column.copy = CopyColumn(lived: true, lives: true, heldBall: copyHeld.ball, heldScreen: copyHeld.screen)
        }
        column.time = session.now
        recorded[recorded.count - 1].state = seen
        // The wait as it stands before this intent: a window `throttle` opened when its timer went off.
        recorded[recorded.count - 1].noteWait(until: session.waitsUntil)
        if recorded.count >= 2 * capacity { recorded.removeFirst(capacity) }
        recorded.append(column)
        changed?()
    }

    /// Notes something in the latest column.
    private func note(_ change: (inout StreamColumn) -> Void) {
        change(&recorded[recorded.count - 1])
        changed?()
    }

    /// The latest column's intent index.
    package var latestIndex: Int { recorded.last?.index ?? 0 }

    /// Whether the streams ended (the session quit, or `e` completed it).
    package var ended: Bool { recorded.last?.intent?.endsSession == true }

    /// Notes that `intent` was skipped: a column of its own, where nothing went through.
    package func noteSkipped(_ intent: Intent) {
        var column = StreamColumn(index: latestIndex + 1, intent: intent)
        column.skipped = true
        // Nothing entered: the wait running before it runs on through its column.
        column.noteWait(until: session.waitsUntil)
        startColumn(column)
    }

    /// Subscribes a late subscriber of `kind` now, or, if one of that kind is subscribed,
    /// unsubscribes it (its lane ends with `!`); see ``apply(_:at:)``.
    package func toggleLate(_ kind: LateSubscriber) {
        let live = lateLane(kind)?.isLive == true
        apply(live ? .unsubscribed(kind) : .subscribed(kind))
    }

    /// Notes that the streams panel opened or closed: an observation, nothing more.
    package func notePanel(open: Bool) {
        observations.send(open ? .panelOpened : .panelClosed)
    }

    /// Does what `observation` says, and publishes it on ``observations`` when it did
    /// something: subscribing a kind that is subscribed, or cancelling one that is not, does
    /// nothing (a recording holds neither, and a held key never turns one into the other). It
    /// happens in the latest column, or in column `place` when given (the replay player makes
    /// again, while working out a page, the subscriptions made earlier), at `time` when given
    /// (else the session's time now). A new subscription's lane replaces an ended lane of its kind,
    /// or comes after it (``keepsEndedLanes``).
    package func apply(_ observation: Observation, at place: Int? = nil, time: SessionTime? = nil) {
        switch observation {
        case .lessonBegan:
            // A tour: its lessons' lanes keep every subscription made in them.
            keepsEndedLanes = true
            observations.send(observation)
        case .panelOpened, .panelClosed, .mapCopies:
            observations.send(observation)
        case .screenThroughPublish(true):
            guard publishCopy == nil else { return }
            watch(PublishCopy(following: session.viewModel.position), at: place, time: time)
        case .screenThroughPublish(false):
            guard let copy = publishCopy else { return }
            copy.stopFollowing()
            for subscription in copySubscriptions { subscription.cancel() }
            copySubscriptions = []
            publishCopy = nil
            if let place, place < latestIndex {
                // Bound back before the first column kept: nothing of it is drawn.
                recorded[recorded.count - 1].copy = nil
            } else {
                let at = time ?? session.now
                noteMoment(.publishCopy(copiesMade - 1), subscribed: false, at: place, time: at)
                note {
                    $0.copy?.lives = false
                    $0.copy?.endedAt = at
                }
            }
            observations.send(observation)
        case .unsubscribed(let kind):
            guard let slot = lateLanes.lastIndex(where: { $0.kind == kind }), lateLanes[slot].isLive else { return }
            lateCancellables.removeValue(forKey: lateLanes[slot].id)?.cancel()
            let moment = noteMoment(
                .late(lane: lateLanes[slot].id, kind: kind), subscribed: false, at: place, time: time)
            lateLanes[slot].end = LateLane.End(column: place ?? latestIndex, ending: .unsubscribed, moment: moment)
            lateLanes[slot].endedAt = time ?? session.now
            observations.send(observation)
            lateEvents.send((kind, .disposed))
            changed?()
        case .subscribed(let kind):
            guard lateLane(kind)?.isLive != true else { return }
            subscribe(kind, start: place, time: time ?? session.now)
        }
    }

    /// Subscribes the copy's lanes to `copy`, which the screen's colours are bound through from now
    /// on (`learn`'s `o`), and notes it as ``Observation/screenThroughPublish(_:)`` (a recording
    /// keeps it). It happens in the latest column, or in column `place` when given (the replay
    /// player makes again a copy subscribed earlier: before the first column kept, its lanes are
    /// subscribed there already), at `time` when given (else the session's time now).
    package func watch(_ copy: PublishCopy, at place: Int? = nil, time: SessionTime? = nil) {
        guard publishCopy == nil else { return }
        publishCopy = copy
        copiesMade += 1
        copyHeld = (nil, nil)
        copySubscriptions = [
            copy.subject.bind { [unowned self] position in
                guard !copyWarming else { return }
                note { $0.copy?.subject = position }
            },
            bind(copy.ball, holding: \.ball, emitted: \.ball, held: \.heldBall),
            bind(copy.screen, holding: \.screen, emitted: \.screen, held: \.heldScreen),
        ]
        if let place, place < latestIndex {
            recorded[recorded.count - 1].copy = CopyColumn(lived: true, lives: true)
        } else {
            let at = time ?? session.now
            noteMoment(.publishCopy(copiesMade - 1), subscribed: true, at: place, time: at)
            note { column in
                var copy = column.copy ?? CopyColumn(lived: false, lives: true)
                copy.lives = true
                copy.beganAt = at
                (copy.heldBall, copy.heldScreen) = (nil, nil)
                column.copy = copy
            }
        }
        observations.send(.screenThroughPublish(true))
    }

    /// Binds one of the copy's colour streams: what it emits is what the copy holds (`holding`
    /// of ``copyHeld``) from then on, and, but while the copy warms up, what the latest column
    /// notes it emitted (`emitted`) and held (`held`).
    private func bind(
        _ colours: AnyPublisher<FlatColour, Never>, holding: WritableKeyPath<CopyHeld, FlatColour?>,
        emitted: WritableKeyPath<CopyColumn, FlatColour?>, held: WritableKeyPath<CopyColumn, FlatColour?>
    ) -> AnyCancellable {
        colours.bind { [unowned self] colour in
            copyHeld[keyPath: holding] = colour
            guard !copyWarming else { return }
            note {
                $0.copy?[keyPath: emitted] = colour
                $0.copy?[keyPath: held] = colour
            }
        }
    }

    /// Sends the copy subscribed before the first column kept (``watch(_:at:time:)``) `positions`,
    /// those the position published after it subscribed and up to that column, oldest first: its
    /// operators then remember what they did (`distinctUntilChanged`'s last, `scan`'s sum), and
    /// the first column says what it last emitted.
    package func warmUpCopy(with positions: some Sequence<BallPosition>) {
        guard let copy = publishCopy else { return }
        copyWarming = true
        for position in positions { copy.send(position) }
        copyWarming = false
        recorded[recorded.count - 1].copy?.heldBall = copyHeld.ball
        recorded[recorded.count - 1].copy?.heldScreen = copyHeld.screen
    }

    private func subscribe(_ kind: LateSubscriber, start: Int?, time: SessionTime) {
        // An ended lane whose columns are no longer kept has nothing left to draw.
        let oldest = keepsEndedLanes ? recorded.first?.index ?? 0 : .max
        lateLanes.removeAll { $0.kind == kind && ($0.end.map { $0.column < oldest } ?? false) }
        let id = nextLateID
        nextLateID += 1
        var lane = LateLane(id: id, kind: kind, start: start ?? latestIndex)
        lane.startedAt = time
        lane.startMoment = noteMoment(.late(lane: id, kind: kind), subscribed: true, at: start, time: time)
        let order = LateSubscriber.allCases
        let slot = lateLanes.firstIndex { order.firstIndex(of: $0.kind)! > order.firstIndex(of: kind)! }
        lateLanes.insert(lane, at: slot ?? lateLanes.count)
        observations.send(.subscribed(kind))
        lateEvents.send((kind, .subscribed))
        subscribing = id
        defer { subscribing = nil }
        let receive: (BallPosition) -> Void = { [unowned self] in lateReceived(id, kind, $0) }
        let completed: () -> Void = { [unowned self] in lateCompleted(id, kind) }
        let subscription: AnyCancellable =
            switch kind {
            case .behavior: session.viewModel.position.bind(onNext: receive, onCompleted: completed)
            case .publish: published.bind(onNext: receive, onCompleted: completed)
            case .replay: replayed.bind(onNext: receive, onCompleted: completed)
            case .relay: relay.publisher.bind(onNext: receive, onCompleted: completed)
            }
        if lateLanes.contains(where: { $0.id == id && $0.isLive }) { lateCancellables[id] = subscription }
        changed?()
    }

    /// Notes in the latest column that `subscriber` subscribed (or was cancelled) after its
    /// intent, where it happened there (`place` nil or the latest: not a subscription the player
    /// makes again before its page), and says which of the column's moments it is.
    @discardableResult
    private func noteMoment(
        _ subscriber: LateMoment.Subscriber, subscribed: Bool, at place: Int?, time: SessionTime?
    ) -> Int? {
        guard place.map({ $0 == latestIndex }) ?? true else { return nil }
        let moment = LateMoment(subscriber, subscribed: subscribed, time: time ?? session.now)
        recorded[recorded.count - 1].lateMoments.append(moment)
        return recorded[recorded.count - 1].lateMoments.count - 1
    }

    /// The newest lane of `kind` (the live one, if one is), if there is one.
    package func lateLane(_ kind: LateSubscriber) -> LateLane? { lateLanes.last { $0.kind == kind } }

    private func lateReceived(_ id: Int, _ kind: LateSubscriber, _ position: BallPosition) {
        guard let slot = lateLanes.firstIndex(where: { $0.id == id }) else { return }
        if subscribing == id {
            lateLanes[slot].handedPositions.append(position)
        } else {
            lateLanes[slot].received.insert(latestIndex)
            if lateLanes[slot].received.count > 2 * capacity {
                let oldest = recorded.first?.index ?? 0
                lateLanes[slot].received = lateLanes[slot].received.filter { $0 >= oldest }
            }
        }
        lateEvents.send((kind, .next(position)))
        changed?()
    }

    private func lateCompleted(_ id: Int, _ kind: LateSubscriber) {
        guard let slot = lateLanes.firstIndex(where: { $0.id == id }) else { return }
        // Subscribed to a subject that had completed (RxSwift sends the new subscriber its
        // completion at once): it ended where and when it subscribed, on the player's page too,
        // whose scratch session's clock stays at the intent before.
        let atOnce = subscribing == id
        lateLanes[slot].end = LateLane.End(
            column: atOnce ? lateLanes[slot].start : latestIndex, ending: .completed,
            moment: atOnce ? lateLanes[slot].startMoment : nil)
        lateLanes[slot].endedAt = atOnce ? lateLanes[slot].startedAt : session.now
        lateCancellables[id] = nil
        lateEvents.send((kind, .completed))
        lateEvents.send((kind, .disposed))
        changed?()
    }
}

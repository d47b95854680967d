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

/// A replay's lanes (what `--marbles` draws) as the expected side of marble tests: one JSON
/// object per lane and line, `{"lane":"position","syntax":"rxjs","framesPerIntent":5,
/// "marbles":"a----b----…","values":{"a":{"cell":[40,11],"screen":[80,24]},…}}`.
///
/// Intent `n` (0: the start, where each lane is handed its first value) begins at frame
/// `n × framesPerIntent`; `-` is a frame with nothing, a letter a value (each lane's letters
/// mapped to its values: an intent as the replay file writes it, without its time; a position,
/// `{"cell":[column,row],"screen":[columns,rows]}`, as the position subject holds it (a resize
/// publishes one even where the ball stays); a colour's name), `|` the completion a quit sends,
/// a group `(…)` values at one frame. The five main lanes are written as their subscriptions
/// see them from the start, so they have no `^` and no `!`; the slot's, `slotted`, is always
/// written (with nothing in the slot it repeats the position's).
///
/// Then each late subscription the recording holds (in the order they ended, those that ended in
/// one column in the order they subscribed; then those still
/// subscribed at its end), with what it received at the frames it received it, and its
/// subscription as RxJS writes one (`expectObservable(source, subscription).toBe(marbles,
/// values)`): `"subscription":"----------^---------!"` (`(^!)` in one frame), and as frames,
/// `"subscribedFrame":10,"unsubscribedFrame":20` (null: never cancelled). A late subscriber
/// subscribes after its column's intent, in its frame: a Behavior subject hands it the value of
/// that frame, a Replay(3) subject the last three as a group.
///
/// It streams: each lane's marbles go to a temporary file as the replay runs, and are copied
/// out at the end, so memory stays flat however long the recording (the values are as many as
/// the distinct cells, colours and intents).
package enum MarbleTestExport {
    /// The main lanes written, in order.
    static let lanes: [StreamLane] = StreamLane.main(slot: true)

    /// Replays `reader` and writes the lanes in `syntax` through `write` (UTF-8 bytes, a line each).
    package static func run(reader: ReplayReader, syntax: MarbleSyntax, write: ([UInt8]) throws -> Void) throws {
        let spools = try lanes.map { _ in try Spool() }
        // Each lane's letters, keyed by the value itself (its JSON is made once, for the map).
        var intents = TokenTable<Intent>(lane: lanes[0].label) { "{" + ReplayFormat.fields(of: $0) + "}" }
        var positions = TokenTable<BallPosition>(lane: lanes[1].label, json: positionJSON)
        var slotted = TokenTable<SlotOutput>(lane: lanes[2].label, json: outputJSON)
        var balls = TokenTable<FlatColour>(lane: lanes[3].label) { #""\#($0.name)""# }
        var backgrounds = TokenTable<FlatColour>(lane: lanes[4].label) { #""\#($0.name)""# }
        // The late subscriptions: those under way with their marbles so far, and the JSON lines
        // of those that ended.
        var late = LateSubscriptions()
        var lateMarbles: [LateSubscriber: LateMarbles] = [:]
        let ended = try Spool()
        // The lanes that ended in the latest column, written in the order they were subscribed
        // once the column is over: the subjects tell their subscribers of a completion in an
        // order that changes from run to run, and a file that does is no test.
        var endedInColumn: [(LateLane, LateMarbles)] = []
        func writeEnded() throws {
            for (lane, marbles) in endedInColumn.sorted(by: { $0.0.id < $1.0.id }) {
                try marbles.write(lane, syntax: syntax, to: ended.append)
            }
            endedInColumn.removeAll()
        }
        var failure: ReplayError?
        do {
            try ReplayColumns.forEach(in: reader) { item in
                switch item {
                case .column(let column):
                    try writeEnded()
                    let at = column.index
                    let tokens = try [
                        column.intent.map { try intents.token(for: $0, at: at) },
                        column.position.map { try positions.token(for: $0, at: at) },
                        column.slotted.map { try slotted.token(for: $0, at: at) },
                        column.ballColour.map { try balls.token(for: $0, at: at) },
                        column.background.map { try backgrounds.token(for: $0, at: at) },
                    ]
                    for (slot, lane) in lanes.enumerated() {
                        try spools[slot].appendFrames(
                            tokens[slot].map { [$0] } ?? [], completed: column.completed.contains(lane), syntax: syntax)
                    }
                    // The late subscriptions under way that received nothing here: a frame of time.
                    for kind in lateMarbles.keys where lateMarbles[kind]!.column < column.index {
                        try lateMarbles[kind]!.advance(to: column.index, syntax: syntax)
                    }
                case .late(let kind, let event, let column):
                    switch event {
                    case .subscribed: lateMarbles[kind] = try LateMarbles(kind, start: column)
                    case .next(let position): lateMarbles[kind]?.values.append(position)
                    case .completed: lateMarbles[kind]?.completed = true
                    case .disposed: break
                    }
                    if let lane = late.note(kind, event, column: column),
                        let marbles = lateMarbles.removeValue(forKey: kind)
                    {
                        endedInColumn.append((lane, marbles))
                    }
                }
            }
        } catch let error as ReplayError {
            failure = error  // The lanes of what came before the bad line, then the error.
        }
        try writeEnded()
        let maps = [intents.map, positions.map, slotted.map, balls.map, backgrounds.map]
        for (slot, lane) in lanes.enumerated() {
            try write(
                Array(
                    #"{"lane":"\#(lane.label)","syntax":"\#(syntax.rawValue)","framesPerIntent":\#(syntax.framesPerIntent),"marbles":""#
                        .utf8))
            try spools[slot].copy(to: write)
            try write(Array(#"","values":"#.utf8) + maps[slot] + Array("}\n".utf8))
        }
        try ended.copy(to: write)
        for kind in LateSubscriber.allCases {
            guard let lane = late.live[kind], let marbles = lateMarbles[kind] else { continue }
            try marbles.write(lane, syntax: syntax, to: write)
        }
        if let failure { throw failure }
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

    /// One late subscription's marbles while it is under way, from the frame it subscribed at:
    /// each column's values wait until the column is over, then take their frames.
    final class LateMarbles {
        /// The column it subscribed in.
        let start: Int
        /// The column whose values are gathering.
        private(set) var column: Int
        /// The values of that column, oldest first.
        var values: [BallPosition] = []
        /// Whether the subject completed in that column.
        var completed = false
        private var tokens: TokenTable<BallPosition>
        private let spool: Spool

        init(_ kind: LateSubscriber, start: Int) throws {
            tokens = TokenTable(lane: StreamLane.late(kind).label, json: MarbleTestExport.positionJSON)
            self.start = start
            column = start
            spool = try Spool()
        }

        /// Writes the gathering column's frames and each column's before `next` (nothing
        /// received in them); `closing` also writes the last, whatever it holds.
        func advance(to next: Int, syntax: MarbleSyntax, closing: Bool = false) throws {
            guard !completed || closing else { return }
            while column < next {
                let tokens = try values.map { try self.tokens.token(for: $0, at: column) }
                try spool.appendFrames(tokens, completed: completed, syntax: syntax)
                values.removeAll()
                column += 1
                if completed { return }
            }
        }

        /// Writes `lane`'s JSON line (its marbles written so far) through `write`.
        func write(_ lane: LateLane, syntax: MarbleSyntax, to write: ([UInt8]) throws -> Void) throws {
            try advance(to: column + 1, syntax: syntax, closing: true)
            let frames = syntax.framesPerIntent
            let subscribed = start * frames
            let unsubscribed = lane.end.flatMap { $0.ending == .unsubscribed ? $0.column * frames : nil }
            var subscription = String(repeating: "-", count: subscribed)
            if let unsubscribed {
                subscription +=
                    unsubscribed == subscribed
                    ? "(^!)" : "^" + String(repeating: "-", count: unsubscribed - subscribed - 1) + "!"
            } else {
                subscription += "^"
            }
            try write(
                Array(
                    #"{"lane":"\#(StreamLane.late(lane.kind).label)","syntax":"\#(syntax.rawValue)","framesPerIntent":\#(frames),"subscription":"\#(subscription)","subscribedFrame":\#(subscribed),"unsubscribedFrame":\#(unsubscribed.map(String.init) ?? "null"),"marbles":""#
                        .utf8))
            try write(Array(repeating: UInt8(ascii: "-"), count: subscribed))
            try spool.copy(to: write)
            try write(Array(#"","values":"#.utf8) + tokens.map + Array("}\n".utf8))
        }
    }
}

/// The letters of one lane: each distinct value gets the next of `a`…`z`, `A`…`Z`, then CJK
/// ideographs (one character each, none a digit or a marble symbol), and its JSON for the map.
struct TokenTable<Value: Hashable> {
    private var tokens: [Value: [UInt8]] = [:]
    private var ordered: [(token: [UInt8], json: String)] = []
    private let makeJSON: (Value) -> String
    /// The lane's name, as the export labels it: what a refusal names.
    private let lane: String

    /// A table for the lane named `lane` that writes a value's JSON with `json`.
    init(lane: String, json: @escaping (Value) -> String) {
        self.lane = lane
        makeJSON = json
    }

    /// The token for `value` (UTF-8), given it the first time it is seen (at intent `column`);
    /// past the last token there is, an error naming the lane, the limit and what to export
    /// instead (a token is never given twice).
    mutating func token(for value: Value, at column: Int) throws -> [UInt8] {
        if let token = tokens[value] { return token }
        guard let token = Self.token(at: ordered.count) else {
            throw Self.full(lane: lane, at: column)
        }
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

extension Spool {
    /// One intent's frames: its values' tokens (a group when more than one, or with the
    /// completion) and the completion (`|`), then `-` to the next intent (none after the
    /// completion: nothing follows it).
    func appendFrames(_ tokens: [[UInt8]], completed: Bool, syntax: MarbleSyntax) throws {
        try append { bytes in
            let group = tokens.count + (completed ? 1 : 0) > 1
            if group { bytes.append(UInt8(ascii: "(")) }
            for (offset, token) in tokens.enumerated() {
                if offset > 0, syntax == .rxpy { bytes.append(UInt8(ascii: ",")) }
                bytes += token
            }
            if completed {
                if !tokens.isEmpty, syntax == .rxpy { bytes.append(UInt8(ascii: ",")) }
                bytes.append(UInt8(ascii: "|"))
            }
            if group { bytes.append(UInt8(ascii: ")")) }
            if !completed {
                // A token is one character (one frame), whatever its bytes.
                let used = group ? 2 + tokens.count + (syntax == .rxpy ? tokens.count - 1 : 0) : tokens.count
                bytes += repeatElement(UInt8(ascii: "-"), count: max(0, syntax.framesPerIntent - used))
            }
        }
    }
}

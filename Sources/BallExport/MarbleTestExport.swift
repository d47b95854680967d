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

    /// How many frames one intent takes: room for the longest column, a value and the
    /// completion in a group (`(a|)`, `(a,|)`), so every intent starts on its own frame.
    package var framesPerIntent: Int {
        switch self {
        case .rxjs: 4
        case .rxpy: 5
        }
    }
}

/// A replay's four main lanes (what `--marbles` draws) as the expected side of marble tests:
/// one JSON object per lane and line, `{"lane":"position","syntax":"rxjs","framesPerIntent":4,
/// "marbles":"a---b-------(c|)","values":{"a":{"cell":[40,11],"screen":[80,24]},…}}`.
///
/// Intent `n` (0: the start, where each lane is handed its first value) begins at frame
/// `n × framesPerIntent`; `-` is a frame with nothing, a letter a value (each lane's letters
/// mapped to its values: an intent as the replay file writes it, without its time; a position,
/// `{"cell":[column,row],"screen":[columns,rows]}`, as the position subject holds it (a resize
/// publishes one even where the ball stays); a colour's name), `|` the completion a quit sends. A lane is written as its
/// subscription sees it from the start, so it has no `^` (and no `!`: it never unsubscribes).
///
/// It streams: each lane's marbles go to a temporary file as the replay runs, and are copied
/// out at the end, so memory stays flat however long the recording (the values are as many as
/// the distinct cells, colours and intents).
package enum MarbleTestExport {
    /// The lanes written, in order.
    static let lanes: [StreamLane] = StreamLane.main

    /// Replays `reader` and writes the lanes in `syntax` through `write` (UTF-8 bytes, a line each).
    package static func run(reader: ReplayReader, syntax: MarbleSyntax, write: ([UInt8]) throws -> Void) throws {
        let spools = try lanes.map { _ in try Spool() }
        // Each lane's letters, keyed by the value itself (its JSON is made once, for the map).
        var intents = TokenTable<Intent> { "{" + ReplayFormat.fields(of: $0) + "}" }
        var positions = TokenTable<BallPosition> {
            #"{"cell":[\#($0.centre.column),\#($0.centre.row)],"screen":[\#($0.screen.columns),\#($0.screen.rows)]}"#
        }
        var balls = TokenTable<FlatColour> { #""\#($0.name)""# }
        var backgrounds = TokenTable<FlatColour> { #""\#($0.name)""# }
        try ReplayColumns.forEach(in: reader) { column in
            let tokens = [
                column.intent.map { intents.token(for: $0) }, column.position.map { positions.token(for: $0) },
                column.ballColour.map { balls.token(for: $0) },
                column.background.map { backgrounds.token(for: $0) },
            ]
            for (slot, lane) in lanes.enumerated() {
                try spools[slot].appendFrames(
                    tokens[slot], completed: column.completed.contains(lane), syntax: syntax)
            }
        }
        let maps = [intents.map, positions.map, balls.map, backgrounds.map]
        for (slot, lane) in lanes.enumerated() {
            try write(
                Array(
                    #"{"lane":"\#(lane.label)","syntax":"\#(syntax.rawValue)","framesPerIntent":\#(syntax.framesPerIntent),"marbles":""#
                        .utf8))
            try spools[slot].copy(to: write)
            try write(Array(#"","values":"#.utf8) + maps[slot] + Array("}\n".utf8))
        }
    }
}

/// The letters of one lane: each distinct value gets the next of `a`…`z`, `A`…`Z`, then CJK
/// ideographs (one character each, none a digit or a marble symbol), and its JSON for the map.
struct TokenTable<Value: Hashable> {
    private var tokens: [Value: [UInt8]] = [:]
    private var ordered: [(token: [UInt8], json: String)] = []
    private let makeJSON: (Value) -> String

    /// A table that writes a value's JSON with `json`.
    init(json: @escaping (Value) -> String) {
        makeJSON = json
    }

    /// The token for `value` (UTF-8), given it the first time it is seen.
    mutating func token(for value: Value) -> [UInt8] {
        if let token = tokens[value] { return token }
        let token = Self.token(at: ordered.count)
        tokens[value] = token
        ordered.append((token, makeJSON(value)))
        return token
    }

    /// The `n`-th token, in UTF-8.
    static func token(at n: Int) -> [UInt8] {
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        if n < letters.count { return [letters[n]] }
        // U+4E00 onwards: 20,992 ideographs, more than any lane's distinct values.
        let scalar = Unicode.Scalar(0x4E00 + UInt32(min(n - letters.count, 20_991)))!
        return Array(String(scalar).utf8)
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
    /// One intent's frames: its value's token (if any) and the completion (`|`), grouped when
    /// both, then `-` to the next intent (none after the completion: nothing follows it).
    func appendFrames(_ token: [UInt8]?, completed: Bool, syntax: MarbleSyntax) throws {
        try append { bytes in
            let group = token != nil && completed
            if group { bytes.append(UInt8(ascii: "(")) }
            if let token { bytes += token }
            if group, syntax == .rxpy { bytes.append(UInt8(ascii: ",")) }
            if completed { bytes.append(UInt8(ascii: "|")) }
            if group { bytes.append(UInt8(ascii: ")")) }
            if !completed {
                let used = token == nil ? 0 : 1
                bytes += repeatElement(UInt8(ascii: "-"), count: syntax.framesPerIntent - used)
            }
        }
    }
}

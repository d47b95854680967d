import BallModel
import BallReplay
import BallTestSupport
import Foundation
import Testing

/// Hostile and broken replay files: each gets one sentence naming the file and the line,
/// never a trap, a hang or unbounded memory.
@Suite("Malformed replay files")
struct MalformedReplayTests {
    static let header =
        #"{"format":"colourful-ball-replay","version":1,"terminal":{"columns":80,"rows":24},"colourRules":1,"program":"0.1.0","started":"2026-11-21T09:40:19Z"}"#

    static func withEvents(_ events: String...) -> [UInt8] {
        Array(([header] + events).map { $0 + "\n" }.joined().utf8)
    }

    static let cases: [(name: String, bytes: [UInt8], error: String)] = [
        ("empty", [], "bad.jsonl: is empty, not a colourful-ball replay file."),
        (
            "not JSON", Array("hello, world\n".utf8),
            "bad.jsonl, line 1: is not a colourful-ball replay file (its first line is not JSON: an unexpected character where a value should be)."
        ),
        (
            "binary garbage", [0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00, 0x0A],
            "bad.jsonl, line 1: is not a colourful-ball replay file (its first line is not JSON: an unexpected character where a value should be)."
        ),
        (
            "wrong format name", Array(#"{"format":"asciicast","version":1}"#.utf8) + [0x0A],
            #"bad.jsonl, line 1: is not a colourful-ball replay file (its format is "asciicast")."#
        ),
        (
            "no format", Array(#"{"version":2,"width":80,"height":24}"#.utf8) + [0x0A],
            #"bad.jsonl, line 1: is not a colourful-ball replay file (its first line has no "format")."#
        ),
        (
            "unknown version",
            Array(
                #"{"format":"colourful-ball-replay","version":9,"terminal":{"columns":80,"rows":24},"colourRules":1}"#
                    .utf8) + [0x0A],
            "bad.jsonl, line 1: was written by a newer colourful-ball (format version 9; this one reads up to 8): update colourful-ball to replay it."
        ),
        (
            "terminal too large",
            Array(
                #"{"format":"colourful-ball-replay","version":1,"terminal":{"columns":80000,"rows":24},"colourRules":1}"#
                    .utf8) + [0x0A],
            #"bad.jsonl, line 1: "columns" is 80000, not a whole number from 1 to 1000."#
        ),
        (
            "an operator no colourful-ball knows",
            Array(
                (#"{"format":"colourful-ball-replay","version":3,"terminal":{"columns":80,"rows":24},"colourRules":1}"#
                    + "\n" + #"{"t":0.1,"event":"operator","name":"teleport"}"# + "\n").utf8),
            #"bad.jsonl, line 2: the operator event's "name" is "teleport", which is none of "#
                + SlotOperator.allCases.dropLast().map(\.name).joined(separator: ", ") + " or "
                + SlotOperator.allCases.last!.name + "."
        ),
        (
            "an operator in a version 2 file",
            Array(
                (#"{"format":"colourful-ball-replay","version":2,"terminal":{"columns":80,"rows":24},"colourRules":1}"#
                    + "\n" + #"{"t":0.1,"event":"operator","name":"filter"}"# + "\n").utf8),
            "bad.jsonl, line 2: an operator event needs format version 3, but the header says version 2."
        ),
        (
            "an interval no timed stage waits",
            Array(
                (#"{"format":"colourful-ball-replay","version":7,"terminal":{"columns":80,"rows":24},"colourRules":1}"#
                    + "\n" + #"{"t":0.1,"event":"operator","name":"filter,debounce","interval":250}"# + "\n").utf8),
            "bad.jsonl, line 2: the interval 250 is not one a timed stage waits: give 100, 300 or 1000 (milliseconds)."
        ),
        (
            "an interval that is not a number",
            Array(
                (#"{"format":"colourful-ball-replay","version":7,"terminal":{"columns":80,"rows":24},"colourRules":1}"#
                    + "\n" + #"{"t":0.1,"event":"stage","name":"throttle","interval":"1s"}"# + "\n").utf8),
            "bad.jsonl, line 2: the interval a string is not one a timed stage waits: give 100, 300 or 1000 (milliseconds)."
        ),
        (
            "an interval for a pipe with no timed stage",
            Array(
                (#"{"format":"colourful-ball-replay","version":7,"terminal":{"columns":80,"rows":24},"colourRules":1}"#
                    + "\n" + #"{"t":0.1,"event":"operator","name":"filter","interval":1000}"# + "\n").utf8),
            "bad.jsonl, line 2: the operator filter has no timed stage (debounce or throttle) to give an interval to."
        ),
        (
            "an interval in a version 6 file",
            Array(
                (#"{"format":"colourful-ball-replay","version":6,"terminal":{"columns":80,"rows":24},"colourRules":1}"#
                    + "\n" + #"{"t":0.1,"event":"operator","name":"debounce","interval":1000}"# + "\n").utf8),
            "bad.jsonl, line 2: an interval in an operator or stage event needs format version 7, but the header says version 6."
        ),
        (
            "an interval spelt in the name, as --operator spells it",
            Array(
                (#"{"format":"colourful-ball-replay","version":7,"terminal":{"columns":80,"rows":24},"colourRules":1}"#
                    + "\n" + #"{"t":0.1,"event":"operator","name":"debounce:1000ms"}"# + "\n").utf8),
            #"bad.jsonl, line 2: the name "debounce:1000ms" spells an interval: a replay file gives it as "interval", in milliseconds."#
        ),
        (
            "a mirror flip in a version 2 file",
            Array(
                (#"{"format":"colourful-ball-replay","version":2,"terminal":{"columns":80,"rows":24},"colourRules":1}"#
                    + "\n" + #"{"t":0.1,"event":"mirror"}"# + "\n").utf8),
            "bad.jsonl, line 2: a mirror event needs format version 3, but the header says version 2."
        ),
        (
            "unknown event", withEvents(#"{"t":0.1,"event":"teleported","cell":[1,1]}"#),
            #"bad.jsonl, line 2: the event "teleported" is not one this colourful-ball knows."#
        ),
        (
            "a late subscriber subscribed twice",
            withEvents(
                #"{"t":0.1,"event":"subscribed","subject":"replay"}"#,
                #"{"t":0.2,"event":"subscribed","subject":"replay"}"#),
            "bad.jsonl, line 3: the late Replay(3) subscriber subscribes where it is subscribed already."
        ),
        (
            "a late subscriber cancelled that never subscribed",
            withEvents(#"{"t":0.1,"event":"unsubscribed","subject":"relay"}"#),
            "bad.jsonl, line 2: the late Relay subscriber is cancelled where it is not subscribed."
        ),
        (
            "an unknown subject", withEvents(#"{"t":0.1,"event":"subscribed","subject":"async"}"#),
            #"bad.jsonl, line 2: the subscribed event's "subject" is "async", which is none of behavior, publish, replay or relay."#
        ),
        (
            "a subject that is a number", withEvents(#"{"t":0.1,"event":"subscribed","subject":3}"#),
            #"bad.jsonl, line 2: the subscribed event's "subject" is a number, not one of behavior, publish, replay or relay."#
        ),
        (
            "an arrow with no direction", withEvents(#"{"t":0.1,"event":"arrow","distance":1}"#),
            #"bad.jsonl, line 2: the arrow event has no "direction": give one of up, down, left or right."#
        ),
        (
            "the panel closed when closed", withEvents(#"{"t":0.1,"event":"panel","open":false}"#),
            "bad.jsonl, line 2: the panel is closed where it is closed already."
        ),
        (
            "the panel with no open", withEvents(#"{"t":0.1,"event":"panel","open":1}"#),
            #"bad.jsonl, line 2: the panel event has no "open" true or false."#
        ),
        (
            "missing time", withEvents(#"{"event":"pressed","cell":[1,1]}"#),
            #"bad.jsonl, line 2: the event has no time "t"."#
        ),
        (
            "mistyped time", withEvents(#"{"t":"soon","event":"pressed","cell":[1,1]}"#),
            #"bad.jsonl, line 2: the time "t" is a string, not a number of seconds."#
        ),
        (
            "time as a string of digits", withEvents(#"{"t":"0","event":"pressed","cell":[1,1]}"#),
            #"bad.jsonl, line 2: the time "t" is a string, not a number of seconds."#
        ),
        ("missing cell", withEvents(#"{"t":0.1,"event":"pressed"}"#), #"bad.jsonl, line 2: "cell" is missing."#),
        (
            "mistyped cell", withEvents(#"{"t":0.1,"event":"dragged","cell":"41,12"}"#),
            #"bad.jsonl, line 2: "cell" is not a pair of numbers [column, row]."#
        ),
        (
            "fractional cell", withEvents(#"{"t":0.1,"event":"dragged","cell":[4.5,12]}"#),
            "bad.jsonl, line 2: the column 4.5 is not a whole number: a cell is a whole column and row."
        ),
        (
            "fractional row", withEvents(#"{"t":0.1,"event":"dragged","cell":[1,5.5]}"#),
            "bad.jsonl, line 2: the row 5.5 is not a whole number: a cell is a whole column and row."
        ),
        (
            "NaN", withEvents(#"{"t":NaN,"event":"pressed","cell":[1,1]}"#),
            "bad.jsonl, line 2: is not a replay event (not JSON: an unexpected character where a value should be)."
        ),
        (
            "infinite time", withEvents(#"{"t":1e999,"event":"pressed","cell":[1,1]}"#),
            "bad.jsonl, line 2: the time inf is out of range (0 to 315360000 seconds)."
        ),
        (
            "absurd time", withEvents(#"{"t":1e300,"event":"pressed","cell":[1,1]}"#),
            "bad.jsonl, line 2: the time 1e+300 is out of range (0 to 315360000 seconds)."
        ),
        (
            "negative time", withEvents(#"{"t":-1,"event":"pressed","cell":[1,1]}"#),
            "bad.jsonl, line 2: the time -1 is out of range (0 to 315360000 seconds)."
        ),
        (
            "time going backwards",
            withEvents(#"{"t":2,"event":"pressed","cell":[1,1]}"#, #"{"t":1,"event":"released","cell":[1,1]}"#),
            "bad.jsonl, line 3: the time goes backwards (1 after 2)."
        ),
        (
            "cell outside the terminal", withEvents(#"{"t":0.1,"event":"pressed","cell":[80,3]}"#),
            "bad.jsonl, line 2: the column 80 is outside the 80×24 terminal."
        ),
        (
            "cell outside after a resize",
            withEvents(#"{"t":0.1,"event":"resized","size":[40,10]}"#, #"{"t":0.2,"event":"pressed","cell":[3,10]}"#),
            "bad.jsonl, line 3: the row 10 is outside the 40×10 terminal."
        ),
        (
            "absurd arrow", withEvents(#"{"t":0.1,"event":"arrow","direction":"left","distance":1e12}"#),
            #"bad.jsonl, line 2: "distance" is 1000000000000, not a whole number from 1 to 1000."#
        ),
        (
            "unknown direction", withEvents(#"{"t":0.1,"event":"arrow","direction":"north","distance":1}"#),
            #"bad.jsonl, line 2: the arrow event's "direction" is "north", which is none of up, down, left or right."#
        ),
        (
            "deeply nested",
            withEvents(String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)),
            "bad.jsonl, line 2: the line is longer than 4096 bytes, far longer than any replay event."
        ),
        (
            "nested within the line limit",
            withEvents(String(repeating: "[", count: 1000) + String(repeating: "]", count: 1000)),
            "bad.jsonl, line 2: is not a replay event (not JSON: nesting deeper than 16 levels)."
        ),
        (
            "invalid UTF-8", withEvents("{\"t\":0.1,\"event\":\"pressed\u{1}\"}").map { $0 == 0x01 ? 0xFF : $0 },
            "bad.jsonl, line 2: is not valid UTF-8 text."
        ),
        (
            "an event that is not an object", withEvents("[1,2,3]"),
            "bad.jsonl, line 2: is an array, not an event object."
        ),
        (
            "escape sequences in a name are never printed raw",
            withEvents("{\"t\":0.1,\"event\":\"\\u001b[2J\\u001b]0;pwned\\u0007\"}"),
            #"bad.jsonl, line 2: the event "\u001b[2J\u001b]0;pwned\u0007" is not one this colourful-ball knows."#
        ),
    ]

    @Test("each malformed file gets its sentence", arguments: cases)
    func malformed(name: String, bytes: [UInt8], error expected: String) {
        do {
            _ = try trace(bytes, named: "bad.jsonl")
            Issue.record("\(name): replayed without an error")
        } catch let error as ReplayError {
            #expect(error.description == expected, "\(name)")
            #expect(!error.description.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        } catch {
            Issue.record("\(name): \(error)")
        }
    }

    @Test("a single 100 MB line is refused after a few kilobytes, in constant memory")
    func hugeLine() {
        var handedOut = 0
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
        var header = Array((Self.header + "\n").utf8)
        let source = ReplayReader(file: "huge.jsonl") {
            if !header.isEmpty {
                defer { header = [] }
                return header
            }
            guard handedOut < 100 << 20 else { return nil }
            handedOut += chunk.count
            return chunk
        }
        #expect(throws: ReplayError.self) { while try source.next() != nil {} }
        #expect(handedOut <= 2 << 20)  // It stopped reading at once.
    }

    func trace(_ bytes: [UInt8], named name: String) throws -> [String] {
        var lines: [String] = []
        try HeadlessReplay.run(reader: reader(bytes, name: name), json: true) { lines.append($0) }
        return lines
    }
}

import BallExport
import BallModel
import BallProgram
import BallReplay
import BallTestSupport
import Foundation
import TerminalIO
import Testing

/// `replay --marbles`: the panel's lanes for a whole recording, as text.
@Suite("The marble diagram of a replay")
struct MarbleDiagramTests {
    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("BallReplayTests/Replays/sample.jsonl")

    static func diagram(_ bytes: [UInt8], width: Int) throws -> [String] {
        var lines: [String] = []
        try MarbleDiagram.run(reader: .inMemory(bytes), width: width) { lines.append($0) }
        return lines
    }

    @Test("the checked-in sample at 40 and 80 columns", arguments: [40, 80])
    func sample(width: Int) throws {
        let bytes = Array(try Data(contentsOf: Self.sample))
        let lines = try Self.diagram(bytes, width: width)
        #expect(lines.allSatisfy { $0.unicodeScalars.count <= width })
        #expect(
            snapshotMismatch(lines.joined(separator: "\n") + "\n", named: "marbles-sample-\(width)", beside: #filePath)
                == nil)
    }

    /// The centres and sizes a values line names, in order: `a=41,11 (80×23)` gives
    /// (`41,11`, `80×23`); a value without a size, (`41,11`, nil).
    static func named(_ line: String) -> [(centre: Substring, size: Substring?)] {
        let words = line.split(separator: " ")
        return words.enumerated().compactMap { offset, word in
            guard let equals = word.firstIndex(of: "="), word[word.index(after: equals)...].contains(",") else {
                return nil
            }
            let next = offset + 1 < words.count ? words[offset + 1] : ""
            let size = next.hasPrefix("(") && next.contains("×") ? next.dropFirst().dropLast() : nil
            return (word[word.index(after: equals)...], size)
        }
    }

    @Test(
        "after a resize, two letters for one centre say what differs: the screen's size, in the text export and the player; a centre on one screen names none"
    )
    func resizedValues() throws {
        let recording = [
            #"{"format":"colourful-ball-replay","version":1,"terminal":{"columns":80,"rows":24},"colourRules":1}"#,
            #"{"t":0.1,"event":"arrow","direction":"right","distance":1}"#,
            #"{"t":0.2,"event":"resized","size":[100,30]}"#,
            #"{"t":0.3,"event":"arrow","direction":"right","distance":1}"#, #"{"t":0.4,"event":"quit"}"#,
        ]
        let bytes = Array(recording.map { $0 + "\n" }.joined().utf8)
        let lines = try Self.diagram(bytes, width: 120)
        let values = try #require(lines.first { $0.hasPrefix(" values") }, "\(lines.joined(separator: "\n"))")
        let named = Self.named(values)
        // The start's centre, then the move's on 80 columns and again on 100: the same centre
        // twice, each with its size, the sizes different; the last move's centre alone, bare.
        let repeated = Dictionary(grouping: named, by: \.centre).filter { $0.value.count > 1 }
        #expect(repeated.count == 1, "\(values)")
        for (_, entries) in repeated {
            #expect(
                entries.allSatisfy { $0.size != nil } && Set(entries.map(\.size)).count == entries.count, "\(values)")
        }
        #expect(named.filter { $0.size == nil }.count == named.count - 2, "\(values)")
        // The player's panel at the end says the same.
        let player = try Pilot<ReplayProgram>(bytes, screen: ScreenSize(columns: 100, rows: 30))
        player.run([.bytes(TerminalBytes.end)])
        player.type("s")
        let shown = try #require(
            player.lines.first { $0.hasPrefix(" values") }, "\(player.lines.joined(separator: "\n"))")
        let centres = Self.named(shown)
        #expect(Dictionary(grouping: centres, by: \.centre).contains { $0.value.count == 2 }, "\(shown)")
        #expect(centres.filter { $0.size != nil }.count == 2, "\(shown)")
    }

    @Test(
        "random recordings: one ● per change of the ball's colour (and the one handed at the start), as the headless trace has them"
    )
    func colourChangesAreMarbles() throws {
        var generator = SeededGenerator()
        for _ in 0..<20 {
            var lines = [
                #"{"format":"colourful-ball-replay","version":1,"terminal":{"columns":80,"rows":24},"colourRules":1}"#
            ]
            lines.append(#"{"t":0.1,"event":"pressed","cell":[40,11]}"#)
            let count = Int.random(in: 1..<300, using: &generator)
            for step in 0..<count {
                let column = Int.random(in: 0..<80, using: &generator)
                let row = Int.random(in: 0..<23, using: &generator)
                let event =
                    Bool.random(using: &generator)
                    ? #""event":"dragged","cell":[\#(column),\#(row)]"#
                    : #""event":"arrow","direction":"right","distance":\#(Int.random(in: 1...5, using: &generator))"#
                lines.append(#"{"t":\#(Double(step + 2) / 10),\#(event)}"#)
            }
            let quits = Bool.random(using: &generator)
            if quits { lines.append(#"{"t":\#(Double(count + 2) / 10),"event":"quit"}"#) }
            let bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
            var balls: [String] = []
            try HeadlessReplay.run(reader: .inMemory(bytes), json: true) { line in
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                if let name = (object?["ball"] as? [String: Any])?["name"] as? String, balls.last != name {
                    balls.append(name)
                }
            }
            let diagram = try Self.diagram(bytes, width: Int.random(in: 30...200, using: &generator))
            let marbles = diagram.filter { $0.hasPrefix(" ballColour") }.map { $0.filter { $0 == "●" }.count }
            #expect(marbles.reduce(0, +) == balls.count, "\(generator)")
            // Every block has the four lanes under its ruler, and the values line under them; the
            // last ends them with | when the recording quit (the position subject completed), and
            // not when it just stopped.
            #expect(diagram.filter { $0.hasPrefix(" intents") }.count == marbles.count)
            let last = try #require(diagram.lastIndex { $0.hasPrefix(" streams") })
            let lanes = diagram[(last + 1)...].prefix { !$0.hasPrefix(" values ") }
            #expect(lanes.count >= 4 && lanes.count < diagram.count - last - 1, "the values line under the lanes")
            #expect(lanes.allSatisfy { $0.hasSuffix("|") } == quits, "\(generator)")
        }
    }

    @Test("a late Replay(3) subscriber's group ³ is named on the values line, as the panel names it")
    func groupNamed() throws {
        let recording = [
            #"{"format":"colourful-ball-replay","version":3,"terminal":{"columns":80,"rows":24},"colourRules":1}"#,
            #"{"t":0.1,"event":"arrow","direction":"left","distance":1}"#,
            #"{"t":0.2,"event":"arrow","direction":"left","distance":1}"#,
            #"{"t":0.3,"event":"subscribed","subject":"replay"}"#, #"{"t":0.4,"event":"quit"}"#,
        ]
        let lines = try Self.diagram(Array(recording.map { $0 + "\n" }.joined().utf8), width: 80)
        // Subscribed after c's intent, in a column of its own: `^` after the last value it was
        // handed, as the live panel draws it.
        #expect(lines.contains(" late Replay(3)       ^³─|"), "\(lines.joined(separator: "\n"))")
        // Which three: by their letters, as RxJS's marbles group them, `^(cba)`.
        #expect(
            lines.last?.hasSuffix(" a=40,11 b=39,11 c=38,11 ³=(abc) at once") == true,
            "\(lines.joined(separator: "\n"))")
    }

    @Test("a ³ in a later block names its three values, lettered though the block draws one of them nowhere else")
    func groupNamedInALaterBlock() throws {
        // 32 moves right (a block at 80 columns holds 31 columns; the ball stops at 70,11, the
        // edge), a late Replay(3) subscriber (handed 68,11 69,11 70,11), one move more (at the
        // edge: nothing), a quit: the second block draws none of the three but in its ³.
        var recording = [
            #"{"format":"colourful-ball-replay","version":3,"terminal":{"columns":80,"rows":24},"colourRules":1}"#
        ]
        for move in 1...32 {
            recording.append(#"{"t":\#(Double(move) / 10),"event":"arrow","direction":"right","distance":1}"#)
        }
        recording += [
            #"{"t":3.25,"event":"subscribed","subject":"replay"}"#,
            #"{"t":3.3,"event":"arrow","direction":"right","distance":1}"#, #"{"t":3.4,"event":"quit"}"#,
        ]
        let lines = try Self.diagram(Array(recording.map { $0 + "\n" }.joined().utf8), width: 80)
        let text = lines.joined(separator: "\n")
        let block = try #require(lines.lastIndex { $0.hasPrefix(" streams") }, "\(text)")
        let second = Array(lines[block...])
        let late = try #require(second.first { $0.hasPrefix(" late Replay(3)") }, "\(text)")
        #expect(late.contains("^³─"), "\(text)")
        let values = second.drop { !$0.hasPrefix(" values") }.joined(separator: " ")
        // (The subscription's own column after the last intent of the first block.)
        #expect(second.contains(" position       ─────────|"), "\(text)")
        // The three it was handed, each named with its letter, and the group.
        let letters = try ["68,11", "69,11", "70,11"].map { centre in
            try #require(
                values.firstRange(of: "=\(centre)").map { values[values.index(before: $0.lowerBound)] }, "\(text)")
        }
        #expect(values.contains("³=(\(String(letters))) at once"), "\(values)")
    }

    @Test(
        "a late Publish subscriber pressed after b's intent is drawn as the live panel draws it: ^ in a column of its own after b, then c under the position's c"
    )
    func lateSubscriptionAfterTheValueItMissed() throws {
        let recording = [
            #"{"format":"colourful-ball-replay","version":3,"terminal":{"columns":80,"rows":24},"colourRules":1}"#,
            #"{"t":0.1,"event":"arrow","direction":"left","distance":1}"#,
            #"{"t":0.2,"event":"subscribed","subject":"publish"}"#,
            #"{"t":0.3,"event":"arrow","direction":"left","distance":1}"#, #"{"t":0.4,"event":"quit"}"#,
        ]
        let lines = try Self.diagram(Array(recording.map { $0 + "\n" }.joined().utf8), width: 80)
        let text = lines.joined(separator: "\n")
        let position = try #require(lines.first { $0.hasPrefix(" position ") }.map(Array.init), "\(text)")
        let late = try #require(lines.first { $0.hasPrefix(" late Publish ") }.map(Array.init), "\(text)")
        let (missed, next) = try (
            #require(position.firstIndex(of: "b"), "\(text)"), #require(position.firstIndex(of: "c"), "\(text)")
        )
        let subscribed = try #require(late.firstIndex(of: "^"), "\(text)")
        #expect(missed < subscribed && subscribed < next, "\(text)")
        #expect(late[next] == "c" && !late[subscribed...].contains("b"), "\(text)")
    }
}

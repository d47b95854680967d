import BallExport
import BallReplay
import BallTestSupport
import Testing

/// The marble syntax has a letter (or a character) per distinct value of a lane: past the last,
/// the export refuses, naming the lane, the limit and a first part that fits.
@Suite("The marble syntax's letters run out")
struct MarbleTokenLimitTests {
    @Test("a lane with more distinct values than letters: refused, the lane and limit named; the head it offers fits")
    func refusedThenItsHead() throws {
        // 30,000 distinct drags on a 1000×60 terminal: the intents lane runs out of letters first.
        let header =
            #"{"format":"colourful-ball-replay","version":1,"terminal":{"columns":1000,"rows":60},"colourRules":1,"program":"0.1.0","started":"2026-11-21T09:40:19Z"}"#
        var lines = [header, #"{"t":0,"event":"pressed","cell":[500,30]}"#]
        for index in 0..<30_000 {
            lines.append(
                #"{"t":\#(Double(index + 1) / 1000),"event":"dragged","cell":[\#(10 + index % 980),\#(10 + index / 980)]}"#
            )
        }
        func export(_ lines: ArraySlice<String>) throws -> MarbleExportError? {
            do {
                try MarbleTestExport.run(
                    reader: .inMemory(Array((lines.joined(separator: "\n") + "\n").utf8)), syntax: .rxjs
                ) { _ in }
                return nil
            } catch let error as MarbleExportError {
                return error
            }
        }
        let refused = try #require(try export(lines[...]), "the whole recording is refused")
        #expect(refused.code == 65)
        let limit = 52 + 0x9FFF - 0x4E00 + 1
        let said = try #require(refused.description.firstMatch(of: /by intent (\d+),/)).output.1
        let intent = try #require(Int(said))
        #expect(
            refused.description
                == "The intents lane has more than \(limit) distinct values by intent \(intent), more than the marble syntax has letters for (a value is a letter or a character): export its first part, as head -n \(intent) FILE > part.jsonl makes it."
        )
        #expect(try export(lines.prefix(intent)) == nil, "the first \(intent) lines, as the sentence says, export")
        #expect(try export(lines.prefix(intent + 1)) != nil, "and they are the most that do")
    }
}

import BallExport
import BallModel
import BallProgram
import BallReplay
import BallTestSupport
import Foundation
import TerminalIO
import Testing

@Suite("The asciicast export")
struct AsciicastTests {
    @Test("asciicast times follow --speed and --max-idle, as the terminal replay's pauses do")
    func castTiming() throws {
        let lines = [
            #"{"format":"colourful-ball-replay","version":1,"terminal":{"columns":40,"rows":12},"colourRules":1}"#,
            #"{"t":1,"event":"arrow","direction":"left","distance":1}"#,
            #"{"t":11,"event":"arrow","direction":"left","distance":1}"#,
            #"{"t":11.5,"event":"arrow","direction":"left","distance":1}"#,
        ]
        let bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
        func times(speed: Double, maximumIdle: Double?) throws -> [String] {
            var cast: [String] = []
            try AsciicastExport.run(reader: .inMemory(bytes), speed: speed, maximumIdle: maximumIdle) {
                cast.append($0)
            }
            return cast.dropFirst().filter { $0.contains(#", "o", "#) }.map {
                String($0.prefix { $0 != "," }.dropFirst())
            }
        }
        // The first frame, one per move, and the ending (cursor back) with the last move.
        #expect(try times(speed: 1, maximumIdle: nil) == ["0", "1", "11", "11.5", "11.5"])
        #expect(try times(speed: 2, maximumIdle: nil) == ["0", "0.5", "5.5", "5.75", "5.75"])
        #expect(try times(speed: 1, maximumIdle: 2) == ["0", "1", "3", "3.5", "3.5"])
    }

    @Test(
        "played in a terminal, the cast shows each frame in exact colours and ends with the cursor shown, attributes reset"
    )
    func castPlaysInATerminal() throws {
        let lines = [
            #"{"format":"colourful-ball-replay","version":1,"terminal":{"columns":60,"rows":20},"colourRules":1}"#,
            #"{"t":0.5,"event":"pressed","cell":[30,9]}"#,
            #"{"t":0.6,"event":"dragged","cell":[40,12]}"#,
            #"{"t":0.7,"event":"dragged","cell":[12,4]}"#,
            #"{"t":0.8,"event":"released","cell":[12,4]}"#,
        ]
        var cast: [String] = []
        try AsciicastExport.run(reader: .inMemory(Array(lines.map { $0 + "\n" }.joined().utf8))) { cast.append($0) }
        #expect(cast[0].contains(#""TERM":"\#(AsciicastExport.term)""#))
        // The same session, headless: the frame after each event.
        let driver = Pilot<Play>(screen: ScreenSize(columns: 60, rows: 20))
        // Each output follows these intents (the press moves nothing, the release neither).
        let intents: [[Intent]] = [
            [], [.pressed(at: Cell(column: 30, row: 9)), .dragged(to: Cell(column: 40, row: 12))],
            [.dragged(to: Cell(column: 12, row: 4))],
        ]
        var terminal = TerminalEmulator(columns: 60, rows: 20)
        var outputs = try cast.dropFirst().filter { $0.contains(#", "o", "#) }.map { line in
            let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any])
            return try #require(event[2] as? String)
        }
        let ending = outputs.removeLast()
        #expect(outputs.count == intents.count)
        for (output, intents) in zip(outputs, intents) {
            intents.forEach(driver.send)
            terminal.receive(Array(output.utf8))
            #expect(terminal.differences(from: driver.frame, colours: .direct).isEmpty)
        }
        #expect(!terminal.cursorVisible)
        terminal.receive(Array(ending.utf8))
        #expect(terminal.cursorVisible)
        #expect(terminal.penIsReset)
        #expect(terminal.problems.isEmpty, "\(terminal.problems)")
    }

    @Test("a marker follows each change of the ball's colour, named for the new colour, at its time")
    func chapters() throws {
        var generator = SeededGenerator()
        var lines = [
            #"{"format":"colourful-ball-replay","version":1,"terminal":{"columns":80,"rows":24},"colourRules":1}"#
        ]
        lines.append(#"{"t":0.1,"event":"pressed","cell":[40,11]}"#)
        for step in 0..<200 {
            let column = Int.random(in: 0..<80, using: &generator)
            let row = Int.random(in: 0..<23, using: &generator)
            lines.append(#"{"t":\#(Double(step + 2) / 10),"event":"dragged","cell":[\#(column),\#(row)]}"#)
        }
        let bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
        // The changes of colour as the headless replay reports them.
        var expected: [String] = []
        var colour: String?
        try HeadlessReplay.run(reader: .inMemory(bytes), json: true) { line in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            let ball = (object?["ball"] as? [String: Any])?["name"] as? String
            let time = object?["t"] as? Double ?? -1
            if let colour, colour != ball { expected.append("\(time) \(ball ?? "?")") }
            colour = ball
        }
        var markers: [String] = []
        var lastOutputTime: Double?
        try AsciicastExport.run(reader: .inMemory(bytes)) { line in
            guard let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any] else { return }
            let time = event[0] as? Double ?? -1
            if event[1] as? String == "m" {
                markers.append("\(time) \(event[2] as? String ?? "?")")
                #expect(lastOutputTime == time, "the marker comes right after its frame")
            } else {
                lastOutputTime = time
            }
        }
        #expect(expected.count > 20, "\(generator)")
        #expect(markers == expected, "\(generator)")
    }

    @Test(
        "a recording with the panel, a late subscriber and a resize: the cast draws what play drew, each observation at its time, the resize as an r event"
    )
    func castOfTheLanes() throws {
        let lines = [
            #"{"format":"colourful-ball-replay","version":2,"terminal":{"columns":60,"rows":20},"colourRules":1}"#,
            #"{"t":0,"event":"panel","open":true}"#,
            #"{"t":0.5,"event":"arrow","direction":"left","distance":1}"#,
            #"{"t":0.6,"event":"subscribed","subject":"replay"}"#,
            #"{"t":0.7,"event":"arrow","direction":"down","distance":1}"#,
            #"{"t":0.8,"event":"resized","size":[70,22]}"#,
            #"{"t":0.9,"event":"unsubscribed","subject":"replay"}"#,
            #"{"t":1,"event":"arrow","direction":"right","distance":5}"#,
        ]
        var cast: [[Any]] = []
        try AsciicastExport.run(reader: .inMemory(Array(lines.map { $0 + "\n" }.joined().utf8))) { line in
            if let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any] { cast.append(event) }
        }
        #expect(
            cast.map { "\($0[0]) \($0[1])" } == [
                "0 o", "0 o", "0.5 o", "0.5 m", "0.6 o", "0.7 o", "0.7 m", "0.8 r", "0.8 o", "0.9 o", "1 o", "1 m",
                "1 o",
            ])
        #expect(cast.first { $0[1] as? String == "r" }?[2] as? String == "70x22")
        // The same session played: each output is the frame play drew after the same step.
        let driver = Pilot<Play>(screen: ScreenSize(columns: 60, rows: 20))
        let steps: [() -> Void] = [
            {}, { driver.toggleStreams() }, { driver.press(.left) }, { driver.toggleLate(.replay) },
            { driver.press(.down) }, { driver.resize(columns: 70, rows: 22) }, { driver.toggleLate(.replay) },
            { driver.press(.right, shifted: true) },
        ]
        let outputs = cast.filter { $0[1] as? String == "o" }.compactMap { $0[2] as? String }.dropLast()
        #expect(outputs.count == steps.count)
        var terminal = TerminalEmulator(columns: 60, rows: 20)
        for (step, (output, act)) in zip(outputs, steps).enumerated() {
            act()
            if step == 5 { terminal = TerminalEmulator(columns: 70, rows: 22) }
            terminal.receive(Array(output.utf8))
            #expect(terminal.differences(from: driver.frame, colours: .direct).isEmpty, "step \(step)")
        }
        #expect(terminal.rowTexts.contains { $0.hasPrefix(" late Replay(3) ") && $0.contains("^²─c─d─!") })
        #expect(terminal.problems.isEmpty, "\(terminal.problems)")
    }
}

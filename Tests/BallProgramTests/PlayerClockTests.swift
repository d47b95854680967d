import BallModel
import BallProgram
import BallTestSupport
import Testing

/// The replay player's status line while it plays a long pause.
@Suite("The player's clock")
struct PlayerClockTests {
    /// A recording whose first intent comes 19.7 s after its start, then a second at 20 s.
    static let idleStart =
        Array(
            [
                #"{"format":"colourful-ball-replay","version":7,"terminal":{"columns":80,"rows":24},"colourRules":1}"#,
                #"{"t":19.7,"event":"arrow","direction":"right","distance":1}"#,
                #"{"t":20,"event":"quit"}"#,
            ].joined(separator: "\n").utf8) + [10]

    /// The time the status line shows: `t 3.20 s` → 3.2.
    static func shownTime(_ pilot: Pilot<ReplayProgram>) -> Double? {
        guard let status = pilot.lines.last,
            let range = status.range(of: #"t \d+\.\d\d s"#, options: .regularExpression)
        else { return nil }
        return Double(status[range].dropFirst(2).dropLast(2))
    }

    @Test("space plays the recording's idle start: the time shown runs, at the speed, until the first intent")
    func idleStartRuns() throws {
        let pilot = try Pilot<ReplayProgram>(Self.idleStart)
        #expect(Self.shownTime(pilot) == 0, "\(pilot.lines.last ?? "")")
        pilot.type(" ")
        pilot.pass(.seconds(2))
        #expect(Self.shownTime(pilot) == 2, "\(pilot.lines.last ?? "")")
        #expect(pilot.player.place == 0, "still before the first intent")
        pilot.pass(.milliseconds(10_550))
        #expect(Self.shownTime(pilot) == 12.5, "\(pilot.lines.last ?? "")")
        // Twice as fast: the clock too, on from where it was.
        pilot.type("+")
        #expect(Self.shownTime(pilot) == 12.55, "\(pilot.lines.last ?? "")")
        pilot.pass(.seconds(1))
        #expect(Self.shownTime(pilot) == 14.55, "\(pilot.lines.last ?? "")")
        // The first intent comes when the clock reaches it: (19.7 - 12.55) / 2 s after the key.
        pilot.pass(.milliseconds(2_550))
        #expect(pilot.player.place == 0, "\(pilot.lines.last ?? "")")
        pilot.pass(.milliseconds(100))
        #expect(pilot.player.place == 1, "\(pilot.lines.last ?? "")")
        pilot.type("-")
        // Paused: the time playing had reached (19.7 came 25 ms into those 100, 75 ms at 2× since);
        // a step or a jump shows its place's.
        pilot.type(" ")
        #expect(Self.shownTime(pilot) == 19.85, "\(pilot.lines.last ?? "")")
        pilot.type("h")
        pilot.type("l")
        #expect(Self.shownTime(pilot) == 19.7, "\(pilot.lines.last ?? "")")
    }

    @Test("space paused between two intents: the time stays where playing had reached, and plays on from there")
    func pauseKeepsTheTime() throws {
        let pilot = try Pilot<ReplayProgram>(Self.idleStart)
        pilot.type(" ")
        pilot.pass(.seconds(2))
        pilot.type(" ")
        #expect(pilot.player.paused && pilot.player.place == 0)
        #expect(Self.shownTime(pilot) == 2, "\(pilot.lines.last ?? "")")
        pilot.pass(.seconds(5))
        #expect(Self.shownTime(pilot) == 2, "\(pilot.lines.last ?? "")")
        pilot.type(" ")
        pilot.pass(.seconds(1))
        #expect(Self.shownTime(pilot) == 3, "\(pilot.lines.last ?? "")")
        // The first intent comes 17.7 s on from there, not from the pause.
        pilot.pass(.milliseconds(16_600))
        #expect(pilot.player.place == 0, "\(pilot.lines.last ?? "")")
        pilot.pass(.milliseconds(200))
        #expect(pilot.player.place == 1, "\(pilot.lines.last ?? "")")
    }
}

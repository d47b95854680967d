import BallModel
import BallProgram
import BallStreams
import BallTestSupport
import Testing

/// What each late kind is handed as it subscribes, said where `play` and `replay` list their
/// keys: the help box, `--help` and the empty late rows of the panel, in the words of one place
/// (``LateSubscriber/handedWords``).
@Suite("What a late subscriber is handed, in the help")
struct LateWordsTests {
    /// Each kind's key row, whole on one line of the box at 80×24, as RxSwift's subjects hand a
    /// late subscriber: the latest, nothing, up to the last three, the latest and no end.
    static let rows = [
        "b                       late Behavior: the latest at once (again: cancel)",
        "p                       late Publish: nothing at once (again: cancel)",
        "r                       late Replay(3): up to its last 3 (again: cancel)",
        "v                       late Relay: the latest, never ends (again: cancel)",
    ]

    @Test(
        "replay's help box at 80×24 draws each late kind's row whole: Behavior the latest, Publish nothing, Replay up to its last 3, Relay the latest, never ends"
    )
    func helpBox() throws {
        let recording = Array(
            """
            {"format":"colourful-ball-replay","version":7,"terminal":{"columns":80,"rows":24},"colourRules":1}
            {"t":0.1,"event":"arrow","direction":"left","distance":1}

            """.utf8)
        let player = try Pilot<ReplayProgram>(recording, screen: ScreenSize(columns: 80, rows: 24))
        player.type("?")
        var shown: [String] = []
        for _ in 0..<3 {
            shown += LearnRecordingTests.rows(player.frame).map { String($0.drop { $0 == " " }) }
            player.type(" ")
            if player.watch.binding.model.help == nil { break }
        }
        for row in Self.rows { #expect(shown.contains(row), "\(row)\n\(shown.joined(separator: "\n"))") }
    }

    @Test("play --help and replay --help say the same of each kind, a line each")
    func commandHelp() {
        for mode in [KeyMode.play, .replay] {
            let summary = KeyMap.summary(for: mode).split(separator: "\n").map(String.init)
            for row in Self.rows {
                let key = row.prefix(1)
                let words = row.drop { $0 != "l" }
                #expect(summary.contains("\(key): \(words)."), "\(mode): \(summary)")
            }
        }
    }
}

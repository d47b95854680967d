import ArgumentParser
import ColourfulBallCommands
import Testing

/// The commands' rules, in process, as swift-argument-parser tests its own commands: each bad
/// command line gets its one sentence, each good one parses.
@Suite("Command-line rules")
struct ValidationTests {
    /// The message `replay` gives for `arguments`, or nil when they parse.
    func replayMessage(_ arguments: [String]) -> String? {
        do {
            _ = try ReplayCommand.parse(arguments)
            return nil
        } catch {
            return ReplayCommand.message(for: error)
        }
    }

    @Test(
        "every rule of replay says what is wrong in one sentence",
        arguments: [
            (
                ["f", "--speed", "0"],
                "--speed must be a number from 0.01 to 1000, such as 2 (twice as fast) or 0.5 (half as fast); got 0."
            ),
            (
                ["f", "--speed", "-1"],
                "--speed must be a number from 0.01 to 1000, such as 2 (twice as fast) or 0.5 (half as fast); got -1."
            ),
            (
                ["f", "--speed", "1001"],
                "--speed must be a number from 0.01 to 1000, such as 2 (twice as fast) or 0.5 (half as fast); got 1001."
            ),
            (
                ["f", "--max-idle", "-0.5"],
                "--max-idle must be a number of seconds from 0 to 604800 (a week), such as 1.5; got -0.5."
            ),
            (
                ["f", "--max-idle", "604801"],
                "--max-idle must be a number of seconds from 0 to 604800 (a week), such as 1.5; got 604801."
            ),
            (["f", "--json"], "--json goes with --headless."),
            (["f", "--marbles", "--json"], "--json goes with --headless."),
            (["f", "--headless", "--asciicast", "o.cast"], "Give --headless or --asciicast, not both."),
            (["f", "--marbles", "--asciicast", "o.cast"], "Give --marbles or --asciicast, not both."),
            (["f", "--force"], "--force goes with --asciicast OUT.cast, --trace OUT or --svg OUT."),
            (["f", "--svg", "o.svg"], "--svg goes with --marbles (got o.svg)."),
            (["f", "--marbles", "--svg", "o.svg", "--syntax", "rxjs"], "Give --syntax or --svg, not both."),
            (["f", "--trace", "t", "--asciicast", "c"], "Give --asciicast or --trace, not both."),
            (["f", "--headless", "--trace", "t"], "Give --headless or --trace, not both."),
            (["f", "--width", "60"], "--width goes with --marbles (got 60)."),
            (["f", "--headless", "--width", "60"], "--width goes with --marbles (got 60)."),
            (["f", "--marbles", "--width", "5"], "--width must be a number of characters from 19 to 100000; got 5."),
            (
                ["f", "--marbles", "--width", "100001"],
                "--width must be a number of characters from 19 to 100000; got 100001."
            ),
            (
                ["f", "--paused", "--headless"],
                "--paused starts a replay in the terminal paused: leave out --headless."
            ),
            (
                ["f", "--paused", "--asciicast", "o.cast"],
                "--paused starts a replay in the terminal paused: leave out --asciicast."
            ),
            (
                ["f", "--streams", "--marbles"],
                "--streams opens the panel of a replay in the terminal or its cast (--asciicast): leave out --marbles."
            ),
        ])
    func replayRules(arguments: [String], message: String) {
        #expect(replayMessage(arguments) == message)
    }

    @Test("two outputs at once get ArgumentParser's own error; the same command lines as before parse")
    func outputs() throws {
        let conflict = try #require(replayMessage(["f", "--headless", "--marbles"]))
        #expect(conflict.contains("--marbles") && conflict.contains("--headless"))
        for good in [
            ["f"], ["f", "--headless"], ["f", "--headless", "--json"], ["f", "--marbles", "--width", "60"],
            ["f", "--asciicast", "o.cast", "--force", "--speed", "2", "--max-idle", "1"],
            ["f", "--paused", "--streams"],
            ["-", "--headless"],
        ] {
            #expect(replayMessage(good) == nil, "\(good)")
        }
        #expect(try ReplayCommand.parse(["f", "--headless", "--json"]).output == .headless)
        #expect(try ReplayCommand.parse(["f", "--marbles"]).output == .marbles)
        #expect(try ReplayCommand.parse(["f"]).output == nil)
    }

    @Test("play: --force goes with --record")
    func playRules() {
        do {
            _ = try PlayCommand.parse(["--force"])
            Issue.record("--force alone parsed")
        } catch {
            #expect(PlayCommand.message(for: error) == "--force goes with --record FILE or --trace FILE.")
        }
        #expect((try? PlayCommand.parse(["--record", "s.jsonl", "--force", "--streams"])) != nil)
    }

    @Test("a plain colourful-ball, played without the parse, is what the parse of no arguments gives")
    func plainPlayIsTheParsedDefault() throws {
        let parsed = try #require(try ColourfulBall.parseAsRoot([]) as? PlayCommand)
        #expect(parsed.play == Play())
        #expect(Play().animated && !Play().streams && !Play().force)
        #expect(Play().record == nil && Play().trace == nil)
        // And each option still lands where it belongs.
        let asked = try #require(
            try ColourfulBall.parseAsRoot(["--record", "r", "--trace", "t", "--force", "--streams", "--no-animation"])
                as? PlayCommand)
        #expect(asked.play == Play(record: "r", trace: "t", force: true, streams: true, animated: false))
    }
}

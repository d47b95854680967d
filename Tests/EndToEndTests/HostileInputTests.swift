import BallModel
import BallTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What an adversarial user tried: absurd numbers, outputs that fail, control characters in
/// names. Each ends with one clear sentence and an honest exit status.
@Suite("Hostile input and faults")
struct HostileInputTests {
    static let sample = RecordReplayTests.sample

    /// Whether `text` holds a control character a terminal would act on: C0 but the newlines
    /// that end its lines, DEL, or C1.
    static func hasRawControl(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0 != "\n" && ($0.value < 0x20 || (0x7F...0x9F).contains($0.value)) }
    }

    @Test(
        "absurd --speed and --max-idle values get one sentence and exit 64, never a trap",
        arguments: [
            ["--speed", "1e-300"], ["--speed", "1e-10"], ["--speed", "-1"], ["--speed", "0"], ["--speed", "nan"],
            ["--speed", "inf"], ["--speed", "1e300"], ["--max-idle", "-1"], ["--max-idle", "1e400"],
            ["--max-idle", "0.01", "--speed", "1e-300"],
        ])
    func absurdTiming(arguments: [String]) throws {
        for output in [["--headless"], ["--asciicast", "/tmp/colourful-ball-\(getpid())-absurd.cast"]] {
            let result = try run([programPath, "replay", Self.sample] + arguments + output)
            #expect(result.status == 64, "\(arguments + output): \(result.error)")
            let flag = arguments.count > 2 ? "--speed" : arguments[0]
            #expect(result.error.hasPrefix("Error: \(flag) must be a number"), "\(result.error)")
            #expect(!result.error.contains("Missing value"))
            #expect(!FileManager.default.fileExists(atPath: "/tmp/colourful-ball-\(getpid())-absurd.cast"))
        }
    }

    @Test("the slowest speed gives finite, moderate cast times")
    func slowestCast() throws {
        let cast = "/tmp/colourful-ball-\(getpid())-slow.cast"
        defer { try? FileManager.default.removeItem(atPath: cast) }
        #expect(try run([programPath, "replay", Self.sample, "--speed", "0.01", "--asciicast", cast]).status == 0)
        let lines = try String(contentsOfFile: cast, encoding: .utf8).split(separator: "\n").dropFirst()
        let times = lines.compactMap { Double($0.dropFirst().prefix { $0 != "," }) }
        #expect(times.count == lines.count)
        #expect(times.allSatisfy { $0.isFinite && $0 <= 604_800 / 0.01 })
        #expect(times.last! > 100)  // The sample lasts seconds: at 1/100 of its speed, minutes.
    }

    @Test(
        "a full or closed standard output is an error that says so, exit 74",
        arguments: [
            ["colour", "--palette"], ["colour", "1", "2"], ["colour", "--flatten", "#123456", "--json"],
            ["replay", RecordReplayTests.sample, "--headless"],
        ])
    func failedWrites(arguments: [String]) throws {
        let full = try run([programPath] + arguments, stdout: .file("/dev/full"))
        #expect(full.status == 74, "\(full.error)")
        #expect(full.error == "colourful-ball: Cannot write standard output: No space left on device.\n")
        let closed = try run([programPath] + arguments, stdout: .closed)
        #expect(closed.status == 74, "\(closed.error)")
        #expect(closed.error.hasPrefix("colourful-ball: Cannot write standard output: it is closed"))
        #expect(closed.error.split(separator: "\n").count == 1)
    }

    /// Every C0 control, DEL and some C1 controls, as they might hide in a name.
    static let controls: String = {
        var text = ""
        for value in Array(0x01..<0x20) + [0x7F, 0x80, 0x85, 0x9B, 0x9F] {
            text.unicodeScalars.append(Unicode.Scalar(UInt32(value))!)
        }
        return text
    }()

    @Test("control characters in names and arguments come back as escapes, in one line")
    func controlCharactersInMessages() throws {
        let name = "/tmp/missing\u{1B}[31mred\u{1B}]2;PWNED\u{07}" + Self.controls + ".jsonl"
        // Each message's first line holds the whole sentence, the text escaped (ArgumentParser's
        // usage lines may follow).
        let cases: [([String], String)] = [
            (["replay", name, "--headless"], #"colourful-ball: Cannot read /tmp/missing\e[31mred\e]2;PWNED\a\x01"#),
            (["colour", "--flatten", "#\u{1B}[31mAB"], #"Error: '#\e[31mAB' is not a colour"#),
            (["colour", "\u{1B}[2J", "1"], #"Error: '\e[2J' is not a number"#),
            (["--\u{1B}]2;PWNED\u{07}"], #"Error: Unknown option '--\e]2;PWNED\a'"#),
            (
                ["replay", Self.sample, "--asciicast", "/nonexistent/\u{1B}[31m\n.cast"],
                #"colourful-ball: Cannot write /nonexistent/\e[31m\n.cast: No such file or directory."#
            ),
        ]
        for (arguments, sentence) in cases {
            let result = try run([programPath] + arguments)
            #expect(result.status != 0)
            #expect(!Self.hasRawControl(result.error), "\(arguments): \(Array(result.error.utf8))")
            #expect(result.error.split(separator: "\n").first.map { $0.hasPrefix(sentence) } == true, "\(result.error)")
            #expect(result.output.isEmpty)
        }
        let replay = try run([programPath, "replay", name, "--headless"])
        #expect(replay.error.contains(#"missing\e[31mred\e]2;PWNED\a\x01\x02"#), "\(replay.error)")
        #expect(replay.error.contains(#"\x1F\x7F\u{80}\u{85}\u{9B}\u{9F}.jsonl"#), "\(replay.error)")
        #expect(replay.error.split(separator: "\n").count == 1)
        // A malformed file's line prefix too.
        let bad = "/tmp/colourful-ball-\(getpid())-\u{1B}[31mbad\n.jsonl"
        defer { try? FileManager.default.removeItem(atPath: bad) }
        try "not json\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let malformed = try run([programPath, "replay", bad, "--headless"])
        #expect(malformed.status == 65)
        #expect(malformed.error.contains(#"-\e[31mbad\n.jsonl, line 1: is not a colourful-ball replay file"#))
        #expect(!Self.hasRawControl(malformed.error))
    }

    @Test("a TERM with control characters is shown as escapes, in a terminal")
    func controlCharactersInTerm() throws {
        let terminal = try PseudoTerminal(
            [programPath], size: ScreenSize(columns: 80, rows: 24),
            environment: ["TERM": "\u{1B}[31mx\u{1B}]2;PWNED\u{07}", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
        let (bytes, _) = terminal.readUntilQuiet(quiet: 0.5)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains(#"The terminal type '\e[31mx\e]2;PWNED\a' (TERM) is unknown to ncurses"#), "\(text)")
        #expect(!bytes.contains(0x1B) && !bytes.contains(0x07))
        let status = terminal.waitForExit()
        #expect(status >> 8 & 0xFF == 2)
    }
}

import Foundation
import Testing

/// The completion scripts as a shell uses them: files wherever an option or argument takes one,
/// and the default subcommand's (play's) options at the root.
@Suite("Shell completions")
struct CompletionTests {
    /// What bash's completion of `line` (the cursor at its end) offers, in `folder`.
    static func bash(_ line: String, in folder: String) throws -> [String] {
        let script = try run([programPath, "--generate-completion-script", "bash"])
        #expect(script.status == 0)
        let file = folder + "/completion.bash"
        try script.output.write(toFile: file, atomically: true, encoding: .utf8)
        var words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        if words.last == nil { words.append("") }
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let result = try run([
            "bash", "-c",
            "cd '\(folder)' && source completion.bash && COMP_WORDS=(\(quoted)) && COMP_CWORD=\(words.count - 1) "
                + "&& COMP_LINE='\(line)' && COMP_POINT=${#COMP_LINE} "
                + "&& _colourful-ball colourful-ball '\(words.last!)' '\(words.count > 1 ? words[words.count - 2] : "")' "
                + "; printf '%s\\n' \"${COMPREPLY[@]}\"",
        ])
        #expect(result.status == 0, "\(result.error)")
        return result.output.split(separator: "\n").map(String.init).sorted()
    }

    @Test("bash: replay FILE, --record, --trace, --svg, --asciicast complete file names; play's options at the root")
    func bashCompletes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("completion-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in ["session.jsonl", "sketch.svg"] {
            #expect(FileManager.default.createFile(atPath: folder + "/" + name, contents: Data()))
        }
        let files = ["session.jsonl", "sketch.svg"]
        for line in [
            "colourful-ball replay s", "colourful-ball --record s", "colourful-ball play --trace s",
            "colourful-ball learn --record s", "colourful-ball replay session.jsonl --marbles --svg s",
            "colourful-ball replay session.jsonl --asciicast s", "colourful-ball replay session.jsonl --trace s",
        ] {
            #expect(try Self.bash(line, in: folder) == files, "\(line)")
        }
        #expect(try Self.bash("colourful-ball --rec", in: folder) == ["--record"])
        #expect(try Self.bash("colourful-ball --oper", in: folder) == ["--operator"])
        #expect(try Self.bash("colourful-ball --operator deb", in: folder) == ["debounce"])
        #expect(try Self.bash("colourful-ball rep", in: folder) == ["replay"], "the subcommands, as before")
    }

    @Test("zsh and fish: play's options at the root, with their values")
    func zshAndFish() throws {
        let zsh = try run([programPath, "--generate-completion-script", "zsh"]).output
        let root = try #require(zsh.range(of: "\n_colourful-ball() {\n")).upperBound
        let end = try #require(zsh.range(of: "\n}\n", range: root..<zsh.endIndex)).lowerBound
        let rootFunction = zsh[root..<end]
        #expect(
            rootFunction.contains("'--record[") && rootFunction.contains("'--operator["), "\(rootFunction.prefix(600))")
        let fish = try run([programPath, "--generate-completion-script", "fish"]).output
        #expect(
            fish.contains(#"__colourful-ball_should_offer_completions_for_flags_or_options "colourful-ball" record'"#))
        #expect(
            fish.contains(#"__colourful-ball_should_offer_completions_for_flags_or_options "colourful-ball" operator'"#)
        )
    }
}

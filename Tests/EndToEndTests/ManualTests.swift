import Foundation
import Testing

/// The man page and the shell completions come from ArgumentParser; these tests catch a page
/// left behind when a command, an option, a help text or a key changes.
@Suite("Man page and completions")
struct ManualTests {
    static let manPage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/man/colourful-ball.1")

    @Test(
        "docs/man/colourful-ball.1 says what --help says: every command, option and help text (scripts/man remakes it)")
    func manPageIsCurrent() throws {
        let page = try String(contentsOf: Self.manPage, encoding: .utf8)
        let dump = try run([programPath, "--experimental-dump-help"])
        #expect(dump.status == 0)
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(dump.output.utf8)) as? [String: Any])
        var missing: [String] = []
        func visit(_ command: [String: Any]) {
            let name = command["commandName"] as? String ?? "?"
            for text in [command["abstract"] as? String, command["discussion"] as? String].compactMap({ $0 }) {
                for line in text.split(separator: "\n") where !page.contains(line) {
                    missing.append("\(name): \(line)")
                }
            }
            for argument in command["arguments"] as? [[String: Any]] ?? [] {
                if let abstract = argument["abstract"] as? String, !page.contains(abstract) {
                    missing.append("\(name): \(abstract)")
                }
                for option in argument["names"] as? [[String: Any]] ?? [] where option["kind"] as? String == "long" {
                    let flag = "Fl -\(option["name"] as? String ?? "")"
                    if !page.contains(flag) { missing.append("\(name): \(flag)") }
                }
            }
            for subcommand in command["subcommands"] as? [[String: Any]] ?? [] { visit(subcommand) }
        }
        visit(try #require(root["command"] as? [String: Any]))
        #expect(missing.isEmpty, "run scripts/man: the page lacks \(missing.prefix(5))")
    }

    @Test(
        "the completion scripts come from ArgumentParser and complete the subcommands and options",
        arguments: ["bash", "zsh", "fish"])
    func completions(shell: String) throws {
        let script = try run([programPath, "--generate-completion-script", shell])
        #expect(script.status == 0)
        for word in ["replay", "colour", "asciicast", "max-idle", "record", "headless"] {
            #expect(script.output.contains(word), "\(shell): \(word)")
        }
    }

    @Test(
        "scripts/install puts the binary, the man page and working completions under a prefix; --uninstall takes them away"
    )
    func install() throws {
        let root = Self.manPage.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("install-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        var environment = ProcessInfo.processInfo.environment
        environment["COLOURFUL_BALL_BINARY"] = programPath
        let script = root.appendingPathComponent("scripts/install").path
        let installed = try run([script, prefix], environment: environment)
        #expect(installed.status == 0, "\(installed.error)")
        let files = [
            "bin/colourful-ball", "share/man/man1/colourful-ball.1", "share/bash-completion/completions/colourful-ball",
            "share/zsh/site-functions/_colourful-ball", "share/fish/vendor_completions.d/colourful-ball.fish",
        ].map { prefix + "/" + $0 }
        for file in files { #expect(FileManager.default.fileExists(atPath: file), "\(file)") }
        #expect(try run([files[0], "--version"]).status == 0)
        #expect(
            try String(contentsOfFile: files[1], encoding: .utf8)
                == String(contentsOf: Self.manPage, encoding: .utf8))
        // Bash completes the subcommand from the installed script.
        let completion = try run([
            "bash", "-c",
            "source '\(files[2])'; COMP_WORDS=(colourful-ball rep); COMP_CWORD=1; COMP_LINE='colourful-ball rep'; "
                + "COMP_POINT=${#COMP_LINE}; _colourful-ball colourful-ball rep colourful-ball; echo \"${COMPREPLY[@]}\"",
        ])
        #expect(completion.output == "replay\n", "\(completion.error)")
        let removed = try run([script, "--uninstall", prefix])
        #expect(removed.status == 0)
        for file in files { #expect(!FileManager.default.fileExists(atPath: file), "\(file)") }
        #expect(try run([script, "--bogus"]).status == 64)
    }
}

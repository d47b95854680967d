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
        // The page writes characters beyond ASCII as groff's \[uXXXX] escapes (scripts/man).
        let escaped = try String(contentsOf: Self.manPage, encoding: .utf8)
        let page = escaped.replacing(#/\\\[u([0-9A-F]{4})\]/#) { match in
            String(Character(Unicode.Scalar(UInt32(match.output.1, radix: 16)!)!))
        }
        let dump = try run([programPath, "--experimental-dump-help"])
        #expect(dump.status == 0)
        let root = try #require(
            try JSONSerialization.jsonObject(with: Data(dump.output.utf8)) as? [String: Any])
        var missing: [String] = []
        func visit(_ command: [String: Any]) {
            let name = command["commandName"] as? String ?? "?"
            // The exit-status table leaves DESCRIPTION for EXIT STATUS (ExitStatusTests checks it there).
            let discussion = (command["discussion"] as? String)?.components(separatedBy: "\nExit status:\n")[0]
            for text in [command["abstract"] as? String, discussion].compactMap({ $0 }) {
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
            "share/doc/colourful-ball/LICENSE",
        ].map { prefix + "/" + $0 }
        for file in files { #expect(FileManager.default.fileExists(atPath: file), "\(file)") }
        // --version names the LICENSE installed beside it, which is the repository's.
        let version = try run([files[0], "--version"])
        #expect(version.status == 0)
        #expect(
            version.output.contains("(the whole text: \(prefix)/share/doc/colourful-ball/LICENSE)."),
            "\(version.output)")
        #expect(
            try String(contentsOfFile: prefix + "/share/doc/colourful-ball/LICENSE", encoding: .utf8)
                == String(contentsOf: root.appendingPathComponent("LICENSE"), encoding: .utf8))
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

extension ManualTests {
    static var installScript: String {
        manPage.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/install").path
    }

    static var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["COLOURFUL_BALL_BINARY"] = programPath
        return environment
    }

    @Test(
        "scripts/install: a relative PREFIX is the caller's, --uninstall may come after it, and removes only what it wrote"
    )
    func installRelativeAndManifest() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("install-rel-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let installed = try run(
            ["sh", "-c", "cd \"$1\" && \"$0\" here", Self.installScript, directory], environment: Self.environment)
        #expect(installed.status == 0, "\(installed.error)")
        #expect(FileManager.default.fileExists(atPath: directory + "/here/bin/colourful-ball"))
        // A file changed since: kept, and said; the rest removed; the arguments in either order.
        let manual = directory + "/here/share/man/man1/colourful-ball.1"
        try "changed by hand".write(toFile: manual, atomically: true, encoding: .utf8)
        let removed = try run(["sh", "-c", "cd \"$1\" && \"$0\" here --uninstall", Self.installScript, directory])
        #expect(removed.status == 1)
        #expect(removed.error.contains("kept \(directory)/here/share/man/man1/colourful-ball.1"))
        #expect(FileManager.default.fileExists(atPath: manual))
        #expect(!FileManager.default.fileExists(atPath: directory + "/here/bin/colourful-ball"))
        // Under a prefix it never installed into, it removes nothing.
        let foreign = directory + "/other/bin/colourful-ball"
        try FileManager.default.createDirectory(atPath: directory + "/other/bin", withIntermediateDirectories: true)
        try "someone else's".write(toFile: foreign, atomically: true, encoding: .utf8)
        let nothing = try run([Self.installScript, "--uninstall", directory + "/other"])
        #expect(nothing.status == 1 && nothing.error.contains("nothing to uninstall"))
        #expect(FileManager.default.fileExists(atPath: foreign))
    }

    @Test(
        "scripts/install: a full disk fails and says so, a link at a file's place is replaced not followed, no HOME is said"
    )
    func installFaults() throws {
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("install-faults-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        let completions = prefix + "/share/bash-completion/completions"
        try FileManager.default.createDirectory(atPath: completions, withIntermediateDirectories: true)
        // The completion is written into /dev/full, as into a full disk.
        try FileManager.default.createSymbolicLink(
            atPath: completions + "/colourful-ball.new", withDestinationPath: "/dev/full")
        let full = try run([Self.installScript, prefix], environment: Self.environment)
        #expect(full.status != 0)
        #expect(full.error.contains("could not write \(completions)/colourful-ball"), "\(full.error)")
        #expect(!full.output.contains("installed \(completions)/colourful-ball\n"))
        // A link sitting at the place: replaced by the file, its target untouched.
        try? FileManager.default.removeItem(atPath: completions + "/colourful-ball.new")
        let elsewhere = prefix + "/elsewhere"
        try "not a completion".write(toFile: elsewhere, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: completions + "/colourful-ball", withDestinationPath: elsewhere)
        #expect(try run([Self.installScript, prefix], environment: Self.environment).status == 0)
        #expect(try String(contentsOfFile: elsewhere, encoding: .utf8) == "not a completion")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: completions + "/colourful-ball")) == nil)
        // No HOME and no PREFIX: one sentence.
        var environment = Self.environment
        environment["HOME"] = nil
        let noHome = try run([Self.installScript], environment: environment)
        #expect(noHome.status == 1)
        #expect(noHome.error.hasPrefix("scripts/install: HOME is not set"), "\(noHome.error)")
    }
}

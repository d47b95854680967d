import ArgumentParser
import BallReplay
import Platform
import TerminalIO
import TextFormats

/// The `colourful-ball` command: the interactive ball by default, and its headless tools.
package struct ColourfulBall: ParsableCommand {
    /// The program's version, written into replay files and shown by `--version`: the one place
    /// it is written (`scripts/package` names the .deb after it, and refuses a git tag that says
    /// otherwise).
    package static let version = "0.1.0"

    /// What `--version` says after the version: the licence, in one line, and where its whole
    /// text is for this copy of the program (``licenceFile(executable:)``).
    package static var licence: String {
        "MIT licence: free to use, copy, change and share, with no warranty (the whole text: \(licenceFile() ?? "LICENSE, in colourful-ball's source"))."
    }

    /// Where the licence's whole text is for the program at `executable` (this one, by default),
    /// as it was installed: the Debian package's copyright file or the LICENSE scripts/install
    /// puts under the same prefix (`PREFIX/share/doc/colourful-ball`), or, for a build in a
    /// clone, the repository's LICENSE; nil when none of them is there.
    package static func licenceFile(executable: String? = nil) -> String? {
        guard let program = executable ?? resolvedPath("/proc/self/exe"), let slash = program.lastIndex(of: "/")
        else { return nil }
        var folder = String(program[..<slash])
        for name in ["copyright", "LICENSE"] {
            let installed = folder + "/../share/doc/colourful-ball/" + name
            if isFile(installed) { return resolvedPath(installed) ?? installed }
        }
        // A build in a clone (.build-static/…/release/colourful-ball): the repository above it.
        while let up = folder.lastIndex(of: "/") {
            if isFile(folder + "/Package.swift"), isFile(folder + "/LICENSE") { return folder + "/LICENSE" }
            folder = String(folder[..<up])
        }
        return nil
    }

    /// `path` with its links and `..` resolved; nil when it is not there.
    private static func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether `path` is a regular file (through links).
    private static func isFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    /// The command's name, help and subcommands.
    package static let configuration = CommandConfiguration(
        commandName: "colourful-ball",
        abstract: "Drag a ball around the terminal; its colour follows its position, the screen takes the complement.",
        discussion: """
            The ball's colour is ChameleonFramework's flat colour for its position, as in the \
            RxSwift "colourful ball" demo; `colourful-ball colour` answers the same questions \
            without a terminal.

            colourful-ball is free software under the MIT licence.

            Exit status:
            \(ExitStatus.helpText)
            """,
        version: "\(version)\n\(licence)",
        subcommands: [
            PlayCommand.self, ReplayCommand.self, LearnCommand.self, ColourCommand.self, DoctorCommand.self,
            OperatorsCommand.self,
        ],
        defaultSubcommand: PlayCommand.self
    )

    /// An empty command, as ArgumentParser requires.
    package init() {}

    /// Parses the arguments and runs the command; a failure for the user is one sentence on
    /// stderr (`colourful-ball: ...`) and the error's exit status. Whatever a message echoes of
    /// the arguments shows its control characters as escapes (``Swift/String/visibleInMessage``).
    package static func main() {
        DescriptorOutput.occupyClosedStandardStreams()
        // A write to a pipe whose reader went away (a recording into a FIFO, `| head`) fails
        // with EPIPE and is reported; the signal would end the program with the terminal in
        // its modes.
        signal(SIGPIPE, SIG_IGN)
        do {
            if CommandLine.arguments.count == 1 {
                // A plain `colourful-ball` plays with the defaults, without the parse: it would
                // look up most of the runtime's types before the first frame (issue 37).
                try Play().run()
            } else {
                var command = try parseAsRoot()
                try command.run()
            }
        } catch let error as CommandError {
            DescriptorOutput.standardError.write("colourful-ball: \(error.description.visibleInMessage)\n")
            Self.exit(withError: ExitCode(error.code.rawValue))
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                // --help, --version, a completion script: the program's own text, and like every
                // other output, a failure to write it (a full disk, /dev/full) is said and fails.
                var message = message
                let arguments = CommandLine.arguments
                if let at = arguments.firstIndex(where: { $0.hasPrefix("--generate-completion-script") }) {
                    let shell =
                        arguments[at].contains("=")
                        ? String(arguments[at].split(separator: "=", maxSplits: 1)[1])
                        : at + 1 < arguments.count ? arguments[at + 1] : ""
                    message = CompletionScript.withDefaultOptionsAtRoot(message, shell: shell)
                }
                do {
                    try DescriptorOutput.standardOutput.writeAll(Array((message + "\n").utf8))
                } catch {
                    DescriptorOutput.standardError.write(
                        "colourful-ball: \(String(describing: error).visibleInMessage)\n")
                    Self.exit(withError: ExitCode(ExitStatus.ioError.rawValue))
                }
            } else if !message.isEmpty {
                // ArgumentParser's messages quote the arguments as given: show them safely, lines kept.
                let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
                DescriptorOutput.standardError.write(
                    lines.map { String($0).visibleInMessage }.joined(separator: "\n") + "\n")
            }
            Self.exit(withError: ExitCode(code.rawValue))
        }
    }
}

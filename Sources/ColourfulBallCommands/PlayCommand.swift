import ArgumentParser
import BallTerminal

/// `colourful-ball` (or `colourful-ball play`): the interactive ball.
struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Drag the ball with the mouse or move it with the keys (the default).",
        discussion: """
            Keys: arrows or h/j/k/l move 1 cell; Shift+arrows or H/J/K/L move 5; c or Home \
            re-centres; q, Esc or Ctrl-C quit. Drag the ball (or click anywhere) with the mouse.
            """
    )

    func run() throws {
        do {
            try InteractiveProgram().run()
        } catch let error as TerminalError {
            throw CleanExit.message(error.description, code: 2)
        }
    }
}

extension CleanExit {
    /// Ends the program with `message` on stderr and exit status `code`.
    static func message(_ message: String, code: Int32) -> ExitCode {
        FileOutput.standardError.write("colourful-ball: \(message)\n")
        return ExitCode(code)
    }
}

import Foundation
import Testing

/// `colourful-ball learn` in a real terminal: a lesson done with real keys is kept in
/// `$XDG_STATE_HOME`, `--list` says so, the next run starts after it, `--reset` forgets.
@Suite("learn, end to end", .serialized)
struct LearnEndToEndTests {
    @Test(
        "a lesson done in tmux is kept; --list shows it; learn starts after it; --reset forgets; bad numbers are refused"
    )
    func progress() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("learn-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: state) }
        let environment = ["XDG_STATE_HOME": state]
        var processEnvironment = ProcessInfo.processInfo.environment
        processEnvironment["XDG_STATE_HOME"] = state
        // Lesson 2 (the streams), done with s.
        let terminal = try TerminalSession(arguments: ["learn", "2"], environment: environment)
        try terminal.waitForScreen { $0.contains("Lesson 2 of 8 · The streams") }
        try terminal.press("s")
        try terminal.waitForScreen { $0.contains("Done: intents, position, ballColour and background") }
        try terminal.press("n")
        try terminal.waitForScreen { $0.contains("Lesson 3 of 8 · A ghost") }
        try terminal.press("q")
        let exit = try terminal.waitForExit()
        #expect(exit.status == 0 && exit.modesRestored)
        let file = try String(contentsOfFile: state + "/colourful-ball/learn.json", encoding: .utf8)
        #expect(file == "{\"done\":[2]}\n")
        let listed = try run([programPath, "learn", "--list"], environment: processEnvironment)
        #expect(listed.output.contains("1. One subject\n2. The streams  (done)\n3. A ghost\n"), "\(listed.output)")
        // The next run starts at the first lesson not done: 1.
        let again = try TerminalSession(arguments: ["learn"], environment: environment)
        try again.waitForScreen { $0.contains("Lesson 1 of 8 · One subject") }
        try again.press("q")
        #expect(try again.waitForExit().status == 0)
        let reset = try run([programPath, "learn", "--reset"], environment: processEnvironment)
        #expect(reset.status == 0 && !FileManager.default.fileExists(atPath: state + "/colourful-ball/learn.json"))
        for (arguments, message) in [
            (["learn", "9"], "There are lessons 1 to 8; got 9."),
            (["learn", "--list", "--reset"], "Give --list or --reset, not both."),
        ] {
            let refused = try run([programPath] + arguments)
            #expect(refused.status == 64 && refused.error.contains(message), "\(refused.error)")
        }
    }
}

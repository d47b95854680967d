import BallModel
import BallPlayer
import BallRendering
import BallReplay
import TerminalIO

// MARK: - A headless pilot for the replay player

/// Drives the time-travel player without a terminal, as a user would: keys and mouse go
/// through the key map's replay mode to the player, and the binding is flushed after each,
/// as the run loop does.
package final class PlayerPilot {
    /// The player.
    package let player: TimeTravelPlayer
    /// The screen it draws on.
    package let screen: HeadlessScreen
    /// The terminal's size.
    package let terminal: ScreenSize

    /// A pilot of the recording in `bytes`, read whole, in a terminal of `terminal` (default:
    /// the recording's largest size and `spareRows` below it), paused at the start.
    package init(
        _ bytes: [UInt8], terminal: ScreenSize? = nil, spareRows: Int = 1, paused: Bool = true, readAll: Bool = true
    ) throws {
        let index = try ReplayIndex(reader: .inMemory(bytes, chunk: 4_096))
        if readAll { try index.readAll() }
        let size =
            terminal
            ?? ScreenSize(columns: index.largestTerminal.columns, rows: index.largestTerminal.rows + spareRows)
        screen = HeadlessScreen()
        self.terminal = size
        player = TimeTravelPlayer(
            index: index, screen: screen, terminal: size, timing: ReplayTiming(), paused: paused)
        player.binding.flush()
    }

    /// What `event` does in a replay, done (nothing for what the run loop does itself).
    package func press(_ event: TerminalEvent) {
        switch KeyMap.action(for: event, in: .replay) {
        case .hover(let cell)?: player.binding.hover(at: cell)  // The run loop's, as in the terminal.
        case let action?: player.perform(action)
        case nil: break
        }
        player.binding.flush()
    }

    /// Presses `key` (a character).
    package func press(_ key: Unicode.Scalar) { press(.character(key)) }

    /// The frame on screen.
    package var frame: Frame { screen.frame! }

    /// The frame's rows as text.
    package var lines: [String] { frame.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
}

// MARK: - Random recordings

/// Random recordings for property tests: presses, drags and releases, arrows, recentring,
/// resizes and a final quit, with cells always inside the terminal of the moment.
package enum RandomRecording {
    /// A recording of `count` intents made with `generator`, as a replay file's bytes.
    package static func bytes(count: Int, using generator: inout SeededGenerator) -> [UInt8] {
        var size = ScreenSize(columns: 40 + generator.below(60), rows: 12 + generator.below(20))
        var lines = [ReplayFormat.headerLine(terminal: size, program: "test", started: "2026-11-23T00:00:00Z")]
        var time = 0.0
        for step in 0..<count {
            time += Double(generator.below(200)) / 1000
            let cell = Cell(column: generator.below(size.columns), row: generator.below(size.rows))
            let intent: Intent
            switch generator.below(20) {
            case 0...2: intent = .pressed(at: cell)
            case 3...10: intent = .dragged(to: cell)
            case 11...12: intent = .released(at: cell)
            case 13...16:
                intent = .arrowPressed(Direction.allCases[generator.below(4)], distance: 1 + generator.below(5))
            case 17: intent = .recentred
            default:
                size = ScreenSize(columns: 30 + generator.below(70), rows: 10 + generator.below(25))
                intent = .resized(size)
            }
            lines.append(ReplayFormat.line(for: step == count - 1 ? .quitRequested : intent, at: time))
        }
        return Array(lines.map { $0 + "\n" }.joined().utf8)
    }
}

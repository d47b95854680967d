import BallReplay
import ColourCore
import Platform
import TerminalIO
import TextFormats

// MARK: - A failure for the user

/// A failure for the user: one sentence, and an exit status (``ExitStatus/failure`` unless said
/// otherwise).
package struct CommandError: Error, CustomStringConvertible {
    package let description: String
    let code: ExitStatus
    init(_ description: String, code: ExitStatus = .failure) {
        self.description = description
        self.code = code
    }
}

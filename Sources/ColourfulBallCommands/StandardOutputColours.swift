import BallReplay
import ColourCore
import Platform
import TerminalIO
import TextFormats

// MARK: - The colours of standard output

extension ColourDepth {
    /// How the terminal on standard output shows colours, from the environment alone (no
    /// terminfo: see ``ColourDepth/init(noColour:colourTerm:term:terminfoColours:terminfoRGB:)``).
    static func forStandardOutput() -> ColourDepth {
        return ColourDepth(
            noColour: environmentValue("NO_COLOR"), colourTerm: environmentValue("COLORTERM"),
            term: environmentValue("TERM") ?? "",
            terminfoColours: nil, terminfoRGB: false)
    }
}

/// Every status the program exits with, in one table: `--help`, the man page's EXIT STATUS and
/// the README are made from it (and tests hold them to it). Where sysexits(3) has a code for the
/// case, it is that code.
package enum ExitStatus: Int32, CaseIterable, Sendable {
    /// All went as asked.
    case success = 0
    /// Something went wrong that the message names; `doctor`: something needs a look.
    case failure = 1
    /// No terminal to play in: standard input or output redirected, an unknown `TERM`, a
    /// window too small for a recording.
    case noTerminal = 2
    /// EX_USAGE: the command line is wrong (an unknown option, a bad number, a clash).
    case usage = 64
    /// EX_DATAERR: an input is not what it must be (a broken replay file, a recording too long
    /// for one SVG picture).
    case dataError = 65
    /// EX_NOINPUT: an input file is not there or cannot be opened.
    case noInput = 66
    /// EX_IOERR: an output cannot be written (a full disk, a closed standard output).
    case ioError = 74

    /// What the status means, in a few words, as `--help` and the docs say it.
    package var meaning: String {
        switch self {
        case .success: "all went as asked (doctor: every check is ok)"
        case .failure: "a failure the message names (doctor: something needs a look)"
        case .noTerminal: "no terminal to play in (redirected, an unknown TERM, too small a window)"
        case .usage: "a wrong command line (sysexits EX_USAGE)"
        case .dataError: "a broken input: an unreadable replay file, too long a picture (EX_DATAERR)"
        case .noInput: "an input file that is not there or cannot be opened (EX_NOINPUT)"
        case .ioError: "an output that cannot be written: a full disk, a closed output (EX_IOERR)"
        }
    }

    /// The table as `--help` shows it: one status a line.
    package static var helpText: String {
        allCases.map { "\($0.rawValue)\(String(repeating: " ", count: 4 - String($0.rawValue).count))\($0.meaning)" }
            .joined(separator: "\n")
    }

    /// The table in Markdown (`| status | means |`), as the README shows it.
    package static var markdownTable: String {
        (["| status | means |", "|---|---|"] + allCases.map { "| \($0.rawValue) | \($0.meaning) |" })
            .joined(separator: "\n")
    }
}

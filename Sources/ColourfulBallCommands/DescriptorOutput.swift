import BallReplay
import ColourCore
import Platform
import TerminalIO
import TextFormats

// MARK: - Writing to a file descriptor, with plain system calls

/// Unbuffered writes to a file descriptor: each call reaches the operating system at once, and
/// a failed write is an error that names what could not be written.
final class DescriptorOutput: LineWriter, Sendable {
    let fd: Int32
    /// What the output is, for messages: a file's name, or `standard output`.
    let name: String
    static let standardError = DescriptorOutput(fd: STDERR_FILENO, name: "standard error")
    static let standardOutput = DescriptorOutput(fd: STDOUT_FILENO, name: "standard output")

    init(fd: Int32, name: String) {
        self.fd = fd
        self.name = name
    }

    /// When standard output is a terminal: its width, and the sequences that paint on it
    /// (24-bit where `COLORTERM` or `TERM` says so, else 256 colours where `TERM` says so, else
    /// the 16 ANSI colours; none with `NO_COLOR` set or a `dumb` terminal). Otherwise nil, nil:
    /// plain text for a file or a pipe.
    static func standardOutputLooks() -> (columns: Int?, sequences: TerminalSequences?) {
        guard isatty(STDOUT_FILENO) == 1 else { return (nil, nil) }
        var size = winsize()
        let columns = ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : nil
        switch ColourDepth.forStandardOutput() {
        case .monochrome: return (columns, nil)
        case .direct: return (columns, .xtermDirectColour())
        case .palette(let palette): return (columns, .xterm(palette: palette == .xterm256 ? .xterm256 : .ansi16))
        }
    }

    /// The standard streams the program was started without (`>&-`): each gets /dev/null, so no
    /// file opened later takes its number, and writing to it fails as "closed".
    nonisolated(unsafe) private static var closedStreams: Set<Int32> = []

    /// Fills each closed standard stream with /dev/null (call first thing).
    static func occupyClosedStandardStreams() {
        for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(fd, F_GETFD) < 0 {
            let null = open("/dev/null", O_RDWR)
            if null >= 0, null != fd {
                dup2(null, fd)
                closeDescriptor(null)
            }
            closedStreams.insert(fd)
        }
    }

    func write(_ text: String) {
        try? writeAll(Array(text.utf8))
    }

    func writeLine(_ line: String) throws {
        try writeAll(Array((line + "\n").utf8))
    }

    func writeAll(_ bytes: [UInt8]) throws {
        guard !Self.closedStreams.contains(fd) else {
            throw CommandError(
                "Cannot write \(name): it is closed (the program was started with it closed).", code: .ioError)
        }
        guard TerminalIO.writeAll(bytes, to: fd) else {
            throw CommandError(
                "Cannot write \(name.visibleInMessage): \(String(cString: strerror(errno))).", code: .ioError)
        }
    }

    func close() {
        if fd > STDERR_FILENO {
            _ = closeDescriptor(fd)
        }
    }
}

/// Collects output lines and writes them in large blocks (headless replay prints many).
final class BufferedOutput {
    private let output: DescriptorOutput
    private var buffer: [UInt8] = []

    init(_ output: DescriptorOutput) {
        self.output = output
        buffer.reserveCapacity(1 << 16)
    }

    func line(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// A line of `bytes` as they are, and a newline.
    func line(_ bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// `bytes` as they are (no newline).
    func bytes(_ bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { try flush() }
    }

    func flush() throws {
        guard !buffer.isEmpty else { return }
        try output.writeAll(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Runs `produce`, writing every line it emits, then flushes; the first write error is
    /// thrown once `produce` is done (it cannot throw from inside `emit`).
    /// What was emitted before `produce` fails (a bad line late in a replay) is written all the
    /// same, before the error is thrown.
    func lines(_ produce: (_ emit: (String) -> Void) throws -> Void) throws {
        var failure: Error?
        do {
            try produce { line in
                guard failure == nil else { return }
                do { try self.line(line) } catch { failure = error }
            }
        } catch {
            if failure == nil { try flush() }
            throw failure ?? error
        }
        try flush()
        if let failure { throw failure }
    }

    /// Runs `produce`, writing the bytes it writes, then flushes; what it wrote before it fails
    /// (a bad line late in a replay, lanes no syntax can hold) is written all the same, before
    /// its error is thrown. A write error is thrown at once.
    func bytes(_ produce: (_ write: ([UInt8]) throws -> Void) throws -> Void) throws {
        do {
            try produce(bytes)
        } catch {
            if !(error is CommandError) { try flush() }
            throw error
        }
        try flush()
    }
}

import BallReplay
import Platform
import TerminalIO
import TextFormats

// MARK: - Output files that never lose what was there

/// A file the program writes (a recording, a cast), that never costs the user the file it
/// replaces: the output goes to a hidden temporary file beside the target, which takes the
/// target's place only when it is worth keeping (``commit()``: a recording at its first event,
/// a cast when it is complete); if the program fails first, the temporary file goes and the
/// target is as it was.
///
/// While it is written, the file is locked (`flock`), and it keeps the lock once in place, so a
/// second program writing the same target refuses in one sentence instead of interleaving lines
/// (the move itself happens under a short lock on the directory, so two writers that start
/// together cannot both take the place). A target that is not a regular file (a FIFO, a
/// device) is written directly.
final class OutputFile: LineWriter {
    /// The target, as the user named it.
    let path: String
    private let output: FileOutput
    /// The temporary file, until it takes the target's place (nil when writing directly).
    private var temporary: String?
    private let overwrite: Bool
    private var linesWritten = 0
    /// Commit after this many lines (a recording: its header and first event); nil: only when told.
    private let commitAfterLines: Int?

    /// Starts writing `path`: refuses an existing file unless `overwrite`, and a file another
    /// program is writing. `commitAfterLines`: take the target's place once that many lines
    /// are written.
    init(path: String, overwrite: Bool, commitAfterLines: Int? = nil) throws {
        self.path = path
        self.overwrite = overwrite
        self.commitAfterLines = commitAfterLines
        let shown = path.visibleInMessage
        var status = stat()
        let exists = stat(path, &status) == 0
        if exists, status.st_mode & S_IFMT == S_IFDIR {
            throw CommandError("\(shown) is a directory: name a file to write.")
        }
        if exists, status.st_mode & S_IFMT != S_IFREG {
            // A FIFO or a device: written as it is, nothing to replace.
            let fd = open(path, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw CommandError("Cannot write \(shown): \(Self.reason()).") }
            output = FileOutput(fd: fd, name: path)
            return
        }
        if exists, !overwrite {
            throw CommandError("\(shown) already exists: choose another name, or add --force to overwrite it.")
        }
        if exists, Self.isLocked(path) {
            throw CommandError(
                "\(shown) is being written by another colourful-ball: wait for it to finish, or choose another name.")
        }
        let (directory, name) = Self.split(path)
        var template = Array("\(directory)/.\(name).colourful-ball-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { throw CommandError("Cannot write \(shown): \(Self.reason()).") }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fchmod(fd, 0o644)
        _ = flock(fd, LOCK_EX | LOCK_NB)
        temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        output = FileOutput(fd: fd, name: path)
    }

    /// Writes `line` and a newline; takes the target's place when the lines say so.
    func writeLine(_ line: String) throws {
        try output.writeLine(line)
        linesWritten += 1
        if let commitAfterLines, linesWritten >= commitAfterLines { try commit() }
    }

    /// The writer the buffered outputs use.
    var fileOutput: FileOutput { output }

    /// Puts the file in the target's place (once; nothing to do when writing directly).
    func commit() throws {
        guard let temporary else { return }
        let (directory, _) = Self.split(path)
        let directoryFD = open(directory, O_RDONLY | O_CLOEXEC)
        if directoryFD >= 0 { _ = flock(directoryFD, LOCK_EX) }
        defer { if directoryFD >= 0 { closeDescriptor(directoryFD) } }
        if Self.isLocked(path) {
            throw CommandError(
                "\(path.visibleInMessage) is being written by another colourful-ball, which started at the same time: this output was not kept."
            )
        }
        if overwrite {
            guard rename(temporary, path) == 0 else {
                throw CommandError("Cannot write \(path.visibleInMessage): \(Self.reason()).")
            }
        } else {
            // Never over a file that appeared meanwhile: link fails if the name is taken.
            guard link(temporary, path) == 0 else {
                throw CommandError(
                    errno == EEXIST
                        ? "\(path.visibleInMessage) appeared while this output was written: choose another name, or add --force."
                        : "Cannot write \(path.visibleInMessage): \(Self.reason()).")
            }
            unlink(temporary)
        }
        self.temporary = nil
    }

    /// Closes the file; an output that never took the target's place is removed.
    func close() {
        if let temporary { unlink(temporary) }
        temporary = nil
        output.close()
    }

    deinit { close() }

    // MARK: - Helpers

    private static func reason() -> String { String(cString: strerror(errno)) }

    /// The directory (`.` when none is given) and the file's own name.
    private static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }

    /// Whether another program holds the lock on the file at `path`.
    private static func isLocked(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return false }
        defer { closeDescriptor(fd) }
        return flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK
    }
}

import BallReplay
import BallTerminal
import Platform
import TerminalIO
import TextFormats

// MARK: - Output files that never lose what was there

/// A file the program writes (a recording, a cast, an edited log), that never costs the user
/// the file it replaces: the output goes to a hidden temporary file beside the target, which
/// takes the target's place only when it is worth keeping (``commit()``: a recording at its
/// first event, a cast when it is complete); if the program fails first, or a signal ends it,
/// the temporary file goes and the target is as it was.
///
/// While it is written, the file is locked (`flock`), and it keeps the lock once in place, so a
/// second program writing the same target refuses in one sentence instead of interleaving lines
/// (the move itself happens under a short lock on the directory, so two writers that start
/// together cannot both take the place; a lock held there by anything else is waited for only
/// briefly, then said). A target that is not a regular file (a FIFO, a device) is written
/// directly. A new file's mode is the umask's; a replaced file keeps its own. A symbolic link
/// is written through: its target is the file.
final class OutputFile: LineWriter {
    /// The target, as the user named it.
    let name: FileName
    /// The file written: the target, or what its symbolic link points at.
    private let target: FileName
    private let output: DescriptorOutput
    /// The temporary file, until it takes the target's place (nil when writing directly).
    private var temporary: FileName?
    /// Where the temporary file is remembered for the signal handlers.
    private var remembered: Int?
    private let overwrite: Bool
    private var linesWritten = 0
    /// Commit after this many lines (a recording: its header and first event); nil: only when told.
    private let commitAfterLines: Int?

    /// How long the move into place waits for a lock another program holds on the directory.
    static let directoryLockPatience = Duration.milliseconds(300)

    /// Starts writing `name`: refuses an empty name, a dangling symbolic link, a directory, a FIFO
    /// nobody reads, an existing file unless `overwrite`, and a file another program is writing.
    /// `commitAfterLines`: take the target's place once that many lines are written.
    init(name: FileName, overwrite: Bool, commitAfterLines: Int? = nil) throws {
        self.name = name
        self.overwrite = overwrite
        self.commitAfterLines = commitAfterLines
        let shown = name.shown
        guard !name.bytes.isEmpty else {
            throw CommandError("An empty name is not a file: give the output a name.")
        }
        target = try Self.resolvingLink(name)
        var status = stat()
        let exists = target.withCString { stat($0, &status) } == 0
        if exists, status.st_mode & S_IFMT == S_IFDIR {
            throw CommandError("\(shown) is a directory: name a file to write.")
        }
        if exists, status.st_mode & S_IFMT != S_IFREG {
            output = try Self.openDirectly(target, shown: shown, isFIFO: status.st_mode & S_IFMT == S_IFIFO)
            return
        }
        if exists, !overwrite {
            throw CommandError("\(shown) already exists: choose another name, or add --force to overwrite it.")
        }
        if exists, Self.isLocked(target) {
            throw CommandError(
                "\(shown) is being written by another colourful-ball: wait for it to finish, or choose another name.")
        }
        // A new file as the umask says; a replaced file keeps its mode.
        let mode = exists ? mode_t(status.st_mode & 0o7777) : Self.newFileMode()
        let (directory, last) = target.parts
        // Hidden, beside the target, and short whatever the target's name (a name near the
        // 255-byte limit stays writable).
        var template =
            directory.bytes + Array("/.".utf8) + Array(last.prefix(40)) + Array(".colourful-ball-XXXXXX".utf8)
        // Closed on exec from the start: a program another thread starts meanwhile must not
        // inherit it (and with it the lock below, for as long as that program runs).
        let fd = makeTemporaryFile(&template)
        guard fd >= 0 else { throw CommandError("Cannot write \(shown): \(Self.reason()).") }
        remembered = TemporaryFiles.remember(template)
        TemporaryFiles.removeOnSignals()
        _ = fchmod(fd, mode)
        _ = flock(fd, LOCK_EX | LOCK_NB)
        temporary = FileName(bytes: template)
        output = DescriptorOutput(fd: fd, name: shown)
    }

    /// Writes `line` and a newline; takes the target's place when the lines say so.
    func writeLine(_ line: String) throws {
        try output.writeLine(line)
        linesWritten += 1
        if let commitAfterLines, linesWritten >= commitAfterLines { try commit() }
    }

    /// The writer the buffered outputs use.
    var fileOutput: DescriptorOutput { output }

    /// Puts the file in the target's place (once; nothing to do when writing directly).
    func commit() throws {
        guard let temporary else { return }
        let (directory, _) = target.parts
        let directoryFD = directory.withCString { open($0, O_RDONLY | O_CLOEXEC) }
        defer { if directoryFD >= 0 { closeDescriptor(directoryFD) } }
        if directoryFD >= 0, !Self.lock(directoryFD) {
            throw CommandError(
                "\(name.shown) cannot take its place: \(Self.holder(of: directory) ?? "another program") holds a lock on its directory \(directory.shown), so this output was not kept."
            )
        }
        if Self.isLocked(target) {
            throw CommandError(
                "\(name.shown) is being written by another colourful-ball, which started at the same time: this output was not kept."
            )
        }
        let moved = temporary.withCString { from in
            target.withCString { to in
                // Never over a file that appeared meanwhile: link fails if the name is taken.
                overwrite ? rename(from, to) : link(from, to)
            }
        }
        guard moved == 0 else {
            throw CommandError(
                errno == EEXIST
                    ? "\(name.shown) appeared while this output was written: choose another name, or add --force."
                    : "Cannot write \(name.shown): \(Self.reason()).")
        }
        if !overwrite { _ = temporary.withCString { unlink($0) } }
        self.temporary = nil
        if let remembered { TemporaryFiles.forget(remembered) }
        remembered = nil
    }

    /// Closes the file; an output that never took the target's place is removed.
    func close() {
        if let temporary { _ = temporary.withCString { unlink($0) } }
        temporary = nil
        if let remembered { TemporaryFiles.forget(remembered) }
        remembered = nil
        output.close()
    }

    deinit { close() }

    // MARK: - Helpers

    private static func reason() -> String { String(cString: strerror(errno)) }

    /// The file `name` stands for: itself, or the target of its symbolic link (a dangling link
    /// is refused before anything is written).
    private static func resolvingLink(_ name: FileName) throws -> FileName {
        var status = stat()
        guard name.withCString({ lstat($0, &status) }) == 0, status.st_mode & S_IFMT == S_IFLNK else { return name }
        var target = [CChar](repeating: 0, count: 4_097)
        let length = name.withCString { readlink($0, &target, 4_096) }
        let pointed = FileName(bytes: target.prefix(max(0, length)).map { UInt8(bitPattern: $0) })
        guard name.withCString({ stat($0, &status) }) == 0 else {
            throw CommandError(
                "\(name.shown) is a symbolic link to \(pointed.shown), which does not exist: name the file itself, or remove the link."
            )
        }
        guard let resolved = name.withCString({ realpath($0, nil) }) else { return name }
        defer { free(resolved) }
        return FileName(
            bytes: Array(UnsafeBufferPointer(start: resolved, count: strlen(resolved))).map { UInt8(bitPattern: $0) })
    }

    /// A FIFO or a device, opened to write to as it is; a FIFO that no program reads is refused
    /// at once instead of waiting for a reader.
    private static func openDirectly(_ target: FileName, shown: String, isFIFO: Bool) throws -> DescriptorOutput {
        let fd = target.withCString { open($0, O_WRONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else {
            if isFIFO, errno == ENXIO {
                throw CommandError(
                    "\(shown) is a FIFO that no program reads: start its reader first (such as `cat \(shown) &`), then write to it."
                )
            }
            throw CommandError("Cannot write \(shown): \(reason()).")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return DescriptorOutput(fd: fd, name: shown)
    }

    /// The mode of a new file: read and write for all, less the umask.
    private static func newFileMode() -> mode_t {
        let mask = umask(0)
        umask(mask)
        return 0o666 & ~mask
    }

    /// Takes an exclusive lock on `fd`, trying again for ``directoryLockPatience``; false if
    /// another program kept it.
    private static func lock(_ fd: Int32) -> Bool {
        let clock = ContinuousClock()
        let start = clock.now
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, start.duration(to: clock.now) < directoryLockPatience else {
                return false
            }
            usleep(10_000)
        }
        return true
    }

    /// Whether another program holds the lock on the file `name`.
    private static func isLocked(_ name: FileName) -> Bool {
        let fd = name.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else { return false }
        defer { closeDescriptor(fd) }
        return flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK
    }

    /// Who holds a lock on `name`, from the kernel's list of locks: `process 1234 (flock)`.
    private static func holder(of name: FileName) -> String? {
        var status = stat()
        guard name.withCString({ stat($0, &status) }) == 0,
            let locks = try? FileInput(name: FileName(bytes: Array("/proc/locks".utf8))).readAll()
        else { return nil }
        for line in String(decoding: locks, as: UTF8.self).split(separator: "\n") {
            // `1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF`: the pid, then device:inode.
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, let pid = Int32(fields[4]),
                fields[5].split(separator: ":").last.flatMap({ UInt64($0) }) == UInt64(status.st_ino)
            else { continue }
            let command = (try? FileInput(name: FileName(bytes: Array("/proc/\(pid)/comm".utf8))).readAll())
                .map { String(decoding: $0, as: UTF8.self).trimmingNewline.visibleInMessage }
            return "process \(pid)" + (command.map { " (\($0))" } ?? "")
        }
        return nil
    }
}

extension String {
    /// The text without a newline at its end.
    fileprivate var trimmingNewline: String { hasSuffix("\n") ? String(dropLast()) : self }
}

import BallReplay
import ColourCore
import Platform
import TerminalIO
import TextFormats

// MARK: - Replay files in

/// Reads a replay file a chunk at a time: a regular file, a pipe or FIFO, or standard input
/// (`-`). A file that cannot be opened is ``ExitStatus/noInput``; every later failure to read is a
/// replay error (``ExitStatus/dataError``, as docs/replay-format.md says).
final class FileInput {
    /// The file's name.
    let fileName: FileName
    /// Whether it is a regular file (a terminal replay needs one: it moves about in it).
    let isRegularFile: Bool
    /// The file being read, by device and inode (an output must never be it).
    let identity: FileIdentity?
    private let fd: Int32
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    /// The file's size in bytes when it is a regular file.
    private var size: Int?
    /// How many bytes have been read.
    private var bytesRead = 0

    /// Opens `name` (`-`: standard input) to read.
    init(name: FileName) throws {
        fileName = name
        if name.isDash {
            fd = dup(STDIN_FILENO)
        } else {
            // Without waiting for a writer: a FIFO nobody writes to is empty, not a hang.
            fd = name.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        }
        guard fd >= 0 else {
            throw CommandError("Cannot read \(name.shown): \(String(cString: strerror(errno))).", code: .noInput)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        var status = stat()
        let known = fstat(fd, &status) == 0
        if known, status.st_mode & S_IFMT == S_IFDIR {
            throw CommandError("\(name.shown) is a directory, not a replay file.", code: .noInput)
        }
        isRegularFile = known && status.st_mode & S_IFMT == S_IFREG
        identity = known ? FileIdentity(status) : nil
        if isRegularFile { size = Int(status.st_size) }
    }

    /// Every byte left to read.
    func readAll() throws -> [UInt8] {
        var bytes: [UInt8] = []
        while let chunk = try nextChunk() { bytes += chunk }
        return bytes
    }

    /// How much of a regular file has been read, from 0 to 1 (nil: not a regular file).
    var progress: Double? {
        guard let size else { return nil }
        return size == 0 ? 1 : min(1, Double(bytesRead) / Double(size))
    }

    /// The name messages give the input: the file's, or `standard input` for `-`.
    var name: String { fileName.isDash ? "standard input" : fileName.shown }

    deinit {
        _ = closeDescriptor(fd)
    }

    /// The next chunk, or nil at the end.
    func nextChunk() throws -> [UInt8]? {
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else {
                throw CommandError("Cannot read \(name): \(String(cString: strerror(errno))).", code: .dataError)
            }
            bytesRead += count
            return count == 0 ? nil : Array(buffer[0..<count])
        }
    }
}

import Platform
import TextFormats

// MARK: - Lanes kept aside

/// What went wrong exporting the lanes: the sentence, and the exit status (74 for a file
/// that cannot be written, 65 for lanes no syntax can hold).
package struct MarbleExportError: Error, CustomStringConvertible {
    package let description: String
    package var code: Int32 = 74
}

/// Bytes kept aside in a temporary file (unlinked as soon as it is made), written in large
/// blocks.
final class Spool {
    private let file: UnsafeMutablePointer<FILE>
    private var buffer: [UInt8] = []

    init() throws {
        // In TMPDIR (or /tmp), unlinked at once: nothing is left behind, whatever happens.
        let directory = environmentValue("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(directory)/colourful-ball-lanes-XXXXXX".utf8)
        let descriptor = makeTemporaryFile(&template)
        guard descriptor >= 0, let file = fdopen(descriptor, "w+") else {
            let reason = String(cString: strerror(errno))
            if descriptor >= 0 { _ = closeDescriptor(descriptor) }
            throw MarbleExportError(
                description:
                    "Cannot make a temporary file for the lanes in \(directory.visibleInMessage) (\(reason)): set TMPDIR to a directory you can write to."
            )
        }
        _ = unlink(String(decoding: template, as: UTF8.self))
        self.file = file
        buffer.reserveCapacity(1 << 16)
    }

    deinit { fclose(file) }

    /// `bytes`, appended.
    func append(_ bytes: [UInt8]) throws {
        buffer += bytes
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// What `body` appends to the spool's buffer (no array of its own to make).
    func append(_ body: (inout [UInt8]) -> Void) throws {
        body(&buffer)
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Writes the buffer to the file (stdio may keep its last part until ``copy(to:)``).
    private func flush() throws {
        let written = buffer.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        guard written == buffer.count else { throw Self.writeFailed() }
        buffer.removeAll(keepingCapacity: true)
    }

    /// The error of a write that failed, with `errno`'s reason.
    private static func writeFailed() -> MarbleExportError {
        MarbleExportError(
            description:
                "Cannot write the lanes to a temporary file (\(String(cString: strerror(errno)))): free some room, or set TMPDIR to a directory with room."
        )
    }

    /// Hands everything appended to `write`, a block at a time. Every byte is on the file
    /// before it is read back: stdio's last block is flushed and checked here (`rewind` would
    /// flush it too, and clear the error).
    func copy(to write: ([UInt8]) throws -> Void) throws {
        try flush()
        guard fflush(file) == 0, ferror(file) == 0 else { throw Self.writeFailed() }
        rewind(file)
        var block = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = block.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if count > 0 { try write(Array(block[..<count])) }
            if count < block.count {
                guard ferror(file) == 0 else {
                    throw MarbleExportError(
                        description:
                            "Cannot read the lanes back from their temporary file (\(String(cString: strerror(errno))))."
                    )
                }
                return
            }
        }
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Unbuffered writes to a file descriptor (stderr for messages).
struct FileOutput {
    let fd: Int32
    static let standardError = FileOutput(fd: STDERR_FILENO)

    func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                #if canImport(Glibc)
                    Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                #else
                    Darwin.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                #endif
            }
            if written <= 0 { return }
            offset += written
        }
    }
}

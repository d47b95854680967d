import Platform

/// Writes all of `bytes` to `fd`, going on after partial writes and interruptions; false when
/// the descriptor refuses (the error is in `errno`).
@discardableResult
package func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { buffer in write(fd, buffer.baseAddress! + offset, buffer.count - offset) }
        if written < 0, errno == EINTR { continue }
        guard written > 0 else { return false }
        offset += written
    }
    return true
}

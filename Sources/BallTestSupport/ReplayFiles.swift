import BallReplay

// MARK: - Replay files in memory

extension ReplayReader {
    /// A reader over `bytes` named `name`, handed over in chunks of `chunk` bytes (small
    /// chunks exercise lines split across reads).
    package static func inMemory(_ bytes: [UInt8], name: String = "session.jsonl", chunk: Int = 7) -> ReplayReader {
        var offset = 0
        return ReplayReader(file: name) {
            guard offset < bytes.count else { return nil }
            defer { offset += chunk }
            return Array(bytes[offset..<min(bytes.count, offset + chunk)])
        }
    }
}

import BallReplay
import Foundation

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

/// Lines written to memory, as a replay file would hold them.
package final class MemoryLines: LineWriter {
    /// The lines written, in order.
    package private(set) var lines: [String] = []
    /// Nothing written yet.
    package init() {}
    package func writeLine(_ line: String) throws { lines.append(line) }
    /// The lines as a file's bytes.
    package var bytes: [UInt8] { Array(lines.map { $0 + "\n" }.joined().utf8) }
}

/// The sample recording the suites share, `Tests/BallReplayTests/Replays/sample.jsonl`: a press
/// that moves nothing, seven drag steps, a release, two arrows left and one up, in 80×24.
package enum SampleRecording {
    /// Its path.
    package static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Tests/BallReplayTests/Replays/sample.jsonl").standardized.path
    /// Its bytes (none if it cannot be read: the tests that use it then fail).
    package static let bytes = Array((try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data())
}

import Foundation
import Testing

/// Compares `actual` with the golden file `Snapshots/<name>.txt` beside this file.
///
/// Run with `RECORD_SNAPSHOTS=1` to write the golden files anew; a recording run fails on
/// purpose, so nobody commits a recording by accident without looking at it.
func assertSnapshot(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")
    let file = directory.appendingPathComponent("\(name).txt")
    if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? actual.write(to: file, atomically: true, encoding: .utf8)
        Issue.record(
            "Recorded snapshot \(name).txt: check it, then run again without RECORD_SNAPSHOTS.",
            sourceLocation: sourceLocation)
        return
    }
    guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
        Issue.record(
            "No snapshot \(name).txt: run with RECORD_SNAPSHOTS=1 to record it.", sourceLocation: sourceLocation)
        return
    }
    #expect(actual == expected, "snapshot \(name).txt differs", sourceLocation: sourceLocation)
}

import Foundation

// MARK: - Golden snapshots

/// Compares `actual` with the golden file `Snapshots/<name>.txt` in the folder of `testFile`
/// (pass `#filePath`): nil when they are the same, otherwise a sentence saying what to do.
///
/// With `RECORD_SNAPSHOTS=1` in the environment it writes the golden file anew and returns a
/// sentence all the same, so a recording run fails on purpose and nobody commits a recording
/// without looking at it. Use it as `#expect(snapshotMismatch(text, named: "x", beside: #filePath) == nil)`.
package func snapshotMismatch(_ actual: String, named name: String, beside testFile: String) -> String? {
    let directory = URL(fileURLWithPath: testFile).deletingLastPathComponent().appendingPathComponent("Snapshots")
    let file = directory.appendingPathComponent("\(name).txt")
    if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? actual.write(to: file, atomically: true, encoding: .utf8)
        return "Recorded snapshot \(name).txt: check it, then run again without RECORD_SNAPSHOTS."
    }
    guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
        return "No snapshot \(name).txt: run with RECORD_SNAPSHOTS=1 to record it."
    }
    guard actual != expected else { return nil }
    let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
    let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let line =
        zip(actualLines, expectedLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        ?? min(actualLines.count, expectedLines.count)
    return
        "snapshot \(name).txt differs from line \(line + 1): expected \(expectedLines.dropFirst(line).first ?? "(end)"), got \(actualLines.dropFirst(line).first ?? "(end)")"
}

import BallModel
import BallReplay
import BallTestSupport
import ColourfulBallCommands
import Foundation
import Testing

/// The edited log's names: never over a file, and when every name is taken, the names tried.
@Suite("The edited log's file")
struct EditedLogTests {
    @Test("when all 1,000 names are taken, the message names the first and the last it tried")
    func everyNameTaken() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("edited-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let recording = directory.appendingPathComponent("s.jsonl").path
        let header = ReplayFormat.headerLine(terminal: ScreenSize(columns: 80, rows: 24), program: "t", started: "s")
        try (header + "\n" + ReplayFormat.line(for: .recentred, at: 0.5) + "\n").write(
            toFile: recording, atomically: true, encoding: .utf8)
        let taken = ["s.edited.jsonl"] + (2...1_000).map { "s.edited-\($0).jsonl" }
        for name in taken {
            _ = FileManager.default.createFile(atPath: directory.appendingPathComponent(name).path, contents: nil)
        }
        let index = try ReplayIndex(reader: .inMemory(Array(try Data(contentsOf: URL(fileURLWithPath: recording)))))
        try index.readAll()
        do {
            _ = try EditedLog.write(index, copying: recording)
            Issue.record("a name was found")
        } catch let error as CommandError {
            #expect(
                error.description
                    == "Every name from \(directory.path)/s.edited.jsonl to \(directory.path)/s.edited-1000.jsonl is taken."
            )
        }
        // One name freed: it is taken, and the file is the recording's own lines.
        try FileManager.default.removeItem(atPath: directory.appendingPathComponent("s.edited-500.jsonl").path)
        let name = try EditedLog.write(index, copying: recording)
        #expect(name == directory.appendingPathComponent("s.edited-500.jsonl").path)
        #expect(try String(contentsOfFile: name, encoding: .utf8) == String(contentsOfFile: recording, encoding: .utf8))
    }
}

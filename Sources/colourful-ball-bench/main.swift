import Foundation

// colourful-ball-bench: every benchmark of docs/benchmarks.md, on a release build.
//   swift run -c release colourful-ball-bench [--quick]
//   swift run -c release colourful-ball-bench --only pipeline   (one section, for profiling)
//   swift run -c release colourful-ball-bench --write-docs      (the full run, written into
//                                                                docs/benchmarks.md's results)
let arguments = CommandLine.arguments
if arguments.contains("--respond") {
    // The floor of "input to screen": the bench runs itself this way in a pseudo-terminal.
    respondToEachRead()
}
let only = arguments.firstIndex(of: "--only").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
let table = BenchmarkRun(quick: arguments.contains("--quick"), only: only).runAll()
if arguments.contains("--write-docs") {
    writeResults(
        table,
        into: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/benchmarks.md"))
}

/// Puts `table` between the results markers of docs/benchmarks.md, with the day and the command.
func writeResults(_ table: [String], into file: URL) {
    guard var text = try? String(contentsOf: file, encoding: .utf8),
        let begin = text.range(of: "<!-- results: begin -->\n"),
        let end = text.range(of: "<!-- results: end -->", range: begin.upperBound..<text.endIndex)
    else {
        progress("docs/benchmarks.md has no results markers: nothing written")
        return
    }
    let day = ISO8601DateFormatter().string(from: Date()).prefix(10)
    let written =
        "Written by `swift run -c release colourful-ball-bench --write-docs` on \(day)"
        + (only.map { " (section \($0) only)" } ?? "") + ":\n\n" + table.joined(separator: "\n") + "\n"
    text.replaceSubrange(begin.upperBound..<end.lowerBound, with: written)
    do {
        try text.write(to: file, atomically: true, encoding: .utf8)
        progress("written into \(file.path)")
    } catch {
        progress("could not write \(file.path): \(error)")
    }
}

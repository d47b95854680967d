import ArgumentParser
import Foundation

// colourful-ball-bench: every benchmark of docs/benchmarks.md, on a release build.
//   swift run -c release colourful-ball-bench [--quick]
//   swift run -c release colourful-ball-bench --only pipeline   (one section, for profiling)
//   swift run -c release colourful-ball-bench --write-docs      (the full run, written into
//                                                                docs/benchmarks.md's results)
/// The bench's command line: which sections to run, and whether to write the docs' table.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "colourful-ball-bench",
        abstract: "Runs the benchmarks of docs/benchmarks.md on this build and prints their table.",
        discussion: "Build it in release mode: swift run -c release colourful-ball-bench.")

    @Flag(help: "Shorter runs, for a quick look (the numbers are noisier).")
    var quick = false

    @Option(
        help: ArgumentHelp(
            "Run one section: a prefix of one of \(BenchmarkRun.sectionNames.map { "'\($0)'" }.joined(separator: ", ")).",
            valueName: "section"))
    var only: String?

    @Flag(help: "Write the table between the results markers of docs/benchmarks.md.")
    var writeDocs = false

    @Option(
        help: ArgumentHelp(
            "The program to measure (default: the colourful-ball built beside this bench). The one scripts/run, scripts/install and scripts/package ship (scripts/build-shipped makes it) is .build-static/release/colourful-ball.",
            valueName: "path"))
    var program: String?

    @Flag(help: .hidden)
    var respond = false

    func validate() throws {
        if let only, !BenchmarkRun.sectionNames.contains(where: { $0.hasPrefix(only) }) {
            throw ValidationError(
                "No section starts with '\(only)'; the sections are \(BenchmarkRun.sectionNames.joined(separator: ", "))."
            )
        }
    }

    func run() {
        if respond {
            // The floor of "input to screen": the bench runs itself this way in a pseudo-terminal.
            respondToEachRead()
        }
        let table = BenchmarkRun(quick: quick, only: only, programOverride: program).runAll()
        if writeDocs {
            writeResults(
                table, only: only, program: program,
                into: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                        "docs/benchmarks.md"))
        }
    }
}

Bench.main()

/// Puts `table` between the results markers of docs/benchmarks.md, with the day and the command.
func writeResults(_ table: [String], only: String?, program: String?, into file: URL) {
    guard var text = try? String(contentsOf: file, encoding: .utf8),
        let begin = text.range(of: "<!-- results: begin -->\n"),
        let end = text.range(of: "<!-- results: end -->", range: begin.upperBound..<text.endIndex)
    else {
        progress("docs/benchmarks.md has no results markers: nothing written")
        return
    }
    let day = ISO8601DateFormatter().string(from: Date()).prefix(10)
    let written =
        "Written by `swift run -c release colourful-ball-bench --write-docs"
        + (program.map { " --program \($0)" } ?? "") + "` on \(day)"
        + (only.map { " (section \($0) only)" } ?? "") + ":\n\n" + table.joined(separator: "\n") + "\n"
    text.replaceSubrange(begin.upperBound..<end.lowerBound, with: written)
    do {
        try text.write(to: file, atomically: true, encoding: .utf8)
        progress("written into \(file.path)")
    } catch {
        progress("could not write \(file.path): \(error)")
    }
}

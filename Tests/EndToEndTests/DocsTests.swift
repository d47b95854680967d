import Foundation
import Testing

/// The docs' numbers and quotes come from the code; these tests fail while they are stale
/// (`scripts/docs` and `colourful-ball-bench --write-docs` write them).
@Suite("The docs")
struct DocsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The lines of the chain in the view-model's source, trimmed.
    static func chain() throws -> [String] {
        let source = try text("Sources/BallModel/BallViewModel.swift")
        let start = try #require(source.range(of: "// The chain:\n")).upperBound
        let end = try #require(source.range(of: "// (end of the chain)")).lowerBound
        return source[start..<end].split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    @Test(
        "docs/from-rxswift.md and ARCHITECTURE.md quote the chain as the source writes it",
        arguments: ["docs/from-rxswift.md", "ARCHITECTURE.md"])
    func chainQuoted(file: String) throws {
        let doc = try Self.text(file)
        let start = try #require(doc.range(of: "<!-- chain: begin -->\n```swift\n"), "\(file) has no chain quote")
            .upperBound
        let end = try #require(doc.range(of: "\n```\n<!-- chain: end -->")).lowerBound
        #expect(
            doc[start..<end].split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                == (try Self.chain()), "run scripts/docs")
    }

    @Test(
        "the README's first 40 lines hold the way in: the tour, a picture, the article, the two commands, getting Swift"
    )
    func readmeStartsWithTheLearner() throws {
        let readme = try Self.text("README.md")
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        let top = lines.prefix(40).joined(separator: "\n")
        for wanted in [
            "`colourful-ball learn`", "![", "RxSwift by Examples #2", "Linux", "scripts/run learn", "scripts/test",
            "Swift 6.1", "swiftly", "apt install swift", "OpenStack", "minutes on 2 cores", "docs/install.md",
        ] {
            #expect(top.contains(wanted), "\(wanted) is not in the README's first 40 lines")
        }
        #expect(lines.count < 300, "the README has \(lines.count) lines: the details go in docs/")
    }

    @Test("the README's two commands are the ones CI runs (.ci/run), as a user at a terminal runs them")
    func readmeCommandsAreCIs() throws {
        let readme = try Self.text("README.md")
        let section = try #require(readme.range(of: "## Start: two commands\n")).upperBound
        let block = try #require(readme.range(of: "```sh\n", range: section..<readme.endIndex)).upperBound
        let end = try #require(readme.range(of: "```", range: block..<readme.endIndex)).lowerBound
        let commands = readme[block..<end].split(separator: "\n").map {
            $0.split(separator: "#", maxSplits: 1)[0].trimmingCharacters(in: .whitespaces)
        }
        #expect(commands == ["scripts/run learn", "scripts/test"])
        let run = try Self.text(".ci/run").split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.hasPrefix("echo") }
        for command in commands {
            let runs = run.contains { line in
                let words = line.split(separator: " ").map(String.init)
                let wanted = command.split(separator: " ").map(String.init)
                return (0...max(0, words.count - wanted.count)).contains {
                    Array(words.dropFirst($0).prefix(wanted.count)) == wanted
                }
            }
            #expect(runs, ".ci/run does not run `\(command)`")
        }
        // Each under a pseudo-terminal: `script` for the tests, .ci/first-run for the tour.
        #expect(run.contains { $0.contains("script ") && $0.contains("--command scripts/test") })
        #expect(run.contains { $0.hasPrefix(".ci/first-run scripts/run learn") })
    }

    @Test(
        "every file the README and docs/ link to is there",
        arguments: [
            "README.md", "ARCHITECTURE.md", "docs/install.md", "docs/terminals.md", "docs/development.md",
            "docs/benchmarks.md", "docs/learn.md", "docs/playing.md", "docs/streams.md", "docs/operators.md",
            "docs/replay.md", "docs/tools.md", "docs/troubleshooting.md", "docs/from-rxswift.md",
            "docs/replay-format.md", "docs/colour-rules.md",
        ])
    func linksResolve(file: String) throws {
        let doc = try Self.text(file)
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent().relativePath
        for match in doc.matches(of: /\]\(([^)#:\s]+)\)/) {
            let target = String(match.1)
            let path = folder == "." ? target : folder + "/" + target
            #expect(
                FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path),
                "\(file) links to \(target), which is not there")
        }
    }

    @Test("the licence: LICENSE is the MIT licence, and --version and --help say so")
    func licence() throws {
        let licence = try Self.text("LICENSE")
        #expect(licence.hasPrefix("MIT License\n\nCopyright (c) 2026 the colourful-ball developers\n"))
        #expect(licence.contains("Permission is hereby granted, free of charge, to any person obtaining a copy"))
        let version = try run([programPath, "--version"])
        let lines = version.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines[0].wholeMatch(of: /\d+\.\d+\.\d+/) != nil, "\(lines)")
        #expect(lines.last?.hasPrefix("MIT licence: ") == true)
        // It names where the whole text is for this copy: a build in the clone, the clone's LICENSE.
        let named = try #require(lines.last?.firstMatch(of: /\(the whole text: (\/[^)]+)\)\.$/)).output.1
        #expect(named == Self.root.appendingPathComponent("LICENSE").path, "\(named)")
        #expect(
            try run([programPath, "--help"]).output.contains("colourful-ball is free software under the MIT licence."))
        #expect(try Self.text("README.md").contains("## Licence"))
    }

    @Test("ARCHITECTURE.md's table of targets has a row for each target, and only those")
    func targetTable() throws {
        let doc = try Self.text("ARCHITECTURE.md")
        let targets = try FileManager.default.contentsOfDirectory(
            atPath: Self.root.appendingPathComponent("Sources").path)
        let table = doc.components(separatedBy: "<!-- targets: begin -->")[1].components(
            separatedBy: "<!-- targets: end -->")[0]
        let rows = table.split(separator: "\n").compactMap { $0.firstMatch(of: /^\| `([^`]+)` \|/)?.1 }.map(String.init)
        #expect(Set(rows) == Set(targets), "rows without a target, or targets without a row")
        #expect(rows.count == Set(rows).count, "a target with two rows")
    }

    @Test("docs/benchmarks.md's byte counts are what the bench measures (the bytes are the same in any build)")
    func benchmarkBytes() throws {
        let bench = URL(fileURLWithPath: programPath).deletingLastPathComponent()
            .appendingPathComponent("colourful-ball-bench").path
        guard FileManager.default.isExecutableFile(atPath: bench) else {
            Issue.record("no colourful-ball-bench beside the program at \(bench): build it (swift build --build-tests)")
            return
        }
        // In colour, as measured for the docs (`swift test` sets NO_COLOR for what it runs).
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = nil
        let measured = try run([bench, "--only", "bytes"], environment: environment)
        #expect(measured.status == 0)
        let doc = try Self.text("docs/benchmarks.md")
        let results = try #require(doc.range(of: "<!-- results: begin -->")).upperBound
        let table = doc[results...].prefix { _ in true }
        var compared = 0
        for row in measured.output.split(separator: "\n") where row.hasPrefix("| ") && row.contains(" B |") {
            let name = row.split(separator: "|")[0]
            let line = table.split(separator: "\n").first { $0.hasPrefix("|\(name)|") }
            #expect(
                line.map(String.init) == String(row),
                "docs/benchmarks.md is stale for\(name): run the bench with --write-docs")
            compared += 1
        }
        #expect(compared >= 5)
    }
}

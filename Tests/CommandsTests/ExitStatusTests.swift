import ArgumentParser
import ColourfulBallCommands
import Foundation
import Testing

/// The exit statuses are one table, ``ExitStatus``: `--help`, the man page and the README are
/// made from it, and the code exits with nothing else.
@Suite("The exit statuses")
struct ExitStatusTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test("sysexits' codes where one fits: usage 64, data 65, no input 66, I/O 74; 0, 1 and 2 besides")
    func codes() {
        #expect(ExitStatus.allCases.map(\.rawValue) == [0, 1, 2, 64, 65, 66, 74])
        #expect(ExitStatus.usage.rawValue == ExitCode.validationFailure.rawValue, "ArgumentParser's own for usage")
    }

    @Test("the README's table is the code's")
    func readme() throws {
        let readme = try Self.text("README.md")
        let start = try #require(readme.range(of: "<!-- exit statuses: begin -->\n")).upperBound
        let end = try #require(readme.range(of: "\n<!-- exit statuses: end -->", range: start..<readme.endIndex))
        #expect(String(readme[start..<end.lowerBound]) == ExitStatus.markdownTable)
    }

    @Test("--help lists every status and what it means")
    func help() {
        let help = ColourfulBall.helpMessage(columns: 1000)
        for status in ExitStatus.allCases {
            #expect(help.contains("\(status.rawValue)") && help.contains(status.meaning), "\(status)")
        }
    }

    @Test("the man page's EXIT STATUS is the table, item by item (scripts/man writes it)")
    func manPage() throws {
        let page = try Self.text("docs/man/colourful-ball.1")
        let start = try #require(page.range(of: ".Sh \"EXIT STATUS\"\n")).upperBound
        let section = page[start...].components(separatedBy: "\n.Sh ")[0]
        let expected =
            ".Bl -tag -width 4n\n"
            + ExitStatus.allCases.map { ".It \($0.rawValue)\n\($0.meaning)\n" }.joined() + ".El"
        #expect(section == expected)
        for heading in ["ENVIRONMENT", "FILES", "EXAMPLES"] {
            #expect(page.contains("\n.Sh \(heading)\n"), "the man page has no \(heading)")
        }
        for variable in ["TERM", "COLORTERM", "NO_COLOR", "ESCDELAY", "HOME", "XDG_STATE_HOME", "TMPDIR"] {
            #expect(page.contains("Ev \(variable)"), "ENVIRONMENT does not name \(variable)")
        }
    }

    @Test("the commands exit with the table's statuses only: no number of their own")
    func noLiteralCodes() throws {
        let folder = Self.root.appendingPathComponent("Sources/ColourfulBallCommands")
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") {
            let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            #expect(source.firstMatch(of: /(code: |ExitCode\()[0-9]/) == nil, "\(file) exits with a number of its own")
        }
    }
}

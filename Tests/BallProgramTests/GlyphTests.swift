import BallExport
import BallModel
import BallPlayer
import BallProgram
import BallRendering
import BallReplay
import BallTestSupport
import Foundation
import Testing
import TextFormats

/// Every glyph the program draws is in the one list (``Glyph/all``), and every glyph of the
/// list is in the monospace fonts Debian and Ubuntu install: DejaVu Sans Mono (their default),
/// Liberation Mono and Noto Sans Mono.
@Suite("Glyphs")
struct GlyphTests {
    /// The three fonts (Debian's packages fonts-dejavu-core, fonts-liberation, fonts-noto-mono).
    static let fonts = [
        ("DejaVu Sans Mono", "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"),
        ("Liberation Mono", "/usr/share/fonts/truetype/liberation/LiberationMono-Regular.ttf"),
        ("Noto Sans Mono", "/usr/share/fonts/truetype/noto/NotoSansMono-Regular.ttf"),
    ]
    static let canReadFonts =
        FileManager.default.isExecutableFile(atPath: "/usr/bin/fc-query")
        && fonts.allSatisfy { FileManager.default.fileExists(atPath: $0.1) }

    /// The code points a font has, as fontconfig's `fc-query` reads its character map
    /// (`%{charset}`: hexadecimal ranges such as `20-7e a0-17f`).
    static func characterMap(of file: String) throws -> [ClosedRange<UInt32>] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/fc-query")
        process.arguments = ["--format=%{charset}", file]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return output.split(whereSeparator: \.isWhitespace).compactMap { range in
            let ends = range.split(separator: "-").compactMap { UInt32($0, radix: 16) }
            return ends.count == 1 ? ends[0]...ends[0] : ends.count == 2 ? ends[0]...ends[1] : nil
        }
    }

    @Test(
        "every glyph of the list is in DejaVu Sans Mono, Liberation Mono and Noto Sans Mono",
        .enabled(
            if: canReadFonts,
            "fc-query or a font is missing (scripts/setup --tests installs fontconfig, fonts-dejavu-core, fonts-liberation, fonts-noto-mono)"
        ))
    func inTheFonts() throws {
        for (name, file) in Self.fonts {
            let map = try Self.characterMap(of: file)
            #expect(map.count > 10, "\(name): \(map.count) ranges read")
            let missing = Glyph.all.filter { glyph in !map.contains { $0.contains(glyph.value) } }
            #expect(
                missing.isEmpty,
                "\(name) has no \(missing.map { "\($0) (U+\(String($0.value, radix: 16, uppercase: true)))" })")
        }
        // The check itself: a glyph none of them has (⤢, once the resize's) is found missing.
        let dejaVu = try Self.characterMap(of: Self.fonts[0].1)
        #expect(!dejaVu.contains { $0.contains(0x2922) })
    }

    @Test("the list has each glyph once, none of them ASCII")
    func listIsClean() {
        #expect(Set(Glyph.all).count == Glyph.all.count)
        #expect(Glyph.all.allSatisfy { !$0.isASCII })
    }

    /// Every glyph beyond ASCII in `frames`.
    static func glyphs(in frames: [Frame]) -> Set<Unicode.Scalar> {
        var found = Set<Unicode.Scalar>()
        for frame in frames {
            for row in 0..<frame.size.rows {
                for column in 0..<frame.size.columns where !frame[column, row].glyph.isASCII {
                    found.insert(frame[column, row].glyph)
                }
            }
        }
        return found
    }

    @Test("every view draws only glyphs of the list: play, help, the panel and its lanes, notices, the player, marbles")
    func everyViewUsesTheList() throws {
        var drawn = Set<Unicode.Scalar>()
        // Play: drags across the colours, every intent, the help, the panel with late lanes and
        // hover descriptions, a window too small and a resize.
        let driver = Pilot<Play>()
        driver.terminal.keepsFrames = true
        driver.type("?")
        driver.type("x")
        driver.toggleStreams()
        driver.toggleLate(.behavior)
        driver.toggleLate(.publish)
        for row in stride(from: 0, to: 14, by: 3) {
            driver.drag(from: driver.appearance.position.centre, to: Cell(column: row * 5, row: row))
        }
        for direction in [Direction.left, .up, .right, .down] { driver.press(direction) }
        driver.type("c")
        driver.resize(columns: 100, rows: 30)
        for column in stride(from: 0, to: 100, by: 7) {
            for row in 12..<30 { driver.hover(at: Cell(column: column, row: row)) }
        }
        driver.resize(columns: 10, rows: 5)
        driver.resize(columns: 40, rows: 12)
        driver.type("?")
        drawn.formUnion(Self.glyphs(in: driver.terminal.history))

        // The player: stepping, a skip, the panel, the help, playing to the end.
        let pilot = try Pilot<ReplayProgram>(RunLoopTests.sample)
        pilot.terminal.keepsFrames = true
        for key: Unicode.Scalar in ["l", "l", "x", "l", "s", "l", "?", " "] { pilot.type(key) }
        pilot.pass(.seconds(30))
        pilot.press(.end)
        drawn.formUnion(Self.glyphs(in: pilot.terminal.history))

        // The marble diagram, as `replay --marbles` prints it.
        var lines: [String] = []
        try MarbleDiagram.run(reader: .inMemory(RunLoopTests.sample, chunk: 4_096), width: 80) { lines.append($0) }
        drawn.formUnion(lines.joined().unicodeScalars.filter { !$0.isASCII })

        #expect(drawn.count >= 15, "\(drawn.count) glyphs drawn: \(drawn.sorted().map(String.init).joined())")
        let outside = drawn.subtracting(Glyph.all)
        #expect(outside.isEmpty, "drawn but not in the list: \(outside.sorted().map(String.init).joined())")
    }
}

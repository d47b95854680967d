import BallModel
import BallPlayer
import BallProgram
import BallRendering
import BallTestSupport
import Foundation
import Testing

/// No line is cut silently: at every width from the smallest the program accepts to 300
/// columns, each line of text on screen is whole (one of the forms it has for a narrower row)
/// or ends in `…`, and the help box shows every key on some page, saying that more follow.
@Suite("Text fits by its width")
struct TextFitTests {
    static let sample = SampleRecording.bytes

    /// The widths tried: every one from the smallest the program accepts to 300.
    static let widths = Array(ScreenSize.minimum.columns...300)

    /// The frame's rows as text, without the spaces at their ends.
    static func rows(_ frame: Frame) -> [String] {
        frame.text.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0).trimmingCharacters(in: .whitespaces)
        }
    }

    /// Whether `line` is cut visibly: it ends in `…`.
    static func endsInEllipsis(_ line: String) -> Bool { line.hasSuffix("…") }

    @Test(
        "the panel's hint and its description line are whole or end in …, at every width", .tags(.slow),
        .skippedInQuickRuns)
    func panelLines() {
        // The Relay row's hint (no relay subscribed), longest first, as a user reads it.
        let hints = ["v: subscribe (the latest, never ends)", "v: subscribe", "v"]
        // A whole description ends in a colour's name or its hex code.
        let wholeDescription = #/^#\d+ .* flat[A-Za-z]+( #[0-9A-F]{6})?$/#
        let wholeStatus = #/^.* (flat[A-Za-z]+|#[0-9A-F]{6}|keys|quit)$/#
        var cut: [String] = []
        var forms: Set<String> = []
        for width in Self.widths {
            let driver = Pilot<Play>(screen: ScreenSize(columns: width, rows: 24))
            driver.toggleStreams()
            driver.press(.right)
            let rows = Self.rows(driver.frame)
            guard let row = rows.first(where: { $0.hasPrefix("late Relay ") }) else {
                cut.append("\(width): no hint")
                continue
            }
            let hint = String(row.dropFirst("late Relay".count)).trimmingCharacters(in: .whitespaces)
            if !hints.contains(hint) && !Self.endsInEllipsis(hint) { cut.append("\(width): hint \(hint)") }
            forms.insert(hints.firstIndex(of: hint).map { "hint \($0)" } ?? "hint …")
            guard let description = rows.first(where: { $0.hasPrefix("#1 ") }) else {
                cut.append("\(width): no description in \(rows)")
                continue
            }
            if (try? wholeDescription.wholeMatch(in: description)) == nil && !Self.endsInEllipsis(description) {
                cut.append("\(width): description \(description)")
            }
            #expect(description.terminalWidth <= width - 1)
            // The status line: whole parts (ending in a name, a hex code or a key's word) or `…`.
            let status = rows[rows.count - 1]
            if (try? wholeStatus.wholeMatch(in: status)) == nil && !Self.endsInEllipsis(status) {
                cut.append("\(width): status \(status)")
            }
        }
        #expect(cut.isEmpty, "\(cut.prefix(5))")
        // At 80 columns the first form fits whole; every form is used at some width.
        #expect(forms == ["hint 0", "hint 1", "hint 2"], "\(forms)")
        let at80 = Pilot<Play>(screen: ScreenSize(columns: 80, rows: 24))
        at80.toggleStreams()
        #expect(Self.rows(at80.frame).contains { $0.hasPrefix("late Relay") && $0.hasSuffix(hints[0]) })
    }

    @Test(
        "the status line names both colours wherever their names fit beside the place", .tags(.slow),
        .skippedInQuickRuns)
    func bothColoursNamed() {
        var dropped: [Int] = []
        for width in Self.widths {
            for rows in [8, 24] {
                let driver = Pilot<Play>(screen: ScreenSize(columns: width, rows: rows))
                let appearance = driver.appearance
                let centre = appearance.position.centre
                // The shortest form that names both: ` 12,3  ● flatRed  on ■ flatMint`.
                let needed =
                    " \(centre.column),\(centre.row)  ● \(appearance.ball.name)  on ■ \(appearance.background.name)"
                let status = Self.rows(driver.frame).last ?? ""
                if needed.terminalWidth <= width, !status.contains(appearance.background.name) { dropped.append(width) }
            }
        }
        #expect(dropped.isEmpty, "the screen's colour unnamed at \(dropped.prefix(8))")
    }

    @Test("the status line names the colours the ball and the screen have now, in every form, as the ball moves")
    func statusNamesFollowTheBall() {
        var wrong: [String] = []
        for width in stride(from: 24, through: 120, by: 3) {
            let driver = Pilot<Play>(screen: ScreenSize(columns: width, rows: 24))
            for step in 0..<8 {
                let appearance = driver.appearance
                let status = Self.rows(driver.frame).last ?? ""
                // The name after ● is the ball's; the name after ■, the screen's.
                for (swatch, name) in [("● ", appearance.ball.name), ("■ ", appearance.background.name)] {
                    guard let at = status.range(of: swatch) else { continue }
                    let shown = status[at.upperBound...].prefix { $0.isLetter }
                    if !shown.isEmpty, !name.hasPrefix(shown) { wrong.append("\(width), step \(step): \(status)") }
                }
                driver.press(step % 2 == 0 ? .right : .down, shifted: true)
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(4))")
    }

    @Test("the player's change line is whole or ends in …, and whole in a window wider than the recording")
    func changeLine() throws {
        // A recording made in the smallest window, replayed in every width from there to 300.
        let small = Array(
            """
            {"format":"colourful-ball-replay","version":1,"terminal":{"columns":24,"rows":8},"colourRules":1}
            {"t":0.1,"event":"pressed","cell":[12,3]}
            {"t":0.2,"event":"dragged","cell":[13,4]}
            {"t":0.3,"event":"released","cell":[13,4]}

            """.utf8)
        let whole = try [
            #"^#2 • dragged to 13,4: position \d+,\d+ → \d+,\d+ · ballColour flat\w+( → flat\w+| \(unchanged\)) · background( flat\w+ → flat\w+| \(unchanged\))$"#,
            #"^#2 • dragged to 13,4: \d+,\d+ → \d+,\d+ · ● flat\w+( → flat\w+| \(same\)) · ■( flat\w+ → flat\w+| \(same\))$"#,
            #"^#2 •: \d+,\d+ → \d+,\d+ · ● flat\w+( → flat\w+| \(same\)) · ■( flat\w+ → flat\w+| \(same\))$"#,
            #"^#2 •: \d+,\d+ ● flat\w+ ■ flat\w+$"#,
        ].map { try Regex($0) }
        var cut: [String] = []
        var forms: Set<Int> = []
        for width in Self.widths {
            let pilot = try Pilot<ReplayProgram>(small, screen: ScreenSize(columns: width, rows: 10))
            pilot.type("l")
            pilot.type("l")
            guard let timeline = pilot.player.timelineRow else {
                cut.append("\(width): no timeline")
                continue
            }
            let line = Self.rows(pilot.frame)[timeline - 1]
            if let form = whole.firstIndex(where: { (try? $0.wholeMatch(in: line)) != nil }) {
                forms.insert(form)
            } else if Self.endsInEllipsis(line) {
                forms.insert(4)
            } else {
                cut.append("\(width): \(line)")
            }
        }
        #expect(cut.isEmpty, "\(cut.prefix(5))")
        #expect(forms == [0, 1, 2, 3, 4], "each form is used at some width: \(forms)")
        // A recording made at 80 columns, in a 160-column window: the line is whole, not cut at 80.
        let pilot = try Pilot<ReplayProgram>(Self.sample, screen: ScreenSize(columns: 160, rows: 26))
        pilot.type("l")
        pilot.type("l")
        #expect(
            Self.rows(pilot.frame)[pilot.player.timelineRow! - 1]
                == "#2 • dragged to 41,12: position 40,11 → 41,12 · ballColour flatRed → flatBlackDark · background (unchanged)"
        )
    }

    @Test(
        "? shows every key on some page, says which page of how many, and space turns to the next", .tags(.slow),
        .skippedInQuickRuns)
    func helpPages() {
        let keys = KeyMap.help(for: .play).rows.map(\.keys)
        for size in [
            ScreenSize(columns: 40, rows: 12), ScreenSize(columns: 24, rows: 8), ScreenSize(columns: 80, rows: 24),
        ]
            + Self.widths.map({ ScreenSize(columns: $0, rows: 14) })
        {
            let driver = Pilot<Play>(screen: size)
            driver.type("?")
            var seen: [String] = []
            var pages = 0
            var total: Int?
            while driver.play.binding.model.help != nil && pages < 20 {
                pages += 1
                let rows = Self.rows(driver.frame)
                seen += rows
                for row in rows where row.terminalWidth > size.columns { Issue.record("\(size): \(row) is too wide") }
                if let footer = rows.first(where: { $0.hasPrefix("space: more (") }) {
                    let numbers = footer.dropFirst("space: more (".count).prefix { $0 != ")" }.split(separator: "/")
                    #expect(Int(numbers[0]) == pages, "\(size): \(footer)")
                    total = Int(numbers[1])
                } else {
                    #expect(rows.contains(KeyMap.helpFooter) || total == nil, "\(size): no footer")
                }
                driver.type(" ")
            }
            #expect(pages == (total ?? 1), "\(size): \(pages) pages shown, the footer said \(total ?? 1)")
            // Every key is shown, whole or cut visibly.
            for key in keys {
                let shown = seen.contains { $0.hasPrefix(key) || ($0.hasSuffix("…") && key.hasPrefix($0.dropLast())) }
                #expect(shown, "\(size): \(key) is on no page")
            }
        }
        // At 40×12 (the issue's case) the keys take four pages, and the last row is on the fourth.
        let driver = Pilot<Play>(screen: ScreenSize(columns: 40, rows: 12))
        driver.type("?")
        #expect(Self.rows(driver.frame).contains("space: more (1/4) · other keys close"))
        for _ in 0..<3 { driver.type(" ") }
        #expect(Self.rows(driver.frame).contains { $0.hasPrefix("?  ") || $0.hasPrefix("?    ") })
        // Any other key closes it.
        driver.type("x")
        #expect(driver.play.binding.model.help == nil)
    }
}

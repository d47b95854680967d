import BallModel
import BallPlayer
import BallProgram
import BallRendering
import BallReplay
import BallStreams
import BallTestSupport
import Testing

/// A late subscription is drawn where it happened, in a column of its own after the intent it
/// came after, as Rx draws a subscription at its own time: `^` on the late lane after the value
/// it missed, and what it was handed at once in that column, not under the source's earlier
/// emission; nothing on the other lanes there (a key is no intent). Live in the tour at 80×24,
/// and in the player alike.
@Suite("A late subscription's column")
struct LateColumnTests {
    /// The lanes of a page as cells from the first lane cell on, by label.
    struct Page {
        var rows: [String]

        /// The cells of the row labelled `label` (blank to the right).
        func cells(_ label: String) throws -> [Character] {
            // (The label padded to the lanes' first cell: a card's line may begin with its word.)
            let padded = " \(label)" + String(repeating: " ", count: StreamPanel.labelWidth - 1 - label.count)
            let row = try #require(rows.first { $0.hasPrefix(padded) }, "no \(label) row\n\(context)")
            return Array(row.dropFirst(StreamPanel.labelWidth)) + Array(repeating: " ", count: 80)
        }

        /// The rows, for a failure's message.
        var context: String { rows.joined(separator: "\n") }

        /// The cells where the position lane draws a value (a letter), left to right.
        func positionValues() throws -> [Int] {
            let position = try cells("position")
            return position.indices.filter { position[$0].isLetter }
        }
    }

    /// The tour from lesson `id`, three moves left, the card's question answered with `answer`,
    /// `key` pressed (a late subscriber), two moves left: the tour's page, and the player's at the
    /// recording's end.
    static func pages(lesson id: String, answer: Unicode.Scalar, key: Unicode.Scalar) throws -> (Page, Page) {
        let tour = try RecordedTour(first: LearnTests.index(id))
        tour.pilot.openStreams()
        for _ in 0..<3 { tour.pilot.press(.left) }
        tour.pilot.type(answer)
        tour.pilot.type(key)
        for _ in 0..<2 { tour.pilot.press(.left) }
        let live = Page(rows: LearnRecordingTests.rows(tour.pilot.frame))
        tour.pilot.type("q")
        let player = try Pilot<ReplayProgram>(tour.file.bytes, screen: ScreenSize(columns: 80, rows: 24))
        player.run([.bytes(TerminalBytes.end)])
        if !player.player.streamsOpen { player.type("s") }
        return (live, Page(rows: LearnRecordingTests.rows(player.frame)))
    }

    /// Checks `page`: the late lane `label` begins after the fourth value the position published
    /// (the last before the key), in a column of its own: `^` in its first cell, the intents' and
    /// the position's line in both; then the fifth and sixth values in their columns. `handed`:
    /// whether it was handed the fourth there, in its second cell (else its line).
    static func check(_ page: Page, label: String, handed: Bool, _ where: String) throws {
        let context = "\(`where`)\n\(page.context)"
        let position = try page.cells("position")
        let intents = try page.cells("intents")
        let late = try page.cells(label)
        // a b c d before the key, e f after: each in a value's cell (a column's second).
        let values = try page.positionValues()
        try #require(values.count == 6, "\(context)")
        let subscribed = try #require(late.firstIndex(of: "^"), "\(context)")
        let (missed, next) = (values[3], values[4])
        #expect(subscribed > missed, "^ after the value it missed: \(subscribed) ≤ \(missed)\n\(context)")
        #expect(subscribed < next, "^ before the next value\n\(context)")
        // Its own column, right after the missed value's: no intent, nothing published there.
        #expect(subscribed == missed + 1, "^ in the column right after the missed value's\n\(context)")
        #expect(intents[subscribed...].prefix(2) == ["─", "─"], "no intent there\n\(context)")
        #expect(position[subscribed...].prefix(2) == ["─", "─"], "the position emits nothing there\n\(context)")
        #expect(late[subscribed + 1] == (handed ? position[missed] : "─"), "what it was handed\n\(context)")
        // Nothing before it; then what the position published after it, each in its column.
        #expect(late[..<subscribed].allSatisfy { $0 == " " }, "\(context)")
        #expect(late[next] == position[next] && late[values[5]] == position[values[5]], "\(context)")
        #expect(late[next - 1] == "─", "\(context)")
    }

    @Test(
        "lesson 4: p pressed after d draws ^─ in a column of its own after d's, then e and f: live at 80×24 and in the player"
    )
    func publish() throws {
        try Self.checkLiveAndReplayed(lesson: "publish", answer: "1", key: "p", label: "late Publish", handed: false)
    }

    @Test(
        "lesson 3: b pressed after d draws ^d in a column of its own after d's (the position's line under d), then e and f: live at 80×24 and in the player"
    )
    func behavior() throws {
        try Self.checkLiveAndReplayed(lesson: "behavior", answer: "2", key: "b", label: "late Behavior", handed: true)
    }

    /// Checks the lane labelled `label` after `key` in lesson `lesson` (its question answered
    /// `answer`), as the tour drew it and as the player draws its recording.
    static func checkLiveAndReplayed(
        lesson: String, answer: Unicode.Scalar, key: Unicode.Scalar, label: String, handed: Bool
    ) throws {
        let (live, player) = try pages(lesson: lesson, answer: answer, key: key)
        try check(live, label: label, handed: handed, "the tour")
        try check(player, label: label, handed: handed, "the player")
    }
}

import BallModel
import BallRendering
import BallStreams
import Testing

/// A late Replay(3) subscriber handed three values at once is drawn `^³`: the values line and the
/// hover say which three, by the letters the page draws them with, as RxJS's marbles group them.
@Suite("The values a group mark stands for")
struct HandedGroupTests {
    static let screen = ScreenSize(columns: 80, rows: 24)

    /// Four columns (40,11, then three moves right), the last the position's completion; a late
    /// Replay(3) subscriber subscribed after it, handed 41,11 42,11 43,11 then the completion.
    static func panel() -> StreamPanel {
        var columns: [StreamColumn] = []
        for index in 0...3 {
            var column = StreamColumn(index: index, intent: index == 0 ? nil : .arrowPressed(.right, distance: 1))
            column.position = BallPosition(centre: Cell(column: 40 + index, row: 11), screen: screen)
            columns.append(column)
        }
        var late = LateLane(id: 0, kind: .replay, start: 3)
        late.handedPositions = (1...3).map { BallPosition(centre: Cell(column: 40 + $0, row: 11), screen: screen) }
        late.end = LateLane.End(column: 3, ending: .completed)
        return StreamPanel(columns: columns, lateLanes: [late])
    }

    static func text(_ lines: [[LaneCell]]) -> [String] {
        lines.map { String(String.UnicodeScalarView($0.map(\.glyph))) }
    }

    @Test("the panel's values line says ³=(bcd): the three it stands for, by their letters")
    func valuesLine() throws {
        let lines = Self.text(Self.panel().lines(width: 80))
        let late = try #require(lines.first { $0.hasPrefix(" late Replay") }, "\(lines)")
        #expect(late.contains("^³|"), "\(late)")
        let values = try #require(lines.first { $0.hasPrefix(" values") }, "\(lines)")
        #expect(values.contains("b=41,11 c=42,11 d=43,11"), "\(values)")
        #expect(values.contains("³=(bcd) at once") && !values.contains("³=3 at once"), "\(values)")
    }

    @Test("pointed at, the ³ says which three it was handed, each with its letter")
    func hover() throws {
        var panel = Self.panel()
        panel.hovered = 3
        panel.hoveredLane = .late(.replay)
        let lines = Self.text(panel.lines(width: 80))
        #expect(lines.contains { $0.contains("^³| handed b 41,11 · c 42,11 · d 43,11") }, "\(lines)")
    }
}

import BallModel
import BallRendering
import BallReplay
import TextFormats

// MARK: - The timeline

/// The timeline row: the whole recording across the width, a tick `│` in the new colour at
/// each change of the ball's colour, `ø` at skipped intents, and (drawn by the player) `◘` at
/// the current place (a skipped place: its `ø` in reverse video).
package enum Timeline {
    /// The column that shows place `n` of `count` at `width`.
    package static func column(of n: Int, width: Int, count: Int) -> Int {
        guard count > 0, width > 1 else { return 0 }
        return min(width - 1, n * (width - 1) / count)
    }

    /// The place a press at `column` goes to: the first that the column shows.
    package static func place(atColumn column: Int, width: Int, count: Int) -> Int {
        guard width > 1 else { return 0 }
        let column = min(max(0, column), width - 1)
        return min(count, (column * count + width - 2) / (width - 1))
    }

    /// The row's cells without the current place.
    package static func cells(index: ReplayIndex, width: Int) -> [LaneCell] {
        var cells = [LaneCell](repeating: LaneCell(glyph: Glyph.line, dim: true), count: max(0, width))
        guard width > 0 else { return cells }
        for change in index.colourChanges {
            cells[column(of: change.intent, width: width, count: index.count)] = LaneCell(
                glyph: Glyph.tick, colour: change.colour)
        }
        for skipped in index.skipped {
            cells[column(of: skipped, width: width, count: index.count)] = LaneCell(glyph: Glyph.skipped)
        }
        return cells
    }
}

/// The timeline's cells, kept while the recording, its skips and the width stay as they were
/// (a step only moves the `◘`).
struct TimelineCache {
    private var key: [Int] = []
    private var cells: [LaneCell] = []

    /// The timeline of `index` at `width` with the place `place` marked `◘` (or, skipped, its `ø`
    /// in reverse video: the mark of the place does not hide the skip).
    mutating func cells(index: ReplayIndex, width: Int, place: Int) -> [LaneCell] {
        let key = [index.count, index.revision, index.derived, width]
        if key != self.key {
            self.key = key
            cells = Timeline.cells(index: index, width: width)
        }
        var marked = cells
        if !marked.isEmpty {
            var marker = LaneCell(glyph: Glyph.place)
            if index.skipped.contains(place) {
                marker = LaneCell(glyph: Glyph.skipped)
                marker.highlighted = true
            }
            marked[Timeline.column(of: place, width: width, count: index.count)] = marker
        }
        return marked
    }
}

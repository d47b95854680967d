import BallModel
import BallRendering

// MARK: - Where the player's rows go

/// Where the replay player's rows go in a terminal, at its bottom below the recorded area: the
/// timeline just above the status line when there is a row for it, the change line above it when
/// a row is left, and the streams panel above them when open (whole, or one line saying it needs
/// more). They stay at the bottom whatever the recorded area's size, so stepping across a resize
/// moves none of them. Pure: the same sizes always lay out the same way.
package struct PlayerLayout: Hashable, Sendable {
    /// The terminal is smaller than the recorded area and its timeline: the frame says so.
    package var shortfall: TerminalShortfall?
    /// Whether there is a row for the timeline.
    package var hasTimeline: Bool
    /// The streams panel: nil closed (or no row at all for it), else whether it fits whole.
    package var panelFits: Bool?
    /// How many rows the panel takes (0 closed, 1 when it does not fit, else its rows).
    package var panelRows: Int
    /// Whether there is a row for the change line (or a message).
    package var hasChangeRow: Bool
    /// The panel is open but has no row at all: how many more it needs.
    package var panelWantsRows: Int?

    /// The terminal the player needs for a recorded area of `area`: that, and a row for the
    /// timeline.
    package static func neededTerminal(for area: ScreenSize) -> ScreenSize {
        ScreenSize(columns: area.columns, rows: area.rows + 1)
    }

    /// The layout in a terminal of `terminal` for a recorded area of `area`, the streams panel
    /// open or not.
    package init(terminal: ScreenSize, area: ScreenSize, streamsOpen: Bool) {
        let needed = Self.neededTerminal(for: area)
        shortfall =
            terminal.columns < needed.columns || terminal.rows < needed.rows
            ? TerminalShortfall(needed: needed, available: terminal) : nil
        var spare = terminal.rows - area.rows
        hasTimeline = spare >= 1
        if hasTimeline { spare -= 1 }
        if streamsOpen, spare >= 1 {
            let fits = spare >= StreamPanel.rows
            panelFits = fits
            panelRows = fits ? StreamPanel.rows : 1
            spare -= panelRows
        } else {
            panelFits = nil
            panelRows = 0
            panelWantsRows = streamsOpen ? StreamPanel.rows : nil
        }
        hasChangeRow = spare >= 1
    }

    /// The frame row of the timeline in a terminal of `terminal` (nil: no room for it): the
    /// row above the status line.
    package func timelineRow(in terminal: ScreenSize) -> Int? {
        hasTimeline ? terminal.rows - 2 : nil
    }
}

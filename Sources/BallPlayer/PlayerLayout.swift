import BallModel
import BallRendering

// MARK: - Where the player's rows go

/// Where the replay player's rows go in a terminal, at its bottom: the timeline just above the
/// status line, the change line above it when a row is left (while paused, wherever a row
/// is: over the area's bottom row if need be), and the streams panel above them
/// when open. They go below the recorded area where the terminal has rows to spare, and over
/// its bottom rows where it has not (the view then follows the ball up: see
/// ``Renderer/render(_:panel:into:)``), so a recording replays in a window of its own size. They
/// stay at the bottom whatever the recorded area's size, so stepping across a resize moves none
/// of them. Pure: the same sizes always lay out the same way.
package struct PlayerLayout: Hashable, Sendable {
    /// The terminal is smaller than the recorded area: the frame says so.
    package var shortfall: TerminalShortfall?
    /// Whether there is a row for the timeline.
    package var hasTimeline: Bool
    /// The streams panel: nil closed (or no row at all for it), else whether it fits whole.
    package var panelFits: Bool?
    /// How many rows the panel takes (0 closed, 1 when it does not fit, else its rows).
    package var panelRows: Int
    /// Whether there is a row for the change line (or a message).
    package var hasChangeRow: Bool
    /// Whether there is a row for a recorded tour's lesson (and its `o` or `u`) at the top, where
    /// the tour had its card, the recorded area below it, wherever a row is left (the area's
    /// bottom row then goes under the player's rows if need be); without it, the status line
    /// names the lesson.
    package var hasTourRow = false
    /// The panel is open but has no row at all: how many more it needs.
    package var panelWantsRows: Int?
    /// How many of the recorded area's rows the player's rows cover (0: they all fit below it).
    package var coveredRows: Int
    /// When the panel does not fit whole, how many more rows it needs.
    package var panelMissingRows = 0

    /// How many rows of the recorded area stay in view at least, above the player's rows.
    package static let viewRows = StreamPanel.minimumViewRows

    /// The terminal the player needs for a recorded area of `area`: that size (its rows go over
    /// the area's bottom rows when there are none to spare).
    package static func neededTerminal(for area: ScreenSize) -> ScreenSize { area }

    /// The layout in a terminal of `terminal` for a recorded area of `area`, the streams panel
    /// open or not; `showsChange`: the player is paused with something to say on the change line
    /// (what a step, a jump or a skip changed, or a message), which then has a row wherever one is;
    /// `tour`: the recording is a tour's, whose lesson has a row where the change line would.
    package init(
        terminal: ScreenSize, area: ScreenSize, streamsOpen: Bool, showsChange: Bool = false, slot: Bool = false,
        tour: Bool = false
    ) {
        let needed = Self.neededTerminal(for: area)
        shortfall =
            terminal.columns < needed.columns || terminal.rows < needed.rows
            ? TerminalShortfall(needed: needed, available: terminal) : nil
        // Rows for the player above the status line: those below the recorded area, then its own
        // (all but the few that stay in view).
        let below = max(0, terminal.rows - area.rows)
        var free = max(0, terminal.rows - 1 - Self.viewRows)
        hasTimeline = free >= 1
        if hasTimeline { free -= 1 }
        panelWantsRows = nil
        // A tour's lanes take the rows the tour gave them.
        let wanted = tour ? StreamPanel.rows : StreamPanel.rows(slot: slot)
        if streamsOpen, free >= 1 {
            let fits = free >= wanted
            panelFits = fits
            if !fits { panelMissingRows = wanted - free }
            panelRows = fits ? wanted : 1
            free -= panelRows
        } else {
            panelFits = nil
            panelRows = 0
            if streamsOpen { panelWantsRows = wanted }
        }
        // The change line where it covers nothing, and while paused wherever there is a row for
        // it: what the last step, jump or skip changed is read then.
        let used = (hasTimeline ? 1 : 0) + panelRows
        hasChangeRow = below - used >= 1 || (showsChange && free >= 1)
        let withChange = used + (hasChangeRow ? 1 : 0)
        // A tour's lesson wherever a row is left: at the top, the area's bottom row under the
        // player's rows if need be.
        hasTourRow = tour && (below - withChange >= 1 || free - (hasChangeRow ? 1 : 0) >= 1)
        coveredRows = max(0, withChange + (hasTourRow ? 1 : 0) - below)
    }

    /// The frame row of the timeline in a terminal of `terminal` (nil: no room for it): the
    /// row above the status line.
    package func timelineRow(in terminal: ScreenSize) -> Int? {
        hasTimeline ? terminal.rows - 2 : nil
    }
}

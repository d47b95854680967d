import BallModel
import ColourCore
import TextFormats

// MARK: - The help box

/// What the rows of a box of choices are.
package enum HelpChoice: Hashable, Sendable {
    /// The operators for the chain's slot (`f`).
    case operators
    /// `learn`'s lessons (`m`).
    case lessons
}

/// The keys of a mode, as the help box shows them.
package struct HelpText: Hashable, Sendable {
    /// The box's first line.
    package var title: String
    /// One row per binding: the keys, and what they do.
    package var rows: [HelpRow]
    /// The box's last line: how to close it.
    package var footer: String
    /// The page shown, from 0, where the rows take more than one (space turns it).
    package var page = 0
    /// What a digit picks in it, if its rows are choices (the operators box, `learn`'s lessons
    /// box): the run loop hands digits (and Enter) to the program, which closes the box; other
    /// keys close it as usual.
    package var choice: HelpChoice?

    /// Whether a digit picks one of its rows.
    package var choosable: Bool { choice != nil }

    /// A help text from its parts.
    package init(title: String, rows: [HelpRow], footer: String) {
        self.title = title
        self.rows = rows
        self.footer = footer
    }

    /// How wide the box's text is on a screen of `area` (above the status line): as wide as
    /// its widest row, within the screen less the box's edges.
    package func textWidth(on area: ScreenSize) -> Int {
        let keyWidth = rows.map(\.keys.terminalWidth).max() ?? 0
        let natural = (rows.map { keyWidth + 2 + $0.does.terminalWidth } + [title.terminalWidth]).max() ?? 0
        return max(1, min(natural, area.columns - 4))
    }

    /// The rows laid out in pages for a screen of `area` (above the status line): each row its
    /// keys, then what they do wrapped under the "does" column (or, where that column would be
    /// narrower than 20 cells, the keys on a line of their own and the rest indented under
    /// them); as many rows to a page as fit between the title and the footer, a row split
    /// across pages only when it is longer than a page.
    package func pages(on area: ScreenSize) -> [[String]] {
        let width = textWidth(on: area)
        let perPage = max(1, area.rows - 6)
        let keyWidth = rows.map(\.keys.terminalWidth).max() ?? 0
        let blocks = rows.map { row -> [String] in
            let keys = row.keys + String(repeating: " ", count: keyWidth + 2 - row.keys.terminalWidth)
            let doesWidth = width - keyWidth - 2
            guard doesWidth >= 20 else { return [(keys + row.does).fitted(toWidth: width)] }
            return row.does.wrapped(toWidth: doesWidth).enumerated().map { index, part in
                (index == 0 ? keys : String(repeating: " ", count: keyWidth + 2)) + part
            }
        }
        var pages: [[String]] = [[]]
        for block in blocks {
            for (index, line) in block.enumerated() {
                let used = pages[pages.count - 1].count
                let blockWouldSplit = index == 0 && used > 0 && used + block.count > perPage && block.count <= perPage
                if used == perPage || blockWouldSplit {
                    pages.append([])
                }
                pages[pages.count - 1].append(line)
            }
        }
        return pages
    }
}

/// One row of the help: keys, and what they do.
package struct HelpRow: Hashable, Sendable {
    /// The keys as people name them (`q, Esc, Ctrl-C`).
    package var keys: String
    /// What they do.
    package var does: String

    /// A row from its keys and what they do.
    package init(keys: String, does: String) {
        self.keys = keys
        self.does = does
    }
}

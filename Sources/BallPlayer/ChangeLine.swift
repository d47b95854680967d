import BallModel
import TextFormats

// MARK: - What a move changed

/// What a move changed, TCA-style: `#12 • dragged to 41,11: position 40,11 → 41,11 ·
/// ballColour flatRed (unchanged) · background (unchanged)`, in fewer words where the row is
/// narrower. A step names its intent as the streams panel does (``Marble/describe(_:)``); a
/// jump names where it went from and to.
package struct ChangeLine: Hashable, Sendable {
    /// How the player got there: `#12 • dragged to 41,11`, `#3 → #12`, `skip #4`.
    package var words: String
    /// The same in short: `#12 •`.
    package var shortWords: String
    /// The appearance before the move.
    package var before: Appearance
    /// The appearance after it.
    package var after: Appearance
    /// What the screen drew before and after, where a recorded tour's `o` bound it through a
    /// Publish copy of the chain (nil: the chain's own colours, ``before`` and ``after``'s).
    package var screenBefore, screenAfter: ScreenColours?

    /// The line for a move described by `words` (in short, `shortWords`), from `before` to `after`;
    /// the screen drew `screenBefore` and `screenAfter` where they are given (through a copy).
    package init(
        _ words: String, short shortWords: String? = nil, before: Appearance, after: Appearance,
        screenBefore: ScreenColours? = nil, screenAfter: ScreenColours? = nil
    ) {
        self.words = words
        self.shortWords = shortWords ?? words
        self.before = before
        self.after = after
        self.screenBefore = screenBefore
        self.screenAfter = screenAfter
    }

    /// The line in full, as it reads in a wide window.
    package var text: String { choices[0] }

    /// The line in at most `width` cells: in full where it fits, else with glyphs for the
    /// stream names (`● flatRed (same)`), else only where things ended up, and cut with `…`
    /// only where even that does not fit.
    package func fitted(toWidth width: Int) -> String {
        String.first(of: choices, fittingWidth: width)
    }

    /// The same line, longest first.
    private var choices: [String] {
        let from = before.position.centre
        let to = after.position.centre
        let (ball, background) = (Glyph.ball, Glyph.background)
        // The position subject holds the ball's screen too: a resize publishes a position even
        // where the ball stays.
        let (fromScreen, toScreen) = (before.position.screen, after.position.screen)
        let position =
            before.position == after.position
            ? "position \(to.column),\(to.row) (unchanged)"
            : from == to
                ? "position \(to.column),\(to.row) on \(fromScreen) → on \(toScreen)"
                : "position \(from.column),\(from.row) → \(to.column),\(to.row)"
        let ballColour =
            before.ball == after.ball
            ? "ballColour \(after.ball.name) (unchanged)" : "ballColour \(before.ball.name) → \(after.ball.name)"
        let backgroundColour =
            before.background == after.background
            ? "background (unchanged)" : "background \(before.background.name) → \(after.background.name)"
        let shortPosition =
            before.position == after.position
            ? "\(to.column),\(to.row) (same)"
            : from == to
                ? "\(to.column),\(to.row) on \(toScreen)" : "\(from.column),\(from.row) → \(to.column),\(to.row)"
        let shortBall =
            before.ball == after.ball
            ? "\(ball) \(after.ball.name) (same)" : "\(ball) \(before.ball.name) → \(after.ball.name)"
        let shortBackground =
            before.background == after.background
            ? "\(background) (same)" : "\(background) \(before.background.name) → \(after.background.name)"
        // The screen's colours where a copy drew them: the chain's streams above say what the
        // chain did, this what the screen showed.
        var (screen, shortScreen, endScreen) = ("", "", "")
        if screenBefore != nil || screenAfter != nil {
            let from = screenBefore ?? ScreenColours(ball: before.ball, background: before.background)
            let to = screenAfter ?? ScreenColours(ball: after.ball, background: after.background)
            let through = screenAfter == nil ? "the chain" : "a Publish copy"
            let shown = { (colours: ScreenColours) in
                "\(ball) \(colours.ball.name) \(background) \(colours.background.name)"
            }
            let change = from == to ? "\(shown(to)) (unchanged)" : "\(shown(from)) → \(shown(to))"
            screen = "the screen, through \(through): \(change)"
            shortScreen = "screen \(change)"
            endScreen = " · screen \(shown(to))"
        }
        let (withScreen, withShortScreen) = screen.isEmpty ? ("", "") : (" · " + screen, " · " + shortScreen)
        // Where only the screen changed (a recorded tour's `o`), what it showed, first.
        let screenOnly =
            screen.isEmpty || before != after ? [] : ["\(shortWords): \(screen)", "\(shortWords): \(shortScreen)"]
        return [
            "\(words): \(position) · \(ballColour) · \(backgroundColour)\(withScreen)",
            "\(words): \(shortPosition) · \(shortBall) · \(shortBackground)\(withShortScreen)",
        ] + screenOnly + [
            "\(shortWords): \(shortPosition) · \(shortBall) · \(shortBackground)\(withShortScreen)"
        ] + (screen.isEmpty ? [] : ["\(shortWords): \(shortPosition)\(withShortScreen)"]) + [
            "\(shortWords): \(to.column),\(to.row) \(ball) \(after.ball.name) \(background) \(after.background.name)"
                + endScreen
        ]
    }
}

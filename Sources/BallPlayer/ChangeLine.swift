import BallModel

// MARK: - What a move changed

/// What a move changed, TCA-style: `#12 •: position 40,11 → 41,11 · ballColour flatRed
/// (unchanged) · background (unchanged)`.
package enum ChangeLine {
    /// The line for a move described by `words`, from `before` to `after`.
    package static func text(_ words: String, before: Appearance, after: Appearance) -> String {
        let from = before.position.centre
        let to = after.position.centre
        let position =
            from == to
            ? "position \(to.column),\(to.row) (unchanged)"
            : "position \(from.column),\(from.row) → \(to.column),\(to.row)"
        let ball =
            before.ball == after.ball
            ? "ballColour \(after.ball.name) (unchanged)" : "ballColour \(before.ball.name) → \(after.ball.name)"
        let background =
            before.background == after.background
            ? "background (unchanged)" : "background \(before.background.name) → \(after.background.name)"
        return "\(words): \(position) · \(ball) · \(background)"
    }
}

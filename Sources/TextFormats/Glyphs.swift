// MARK: - Every glyph the program draws

/// Every character beyond ASCII that the program draws, in every view, in one list.
///
/// Each is in DejaVu Sans Mono (Debian's and Ubuntu's default monospace font), Liberation Mono
/// and Noto Sans Mono, so no terminal draws a box or clips one: a test reads the three fonts'
/// character maps against ``all``, and another renders every view and finds nothing drawn that
/// is not here. Marks and shapes are named here and used by name; the punctuation of text
/// (`·`, `×`, `→`, `…`) is written in place and listed here.
package enum Glyph {
    // MARK: - The ball

    /// The disc's half cells: the lower half in the ball's colour (or, reversed, the upper).
    package static let lowerHalf: Unicode.Scalar = "▄"

    // MARK: - Marbles and swatches

    /// A value the position stream published.
    package static let value: Unicode.Scalar = "○"
    /// The ball's colour: a marble on its lane and the swatch on the status line.
    package static let ball: Unicode.Scalar = "●"
    /// The background's colour: a marble on its lane and the swatch on the status line.
    package static let background: Unicode.Scalar = "■"
    /// A value worked out and swallowed (a duplicate), and the separator of text.
    package static let ghost: Unicode.Scalar = "·"
    /// A skipped intent (the player's `x`): nothing went through (a slashed o, in every font).
    package static let skipped: Unicode.Scalar = "ø"
    /// "By" in sizes (`80×24`).
    package static let times: Unicode.Scalar = "×"
    /// Where a subscription began (the Rx marble syntax's `^`).
    package static let subscribed: Unicode.Scalar = "^"
    /// Where a stream completed (the Rx marble syntax's `|`).
    package static let completed: Unicode.Scalar = "|"
    /// Where a subscriber unsubscribed (the Rx marble syntax's `!`).
    package static let unsubscribed: Unicode.Scalar = "!"
    /// Where a stream ended with an error (the Rx marble syntax's `#`; the seeds' ASCII
    /// diagrams draw an `X`, which reads as a letter here, where letters are values).
    package static let error: Unicode.Scalar = "#"
    /// A lane's line, and the timeline's.
    package static let line: Unicode.Scalar = "─"
    /// A timed operator's timer running, in the time view (`debounce` waiting for quiet,
    /// `throttle`'s window open): a wavy line, as far as the wait has gone.
    package static let waiting: Unicode.Scalar = "~"
    /// Two values at once (a Replay subject's replay, or in one column of the time view): a
    /// superscript, so that no count reads as one.
    package static let groupOfTwo: Unicode.Scalar = "²"
    /// Three values at once.
    package static let groupOfThree: Unicode.Scalar = "³"
    /// More than three values at once (in one column of the time view).
    package static let groupOfMore: Unicode.Scalar = "»"
    /// Where an operator went into the slot: its part of the slot's lane starts here.
    package static let segment: Unicode.Scalar = "├"

    /// The mark of `count` values at once: `²`, `³`, then `»` (every monospace font has these;
    /// few have a superscript four).
    package static func group(_ count: Int) -> Unicode.Scalar {
        switch count {
        case ...2: groupOfTwo
        case 3: groupOfThree
        default: groupOfMore
        }
    }

    // MARK: - Intents

    /// The button went down.
    package static let pressed: Unicode.Scalar = "▼"
    /// The pointer moved with the button down.
    package static let dragged: Unicode.Scalar = "•"
    /// The button came up.
    package static let released: Unicode.Scalar = "▲"
    /// The arrows, as their keys move the ball.
    package static let left: Unicode.Scalar = "←"
    package static let up: Unicode.Scalar = "↑"
    package static let right: Unicode.Scalar = "→"
    package static let down: Unicode.Scalar = "↓"
    /// Back to the middle (`c`): a circle in the middle of a square.
    package static let recentred: Unicode.Scalar = "◙"
    /// The terminal changed size.
    package static let resized: Unicode.Scalar = "↔"
    /// The user quit (the stream then completes, `|`).
    package static let quit: Unicode.Scalar = "q"
    /// The tour's `e`: position completed, and the program runs on (the stream completes, `|`).
    package static let completion: Unicode.Scalar = "e"
    /// An operator was put in the chain's slot (`f`): a function.
    package static let operatorChosen: Unicode.Scalar = "ƒ"
    /// The mirror flipped (`i`): a broken bar, a mirror's edge.
    package static let mirrorFlipped: Unicode.Scalar = "¦"

    // MARK: - The player

    /// The timeline's tick where the ball's colour changed, in the new colour.
    package static let tick: Unicode.Scalar = "│"
    /// The timeline's mark at the current place.
    package static let place: Unicode.Scalar = "◘"
    /// A cell of the player's future where colour cannot tell it from what was played (no
    /// colours, or none to spare): a light shade, the lane's time still to come, its marks not
    /// drawn as if played.
    package static let later: Unicode.Scalar = "░"

    // MARK: - Text

    /// Where text was cut to fit.
    package static let ellipsis: Unicode.Scalar = "…"
    /// A dash in messages.
    package static let dash: Unicode.Scalar = "—"
    /// A range in messages (`0–255`).
    package static let rangeDash: Unicode.Scalar = "–"

    /// Every glyph above beyond ASCII, each once.
    package static let all: [Unicode.Scalar] = [
        lowerHalf, value, ball, background, ghost, skipped, times, line, groupOfTwo, groupOfThree, groupOfMore, segment,
        pressed, dragged, released, left, up, right,
        down,
        recentred, resized, operatorChosen, mirrorFlipped, tick, place, later, ellipsis, dash, rangeDash,
    ]

    // MARK: - In ASCII

    /// Each glyph of the panel's and the timeline's columns (and of the text beside them) in
    /// ASCII, for a terminal that draws some of them two cells wide (many do, for East Asian
    /// ambiguous-width characters in a CJK locale), where the columns would not line up.
    package static let ascii: [Unicode.Scalar: Unicode.Scalar] = [
        value: "o", ball: "@", background: "=", ghost: ".", skipped: "/", times: "x", line: "-", groupOfTwo: "2",
        groupOfThree: "3", groupOfMore: "+", segment: ":", pressed: "v",
        dragged: "*",
        released: "r", left: "<", up: "A", right: ">", down: "V", recentred: "C", resized: "S", mirrorFlipped: "I",
        tick: "|",
        place: "+", later: "_", ellipsis: "~", dash: "-", rangeDash: "-",
    ]
}

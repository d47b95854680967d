import BallModel
import ColourCore

// MARK: - The glide

/// The original's motion, in the drawing only: a jump glides to its new place over
/// ``duration`` and the colours fade, as UIKit's additive animations do (the drawing reaches
/// each new value a tenth of a second after it came, however many came before). A step under
/// the user's hand (a drag step, a one-cell arrow) is drawn where it went at once: the pointer
/// is there, and a ball that trails it reads as lag.
///
/// The chain has published the final values at once; the glide only says where the disc is
/// drawn and in what colours at a given time, and when its next frame is due.
package struct Glide {
    /// Where the ball's centre is and the colours of its disc and the screen.
    package struct Look: Equatable, Sendable {
        /// The disc's centre.
        package var centre: Cell
        /// The disc's colour.
        package var ball: RGBColour
        /// The screen's colour.
        package var screen: RGBColour

        /// A look from its parts.
        package init(centre: Cell, ball: RGBColour, screen: RGBColour) {
            self.centre = centre
            self.ball = ball
            self.screen = screen
        }
    }

    /// How a change of place is drawn.
    package enum Move: Sendable {
        /// It glides over ``Glide/duration`` (a click away, `c`, Shift-moves, a step in the
        /// player, anything the user's hand is not on).
        case glides
        /// It is drawn where it went in the first frame, its colours too; what was still
        /// gliding stops where it aimed, and colours still fading go on fading (a drag step,
        /// a one-cell arrow: the hand is where the ball went).
        case atOnce
    }

    /// One change of place or colours: by how much, and when it came (its glide began a frame
    /// earlier, so that its first frame moves).
    private struct Change {
        var start: Duration
        var columns: Double
        var rows: Double
        var ball: (Double, Double, Double)
        var screen: (Double, Double, Double)

        var changesColours: Bool { ball != (0, 0, 0) || screen != (0, 0, 0) }
    }

    /// How long a jump glides and a colour fades: the original's
    /// `UIView.animateWithDuration(0.1)`.
    package static let duration = Duration.milliseconds(100)
    /// The least time between two frames of a glide: at most 60 a second.
    package static let frameInterval = Duration.nanoseconds(16_666_667)
    /// At most this many changes glide at once (a burst of more than one a frame and a half):
    /// the oldest are folded into the next.
    private static let changesKept = 64

    /// The changes still gliding, oldest first.
    private var changes: [Change] = []
    /// The place and colours the last frame aimed at (the chain's latest).
    private var target: Look
    /// The ball's area the last frame was drawn on.
    private var size: ScreenSize
    /// When the last frame was drawn, on the run loop's clock.
    private var lastFrame: Duration = .zero

    /// A glide at rest, showing `look` on an area of `size`.
    package init(at look: Look, on size: ScreenSize) {
        target = look
        self.size = size
    }

    /// When the next frame is due, on the run loop's clock; nil when nothing glides (nothing
    /// wakes the program).
    package var nextFrameDue: Duration? { changes.isEmpty ? nil : lastFrame + Self.frameInterval }

    /// The chain's latest is `look` on an area of `size` at `now`, the last change of place
    /// made as `move` says: whether a frame is due for it (a new aim, or the glide's next frame,
    /// no sooner than ``frameInterval`` after the last). A change of the area (a resize) jumps:
    /// the disc's shape changes with it.
    package mutating func aim(at look: Look, on size: ScreenSize, now: Duration, move: Move) -> Bool {
        defer {
            target = look
            self.size = size
        }
        if size != self.size {
            changes.removeAll()
            return false
        }
        guard look != target else {
            guard let due = nextFrameDue else { return false }
            return now >= due - .microseconds(500)
        }
        if move == .atOnce {
            // The place is the aim's now; colours still fading from before go on fading.
            changes = changes.compactMap { change in
                var change = change
                (change.columns, change.rows) = (0, 0)
                return change.changesColours ? change : nil
            }
            return true
        }
        func delta(_ new: RGBColour, _ old: RGBColour) -> (Double, Double, Double) {
            (new.red - old.red, new.green - old.green, new.blue - old.blue)
        }
        if changes.count >= Self.changesKept { changes.removeFirst() }
        changes.append(
            Change(
                start: now - Self.frameInterval, columns: Double(look.centre.column - target.centre.column),
                rows: Double(look.centre.row - target.centre.row), ball: delta(look.ball, target.ball),
                screen: delta(look.screen, target.screen)))
        return true
    }

    /// The frame drawn at `now`: where the disc is and the colours shown while they fade (nil:
    /// the aim itself, nothing gliding). `blends`: the screen can show colours between the flat
    /// ones (else the colours switch at once and only the place glides).
    package mutating func frame(now: Duration, blends: Bool) -> Motion? {
        lastFrame = now
        // What is left of each change to glide in: the drawing is the aim less all of it.
        changes.removeAll { now - $0.start >= Self.duration }
        guard !changes.isEmpty else { return nil }
        var left = (columns: 0.0, rows: 0.0, ball: (0.0, 0.0, 0.0), screen: (0.0, 0.0, 0.0))
        for change in changes {
            let remaining = 1 - Self.easeInOut((now - change.start) / Self.duration)
            left.columns += change.columns * remaining
            left.rows += change.rows * remaining
            left.ball = (
                left.ball.0 + change.ball.0 * remaining, left.ball.1 + change.ball.1 * remaining,
                left.ball.2 + change.ball.2 * remaining
            )
            left.screen = (
                left.screen.0 + change.screen.0 * remaining, left.screen.1 + change.screen.1 * remaining,
                left.screen.2 + change.screen.2 * remaining
            )
        }
        func less(_ colour: RGBColour, _ by: (Double, Double, Double)) -> RGBColour {
            RGBColour(red: colour.red - by.0, green: colour.green - by.1, blue: colour.blue - by.2)
        }
        let fading = blends && changes.contains(where: \.changesColours)
        return Motion(
            centre: Cell(
                column: target.centre.column - Int(left.columns.rounded()),
                row: target.centre.row - Int(left.rows.rounded())),
            blends: fading ? Blends(ball: less(target.ball, left.ball), screen: less(target.screen, left.screen)) : nil)
    }

    /// UIKit's ease-in-out curve (`UIViewAnimationCurveEaseInOut`, Core Animation's
    /// `kCAMediaTimingFunctionEaseInEaseOut`): the cubic Bézier from (0, 0) to (1, 1) through the
    /// control points (0.42, 0) and (0.58, 1), its progress at `time` (0...1).
    package static func easeInOut(_ time: Double) -> Double {
        guard time > 0 else { return 0 }
        guard time < 1 else { return 1 }
        // x(s) = 3(1−s)²s·0.42 + 3(1−s)s²·0.58 + s³ rises from 0 to 1: find s where x(s) = time.
        func bezier(_ s: Double, _ first: Double, _ second: Double) -> Double {
            3 * (1 - s) * (1 - s) * s * first + 3 * (1 - s) * s * s * second + s * s * s
        }
        var (low, high) = (0.0, 1.0)
        for _ in 0..<40 {
            let middle = (low + high) / 2
            if bezier(middle, 0.42, 0.58) < time { low = middle } else { high = middle }
        }
        return bezier((low + high) / 2, 0, 1)
    }
}

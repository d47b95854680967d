import BallModel
import BallProgram
import BallRendering

// MARK: - Completion, recorded with late subscribers after the end

/// A recorded Completion lesson whose late subscriptions come before and after `e`, each at a
/// time of its own: what the player's two views and every export must draw alike.
package enum CompletionTour {
    /// One step of the tour: a key typed, an arrow pressed, or a wait with no key.
    package enum Step: Hashable, Sendable {
        case key(Unicode.Scalar)
        case right
        case wait(Duration)
    }

    /// The guess, a move, the four late subscribers (b, p and r ask their lessons' questions
    /// first, answered), a move, `e`; then b, p and r, v (which cancels the relay subscribed
    /// before), a wait, v again, a move (the session has ended: it records nothing); then q
    /// (``recorded()``). Each key or move 400 ms after the step before it.
    package static let steps: [Step] =
        [.key("2"), .right, .key("b"), .key("1"), .key("p"), .key("1"), .key("r"), .key("3"), .key("v"), .right]
        + [.key("e"), .key("b"), .key("p"), .key("r"), .key("v"), .wait(.seconds(2)), .key("v"), .right]

    /// How long after the step before each key or move comes.
    package static let pace = Duration.milliseconds(400)

    /// The tour played from Completion's start with the streams open (`steps`, ``steps`` unless
    /// given), recorded, and what it showed before the q that ends it.
    package static func recorded(_ steps: [Step] = steps) throws -> (tour: RecordedTour, shown: Frame) {
        let lesson = Lesson.all.firstIndex { $0.id == "completion" } ?? Lesson.all.count
        let tour = try RecordedTour(first: lesson)
        if !tour.pilot.learn.play.isStreamsOpen { tour.pilot.type("s") }
        for step in steps {
            switch step {
            case .key(let key):
                tour.pilot.pass(pace)
                tour.pilot.type(key)
            case .right:
                tour.pilot.pass(pace)
                tour.pilot.press(.right)
            case .wait(let duration): tour.pilot.pass(duration)
            }
        }
        let shown = tour.pilot.frame
        tour.pilot.pass(pace)
        tour.pilot.type("q")
        return (tour, shown)
    }
}

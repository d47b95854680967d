import BallModel
import BallRendering
import BallReplay
import BallStreams

// MARK: - The page last worked out, kept while the player steps within it

/// The columns and late lanes of the streams page the player last worked out from its recording
/// (``StreamsPage``), with what they were worked out from: a step within the page (on a time
/// axis a page holds every intent of 64 spans, some 6,400 of a drag 1 ms apart) shows the same
/// columns with another present, so it sends none of the page's intents through a scratch
/// session again; only the letter book at the new place is worked out (``LetterBooks``: from
/// the last book, or the one kept before it, up to 63 intents). Anything the page's replay
/// depends on that changes (the skips, what was read, the page's intents, the late
/// subscriptions and cancels, the lesson) works it out afresh.
package final class KeptPage {
    /// What a page's replay is worked out from.
    struct Key: Equatable {
        /// The index's revision (its skips) and how many intents it had read.
        var revision: Int, count: Int
        /// The intent the scratch session starts after, the last it sends, and the first column kept.
        var first: Int, end: Int, start: Int
        /// Whether on a time axis (a first column at the start is drawn at the start's time).
        var timed: Bool
        /// Where the lesson of the page began, among the observations.
        var marker: Int?
        /// Whether the letters were noted (the recorder's book seeded from the books).
        var letters: Bool
        /// The place whose column is drawn as it stood at a time before its end, and that time.
        var present: Present?
        /// The late subscriptions and cancels made again, at their places and times.
        var observations: [Made]
    }

    /// A place whose column is drawn as it stood when the clock reached `reached`.
    struct Present: Equatable {
        var place: Int
        var reached: SessionTime
    }

    /// A late subscription or cancel made again on a page (``StreamsPage/LateObservation``).
    struct Made: Equatable {
        var place: Int
        var observation: Observation
        var time: SessionTime?
    }

    /// What a page's replay gave: its columns from the first it shows, its late lanes, where its
    /// lesson began (nil: not a tour), and the letter book at its last intent (nil: no letters).
    struct Recorded {
        var columns: [StreamColumn]
        var lateLanes: [LateLane]
        var floor: PageFloor?
        var endLetters: [MarbleValue: Unicode.Scalar]?
    }

    /// The page last worked out, and what from.
    private var kept: (key: Key, page: Recorded)?
    /// How many times the page kept was given again (a test's evidence that it was kept).
    package private(set) var reused = 0

    /// Nothing kept yet.
    package init() {}

    /// The page worked out from `key`, if it is the one kept.
    func page(for key: Key) -> Recorded? {
        guard let kept, kept.key == key else { return nil }
        reused += 1
        return kept.page
    }

    /// Keeps `page`, worked out from `key` (in place of the one kept before).
    func keep(_ page: Recorded, for key: Key) {
        kept = (key, page)
    }
}

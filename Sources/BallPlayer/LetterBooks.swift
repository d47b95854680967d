import BallModel
import BallReplay
import BallStreams

// MARK: - The session's letters at each place of a recording

/// The letter book (``ValueLetterBook``) as the recording's own session had it at each place:
/// what its live panel drew a value with then, so that the player's page draws it with the same
/// letter. The book is what the stream recorder noted from the session's start, so it is worked
/// out the same way: the intents sent through a scratch session with a ``StreamRecorder`` on it
/// (skipped ones left out, as the player plays them), a book kept every ``interval`` places, and
/// the place's own worked out from the one before it. Kept until the skips change. The player's
/// page asks for the book at its first place: the page's own scratch session, seeded with it,
/// carries it on to the place shown (``StreamsPage``), so a step within a page is replayed once.
package final class LetterBooks {
    /// How many places lie between two books kept.
    package static let interval = 64

    /// The books at places 0, ``interval``, 2 × ``interval``, …, as far as they were asked for.
    private var kept: [ValueLetterBook] = []
    /// The book last worked out, and its place: the next place asked for is most often the next.
    private var last: (place: Int, book: ValueLetterBook)?
    /// The index's revision (its skips) the books are of.
    private var revision: Int?

    /// No books yet.
    package init() {}

    /// The book at `place` of `index`: after its intent, and what the chain's timers did until the
    /// next.
    package func book(at place: Int, in index: ReplayIndex) -> ValueLetterBook {
        let place = min(max(0, place), index.count)
        if revision != index.revision {
            (kept, last, revision) = ([], nil, index.revision)
        }
        if let last, last.place == place { return last.book }
        if kept.isEmpty { kept = [Self.book(of: index, from: 0, after: nil, through: 0)] }
        while kept.count <= place / Self.interval {
            let from = (kept.count - 1) * Self.interval
            kept.append(Self.book(of: index, from: from, after: kept.last, through: from + Self.interval))
        }
        var from = place / Self.interval * Self.interval
        var book = kept[place / Self.interval]
        if let last, last.place <= place, last.place > from { (from, book) = (last.place, last.book) }
        book = Self.book(of: index, from: from, after: book, through: place)
        last = (place, book)
        return book
    }

    /// The book at `end`, worked out from `book`, the one at `first` (nil: `first` is the start,
    /// where the recorder's subscriptions are what notes the first values).
    private static func book(of index: ReplayIndex, from first: Int, after book: ValueLetterBook?, through end: Int)
        -> ValueLetterBook
    {
        if let book, first >= end { return book }
        let scratch = BallSession(start: index.state(at: first))
        let recorder = StreamRecorder(session: scratch, capacity: 2, firstIndex: first, letterBook: book)
        index.replay(after: first, through: end, on: scratch, noting: recorder)
        return recorder.letterBook
    }
}

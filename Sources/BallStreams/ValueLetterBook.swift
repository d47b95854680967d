import BallModel

// MARK: - A value's letter, the same on every page

/// The letter each value that does not fit its column has in a session (``MarbleValue/letters``),
/// given out as the values first come, so that a position keeps its letter on every page and in
/// both views: a page draws a value with its letter here where no other value on the page has
/// that letter. Forty letters go round: a value new once all are given takes the letter whose
/// value came least recently (and a value that comes back after losing its letter takes a new
/// one the same way).
///
/// The values that come at one moment (an intent's column at one time: an intent, or a timer of
/// the chain) take their letters in the order the lanes draw them, top to bottom (``note(_:lane:at:)``),
/// not in the order their streams happened to be told: a session built part-way (the player's)
/// subscribes its streams in another order than the session that was recorded did, and its
/// letters are the same all the same.
package struct ValueLetterBook: Hashable, Sendable {
    /// The moment values come at: the column (an intent's index) and the time on the session's clock.
    package struct Moment: Hashable, Sendable {
        /// The column's intent index.
        package var column: Int
        /// The time on the session's clock.
        package var time: SessionTime

        /// The moment `time` in column `column`.
        package init(column: Int, time: SessionTime) {
            self.column = column
            self.time = time
        }
    }

    /// A value come at the latest moment, not yet given its letter, and the place of its lane.
    private struct Waiting: Hashable, Sendable {
        var value: MarbleValue
        var lane: Int
    }

    /// Each value's letter, by value, the values of the latest moment included.
    package var letters: [MarbleValue: Unicode.Scalar] {
        guard !waiting.isEmpty else { return given }
        var book = self
        book.giveOut()
        return book.given
    }

    /// Each value's letter, by value, but for those of the latest moment.
    private var given: [MarbleValue: Unicode.Scalar] = [:]
    /// The value each letter stands for, by the letter's place in ``MarbleValue/letters``.
    private var owners: [MarbleValue?] = Array(repeating: nil, count: MarbleValue.letters.count)
    /// When each letter's value last came (a count of values given out), by the letter's place.
    private var lastCame: [Int] = Array(repeating: -1, count: MarbleValue.letters.count)
    /// How many values were given out.
    private var noted = 0
    /// The values of the latest moment, in the order of their lanes (those of one lane in the
    /// order they came).
    private var waiting: [Waiting] = []
    /// The latest moment a value came at.
    private var moment: Moment?

    /// An empty book.
    package init() {}

    /// `value` came at `moment`, on the lane at place `lane` from the top: it keeps its letter, or
    /// takes the first letter not given yet, or the one whose value came least recently, when
    /// the values of its moment are given out in the order of their lanes. A value drawn as itself
    /// (a count from 1 to 9, `T`, `F`) takes none.
    package mutating func note(_ value: MarbleValue, lane: Int, at moment: Moment) {
        guard value.glyph == nil else { return }
        if moment != self.moment {
            giveOut()
            self.moment = moment
        }
        let after = waiting.lastIndex { $0.lane <= lane }.map { $0 + 1 } ?? 0
        waiting.insert(Waiting(value: value, lane: lane), at: after)
    }

    /// Gives the latest moment's values their letters, in order.
    private mutating func giveOut() {
        for came in waiting { give(came.value) }
        waiting.removeAll()
    }

    /// `value` came: it keeps its letter, or takes the first letter not given yet, or the one
    /// whose value came least recently.
    private mutating func give(_ value: MarbleValue) {
        noted += 1
        if let letter = given[value], let place = MarbleValue.letters.firstIndex(of: letter) {
            lastCame[place] = noted
            return
        }
        var place = 0
        for candidate in lastCame.indices where lastCame[candidate] < lastCame[place] { place = candidate }
        if let old = owners[place] { given[old] = nil }
        owners[place] = value
        lastCame[place] = noted
        given[value] = MarbleValue.letters[place]
    }
}

// MARK: - A value's letter, the same on every page

/// The letter each value that does not fit its column has in a session (``MarbleValue/letters``),
/// given out as the values first come, so that a position keeps its letter on every page and in
/// both views: a page draws a value with its letter here where no other value on the page has
/// that letter. Forty letters go round: a value new once all are given takes the letter whose
/// value came least recently (and a value that comes back after losing its letter takes a new
/// one the same way).
package struct ValueLetterBook: Hashable, Sendable {
    /// Each value's letter, by value.
    package private(set) var letters: [MarbleValue: Unicode.Scalar] = [:]
    /// The value each letter stands for, by the letter's place in ``MarbleValue/letters``.
    private var owners: [MarbleValue?] = Array(repeating: nil, count: MarbleValue.letters.count)
    /// When each letter's value last came (a count of values noted), by the letter's place.
    private var lastCame: [Int] = Array(repeating: -1, count: MarbleValue.letters.count)
    /// How many values were noted.
    private var noted = 0

    /// An empty book.
    package init() {}

    /// `value` came: it keeps its letter, or takes the first letter not given yet, or the one
    /// whose value came least recently. A value drawn as itself (a count from 1 to 9, `T`, `F`)
    /// takes none.
    package mutating func note(_ value: MarbleValue) {
        guard value.glyph == nil else { return }
        noted += 1
        if let letter = letters[value], let place = MarbleValue.letters.firstIndex(of: letter) {
            lastCame[place] = noted
            return
        }
        var place = 0
        for candidate in lastCame.indices where lastCame[candidate] < lastCame[place] { place = candidate }
        if let old = owners[place] { letters[old] = nil }
        owners[place] = value
        lastCame[place] = noted
        letters[value] = MarbleValue.letters[place]
    }
}

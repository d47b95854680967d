import Platform

// MARK: - Temporary files a signal must not leave behind

/// The hidden temporary files an output is written to before it takes its target's place (a
/// recording, a cast, an edited log): remembered here so that a signal that ends the program
/// (closing the terminal window is SIGHUP) removes them too, not only the normal way out.
///
/// Removing is async-signal-safe: the paths are kept in fixed storage, allocated once, and the
/// handler only calls `unlink`.
package enum TemporaryFiles {
    /// How many files can be remembered at once (an output and an edited log, with room).
    static let slots = 8
    /// The longest path remembered, its NUL included.
    static let pathCapacity = 4_096

    /// Remembers the file at `path` (its bytes, without a NUL); returns its slot, or nil when
    /// it cannot be remembered (too long a path, no free slot: a signal may then leave it).
    package static func remember(_ path: [UInt8]) -> Int? {
        let storage = TemporaryFileStorage.shared
        guard path.count < pathCapacity, !path.contains(0),
            let slot = (0..<slots).first(where: { storage.used[$0] == 0 })
        else { return nil }
        let start = storage.paths + slot * pathCapacity
        for (offset, byte) in path.enumerated() { start[offset] = CChar(bitPattern: byte) }
        start[path.count] = 0
        storage.used[slot] = 1
        return slot
    }

    /// Forgets the file in `slot` (it took its place, or it was removed).
    package static func forget(_ slot: Int) {
        TemporaryFileStorage.shared.used[slot] = 0
    }

    /// Removes every remembered file. Async-signal-safe: the terminal guard's handler calls it.
    static func removeAll() {
        let storage = TemporaryFileStorage.shared
        for slot in 0..<slots where storage.used[slot] != 0 {
            unlink(storage.paths + slot * pathCapacity)
        }
    }

    /// For a command without a terminal (a cast, an edited log): every signal that would end
    /// the program, and was not ignored when it started, first removes the files, then does what
    /// it would have done. With a terminal open, the terminal guard's handler does both (it
    /// restores the terminal, then removes the files): it stays, and this does nothing.
    package static func removeOnSignals() {
        guard GuardStorage.shared.installed == 0 else { return }
        for signal in TerminalGuard.fatalSignals where !TerminalGuard.crashSignals.contains(signal) {
            var current = sigaction()
            sigaction(signal, nil, &current)
            guard !current.ignoresSignal else { continue }
            var action = sigaction(handler: temporaryFilesHandler)
            sigaction(signal, &action, nil)
        }
    }
}

/// Fixed storage the signal handlers read: allocated once, before any handler can run.
final class TemporaryFileStorage: @unchecked Sendable {
    static let shared = TemporaryFileStorage()
    let paths = UnsafeMutablePointer<CChar>.allocate(capacity: TemporaryFiles.slots * TemporaryFiles.pathCapacity)
    let used = UnsafeMutablePointer<Int32>.allocate(capacity: TemporaryFiles.slots)

    private init() {
        used.initialize(repeating: 0, count: TemporaryFiles.slots)
    }
}

/// Removes the files, then lets the signal do what it would by default.
private func temporaryFilesHandler(_ signal: Int32) {
    TemporaryFiles.removeAll()
    var action = sigaction(handler: defaultSignalAction)
    sigaction(signal, &action, nil)
    raise(signal)
}

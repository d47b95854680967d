import ArgumentParser
import BallProgram
import BallReplay
import BallTerminal
import Platform
import TextFormats

/// `colourful-ball learn`: the article as a tour of lessons, each a task in the live program
/// that the program checks from its own streams, in the manner of vimtutor and rustlings.
struct LearnCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "learn",
        abstract:
            "Learn the article's idea in \(Lesson.all.count) lessons, each a task the program checks from its own streams.",
        discussion: """
            Starts at the first lesson not done; progress is kept in \
            $XDG_STATE_HOME/colourful-ball/learn.json (default ~/.local/state). Keys:
            \(KeyMap.summary(for: .learn))

            \(KeyMap.legendSummary(untold: KeyMap.neutralLegend))
            """)

    @Argument(
        help: ArgumentHelp(
            "Start at this lesson (1 to \(Lesson.all.count)); with --reset, forget only it.", valueName: "lesson"))
    var lesson: Int?

    @Flag(help: "List the lessons, and which are done.")
    var list = false

    @Flag(help: "Forget which lessons are done (with a lesson number, only that one).")
    var reset = false

    @Option(
        help: ArgumentHelp(
            "Record the tour's session to a replay file (JSON Lines), to replay and travel in.", valueName: "file"),
        completion: .file())
    var record: String?

    @Flag(help: "With --record, overwrite the file if it exists.")
    var force = false

    @Flag(
        name: .customLong("no-animation"),
        help:
            "Jump the ball to each new place, and switch its colours at once, instead of the original's 0.1 s glide and fade."
    )
    var noAnimation = false

    func validate() throws {
        if let lesson, !(1...Lesson.all.count).contains(lesson) {
            throw ValidationError("There are lessons 1 to \(Lesson.all.count); got \(lesson).")
        }
        if list && reset { throw ValidationError("Give --list or --reset, not both.") }
        if lesson != nil && list { throw ValidationError("A lesson number goes without --list.") }
        if record != nil && (list || reset) { throw ValidationError("--record goes without --list and --reset.") }
        if record == "" { throw ValidationError("--record needs a file name: an empty name is not a file.") }
        if force && record == nil { throw ValidationError("--force goes with --record FILE.") }
    }

    func run() throws {
        let progress = try LearnProgress.located()
        if reset, let lesson {
            try DescriptorOutput.standardOutput.writeAll([])
            _ = try progress.save([], forgetting: Lesson.ids(of: [lesson - 1]))
            try DescriptorOutput.standardOutput.writeAll(
                Array("Lesson \(lesson) forgotten: learn comes to it as not done.\n".utf8))
            return
        }
        if reset {
            // Said first, so that a closed standard output refuses before anything is removed.
            try DescriptorOutput.standardOutput.writeAll([])
            try progress.reset()
            try DescriptorOutput.standardOutput.writeAll(Array("Progress forgotten: learn starts at lesson 1.\n".utf8))
            return
        }
        // A file that cannot be read as the progress is said, and kept: nothing overwrites it.
        var done = Lesson.indices(of: try progress.load())
        if list {
            let lines = Lesson.all.enumerated().map { index, lesson in
                "\(index + 1). \(lesson.title)\(done.contains(index) ? "  (done)" : "")"
            }
            try DescriptorOutput.standardOutput.writeAll(Array((lines.joined(separator: "\n") + "\n").utf8))
            return
        }
        let first = lesson.map { $0 - 1 } ?? (Lesson.all.indices.first { !done.contains($0) } ?? Lesson.all.count)
        var failure: Error?
        // Before the terminal is taken, and without touching an existing file.
        let recording = try record.map { try Recording(record: $0, force: force) }
        let wallStart = Play.wallClockMilliseconds()
        do {
            try InteractiveProgram.learn(
                first: first, done: done, animated: !noAnimation,
                hook: { session, lanes, showNotice in
                    try recording?.start(
                        session: session, observations: lanes,
                        started: Timestamp.iso8601Text(milliseconds: wallStart), showNotice: showNotice)
                    return nil
                }
            ) { index in
                done.insert(index)
                do {
                    // Only the lesson just done, merged under the lock with what the file holds
                    // now: another tour's lessons stay, and a reset since is not undone.
                    done = Lesson.indices(of: try progress.save(Lesson.ids(of: [index])))
                    failure = nil
                    return nil
                } catch {
                    failure = error
                    return "progress not kept: \(String(describing: error).withoutFinalStop)"
                }
            }
        } catch let error as TerminalError {
            throw CommandError(
                error.description.hasPrefix("It needs a terminal")
                    ? "learn needs a terminal on stdin and stdout; without one, `colourful-ball learn --list` lists the lessons."
                    : error.description, code: .noTerminal)
        }
        var sentences = recording?.finish() ?? []
        if let failure {
            sentences.append(
                "Your progress could not be kept in \(progress.file.visibleInMessage): \(String(describing: failure).withoutFinalStop)."
            )
        }
        if !sentences.isEmpty { throw CommandError(sentences.joined(separator: " ")) }
        let count = Lesson.all.count
        let summary =
            done.count == count
            ? "All \(count) lessons done." : "\(done.count) of \(count) lessons done: `colourful-ball learn` goes on."
        try DescriptorOutput.standardOutput.writeAll(Array((summary + "\n").utf8))
    }
}

/// Which lessons are done, kept in `$XDG_STATE_HOME/colourful-ball/learn.json` (an absolute
/// `XDG_STATE_HOME`, else `$HOME/.local/state`, as the XDG base directory rules say) as
/// `{"version":2,"done":["one-subject","ghost"]}`, each lesson by its ``Lesson/id`` (so a
/// lesson added before it leaves it as it was; a name this program does not know, a later one's
/// lesson, is kept as it is): written beside and put in place whole, merged under a lock with
/// what another tour kept meanwhile, in folders only the user can enter (0700); a reset takes
/// the same lock. A file with no version is read too: names as they are; numbers (written
/// before lessons had names) are refused, as three tours wrote them in three orders and the file
/// does not say which.
package struct LearnProgress {
    /// The file.
    package let file: String

    /// The progress kept in `file`.
    package init(file: String) {
        self.file = file
    }

    /// The version of the file ``save(_:forgetting:)`` writes (1: the files with no version).
    static let version = 2

    /// The longest file ``save(_:)`` writes could be: anything longer is not the progress.
    static let largest = 4_096

    /// The progress of this user: where the XDG rules put it; an error when neither an
    /// absolute `XDG_STATE_HOME` nor an absolute `HOME` says where.
    package static func located(environment: (String) -> String? = environmentValue) throws -> LearnProgress {
        if let state = environment("XDG_STATE_HOME"), state.hasPrefix("/") {
            return LearnProgress(file: state + "/colourful-ball/learn.json")
        }
        guard let home = environment("HOME"), home.hasPrefix("/") else {
            let said =
                switch environment("HOME") {
                case nil: "HOME is not set"
                case ""?: "HOME is set but empty"
                case let home?: "HOME is \"\(home.visibleInMessage)\", not an absolute path"
                }
            throw CommandError(
                "There is no place for your progress: \(said), and XDG_STATE_HOME gives no absolute path either: set one of them."
            )
        }
        return LearnProgress(file: home + "/.local/state/colourful-ball/learn.json")
    }

    /// What is wrong with a file at the progress's place.
    private func unreadable(_ why: String) -> CommandError {
        CommandError(
            "\(file.visibleInMessage) cannot be read as your progress (\(why)): it is kept as it is; move it away, or run `colourful-ball learn --reset` to start again."
        )
    }

    /// The names of the lessons done; none when there is no file. A file there that is not what
    /// ``save(_:forgetting:)`` writes (not a regular file, unreadable, larger than ``largest``,
    /// not its JSON) is an error, never taken as "nothing done".
    package func load() throws -> Set<String> {
        let fd = open(file, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return [] }
            throw unreadable(String(cString: strerror(errno)))
        }
        defer { _ = closeDescriptor(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw unreadable(String(cString: strerror(errno))) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw unreadable("it is not a regular file") }
        guard Int(status.st_size) <= Self.largest else {
            throw unreadable("\(status.st_size) bytes, more than the progress ever takes")
        }
        var bytes = [UInt8](repeating: 0, count: Self.largest + 1)
        let count = read(fd, &bytes, bytes.count)
        guard count >= 0 else { throw unreadable(String(cString: strerror(errno))) }
        var line = Array(bytes[..<count])
        if line.last == 0x0A { line.removeLast() }
        guard let value = try? line.withUnsafeBufferPointer({ try JSONLineParser.parse($0) }),
            case .array(let entries)? = value["done"]
        else { throw unreadable("it is not the {\"version\":2,\"done\":[…]} this program writes") }
        switch value["version"] {
        case nil, .number(Double(Self.version))?: break
        case .number(let newer)? where newer > Double(Self.version):
            throw unreadable("a later colourful-ball wrote it: its version is above \(Self.version)")
        default: throw unreadable("its version is not one this program wrote")
        }
        var done = Set<String>()
        for entry in entries {
            switch entry {
            case .string(let id) where Self.isName(id): done.insert(id)
            case .number:
                // Written before lessons had names, by one of three tours whose numbers name
                // different lessons (4: Behavior in the first two, Publish in the third).
                throw unreadable(
                    "it numbers lessons as tours before version 2 did, in orders that differ, and does not say which")
            default: throw unreadable("it names a lesson by something that is not a lesson's name")
            }
        }
        return done
    }

    /// Whether `id` could be a lesson's name: 1 to 40 of `a`–`z`, `0`–`9` and `-`.
    private static func isName(_ id: String) -> Bool {
        (1...40).contains(id.utf8.count)
            && id.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }
    }

    /// Keeps `done`, with every lesson the file holds now (another tour's) but those in
    /// `forgetting`, under a lock on the folder's lock file: the folders are made (0700),
    /// leftovers of a save that was killed are removed, the file is written beside and put in
    /// place whole. Returns what was kept.
    package func save(_ done: Set<String>, forgetting: Set<String> = []) throws -> Set<String> {
        try locked { folder in
            removeLeftovers(in: folder)
            let kept = done.union(try load()).subtracting(forgetting)
            let output = try OutputFile(name: FileName(argument: file), overwrite: true)
            defer { output.close() }
            // The tour's lessons in its order, then any a later program knows, by name.
            let known = Lesson.all.map(\.id).filter(kept.contains)
            let names = known + kept.subtracting(known).sorted()
            try output.writeLine(
                #"{"version":\#(Self.version),"done":[\#(names.map(\.jsonQuoted).joined(separator: ","))]}"#)
            try output.commit()
            return kept
        }
    }

    /// Runs `body` with the file's folder (made, 0700) under the lock on its lock file, which
    /// every save and reset takes: a tour's save never undoes a reset made meanwhile.
    private func locked<Result>(_ body: (String) throws -> Result) throws -> Result {
        var folder = ""
        for part in file.split(separator: "/").dropLast() {
            folder += "/" + part
            if mkdir(folder, 0o700) != 0, errno != EEXIST {
                throw CommandError("Cannot make \(folder.visibleInMessage): \(String(cString: strerror(errno))).")
            }
        }
        let lock = open(folder + "/learn.json.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else {
            throw CommandError("Cannot lock \(folder.visibleInMessage): \(String(cString: strerror(errno))).")
        }
        defer { _ = closeDescriptor(lock) }
        let clock = ContinuousClock()
        let start = clock.now
        while flock(lock, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, start.duration(to: clock.now) < .seconds(3) else {
                throw CommandError("Another colourful-ball held the progress's lock for 3 s: try again.")
            }
            usleep(20_000)
        }
        return try body(folder)
    }

    /// Removes the hidden files a save killed part-way left in `folder` (under the lock no
    /// save is under way: every one of them is a leftover).
    private func removeLeftovers(in folder: String) {
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        let prefix = ".learn.json.colourful-ball-"
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix(prefix) { unlink(folder + "/" + name) }
        }
    }

    /// Forgets the progress.
    package func reset() throws {
        try locked { _ in
            if unlink(file) != 0, errno != ENOENT {
                throw CommandError("Cannot remove \(file.visibleInMessage): \(String(cString: strerror(errno))).")
            }
        }
    }
}

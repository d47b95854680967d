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
            """)

    @Argument(help: ArgumentHelp("Start at this lesson (1 to \(Lesson.all.count)).", valueName: "lesson"))
    var lesson: Int?

    @Flag(help: "List the lessons, and which are done.")
    var list = false

    @Flag(help: "Forget which lessons are done.")
    var reset = false

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
        if lesson != nil && (list || reset) {
            throw ValidationError("A lesson number goes without --list and --reset.")
        }
    }

    func run() throws {
        let progress = LearnProgress()
        if reset {
            try progress.reset()
            try FileOutput.standardOutput.writeAll(Array("Progress forgotten: learn starts at lesson 1.\n".utf8))
            return
        }
        var done = progress.load()
        if list {
            let lines = Lesson.all.enumerated().map { index, lesson in
                "\(index + 1). \(lesson.title)\(done.contains(index) ? "  (done)" : "")"
            }
            try FileOutput.standardOutput.writeAll(Array((lines.joined(separator: "\n") + "\n").utf8))
            return
        }
        let first = lesson.map { $0 - 1 } ?? (Lesson.all.indices.first { !done.contains($0) } ?? Lesson.all.count)
        var failure: Error?
        do {
            try InteractiveProgram.learn(first: first, animated: !noAnimation) { index in
                done.insert(index)
                do { try progress.save(done) } catch { failure = error }
            }
        } catch let error as TerminalError {
            throw CommandError(error.description, code: 2)
        }
        if let failure {
            throw CommandError(
                "Your progress could not be kept in \(progress.file.visibleInMessage): \(String(describing: failure).withoutFinalStop)."
            )
        }
        let count = Lesson.all.count
        let summary =
            done.count == count
            ? "All \(count) lessons done." : "\(done.count) of \(count) lessons done: `colourful-ball learn` goes on."
        try FileOutput.standardOutput.writeAll(Array((summary + "\n").utf8))
    }
}

/// Which lessons are done, kept in `$XDG_STATE_HOME/colourful-ball/learn.json` (default
/// `~/.local/state/…`) as `{"done":[1,2,3]}`, written beside and put in place whole.
struct LearnProgress {
    /// The file.
    let file: String

    /// The progress of this user.
    init() {
        let home = environmentValue("HOME") ?? "."
        let state =
            environmentValue("XDG_STATE_HOME").flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/state"
        file = state + "/colourful-ball/learn.json"
    }

    /// The lessons done (from 0); none when there is no file, or it is not what ``save(_:)``
    /// writes (read with the replay files' JSON parser).
    func load() -> Set<Int> {
        guard let handle = fopen(file, "r") else { return [] }
        defer { fclose(handle) }
        var bytes = [UInt8](repeating: 0, count: 4_096)
        let count = fread(&bytes, 1, bytes.count, handle)
        var line = Array(bytes[..<count])
        if line.last == 0x0A { line.removeLast() }
        guard let value = try? line.withUnsafeBufferPointer({ try JSONLineParser.parse($0) }),
            case .array(let numbers)? = value["done"]
        else { return [] }
        return Set(
            numbers.compactMap { number -> Int? in
                guard case .number(let lesson) = number, let whole = Int(exactly: lesson),
                    (1...Lesson.all.count).contains(whole)
                else { return nil }
                return whole - 1
            })
    }

    /// Keeps `done`: the folders are made, the file written beside and put in place whole.
    func save(_ done: Set<Int>) throws {
        var folder = ""
        for part in file.split(separator: "/").dropLast() {
            folder += "/" + part
            if mkdir(folder, 0o755) != 0, errno != EEXIST {
                throw CommandError("Cannot make \(folder.visibleInMessage): \(String(cString: strerror(errno))).")
            }
        }
        let output = try OutputFile(name: FileName(argument: file), overwrite: true)
        defer { output.close() }
        try output.writeLine(#"{"done":[\#(done.sorted().map { String($0 + 1) }.joined(separator: ","))]}"#)
        try output.commit()
    }

    /// Forgets the progress.
    func reset() throws {
        if unlink(file) != 0, errno != ENOENT {
            throw CommandError("Cannot remove \(file.visibleInMessage): \(String(cString: strerror(errno))).")
        }
    }
}

import BallReplay
import Platform
import TextFormats

// MARK: - The edited recording, beside the original

/// Writes the replay player's edited log to a new file beside the recording, named so that it
/// never replaces anything: `NAME.edited.jsonl`, then `NAME.edited-2.jsonl`, `-3`, …
package enum EditedLog {
    /// How many names are tried before giving up.
    static let attempts = 1_000

    /// The names tried for a recording named `original`, in order: `dir/NAME.jsonl` (or
    /// `dir/NAME`) gives `dir/NAME.edited.jsonl`, then `dir/NAME.edited-2.jsonl`, …
    static func candidates(beside original: FileName) -> some Sequence<FileName> {
        let suffix = Array(".jsonl".utf8)
        let stem =
            original.bytes.count > suffix.count && original.bytes.suffix(suffix.count).elementsEqual(suffix)
            ? Array(original.bytes.dropLast(suffix.count)) : original.bytes
        return (1...attempts).lazy.map {
            FileName(bytes: stem + Array(($0 == 1 ? ".edited.jsonl" : ".edited-\($0).jsonl").utf8))
        }
    }

    /// Writes `index`'s recording as edited to the first free name beside `path` (the recording's
    /// name as the user gave it), copying the recording's own lines from the file
    /// (``ReplayIndex/copyEdited(from:emit:)``), and returns that name as messages show it. The
    /// file is written under a temporary name and linked into place only when complete, and
    /// never over a file (one that appears meanwhile makes it take the next name).
    package static func write(_ index: ReplayIndex, copying path: String) throws -> String {
        let original = FileName(argument: path)
        for name in candidates(beside: original) {
            var status = stat()
            guard name.withCString({ lstat($0, &status) }) != 0 else { continue }
            let input = try FileInput(name: original)
            let file = try OutputFile(name: name, overwrite: false)
            defer { file.close() }
            let output = BufferedOutput(file.fileOutput)
            do {
                try index.copyEdited(
                    from: ReplayReader(file: input.name, nextChunk: input.nextChunk), emit: output.line)
            } catch let error as ReplayError {
                throw CommandError(error.description, code: .dataError)
            }
            try output.flush()
            do {
                try file.commit()
            } catch {
                if name.withCString({ lstat($0, &status) }) == 0 { continue }  // Taken meanwhile: the next name.
                throw error
            }
            return name.shown
        }
        let names = Array(candidates(beside: original))
        throw CommandError("Every name from \(names.first!.shown) to \(names.last!.shown) is taken.")
    }
}

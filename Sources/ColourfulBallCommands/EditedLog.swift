import BallReplay
import Platform
import TextFormats

// MARK: - The edited recording, beside the original

/// Writes the replay player's edited log to a new file beside the recording, named so that it
/// never replaces anything: `NAME.edited.jsonl`, then `NAME.edited-2.jsonl`, `-3`, …
package enum EditedLog {
    /// How many names are tried before giving up.
    static let attempts = 1_000

    /// The names tried for a recording at `path`, in order: `dir/NAME.jsonl` (or `dir/NAME`)
    /// gives `dir/NAME.edited.jsonl`, then `dir/NAME.edited-2.jsonl`, …
    static func candidates(beside path: String) -> some Sequence<String> {
        let stem = path.hasSuffix(".jsonl") ? String(path.dropLast(".jsonl".count)) : path
        return (1...attempts).lazy.map { $0 == 1 ? "\(stem).edited.jsonl" : "\(stem).edited-\($0).jsonl" }
    }

    /// Writes `index`'s recording as edited to the first free name beside `path`, copying the
    /// recording's own lines from the file (``ReplayIndex/copyEdited(from:emit:)``), and returns
    /// that name. The file is written under a temporary name and linked into place only when
    /// complete, and never over a file (one that appears meanwhile makes it take the next name).
    package static func write(_ index: ReplayIndex, copying path: String) throws -> String {
        for name in candidates(beside: path) {
            var status = stat()
            guard lstat(name, &status) != 0 else { continue }
            let original = try FileInput(path: path)
            let file = try OutputFile(path: name, overwrite: false)
            defer { file.close() }
            let output = BufferedOutput(file.fileOutput)
            do {
                try index.copyEdited(
                    from: ReplayReader(file: original.name, nextChunk: original.nextChunk), emit: output.line)
            } catch let error as ReplayError {
                throw CommandError(error.description, code: 65)
            }
            try output.flush()
            do {
                try file.commit()
            } catch {
                var status = stat()
                if lstat(name, &status) == 0 { continue }  // Taken meanwhile: the next name.
                throw error
            }
            return name
        }
        let names = Array(candidates(beside: path))
        throw CommandError(
            "Every name from \(names.first!.visibleInMessage) to \(names.last!.visibleInMessage) is taken.")
    }
}

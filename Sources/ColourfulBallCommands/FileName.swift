import Platform
import TextFormats

// MARK: - File names as the user gave them

/// A file as the kernel knows it: its device and inode.
struct FileIdentity: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64

    /// The identity `status` (from `stat` or `fstat`) gives.
    init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}

/// A file name as the user typed it: its bytes exactly (a Linux name is any bytes but NUL and
/// `/`-separated, UTF-8 or not), and how messages show it. ArgumentParser hands arguments over
/// as Swift strings, which replace bytes that are not UTF-8; the name is taken back from the
/// program's own arguments, so `out\xff.cast` is opened as `out\xff.cast`, not a name of its own.
struct FileName: Sendable {
    /// The name's bytes, without a NUL.
    let bytes: [UInt8]

    /// The name of an argument ArgumentParser gave as `argument`: the bytes of the command-line
    /// argument it came from (the whole argument, or what follows `=` in `--option=value`).
    init(argument: String) {
        bytes = Self.raw(for: argument) ?? Array(argument.utf8)
    }

    /// A name made by the program from `bytes`.
    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Whether the name is `-`: standard input or output, as elsewhere.
    var isDash: Bool { bytes == [UInt8(ascii: "-")] }

    /// The name as messages show it: UTF-8 as it is, other bytes as `\xFF`, and control
    /// characters as escapes (``Swift/String/visibleInMessage``).
    var shown: String {
        var text = ""
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var pending = bytes[...]
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                text.unicodeScalars.append(Unicode.UTF8.decode(encoded))
                pending = pending.dropFirst(encoded.count)
            case .error(let length):
                for byte in pending.prefix(length) { text += "\\x" + String(byte, radix: 16, uppercase: true) }
                pending = pending.dropFirst(length)
            case .emptyInput:
                return text.visibleInMessage
            }
        }
    }

    /// Calls `body` with the name as a C string.
    func withCString<Result>(_ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        try (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// The directory (`.` when the name has none) and the last part of the name.
    var parts: (directory: FileName, name: [UInt8]) {
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else {
            return (FileName(bytes: [UInt8(ascii: ".")]), bytes)
        }
        let directory = Array(bytes[..<slash])
        return (FileName(bytes: directory.isEmpty ? [UInt8(ascii: "/")] : directory), Array(bytes[(slash + 1)...]))
    }

    /// The file the name stands for, by device and inode (a link followed); nil when there is
    /// none yet.
    var identity: FileIdentity? {
        var status = stat()
        guard withCString({ stat($0, &status) }) == 0 else { return nil }
        return FileIdentity(status)
    }

    /// The name with its directory made absolute and its links resolved (`./a`, `a` and
    /// `dir/../a` are one), for a file that may not exist yet; the name itself when its
    /// directory cannot be resolved.
    var canonical: [UInt8] {
        let (directory, last) = parts
        guard let resolved = directory.withCString({ realpath($0, nil) }) else { return bytes }
        defer { free(resolved) }
        let base = Array(UnsafeBufferPointer(start: resolved, count: strlen(resolved))).map { UInt8(bitPattern: $0) }
        return (base == [UInt8(ascii: "/")] ? base : base + [UInt8(ascii: "/")]) + last
    }

    /// Whether the two names are one file: the same device and inode when both exist (a link,
    /// a hard link, another spelling), else the same canonical name.
    func isSameFile(as other: FileName) -> Bool {
        if let mine = identity, let theirs = other.identity { return mine == theirs }
        return canonical == other.canonical
    }

    /// The raw bytes of the program's argument that ArgumentParser turned into `argument`.
    private static func raw(for argument: String) -> [UInt8]? {
        let arguments = (1..<Int(CommandLine.argc)).compactMap { index -> [UInt8]? in
            guard let pointer = CommandLine.unsafeArgv[index] else { return nil }
            return Array(UnsafeBufferPointer(start: pointer, count: strlen(pointer))).map { UInt8(bitPattern: $0) }
        }
        for bytes in arguments {
            if String(decoding: bytes, as: UTF8.self) == argument { return bytes }
            if let equals = bytes.firstIndex(of: UInt8(ascii: "=")), bytes.first == UInt8(ascii: "-"),
                String(decoding: bytes[(equals + 1)...], as: UTF8.self) == argument
            {
                return Array(bytes[(equals + 1)...])
            }
        }
        return nil
    }
}

@_exported import Glibc

// MARK: - The platform: Linux (Debian/Ubuntu) and its C library, in one place

// colourful-ball is built and tested on Linux with glibc only. Every target that needs a
// system call imports this one (not Glibc itself), and what glibc spells its own way is
// spelt here once: a signal action's handler, and `close`, which some types shadow.

/// A signal's handler as `sigaction` keeps it.
package typealias SignalHandler = @convention(c) (Int32) -> Void

extension sigaction {
    /// An action that runs `handler` (or, with nil, does what `disposition` says: `SIG_DFL`,
    /// `SIG_IGN`), with no signals blocked meanwhile and `flags`.
    package init(handler: SignalHandler?, flags: Int32 = 0) {
        self.init()
        __sigaction_handler.sa_handler = handler
        sigemptyset(&sa_mask)
        sa_flags = flags
    }

    /// Whether the action ignores its signal (`SIG_IGN`).
    package var ignoresSignal: Bool {
        __sigaction_handler.sa_handler.map { unsafeBitCast($0, to: Int.self) }
            == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}

/// The default action of a signal (`SIG_DFL`), as a handler value.
package let defaultSignalAction: SignalHandler? = SIG_DFL

/// Closes `descriptor` (the C library's `close`, which a type's own `close()` may shadow).
@discardableResult
package func closeDescriptor(_ descriptor: Int32) -> Int32 { Glibc.close(descriptor) }

/// Writes to `descriptor` (the C library's `write`, which a type's own `write` may shadow).
package func writeDescriptor(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    Glibc.write(descriptor, bytes, count)
}

/// The environment variable `name`'s value; nil when it is not set.
package func environmentValue(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}

/// Makes and opens a new file named by `template`, whose last six bytes (`XXXXXX`) are replaced
/// by random letters and digits, as `mkstemp` does, but closed on exec from the start
/// (glibc's `mkostemp` with `O_CLOEXEC`, which Swift's Glibc module does not show): a program
/// another thread starts meanwhile does not inherit it. Returns the descriptor (read and write,
/// mode 0600) and writes the name into `template`; -1 with `errno` set on failure.
package func makeTemporaryFile(_ template: inout [UInt8]) -> Int32 {
    let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)
    guard template.count >= 6, template.suffix(6).allSatisfy({ $0 == UInt8(ascii: "X") }) else {
        errno = EINVAL
        return -1
    }
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<100 {
        for index in (template.count - 6)..<template.count {
            template[index] = letters.randomElement(using: &generator)!
        }
        let descriptor = (template + [0]).withUnsafeBufferPointer { name in
            name.baseAddress!.withMemoryRebound(to: CChar.self, capacity: name.count) {
                open($0, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            }
        }
        if descriptor >= 0 || errno != EEXIST { return descriptor }
    }
    return -1
}

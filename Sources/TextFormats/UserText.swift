// MARK: - User text in messages

extension String {
    /// The text as a message shows it: every control character (C0, DEL and C1) made visible as
    /// an escape — `\e`, `\n`, `\r`, `\t`, `\a`, `\b`, else `\x01` or `\u{85}` — so a file name,
    /// a `TERM` or an argument cannot move the cursor, retitle the terminal, recolour it or split
    /// the one-sentence message it appears in. Every message that shows user-supplied text
    /// shows it through this.
    package var visibleInMessage: String {
        guard unicodeScalars.contains(where: \.isControlCharacter) else { return self }
        var shown = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\u{1B}": shown += "\\e"
            case "\n": shown += "\\n"
            case "\r": shown += "\\r"
            case "\t": shown += "\\t"
            case "\u{07}": shown += "\\a"
            case "\u{08}": shown += "\\b"
            case _ where scalar.value < 0x80 && scalar.isControlCharacter:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                shown += "\\x" + (hex.count < 2 ? "0" : "") + hex
            case _ where scalar.isControlCharacter:
                shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }
}

extension Unicode.Scalar {
    /// C0 (U+0000–U+001F), DEL (U+007F) or C1 (U+0080–U+009F).
    fileprivate var isControlCharacter: Bool { value < 0x20 || (0x7F...0x9F).contains(value) }
}

// MARK: - Sentences

extension String {
    /// The text without a full stop at its end: a cause put inside another sentence, which ends
    /// with its own (`…: Broken pipe.`, not `…: Broken pipe..`).
    package var withoutFinalStop: String { hasSuffix(".") ? String(dropLast()) : self }
}

// MARK: - UTF-8 bytes

extension Array where Element == UInt8 {
    /// Appends `glyph` as UTF-8: one byte for ASCII (most of what is drawn), else the
    /// standard library's encoding.
    @inline(__always)
    package mutating func appendUTF8(_ glyph: Unicode.Scalar) {
        if glyph.isASCII {
            append(UInt8(truncatingIfNeeded: glyph.value))
        } else {
            UTF8.encode(glyph) { append($0) }
        }
    }
}

extension String {
    /// The text as a shell word that stands for it: as it is when it holds only letters,
    /// digits and `_ - . / , : + @ % =`, else in single quotes (a quote inside as `'\''`). For a
    /// command the program suggests, to be pasted as it is.
    package var quotedForShell: String {
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./,:+@%=".unicodeScalars)
        if !isEmpty, unicodeScalars.allSatisfy(plain.contains) { return self }
        var quoted = "'"
        for character in self { quoted += character == "'" ? #"'\''"# : String(character) }
        return quoted + "'"
    }
}

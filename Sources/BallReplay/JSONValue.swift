// MARK: - A small, strict JSON reader for replay lines

/// A JSON value, as one line of a replay file holds.
package enum JSONValue: Equatable, Sendable {
    /// `{...}`: members in file order (a repeated key: the last one counts).
    case object([(key: String, value: JSONValue)])
    case array([JSONValue])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    /// Values are equal when they are the same JSON, members in the same order.
    package static func == (left: JSONValue, right: JSONValue) -> Bool {
        switch (left, right) {
        case (.object(let a), .object(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.array(let a), .array(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null): true
        default: false
        }
    }

    /// The member named `key` of an object; nil for a missing member or a non-object.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    /// A short name of the value's kind, for error messages.
    package var kindName: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "true or false"
        case .null: "null"
        }
    }
}

/// Why a line is not JSON, in words.
package struct JSONSyntaxError: Error, Equatable, Sendable {
    /// What is wrong, such as "an unterminated string".
    package let reason: String
}

/// Parses one line of UTF-8 bytes as a single JSON value.
///
/// Strict (RFC 8259): no trailing commas, no comments, no NaN or Infinity. Bounded: nesting
/// deeper than `maximumDepth` is refused, so hostile input cannot exhaust the stack.
package struct JSONLineParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private let maximumDepth: Int

    /// Parses `line` (without its newline).
    package static func parse(_ line: UnsafeBufferPointer<UInt8>, maximumDepth: Int = 16) throws(JSONSyntaxError)
        -> JSONValue
    {
        var parser = JSONLineParser(bytes: line, maximumDepth: maximumDepth)
        parser.skipWhitespace()
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == line.count else { throw JSONSyntaxError(reason: "more text after the JSON value") }
        return value
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A { index += 1 }
    }

    private mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard let byte = current else { throw JSONSyntaxError(reason: "the text ends where a value should be") }
        switch byte {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw JSONSyntaxError(reason: "an unexpected character where a value should be")
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let length = word.utf8CodeUnitCount
        guard index + length <= bytes.count else { throw JSONSyntaxError(reason: "an unknown word") }
        for offset in 0..<length where bytes[index + offset] != word.utf8Start[offset] {
            throw JSONSyntaxError(reason: "an unknown word")
        }
        index += length
    }

    private mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth <= maximumDepth else { throw JSONSyntaxError(reason: "nesting deeper than \(maximumDepth) levels") }
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else {
                throw JSONSyntaxError(reason: "an object key that is not a string")
            }
            let key = try string()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else {
                throw JSONSyntaxError(reason: "a missing ':' after an object key")
            }
            index += 1
            skipWhitespace()
            members.append((key, try value(depth: depth)))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return .object(members)
            default: throw JSONSyntaxError(reason: "an object that is not closed with '}'")
            }
        }
    }

    private mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth <= maximumDepth else { throw JSONSyntaxError(reason: "nesting deeper than \(maximumDepth) levels") }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try value(depth: depth))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(elements)
            default: throw JSONSyntaxError(reason: "an array that is not closed with ']'")
            }
        }
    }

    private mutating func string() throws(JSONSyntaxError) -> String {
        index += 1
        // The common case, no escapes: one decode of the bytes between the quotes.
        let start = index
        while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
            guard byte >= 0x20 else { throw JSONSyntaxError(reason: "a control character inside a string") }
            index += 1
        }
        guard let stop = current else { throw JSONSyntaxError(reason: "an unterminated string") }
        var text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if stop == UInt8(ascii: "\"") {
            index += 1
            return text
        }
        // Escapes: decode run by run.
        var runStart = index
        while let byte = current {
            switch byte {
            case UInt8(ascii: "\""):
                text += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<index]), as: UTF8.self)
                index += 1
                return text
            case UInt8(ascii: "\\"):
                text += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<index]), as: UTF8.self)
                index += 1
                text.unicodeScalars.append(try escape())
                runStart = index
            case 0x00..<0x20:
                throw JSONSyntaxError(reason: "a control character inside a string")
            default:
                index += 1
            }
        }
        throw JSONSyntaxError(reason: "an unterminated string")
    }

    private mutating func escape() throws(JSONSyntaxError) -> Unicode.Scalar {
        guard let byte = current else { throw JSONSyntaxError(reason: "an unterminated string") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try hexQuad()
            if (0xD800..<0xDC00).contains(high) {
                guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u")
                else { throw JSONSyntaxError(reason: "a lone surrogate in a \\u escape") }
                index += 2
                let low = try hexQuad()
                guard (0xDC00..<0xE000).contains(low) else {
                    throw JSONSyntaxError(reason: "a lone surrogate in a \\u escape")
                }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(high) else {
                throw JSONSyntaxError(reason: "a lone surrogate in a \\u escape")
            }
            return scalar
        default: throw JSONSyntaxError(reason: "an unknown escape in a string")
        }
    }

    private mutating func hexQuad() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw JSONSyntaxError(reason: "a short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONSyntaxError(reason: "a bad \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func number() throws(JSONSyntaxError) -> Double {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            throw JSONSyntaxError(reason: "a malformed number")
        }
        if first == UInt8(ascii: "0") {
            index += 1
        } else {
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
                throw JSONSyntaxError(reason: "a malformed number")
            }
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
                throw JSONSyntaxError(reason: "a malformed number")
            }
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        }
        guard index - start <= 64,
            let value = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
        else { throw JSONSyntaxError(reason: "a number too long to read") }
        return value
    }
}

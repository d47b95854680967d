// MARK: - Numbers and strings as the program writes them

extension Double {
    /// The number as a person (and JSON) writes it: `328` for whole values, `12.5`, `-0.25`,
    /// and Swift's shortest round-tripping form otherwise. Finite values only.
    package var plainText: String {
        if self == rounded(), abs(self) < 1e15 { return String(Int64(self)) }
        return String(self)
    }

    /// `plainText` for finite values, and `nan` or `inf` otherwise.
    package var plainTextOrDescription: String { isFinite ? plainText : description }

    /// The value with `places` decimals (1 to 15), such as `0.512000` for six: for finite,
    /// non-negative values (seconds in a trace or on the status line).
    package func decimals(_ places: Int) -> String {
        var scale: Int64 = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = Int64((self * Double(scale)).rounded())
        let fraction = String(scaled % scale)
        return "\(scaled / scale)." + String(repeating: "0", count: places - fraction.count) + fraction
    }
}

extension String {
    /// The string as a JSON string literal, quotes included.
    package var jsonQuoted: String {
        var result = "\""
        for scalar in unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{00}"..."\u{1F}", "\u{7F}"..."\u{9F}":
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

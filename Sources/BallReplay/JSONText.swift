import ColourCore

// MARK: - Flat colours in the traces' and the commands' JSON

extension FlatColour {
    /// `{"name":"flatMaroon","hex":"#78302A"}`.
    package var jsonObject: String { Self.jsonObjects[Int(rawValue)] }

    private static let jsonObjects: [String] = allCases.map { #"{"name":"\#($0.name)","hex":"\#($0.hex)"}"# }
}

extension Optional where Wrapped == FlatColour {
    /// The colour's JSON object, or `null`.
    package var jsonObject: String { map(\.jsonObject) ?? "null" }
}

// MARK: - Text forms shared by every command

extension Double {
    /// The number as a person (and JSON) writes it: `328` for whole values, `12.5`, `-0.25`,
    /// and Swift's shortest round-tripping form otherwise. Finite values only.
    public var plainText: String {
        if self == rounded(), abs(self) < 1e15 { return String(Int64(self)) }
        return String(self)
    }
}

extension FlatColour {
    /// `{"name":"flatMaroon","hex":"#78302A"}`.
    public var jsonObject: String { Self.jsonObjects[Int(rawValue)] }
}

extension Optional where Wrapped == FlatColour {
    /// The colour's JSON object, or `null`.
    public var jsonObject: String { map(\.jsonObject) ?? "null" }
}

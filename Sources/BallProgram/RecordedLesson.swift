// MARK: - A recorded tour's lesson

extension Lesson {
    /// The lesson a recorded tour's marker names (``Observation/lessonBegan(number:title:)``),
    /// where this program's tour has it at that number by that title; nil: a tour numbered
    /// otherwise, or a lesson since renamed.
    package static func recorded(number: Int, title: String) -> Lesson? {
        guard all.indices.contains(number - 1), all[number - 1].title == title else { return nil }
        return all[number - 1]
    }
}

import BallPlayer

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

extension TourLessonLanes {
    /// How the recorded tour's lesson of that number and title drew its lanes, where this
    /// program's tour has it (``Lesson/recorded(number:title:)``): its slot's lane where the lesson
    /// is on the operators, background's where it draws it, the late rows it keeps, and the late
    /// subscribers whose lessons ask what each is handed, this one or a later one, labelled by
    /// name alone (which lessons the learner had done before is not recorded: a later lesson's
    /// counts as not done, as a fresh tour has it).
    package static func recorded(number: Int, title: String) -> TourLessonLanes? {
        guard let lesson = Lesson.recorded(number: number, title: title) else { return nil }
        return TourLessonLanes(
            slot: lesson.operators, background: lesson.backgroundLane, lateRows: lesson.lateRows,
            plainLabels: Set(Lesson.all[(number - 1)...].compactMap(\.wants)),
            asks: lesson.wants)
    }
}

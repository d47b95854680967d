import BallPlayer
import BallRendering
import BallStreams

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
    /// is on the operators, background's where it draws it, the late rows it keeps (idle rows
    /// labelled by name alone, as the tour labels them: ``TourLessonLanes/plainLabels``).
    package static func recorded(number: Int, title: String) -> TourLessonLanes? {
        // The closing card: background's lane, no slot's, no late row kept, every label in full.
        if number == Lesson.all.count + 1, title == Observation.closingTitle {
            return TourLessonLanes(slot: false, background: true)
        }
        guard let lesson = Lesson.recorded(number: number, title: title) else { return nil }
        return TourLessonLanes(slot: lesson.operators, background: lesson.backgroundLane, lateRows: lesson.lateRows)
    }
}

extension Lesson {
    /// The lessons whose question each late subscriber's key's telling words in `?` answer (what
    /// the kind is handed: lessons 3, 4 and 6; that the relay never ends, Completion's), by key.
    static let keyLessons: [String: Set<String>] = [
        "\(LateSubscriber.behavior.key)": ["behavior"], "\(LateSubscriber.publish.key)": ["publish"],
        "\(LateSubscriber.replay.key)": ["replay"], "\(LateSubscriber.relay.key)": ["completion"],
    ]

    /// What the player's `?` says in neutral words at a recorded tour's lesson `number` titled
    /// `title` (nil: no tour, nothing): the legend's symbols and the late keys whose telling words
    /// answer a lesson from that one on (which lessons the learner had done is not recorded: the
    /// ones before count as done, as a tour from the first has them); in a tour this program
    /// numbers otherwise, all of them.
    package static func untoldInRecordedTour(lesson number: Int?, title: String?) -> Set<String> {
        guard let number, let title else { return [] }
        // After the last lesson (the closing card), all of them are told.
        if number == all.count + 1, title == Observation.closingTitle { return [] }
        let lessons = Learn.legendLessons.merging(keyLessons) { $0.union($1) }
        guard recorded(number: number, title: title) != nil else { return Set(lessons.keys) }
        let told = Set(all[..<(number - 1)].map(\.id))
        return Set(lessons.filter { !$0.value.isSubset(of: told) }.keys)
    }
}

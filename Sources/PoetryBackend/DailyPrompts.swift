import FirestoreModel
import Functions

/// The daily writing prompt (docs/app/poetry.md "Data model"): `dailyPrompts/{YYYY-MM-DD}` keeps each
/// day's, `dailyPrompts/current` points at today's, which the app's screen listens to. The
/// prompt of a day is fixed by the day (the list below, in order, day after day), so a run
/// repeated on the same day writes the same thing.
enum DailyPrompts {
    /// The prompts, used in turn.
    static let prompts = [
        "A door you never opened", "The first cold morning", "What the river keeps", "A letter never sent",
        "Salt and distance", "The sound of a house at night", "Your grandmother's hands", "A city after rain",
        "The last bus home", "Something borrowed, something lost", "Light through a kitchen window",
        "A map of small mistakes", "The animal you were as a child", "Harvest", "What the radio said",
        "Two languages at one table", "A photograph without faces", "The weight of snow", "Leaving early",
        "An ordinary miracle",
    ]

    /// Writes the prompt of the UTC day of `time` and points `current` at it.
    /// - Returns: the day, `YYYY-MM-DD`.
    /// - Throws: the engine's `FirestoreError`.
    static func publish(at time: Timestamp, admin: AdminClient) throws(FirestoreError) -> String {
        let day = String(time.rfc3339.prefix(10))
        let days = Int((time.seconds >= 0 ? time.seconds : time.seconds - 86_399) / 86_400)
        let text = prompts[((days % prompts.count) + prompts.count) % prompts.count]
        var batch = admin.batch()
        batch.set(admin.document("dailyPrompts/\(day)"), ["date": .string(day), "text": .string(text)])
        batch.set(
            admin.document("dailyPrompts/current"),
            ["date": .string(day), "text": .string(text), "updatedAt": .serverTimestamp])
        try batch.commit()
        return day
    }
}

// MARK: - Dates as RxSwift's debug() and the replay header write them

/// Instants in UTC as text: RxSwift's `debug()` timestamp (`2026-11-21 09:40:19.494`, its
/// `yyyy-MM-dd HH:mm:ss.SSS`), and the replay header's ISO 8601 `started`
/// (`2026-11-21T09:40:19.469Z`) written and read back. Pure arithmetic on the proleptic Gregorian calendar
/// (Howard Hinnant's days-from-civil), no time zone database and no Foundation, for years 1
/// to 9999.
package enum Timestamp {
    /// `milliseconds` since 1970-01-01 00:00:00 UTC as RxSwift's debug() writes a time:
    /// `yyyy-MM-dd HH:mm:ss.SSS`, in UTC. Instants outside years 1 to 9999 are written as the
    /// nearest end.
    package static func debugText(milliseconds: Int64) -> String {
        let kept = min(max(milliseconds, firstMillisecond), lastMillisecond)
        let (days, inDay) = floorDivision(kept, 86_400_000)
        let (year, month, day) = civil(fromDays: days)
        let hour = inDay / 3_600_000
        let minute = inDay / 60_000 % 60
        let second = inDay / 1_000 % 60
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2)) "
            + "\(padded(hour, 2)):\(padded(minute, 2)):\(padded(second, 2)).\(padded(inDay % 1_000, 3))"
    }

    /// `milliseconds` since 1970-01-01 00:00:00 UTC as the replay header's `started` holds it:
    /// ISO 8601 in UTC to the millisecond, `2026-11-21T09:40:19.469Z` (what
    /// ``milliseconds(iso8601:)`` reads back). Instants outside years 1 to 9999 are written as
    /// the nearest end.
    package static func iso8601Text(milliseconds: Int64) -> String {
        let text = debugText(milliseconds: milliseconds)
        // `2026-11-21 09:40:19.469` → `2026-11-21T09:40:19.469Z`.
        return text.prefix(10) + "T" + text.dropFirst(11) + "Z"
    }

    /// The milliseconds since 1970-01-01 00:00:00 UTC of `text`, an ISO 8601 instant in UTC as
    /// the replay header's `started` holds it: to the millisecond (`2026-11-21T09:40:19.469Z`),
    /// or to the second as colourful-ball 0.1.0 wrote it (`2026-11-21T09:40:19Z`); `nil` for
    /// anything else, or a date that does not exist (`2026-02-30`).
    package static func milliseconds(iso8601 text: String) -> Int64? {
        let bytes = Array(text.utf8)
        let fraction: Int64?
        switch bytes.count {
        case 20: fraction = 0
        case 24: fraction = bytes[19] == 0x2E ? number(bytes[20..<23]) : nil
        default: fraction = nil
        }
        guard let fraction, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54, bytes[13] == 0x3A,
            bytes[16] == 0x3A, bytes[bytes.count - 1] == 0x5A,
            let year = number(bytes[0..<4]), let month = number(bytes[5..<7]), let day = number(bytes[8..<10]),
            let hour = number(bytes[11..<13]), let minute = number(bytes[14..<16]),
            let second = number(bytes[17..<19]),
            year >= 1, (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), hour < 24,
            minute < 60, second < 60
        else { return nil }
        return (days(fromCivil: year, month, day) * 86_400 + hour * 3_600 + minute * 60 + second) * 1_000 + fraction
    }

    /// The first and last milliseconds of years 1 to 9999.
    private static let firstMillisecond = days(fromCivil: 1, 1, 1) * 86_400_000
    private static let lastMillisecond = days(fromCivil: 10_000, 1, 1) * 86_400_000 - 1

    /// Days since 1970-01-01 of a date of the proleptic Gregorian calendar.
    private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let shifted = month <= 2 ? year - 1 : year  // Years begin in March: leap days come last.
        let era = floorDivision(shifted, 400).quotient
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` after 1970-01-01.
    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = floorDivision(shifted, 146_097).quotient
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The days in `month` of `year`.
    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// `value` divided by `divisor` (positive), rounded down, and what remains (never negative).
    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let remainder = (value % divisor + divisor) % divisor
        return ((value - remainder) / divisor, remainder)
    }

    /// `value` in decimal with zeros in front to `width` digits.
    private static func padded(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// The decimal number the ASCII digits `bytes` write; `nil` if one is not a digit.
    private static func number(_ bytes: ArraySlice<UInt8>) -> Int64? {
        var value: Int64 = 0
        for byte in bytes {
            guard (0x30...0x39).contains(byte) else { return nil }
            value = value * 10 + Int64(byte - 0x30)
        }
        return value
    }
}

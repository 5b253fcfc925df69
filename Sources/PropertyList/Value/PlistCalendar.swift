// Sources/PropertyList/Value/PlistCalendar.swift - Dates as days since 2001-01-01, for XML and JSON text.

/// Proleptic Gregorian calendar arithmetic on days since 2001-01-01 (eras of 400 years).
enum PlistCalendar {
    static func daysInMonth(_ year: Int64, _ month: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func daysSince2001(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        // 730_791 days from 0000-03-01 to 2001-01-01.
        return era * 146_097 + dayOfEra - 730_791
    }

    /// (year, month, day) of the day `days` after 2001-01-01, for `days` from `-earliestDay` on (about
    /// 562,000 years back; the callers' dates are bounded far inside that: the XML writer's by 4e12 s,
    /// about 46 million days, canonical JSON's by years 1...9999).
    ///
    /// Unsigned arithmetic on days counted from a March 1 long before (C. Neri and L. Schneider,
    /// "Euclidean affine functions and their application to calendar algorithms", 2022): each
    /// division is by a constant or a multiplication and a shift, and the year of the century comes
    /// from one 64-bit product whose low half gives the day of the year.
    static func civil(daysSince2001 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        assert(days >= -earliestDay, "civil: day \(days) is before the calendar's first era")
        // Days from March 1 of year -eraShift * 400 (a 400-year era starts on a March 1): 2001-01-01 is
        // 730_791 days after 0000-03-01.
        let n = UInt64(bitPattern: days &+ 730_791 &+ eraShift &* 146_097)
        // Centuries and the day of the century, from quarter days (4n + 3 keeps the leap day of a
        // century's end inside it).
        let n1 = 4 &* n &+ 3
        let century = n1 / 146_097
        let dayOfCentury = n1 % 146_097 / 4
        // The year of the century and the day of the year (from March 1): 2_939_745 / 2^32 is 1 / 1461
        // to within the error the day counts of a century allow.
        let product = 2_939_745 &* (4 &* dayOfCentury &+ 3)
        let yearOfCentury = product >> 32
        let dayOfYear = (product & 0xFFFF_FFFF) / 2_939_745 / 4
        // The month (3 = March ... 14 = February) and day of a year that starts in March: 2141 / 2^16
        // is 1 / 30.6, the mean length of the months from March.
        let n3 = 2141 &* dayOfYear &+ 197_913
        let month = n3 >> 16
        let day = (n3 & 0xFFFF) / 2141 &+ 1
        // January and February belong to the next calendar year.
        let janFeb: UInt64 = dayOfYear >= 306 ? 1 : 0
        let year = Int64(bitPattern: 100 &* century &+ yearOfCentury &+ janFeb) &- eraShift &* 400
        return (year, Int64(bitPattern: month &- 12 &* janFeb), Int64(bitPattern: day))
    }

    /// The 400-year eras `civil` counts back before year 0, so that its day count is never negative.
    private static let eraShift: Int64 = 1400

    /// How many days before 2001-01-01 the first era starts.
    static let earliestDay: Int64 = 730_791 + eraShift * 146_097
}

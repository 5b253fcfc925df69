// Sources/PropertyList/Value/PlistISO8601.swift - The one parser of `YYYY-MM-DDTHH:MM:SS[.f…]Z` dates,
// used by the XML reader (`<date>`) and the canonical JSON reader (`{"$date": …}`).

/// Parsing the UTC dates of the text forms into seconds since 2001-01-01T00:00:00Z.
enum PlistISO8601 {
    /// What a reader accepts beyond the common `YYYY-MM-DDTHH:MM:SS[.f…]Z`.
    struct Dialect {
        /// Digits in the year (XML: 1...9, as CoreFoundation writes `%04d` of any year; JSON: 4).
        var yearDigits: ClosedRange<Int>
        /// A `-` before the year (XML).
        var negativeYear: Bool
        /// Whether the final `Z` is required (XML) or optional (JSON).
        var requiresZ: Bool
        /// Fields past their range count on, as CoreFoundation reads XML dates: month 13 is the next
        /// January, day 32 of January is February 1, hour 24 is the next day, second 60 the next
        /// minute; a month outside 1…13 counts as no months at all; years to the 32-bit limit.
        var normalizes = false

        static let xml = Dialect(yearDigits: 1...9, negativeYear: true, requiresZ: true)
        static let json = Dialect(yearDigits: 4...4, negativeYear: false, requiresZ: false)
        static let coreFoundationXML = Dialect(
            yearDigits: 1...10, negativeYear: true, requiresZ: true, normalizes: true)
    }

    enum Outcome: Equatable {
        /// Seconds since 2001-01-01T00:00:00Z; a fraction counts forwards from the whole second,
        /// negative dates included, and is the correctly rounded `Double` of its digits.
        case seconds(Double)
        /// Not of the form.
        case malformed
        /// Of the form, but a month, day, hour, minute or second is out of range.
        case outOfRange
    }

    static func parse(_ t: some RandomAccessCollection<UInt8>, _ dialect: Dialect) -> Outcome {
        var k = t.startIndex
        let end = t.endIndex
        func digits(_ count: ClosedRange<Int>) -> Int64? {
            var v: Int64 = 0
            var c = 0
            while k < end, c < count.upperBound, t[k] >= UInt8(ascii: "0"), t[k] <= UInt8(ascii: "9") {
                v = v * 10 + Int64(t[k] - UInt8(ascii: "0"))
                c += 1
                k = t.index(after: k)
            }
            return count.contains(c) ? v : nil
        }
        func expect(_ c: UInt8) -> Bool {
            guard k < end, t[k] == c else { return false }
            k = t.index(after: k)
            return true
        }
        let negativeYear = dialect.negativeYear && expect(UInt8(ascii: "-"))
        guard let y = digits(dialect.yearDigits), expect(UInt8(ascii: "-")), let month = digits(2...2),
            expect(UInt8(ascii: "-")), let day = digits(2...2), expect(UInt8(ascii: "T")), let hour = digits(2...2),
            expect(UInt8(ascii: ":")), let minute = digits(2...2), expect(UInt8(ascii: ":")),
            let second = digits(2...2)
        else { return .malformed }
        var fraction = 0.0
        if expect(UInt8(ascii: ".")) {
            let fractionStart = k
            while k < end, t[k] >= UInt8(ascii: "0"), t[k] <= UInt8(ascii: "9") { k = t.index(after: k) }
            guard k > fractionStart, let f = Double("0." + String(decoding: t[fractionStart..<k], as: UTF8.self))
            else { return .malformed }
            fraction = f
        }
        let z = expect(UInt8(ascii: "Z"))
        guard k == end, z || !dialect.requiresZ else { return .malformed }
        let year = negativeYear ? -y : y
        if dialect.normalizes {
            guard y <= Int64(Int32.max) else { return .outOfRange }
            let leap = PlistCalendar.daysInMonth(year, 2) == 29
            // Days before each month (13: the whole year), as CoreFoundation's table has them.
            let before: [Int64] = [0, 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365]
            let monthDays = (1...13).contains(month) ? before[Int(month)] + (month > 2 && leap ? 1 : 0) : 0
            let days = PlistCalendar.daysSince2001(year: year, month: 1, day: 1) + monthDays + day - 1
            return .seconds(Double(days * 86_400 + hour * 3600 + minute * 60 + second) + fraction)
        }
        guard (1...12).contains(month), day >= 1, day <= PlistCalendar.daysInMonth(year, month), hour < 24,
            minute < 60, second < 60
        else { return .outOfRange }
        let days = PlistCalendar.daysSince2001(year: year, month: month, day: day)
        return .seconds(Double(days * 86_400 + hour * 3600 + minute * 60 + second) + fraction)
    }
}

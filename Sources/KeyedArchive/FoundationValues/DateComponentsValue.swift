// Sources/KeyedArchive/FoundationValues/DateComponentsValue.swift - NSDateComponents <-> DateComponents.
//
// Layout (keyed): NS.era, NS.year, NS.month, NS.day, NS.hour, NS.minute, NS.second, NS.nanosec,
// NS.weekday, NS.weekdayOrdinal, NS.quarter, NS.weekOfMonth, NS.weekOfYear, NS.yearForWOY
// (integers; NSDateComponentUndefined, Int.max, for a component not set), NS.isLeapMonth (bool),
// NS.calendar (NSCalendar or $null), NS.timezone (NSTimeZone or $null). Components with a calendar
// stay an `ArchivedInstance` in `AnyArchived` (the calendar is an object of its own).

import PropertyList

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension DateComponents: KeyedArchiveValue, ArchivedValueClass {
    static let valueClassNames = ["NSDateComponents"]

    /// The integer fields, in Apple's names, with their key paths.
    static var integerFields: [(String, WritableKeyPath<DateComponents, Int?>)] {
        [
            ("NS.era", \.era), ("NS.year", \.year), ("NS.month", \.month), ("NS.day", \.day), ("NS.hour", \.hour),
            ("NS.minute", \.minute), ("NS.second", \.second), ("NS.nanosec", \.nanosecond), ("NS.weekday", \.weekday),
            ("NS.weekdayOrdinal", \.weekdayOrdinal), ("NS.quarter", \.quarter), ("NS.weekOfMonth", \.weekOfMonth),
            ("NS.weekOfYear", \.weekOfYear), ("NS.yearForWOY", \.yearForWeekOfYear),
        ]
    }

    static func fromFields(_ f: ValueFields) -> DateComponents? {
        for key in ["NS.calendar", "NS.timezone"] {
            if let v = f[key], v != .null { return nil }
        }
        var c = DateComponents()
        for (key, path) in integerFields {
            guard let v = f.int(key) else { continue }
            if v != Int.max { c[keyPath: path] = v }
        }
        if case .bool(true)? = f["NS.isLeapMonth"] { c.isLeapMonth = true }
        return c
    }

    func archiveFields(to archiver: KeyedArchiver) throws -> (
        className: String, chain: [String], fields: [(String, ArchivedValue)]
    ) {
        var fields: [(String, ArchivedValue)] = Self.integerFields.map { key, path in
            (key, archiver.inline(self[keyPath: path] ?? Int.max))
        }
        fields.append(("NS.isLeapMonth", try (isLeapMonth ?? false).encodeArchiveValue(to: archiver)))
        fields.append(("NS.calendar", try archiver.object(AnyArchived.null)))
        fields.append(("NS.timezone", try archiver.object(AnyArchived.null)))
        return ("NSDateComponents", ["NSDateComponents", "NSObject"], fields)
    }
}

extension DateComponents {
    /// `"2024-05-17"`-like text of the components that are set (`year: 2024, month: 5, …`).
    var archiveDescription: String {
        Self.integerFields.compactMap { key, path in
            self[keyPath: path].map { "\(key.dropFirst(3)): \($0)" }
        }.joined(separator: ", ")
    }
}

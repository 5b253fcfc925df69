// Sources/KeyedArchive/ArchiveVocabulary.swift - The fixed vocabulary of the NSKeyedArchiver format.
//
// An archive is a binary property list whose root dictionary is
//   $archiver: "NSKeyedArchiver", $version: 100000,
//   $top: {"root": UID(n), ...}, $objects: ["$null", obj1, obj2, ...]
// UID(0) is `$objects[0]`, the string "$null", and means nil. Strings, numbers and data are stored
// directly in `$objects`; every other object is a dictionary of its keys plus `$class: UID(c)`, where
// `$objects[c]` is `{"$classname": "Name", "$classes": ["Name", "Superclass", ..., "NSObject"]}`,
// stored once per class. Keys an object encodes that begin with `$` are escaped with one more `$`.
// (Format source: swift-corelibs-foundation NSKeyedArchiver.swift / NSKeyedUnarchiver.swift.)

enum ArchiveVocabulary {
    static let archiverKey = "$archiver"
    static let versionKey = "$version"
    static let topKey = "$top"
    static let objectsKey = "$objects"
    static let archiverName = "NSKeyedArchiver"
    static let version = 100_000
    static let rootKey = "root"
    static let null = "$null"
    static let classKey = "$class"
    static let classNameKey = "$classname"
    static let classesKey = "$classes"

    /// Escapes a key an object encodes: `"$x"` is stored as `"$$x"`, so it cannot clash with
    /// `$class` or the generic `$0`, `$1`, … keys.
    @inline(__always)
    static func escape(_ key: String) -> String {
        key.utf8.first == UInt8(ascii: "$") ? "$" + key : key
    }

    /// The key an object encoded, or `nil` for a reserved key (`$class`, `$0`, …).
    static func unescape(_ stored: String) -> String? {
        guard stored.utf8.first == UInt8(ascii: "$") else { return stored }
        let rest = stored.dropFirst()
        guard rest.utf8.first == UInt8(ascii: "$") else { return nil }
        return String(rest)
    }

    /// Foundation class chains written for the values this package maps.
    static let chains: [String: [String]] = [
        "NSArray": ["NSArray", "NSObject"],
        "NSMutableArray": ["NSMutableArray", "NSArray", "NSObject"],
        "NSDictionary": ["NSDictionary", "NSObject"],
        "NSSet": ["NSSet", "NSObject"],
        "NSDate": ["NSDate", "NSObject"],
        "NSUUID": ["NSUUID", "NSObject"],
        "NSURL": ["NSURL", "NSObject"],
        "NSNull": ["NSNull", "NSObject"],
    ]
}

// Sources/KeyedArchive/Archivable/FoundationClasses.swift - Swift values in the shapes Foundation archives.
//
//   Bool, integers, Float, Double   inline in the owning object (encodeBool/Integer/Float/Double)
//   String                          plain string in $objects (NSString)
//   Data                            plain data in $objects (NSData)
//   Date                            {NS.time: real}                              NSDate
//   URL                             {NS.base: UID or $null, NS.relative: UID}   NSURL
//   UUID                            {NS.uuidbytes: 16 bytes}                     NSUUID
//   Array                           {NS.objects: [UID]}                          NSArray
//   Set                             {NS.objects: [UID]}                          NSSet
//   Dictionary                      {NS.keys: [UID], NS.objects: [UID]}          NSDictionary
// (Foundation's per-class keys: swift-corelibs-foundation NSDate/NSURL/NSUUID/NSArray/… .swift.)
// On reading, numbers stored as objects, NSMutableString {NS.string} and NSMutableData {NS.data}
// are accepted too, as are the mutable collection classes.

@_spi(Internals) import PropertyList

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    public import FoundationEssentials
#else
    public import Foundation
#endif

enum FoundationClass {
    static let array = ["NSArray", "NSMutableArray"]
    static let set = ["NSSet", "NSMutableSet"]
    static let dictionary = ["NSDictionary", "NSMutableDictionary"]
    static let date = ["NSDate"]
    static let url = ["NSURL"]
    static let uuid = ["NSUUID"]
    static let string = ["NSString", "NSMutableString"]
    static let data = ["NSData", "NSMutableData"]
}

// MARK: - Reading helpers

extension KeyedUnarchiver {
    /// A stored value after following its UID: the object, its reference and its UID (0 = `$null`).
    func resolveRef(_ r: borrowing PlistReader, _ value: UnarchivedValue) throws(KeyedArchiveError) -> (
        object: PlistObject, ref: ObjectRef, uid: Int?
    ) {
        guard let u = try uidValue(r, value.ref) else { return (try object(r, value.ref), value.ref, nil) }
        guard u < UInt64(objects.count) else {
            throw error(.badReference, uid: Int(clamping: u), "UID \(u) is outside $objects (\(objects.count) entries)")
        }
        let uid = Int(u)
        let ref = r.reference(at: uid, in: objects)
        if uid == 0 { return (.null, ref, 0) }
        return (try object(r, ref), ref, uid)
    }

    func resolveRef(_ value: UnarchivedValue) throws(KeyedArchiveError) -> (
        object: PlistObject, ref: ObjectRef, uid: Int?
    ) {
        try reading { r throws(KeyedArchiveError) in try resolveRef(r, value) }
    }

    func mismatch(_ expected: String, found o: PlistObject, uid: Int?) -> KeyedArchiveError {
        if case .null = o {
            return error(.typeMismatch, uid: uid, "expected \(expected), found $null")
        }
        return error(.typeMismatch, uid: uid, "expected \(expected), found \(o.kind.rawValue)")
    }

    /// A Foundation-class object of one of `classNames`: its fields. `nil` for `$null`.
    func foundationObject(_ r: borrowing PlistReader, _ value: UnarchivedValue, classNames: [String], expected: String)
        throws(KeyedArchiveError) -> (keys: ReferenceList, values: ReferenceList, uid: Int)?
    {
        guard let u = try uidValue(r, value.ref) else {
            let o = try object(r, value.ref)
            throw error(.typeMismatch, "expected a reference to \(expected), found an inline \(o.kind.rawValue)")
        }
        guard u < UInt64(objects.count) else {
            throw error(.badReference, uid: Int(clamping: u), "UID \(u) is outside $objects (\(objects.count) entries)")
        }
        let uid = Int(u)
        if uid == 0 { return nil }
        let o = try object(r, r.reference(at: uid, in: objects))
        guard case .dictionary(let keys, let values) = o else { throw mismatch(expected, found: o, uid: uid) }
        // The class name is compared where the slot keeps it (no copy of the class description).
        let slot = try classSlot(r, keys: keys, values: values, uid: uid)
        guard classNames.contains(state.classSlots[slot].info.name) else {
            let name = state.classSlots[slot].info.name
            throw error(.classNotAllowed, uid: uid, className: name, "expected \(expected), found \(name)")
        }
        return (keys, values, uid)
    }

    func requireFoundationObject(
        _ r: borrowing PlistReader, _ value: UnarchivedValue, classNames: [String], expected: String
    ) throws(KeyedArchiveError) -> (keys: ReferenceList, values: ReferenceList, uid: Int) {
        guard let f = try foundationObject(r, value, classNames: classNames, expected: expected) else {
            throw error(.typeMismatch, uid: 0, "expected \(expected), found $null")
        }
        return f
    }

    func requireFoundationObject(_ value: UnarchivedValue, classNames: [String], expected: String)
        throws(KeyedArchiveError) -> (keys: ReferenceList, values: ReferenceList, uid: Int)
    {
        try reading { r throws(KeyedArchiveError) in
            try requireFoundationObject(r, value, classNames: classNames, expected: expected)
        }
    }

    func requiredField(
        _ r: borrowing PlistReader, _ name: String, _ f: (keys: ReferenceList, values: ReferenceList, uid: Int)
    ) throws(KeyedArchiveError) -> ObjectRef {
        guard let ref = try field(r, name, keys: f.keys, values: f.values) else {
            throw error(.corrupted, uid: f.uid, "the object at UID \(f.uid) has no \(name)")
        }
        return ref
    }

    func decodeInteger<T: FixedWidthInteger>(_ r: borrowing PlistReader, _ type: T.Type, _ value: UnarchivedValue)
        throws(KeyedArchiveError) -> T
    {
        // The common shape: an integer stored inline (`encodeInteger:forKey:`), read in one step.
        if let i = r.smallInteger(value.ref) {
            guard let v = T(exactly: i) else {
                throw error(.typeMismatch, "integer \(i) does not fit \(T.self)")
            }
            return v
        }
        let (o, _, uid) = try resolveRef(r, value)
        switch o {
        case .integer(let i):
            guard let v = T(exactly: i) else {
                throw error(.typeMismatch, uid: uid, "integer \(i) does not fit \(T.self)")
            }
            return v
        case .bool(let b): return b ? 1 : 0
        default: throw mismatch("an integer", found: o, uid: uid)
        }
    }

    func decodeDouble(_ r: borrowing PlistReader, _ value: UnarchivedValue) throws(KeyedArchiveError) -> Double {
        let (o, _, uid) = try resolveRef(r, value)
        switch o {
        case .real(let d): return d
        case .integer(let i): return Double(i.int128)
        default: throw mismatch("a real", found: o, uid: uid)
        }
    }

    func decodeBool(_ r: borrowing PlistReader, _ value: UnarchivedValue) throws(KeyedArchiveError) -> Bool {
        let (o, _, uid) = try resolveRef(r, value)
        switch o {
        case .bool(let b): return b
        case .integer(let i) where i == 0 || i == 1: return i == 1
        default: throw mismatch("a boolean", found: o, uid: uid)
        }
    }

    func decodeString(_ r: borrowing PlistReader, _ value: UnarchivedValue) throws(KeyedArchiveError) -> String {
        // The common shape first: a UID of a plain string, read without building `PlistObject`s.
        if let u = try uidValue(r, value.ref), u > 0, u < UInt64(objects.count),
            let s = try string(r, r.reference(at: Int(u), in: objects))
        {
            return s
        }
        let (o, _, uid) = try resolveRef(r, value)
        switch o {
        case .asciiString, .utf16String:
            guard let s = try string(r, o, uid: uid) else { throw mismatch("a string", found: o, uid: uid) }
            return s
        case .dictionary:
            let f = try requireFoundationObject(r, value, classNames: FoundationClass.string, expected: "a string")
            if let ref = try field(r, "NS.string", keys: f.keys, values: f.values) {
                return try decodeString(r, UnarchivedValue(ref: ref))
            }
            if let ref = try field(r, "NS.bytes", keys: f.keys, values: f.values),
                case .data(let range) = try object(r, ref)
            {
                return String(decoding: r.bytes(range), as: UTF8.self)
            }
            throw error(.corrupted, uid: f.uid, "the NSString at UID \(f.uid) has no NS.string")
        default: throw mismatch("a string", found: o, uid: uid)
        }
    }

    func decodeData(_ r: borrowing PlistReader, _ value: UnarchivedValue) throws(KeyedArchiveError) -> Data {
        let (o, _, uid) = try resolveRef(r, value)
        switch o {
        case .data(let range): return r.bytes(range)
        case .dictionary:
            let f = try requireFoundationObject(r, value, classNames: FoundationClass.data, expected: "data")
            var found = try field(r, "NS.data", keys: f.keys, values: f.values)
            if found == nil { found = try field(r, "NS.bytes", keys: f.keys, values: f.values) }
            guard let ref = found else {
                throw error(.corrupted, uid: f.uid, "the NSData at UID \(f.uid) has no NS.data")
            }
            return try decodeData(r, UnarchivedValue(ref: ref))
        default: throw mismatch("data", found: o, uid: uid)
        }
    }

    func decodeDate(_ r: borrowing PlistReader, _ value: UnarchivedValue) throws(KeyedArchiveError) -> Date {
        let (o, _, _) = try resolveRef(r, value)
        if case .date(let date) = o { return date }
        let f = try requireFoundationObject(r, value, classNames: FoundationClass.date, expected: "a date")
        let t = try decodeDouble(r, UnarchivedValue(ref: try requiredField(r, "NS.time", f)))
        return Date(timeIntervalSinceReferenceDate: t)
    }

    func decodeUUID(_ r: borrowing PlistReader, _ value: UnarchivedValue) throws(KeyedArchiveError) -> UUID {
        let f = try requireFoundationObject(r, value, classNames: FoundationClass.uuid, expected: "a UUID")
        let bytes = [UInt8](try decodeData(r, UnarchivedValue(ref: try requiredField(r, "NS.uuidbytes", f))))
        guard bytes.count == 16 else {
            throw error(.corrupted, uid: f.uid, "NS.uuidbytes holds \(bytes.count) bytes, not 16")
        }
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    func decodeURL(_ r: borrowing PlistReader, _ value: UnarchivedValue) throws -> URL {
        let f = try requireFoundationObject(r, value, classNames: FoundationClass.url, expected: "a URL")
        return try nestedCollection(uid: f.uid) { () throws -> URL in
            var base: URL?
            if let b = try field(r, "NS.base", keys: f.keys, values: f.values),
                try foundationObject(r, UnarchivedValue(ref: b), classNames: FoundationClass.url, expected: "a URL")
                    != nil
            {
                base = try decodeURL(r, UnarchivedValue(ref: b))
            }
            let relative = try decodeString(r, UnarchivedValue(ref: try requiredField(r, "NS.relative", f)))
            guard let url = URL(string: relative, relativeTo: base) else {
                throw error(.corrupted, uid: f.uid, "NS.relative \"\(relative)\" is not a URL")
            }
            return url
        }
    }

    /// The element references of an NSArray/NSSet (`NS.objects`).
    func elementList(
        _ r: borrowing PlistReader, _ f: (keys: ReferenceList, values: ReferenceList, uid: Int),
        key: String = "NS.objects"
    ) throws(KeyedArchiveError) -> ReferenceList {
        let prepared = key == KeyProbes.objects.text ? KeyProbes.objects : KeyProbes.Key(key)
        guard let ref = try field(r, prepared, keys: f.keys, values: f.values) else {
            throw error(.corrupted, uid: f.uid, "the object at UID \(f.uid) has no \(key)")
        }
        guard case .array(let list) = try object(r, ref) else {
            throw error(.corrupted, uid: f.uid, "\(key) of the object at UID \(f.uid) is not an array")
        }
        return list
    }

    func elementList(_ f: (keys: ReferenceList, values: ReferenceList, uid: Int), key: String = "NS.objects")
        throws(KeyedArchiveError) -> ReferenceList
    {
        try reading { r throws(KeyedArchiveError) in try elementList(r, f, key: key) }
    }

    /// The elements of an NSArray/NSSet reference list, decoded as `E`. (One loop, not a closure per
    /// element: the array's metadata is fetched once, not once per element.)
    func decodeElements<E: KeyedArchiveValue>(_ r: borrowing PlistReader, _ list: ReferenceList) throws -> [E] {
        let n = list.count
        if n == 0 { return [] }
        var result: [E] = []
        result.reserveCapacity(n)
        for i in 0..<n { result.append(try decodeElement(r, list, i)) }
        return result
    }

    /// Element `i` of a reference list, decoded as `E`, counted and on the key path.
    @inline(__always)
    func decodeElement<E: KeyedArchiveValue>(_ r: borrowing PlistReader, _ list: ReferenceList, _ i: Int) throws -> E {
        try state.beginElement(i, limit: limits.maxValues)
        defer { _ = state.popPath() }
        return try decodeValue(E.self, UnarchivedValue(ref: r.reference(at: i, in: list)), r)
    }

    /// Whether `value` is the empty collection met last (see `rememberEmpty`), still of a class in
    /// `classNames` and within the depth limit: then it decodes as empty with no read. Archives share
    /// one empty array among all the objects that hold one (both writers unique equal objects), so a
    /// model whose arrays are usually empty decodes that array once. Anything else (another object,
    /// `$null`, an inline value, a class or depth the call does not allow) is `false`, and the full
    /// path reads the object and reports what it finds.
    @inline(__always)
    func isKnownEmptyCollection(_ r: borrowing PlistReader, _ value: UnarchivedValue, classNames: [String])
        throws(KeyedArchiveError) -> Bool
    {
        let known = state.emptyCollectionUID
        guard known > 0, try uidValue(r, value.ref) == UInt64(known), state.depth < limits.maxDepth else {
            return false
        }
        return classNames.contains(state.classSlots[state.emptyCollectionSlot].info.name)
    }

    /// Remembers the collection `f` (just read, with no elements) for `isKnownEmptyCollection`.
    func rememberEmpty(_ r: borrowing PlistReader, _ f: (keys: ReferenceList, values: ReferenceList, uid: Int))
        throws(KeyedArchiveError)
    {
        state.emptyCollectionSlot = try classSlot(r, keys: f.keys, values: f.values, uid: f.uid)
        state.emptyCollectionUID = f.uid
    }

    /// Enters the collection at `uid` one level deeper, as `nestedCollection` does, without a closure
    /// (the array and set decodes' path); `leaveCollection(uid:)` undoes it.
    @inline(__always)
    func enterCollection(uid: Int) throws(KeyedArchiveError) {
        try state.enterCollection(uid: uid, maxDepth: limits.maxDepth, objectCount: objects.count)
    }

    @inline(__always)
    func leaveCollection(uid: Int) {
        state.leaveCollection(uid: uid)
    }

    /// Borrows the input once and decodes `T` through its reader path: the two-argument
    /// `decodeArchiveValue(_:from:)` of the package's own types.
    @inline(__always)
    func decodeBorrowing<T: ReaderDecodable>(_ type: T.Type, _ value: UnarchivedValue) throws -> T {
        // Inside a top-level read (every nested value), the lent reader is passed as it is kept: a
        // closure taking it (`withInput`) would copy it in generic code (a 200-byte memcpy per value).
        if state.isLent { return try T.decodeArchiveValue(value, from: self, reader: lentReader) }
        return try withNewInput { (r: borrowing PlistReader) throws -> T in
            try T.decodeArchiveValue(value, from: self, reader: r)
        }
    }

    /// Decodes `T` from `value` the fastest way its type allows: the package's own value types
    /// through `r` (``ReaderDecodable``), classes through the object path, anything else through
    /// its own ``KeyedArchiveValue/decodeArchiveValue(_:from:)``. The way is found once per type
    /// and kept (`DecodingState.decodePath(for:)`).
    @inline(__always)
    func decodeValue<T: KeyedArchiveValue>(_ type: T.Type, _ value: UnarchivedValue, _ r: borrowing PlistReader)
        throws -> T
    {
        try T.decodeArchiveValue(value, from: self)
    }
}

// MARK: - Scalars (inline)

extension KeyedArchiveValue where Self: FixedWidthInteger {
    public func encodeArchiveValue(to archiver: KeyedArchiver) throws -> ArchivedValue {
        ArchivedValue(ref: archiver.state.builder.addInt(self), isReference: false)
    }
    public static func decodeArchiveValue(_ value: UnarchivedValue, from unarchiver: KeyedUnarchiver) throws -> Self {
        if unarchiver.state.isLent { return try unarchiver.decodeInteger(unarchiver.lentReader, Self.self, value) }
        return try unarchiver.withNewInput { (r: borrowing BinaryPlistDocument.Reader) throws -> Self in
            try unarchiver.decodeInteger(r, Self.self, value)
        }
    }
    static func decodeArchiveValue(
        _ value: UnarchivedValue, from unarchiver: KeyedUnarchiver, reader: borrowing BinaryPlistDocument.Reader
    ) throws -> Self {
        try unarchiver.decodeInteger(reader, Self.self, value)
    }
}

extension Int: KeyedArchiveValue, ReaderDecodable {}
extension Int8: KeyedArchiveValue, ReaderDecodable {}
extension Int16: KeyedArchiveValue, ReaderDecodable {}
extension Int32: KeyedArchiveValue, ReaderDecodable {}
extension Int64: KeyedArchiveValue, ReaderDecodable {}
extension UInt: KeyedArchiveValue, ReaderDecodable {}
extension UInt8: KeyedArchiveValue, ReaderDecodable {}
extension UInt16: KeyedArchiveValue, ReaderDecodable {}
extension UInt32: KeyedArchiveValue, ReaderDecodable {}
extension UInt64: KeyedArchiveValue, ReaderDecodable {}

extension Bool: KeyedArchiveValue, ReaderDecodable {
    public func encodeArchiveValue(to archiver: KeyedArchiver) throws -> ArchivedValue {
        ArchivedValue(ref: archiver.state.builder.addBool(self), isReference: false)
    }
    public static func decodeArchiveValue(_ value: UnarchivedValue, from unarchiver: KeyedUnarchiver) throws -> Self {
        try unarchiver.decodeBorrowing(Self.self, value)
    }
    static func decodeArchiveValue(
        _ value: UnarchivedValue, from unarchiver: KeyedUnarchiver, reader: borrowing BinaryPlistDocument.Reader
    ) throws -> Self {
        try unarchiver.decodeBool(reader, value)
    }
}

extension Double: KeyedArchiveValue, ReaderDecodable {
    public func encodeArchiveValue(to archiver: KeyedArchiver) throws -> ArchivedValue {
        ArchivedValue(ref: archiver.state.builder.addReal(self), isReference: false)
    }
    public static func decodeArchiveValue(_ value: UnarchivedValue, from unarchiver: KeyedUnarchiver) throws -> Self {
        try unarchiver.decodeBorrowing(Self.self, value)
    }
    static func decodeArchiveValue(
        _ value: UnarchivedValue, from unarchiver: KeyedUnarchiver, reader: borrowing BinaryPlistDocument.Reader
    ) throws -> Self {
        try unarchiver.decodeDouble(reader, value)
    }
}

extension Float: KeyedArchiveValue, ReaderDecodable {
    public func encodeArchiveValue(to archiver: KeyedArchiver) throws -> ArchivedValue {
        ArchivedValue(ref: archiver.state.builder.addFloat(self), isReference: false)
    }
    public static func decodeArchiveValue(_ value: UnarchivedValue, from unarchiver: KeyedUnarchiver) throws -> Self {
        try unarchiver.decodeBorrowing(Self.self, value)
    }
    static func decodeArchiveValue(
        _ value: UnarchivedValue, from unarchiver: KeyedUnarchiver, reader: borrowing BinaryPlistDocument.Reader
    ) throws -> Self {
        Float(try unarchiver.decodeDouble(reader, value))
    }
}

// MARK: - Plain objects

extension String: KeyedArchiveValue, ReaderDecodable {
    public func encodeArchiveValue(to archiver: KeyedArchiver) throws -> ArchivedValue {
        ArchivedValue(ref: archiver.state.plainString(self), isReference: true)
    }
    public static func decodeArchiveValue(_ value: UnarchivedValue, from unarchiver: KeyedUnarchiver) throws -> Self {
        try unarchiver.decodeBorrowing(Self.self, value)
    }
    static func decodeArchiveValue(
        _ value: UnarchivedValue, from unarchiver: KeyedUnarchiver, reader: borrowing BinaryPlistDocument.Reader
    ) throws -> Self {
        try unarchiver.decodeString(reader, value)
    }
}

extension Data: KeyedArchiveValue, ReaderDecodable {
    public func encodeArchiveValue(to archiver: KeyedArchiver) throws -> ArchivedValue {
        ArchivedValue(ref: archiver.state.plainData(self), isReference: true)
    }
    public static func decodeArchiveValue(_ value: UnarchivedValue, from unarchiver: KeyedUnarchiver) throws -> Self {
        try unarchiver.decodeBorrowing(Self.self, value)
    }
    static func decodeArchiveValue(
        _ value: UnarchivedValue, from unarchiver: KeyedUnarchiver, reader: borrowing BinaryPlistDocument.Reader
    ) throws -> Self {
        try unarchiver.decodeData(reader, value)
    }
}

// MARK: - Foundation objects

extension Date: KeyedArchiveValue, ReaderDecodable {
    public func encodeArchiveValue(to archiver: KeyedArchiver) throws -> ArchivedValue {
        let time = archiver.state.builder.addReal(timeIntervalSinceReferenceDate)
        return ArchivedValue(
            ref: try archiver.foundationObject("NSDate", keys: ["NS.time"], values: [time]), isReference: true)
    }
    public static func decodeArchiveValue(_ value: UnarchivedValue, from unarchiver: KeyedUnarchiver) throws -> Self {
        try unarchiver.decodeBorrowing(Self.self, value)
    }
    static func decodeArchiveValue(
        _ value: UnarchivedValue, from unarchiver: KeyedUnarchiver, reader: borrowing BinaryPlistDocument.Reader
    ) throws -> Self {
        try unarchiver.decodeDate(reader, value)
    }
}

extension UUID: KeyedArchiveValue, ReaderDecodable {
    public func encodeArchiveValue(to archiver: KeyedArchiver) throws -> ArchivedValue {
        let u = uuid
        let bytes = Data([u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15])
        let ref = try archiver.foundationObject(
            "NSUUID", keys: ["NS.uuidbytes"], values: [archiver.state.builder.addData(bytes)])
        return ArchivedValue(ref: ref, isReference: true)
    }
    public static func decodeArchiveValue(_ value: UnarchivedValue, from unarchiver: KeyedUnarchiver) throws -> Self {
        try unarchiver.decodeBorrowing(Self.self, value)
    }
    static func decodeArchiveValue(
        _ value: UnarchivedValue, from unarchiver: KeyedUnarchiver, reader: borrowing BinaryPlistDocument.Reader
    ) throws -> Self {
        try unarchiver.decodeUUID(reader, value)
    }
}

extension URL: KeyedArchiveValue, ReaderDecodable {
    public func encodeArchiveValue(to archiver: KeyedArchiver) throws -> ArchivedValue {
        let base = try archiver.nested { () throws -> BuilderRef in
            if let baseURL { return try archiver.elementReference(baseURL) }
            return archiver.nullUID
        }
        let relative = try archiver.elementReference(relativeString)
        let ref = try archiver.foundationObject("NSURL", keys: ["NS.base", "NS.relative"], values: [base, relative])
        return ArchivedValue(ref: ref, isReference: true)
    }
    public static func decodeArchiveValue(_ value: UnarchivedValue, from unarchiver: KeyedUnarchiver) throws -> Self {
        try unarchiver.decodeBorrowing(Self.self, value)
    }
    static func decodeArchiveValue(
        _ value: UnarchivedValue, from unarchiver: KeyedUnarchiver, reader: borrowing BinaryPlistDocument.Reader
    ) throws -> Self {
        try unarchiver.decodeURL(reader, value)
    }
}

// MARK: - Collections

extension Array: KeyedArchiveValue, ReaderDecodable where Element: KeyedArchiveValue {
    public func encodeArchiveValue(to archiver: KeyedArchiver) throws -> ArchivedValue {
        let refs = try archiver.nested { () throws -> [BuilderRef] in
            var refs: [BuilderRef] = []
            refs.reserveCapacity(count)
            for e in self { refs.append(try archiver.elementReference(e)) }
            return refs
        }
        let list = try archiver.state.builder.addArray(refs)
        return ArchivedValue(
            ref: try archiver.foundationObject("NSArray", keys: ["NS.objects"], values: [list]), isReference: true)
    }
    public static func decodeArchiveValue(_ value: UnarchivedValue, from unarchiver: KeyedUnarchiver) throws -> Self {
        try unarchiver.decodeBorrowing(Self.self, value)
    }
    static func decodeArchiveValue(
        _ value: UnarchivedValue, from unarchiver: KeyedUnarchiver, reader: borrowing BinaryPlistDocument.Reader
    ) throws -> Self {
        if try unarchiver.isKnownEmptyCollection(reader, value, classNames: FoundationClass.array) { return [] }
        let f = try unarchiver.requireFoundationObject(
            reader, value, classNames: FoundationClass.array, expected: "an array")
        try unarchiver.enterCollection(uid: f.uid)
        defer { unarchiver.leaveCollection(uid: f.uid) }
        let list = try unarchiver.elementList(reader, f)
        if list.isEmpty { try unarchiver.rememberEmpty(reader, f) }
        return try unarchiver.decodeElements(reader, list)
    }
}

extension Set: KeyedArchiveValue, ReaderDecodable where Element: KeyedArchiveValue {
    public func encodeArchiveValue(to archiver: KeyedArchiver) throws -> ArchivedValue {
        let refs = try archiver.nested { () throws -> [BuilderRef] in
            var refs: [BuilderRef] = []
            refs.reserveCapacity(count)
            for e in self { refs.append(try archiver.elementReference(e)) }
            return refs
        }
        let list = try archiver.state.builder.addArray(refs)
        return ArchivedValue(
            ref: try archiver.foundationObject("NSSet", keys: ["NS.objects"], values: [list]), isReference: true)
    }
    public static func decodeArchiveValue(_ value: UnarchivedValue, from unarchiver: KeyedUnarchiver) throws -> Self {
        try unarchiver.decodeBorrowing(Self.self, value)
    }
    static func decodeArchiveValue(
        _ value: UnarchivedValue, from unarchiver: KeyedUnarchiver, reader: borrowing BinaryPlistDocument.Reader
    ) throws -> Self {
        if try unarchiver.isKnownEmptyCollection(reader, value, classNames: FoundationClass.set) { return [] }
        let f = try unarchiver.requireFoundationObject(
            reader, value, classNames: FoundationClass.set, expected: "a set")
        try unarchiver.enterCollection(uid: f.uid)
        defer { unarchiver.leaveCollection(uid: f.uid) }
        let list = try unarchiver.elementList(reader, f)
        if list.isEmpty { try unarchiver.rememberEmpty(reader, f) }
        var result = Set<Element>(minimumCapacity: list.count)
        for i in 0..<list.count { result.insert(try unarchiver.decodeElement(reader, list, i)) }
        return result
    }
}

extension Dictionary: KeyedArchiveValue, ReaderDecodable where Key: KeyedArchiveValue, Value: KeyedArchiveValue {
    public func encodeArchiveValue(to archiver: KeyedArchiver) throws -> ArchivedValue {
        let (keys, values) = try archiver.nested { () throws -> ([BuilderRef], [BuilderRef]) in
            var keys: [BuilderRef] = []
            var values: [BuilderRef] = []
            keys.reserveCapacity(count)
            values.reserveCapacity(count)
            for (k, v) in self {
                keys.append(try archiver.elementReference(k))
                values.append(try archiver.elementReference(v))
            }
            return (keys, values)
        }
        let ref = try archiver.foundationObject(
            "NSDictionary", keys: ["NS.keys", "NS.objects"],
            values: [try archiver.state.builder.addArray(keys), try archiver.state.builder.addArray(values)])
        return ArchivedValue(ref: ref, isReference: true)
    }
    public static func decodeArchiveValue(_ value: UnarchivedValue, from unarchiver: KeyedUnarchiver) throws -> Self {
        try unarchiver.decodeBorrowing(Self.self, value)
    }
    static func decodeArchiveValue(
        _ value: UnarchivedValue, from unarchiver: KeyedUnarchiver, reader: borrowing BinaryPlistDocument.Reader
    ) throws -> Self {
        let f = try unarchiver.requireFoundationObject(
            reader, value, classNames: FoundationClass.dictionary, expected: "a dictionary")
        return try unarchiver.nestedCollection(uid: f.uid) {
            let keys = try unarchiver.elementList(reader, f, key: "NS.keys")
            let values = try unarchiver.elementList(reader, f, key: "NS.objects")
            guard keys.count == values.count else {
                throw unarchiver.error(
                    .corrupted, uid: f.uid, "NS.keys has \(keys.count) entries but NS.objects \(values.count)")
            }
            var result: [Key: Value] = [:]
            result.reserveCapacity(keys.count)
            for i in 0..<keys.count {
                try unarchiver.countValue()
                unarchiver.path.append(.index(i))
                defer { unarchiver.path.removeLast() }
                let k = try unarchiver.decodeValue(
                    Key.self, UnarchivedValue(ref: reader.reference(at: i, in: keys)), reader)
                result[k] = try unarchiver.decodeValue(
                    Value.self, UnarchivedValue(ref: reader.reference(at: i, in: values)), reader)
            }
            return result
        }
    }
}

// MARK: - Optional

/// Lets a missing key decode as `nil` for optional types.
protocol OptionalArchiveValue {
    static var archiveNone: Self { get }
}

extension Optional: OptionalArchiveValue {
    static var archiveNone: Wrapped? { nil }
}

extension Optional: KeyedArchiveValue, ReaderDecodable where Wrapped: KeyedArchiveValue {
    public func encodeArchiveValue(to archiver: KeyedArchiver) throws -> ArchivedValue {
        guard let self else { return ArchivedValue(ref: archiver.nullUID, isReference: true) }
        return try self.encodeArchiveValue(to: archiver)
    }
    public static func decodeArchiveValue(_ value: UnarchivedValue, from unarchiver: KeyedUnarchiver) throws -> Self {
        try unarchiver.decodeBorrowing(Self.self, value)
    }
    static func decodeArchiveValue(
        _ value: UnarchivedValue, from unarchiver: KeyedUnarchiver, reader: borrowing BinaryPlistDocument.Reader
    ) throws -> Self {
        if try unarchiver.uidValue(reader, value.ref) == 0 { return nil }
        return try unarchiver.decodeValue(Wrapped.self, value, reader)
    }
}

// MARK: - Objects

extension KeyedArchivable {
    public func encodeArchiveValue(to archiver: KeyedArchiver) throws -> ArchivedValue {
        ArchivedValue(ref: archiver.reference(to: self), isReference: true)
    }
    public static func decodeArchiveValue(_ value: UnarchivedValue, from unarchiver: KeyedUnarchiver) throws -> Self {
        if unarchiver.state.isLent { return try decodeObject(value, from: unarchiver, reader: unarchiver.lentReader) }
        return try unarchiver.withNewInput { (r: borrowing BinaryPlistDocument.Reader) throws -> Self in
            try decodeObject(value, from: unarchiver, reader: r)
        }
    }
}

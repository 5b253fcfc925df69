// Tests/PropertyListTests/Codable/CodableFoundationParityTests.swift - Foundation's layout, both ways:
// what PlistEncoder writes decodes equal with Foundation's PropertyListDecoder, and what Foundation's
// PropertyListEncoder writes (binary and XML) decodes equal with PlistDecoder. Case by case here;
// generated models in CodablePropertyTests.swift.

import Foundation
import PropertyList
import Testing

/// Every scalar kind Foundation's coders handle, at its edges.
struct Scalars: Codable, Equatable {
    var i8: Int8, i16: Int16, i32: Int32, i64: Int64, int: Int
    var u8: UInt8, u16: UInt16, u32: UInt32, u64: UInt64, uint: UInt
    var f: Float, d: Double, b: Bool, s: String, empty: String
    var date: Date, data: Data, url: URL, uuid: UUID, decimal: Decimal

    static let minimums = Scalars(
        i8: .min, i16: .min, i32: .min, i64: .min, int: .min, u8: 0, u16: 0, u32: 0, u64: 0, uint: 0,
        f: -.greatestFiniteMagnitude, d: -.greatestFiniteMagnitude, b: false, s: "é中😀 ß", empty: "",
        // Before 1582 Foundation's XML writer uses the Julian calendar and XMLPlist the proleptic
        // Gregorian one (a text-form difference, not a Codable one): the earliest date here is 1601.
        date: Date(timeIntervalSinceReferenceDate: -12_622_780_800), data: Data(),
        url: testURL("https://example.org/a%20b?q=1#f"),
        uuid: testUUID("00000000-0000-0000-0000-000000000000"),
        decimal: testDecimal("-12345.6789"))
    static let maximums = Scalars(
        i8: .max, i16: .max, i32: .max, i64: .max, int: .max, u8: .max, u16: .max, u32: .max, u64: .max, uint: .max,
        f: .greatestFiniteMagnitude, d: .greatestFiniteMagnitude, b: true, s: String(repeating: "long ", count: 40),
        empty: "", date: Date(timeIntervalSinceReferenceDate: 1e9), data: Data((0...255).map { UInt8($0) }),
        url: URL(fileURLWithPath: "/tmp/a file.txt"), uuid: testUUID("FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF"),
        decimal: testDecimal("3.1415926535"))
}

/// Optionals: absent keys (synthesized `encodeIfPresent`) and explicit `encodeNil`, as Foundation writes it.
struct Optionals: Codable, Equatable {
    var present: Int?
    var absent: String?
    var explicitNil: Double?

    enum CodingKeys: String, CodingKey { case present, absent, explicitNil }

    init(present: Int?, absent: String?, explicitNil: Double?) {
        self.present = present
        self.absent = absent
        self.explicitNil = explicitNil
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        present = try c.decodeIfPresent(Int.self, forKey: .present)
        absent = try c.decodeIfPresent(String.self, forKey: .absent)
        explicitNil = try c.decodeIfPresent(Double.self, forKey: .explicitNil)
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(present, forKey: .present)
        try c.encodeIfPresent(absent, forKey: .absent)
        if let explicitNil {
            try c.encode(explicitNil, forKey: .explicitNil)
        } else {
            try c.encodeNil(forKey: .explicitNil)
        }
    }
}

enum Shape: Codable, Equatable {
    case circle(radius: Double)
    case rectangle(Double, Double)
    case labelled(String, points: [Int])
    case empty
}

class Animal: Codable, Equatable {
    var name: String
    init(name: String) { self.name = name }
    static func == (a: Animal, b: Animal) -> Bool { type(of: a) == type(of: b) && a.isEqual(b) }
    func isEqual(_ other: Animal) -> Bool { name == other.name }
}

final class Dog: Animal {
    var breed: String
    init(name: String, breed: String) {
        self.breed = breed
        super.init(name: name)
    }
    enum CodingKeys: String, CodingKey { case breed }
    required init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        breed = try c.decode(String.self, forKey: .breed)
        try super.init(from: c.superDecoder())
    }
    override func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(breed, forKey: .breed)
        try super.encode(to: c.superEncoder())
    }
    override func isEqual(_ other: Animal) -> Bool { super.isEqual(other) && breed == (other as? Dog)?.breed }
}

/// Nested keyed and unkeyed containers, written by hand.
struct Matrix: Codable, Equatable {
    var name: String
    var rows: [[Double]]
    var meta: [String: String]

    enum CodingKeys: String, CodingKey { case name, rows, meta }
    enum MetaKeys: String, CodingKey { case author, version }

    init(name: String, rows: [[Double]], meta: [String: String]) {
        self.name = name
        self.rows = rows
        self.meta = meta
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        var rowsContainer = try c.nestedUnkeyedContainer(forKey: .rows)
        rows = []
        while !rowsContainer.isAtEnd {
            var row = try rowsContainer.nestedUnkeyedContainer()
            var values: [Double] = []
            while !row.isAtEnd { values.append(try row.decode(Double.self)) }
            rows.append(values)
        }
        let m = try c.nestedContainer(keyedBy: MetaKeys.self, forKey: .meta)
        meta = [:]
        for key in m.allKeys { meta[key.rawValue] = try m.decode(String.self, forKey: key) }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        var rowsContainer = c.nestedUnkeyedContainer(forKey: .rows)
        for values in rows {
            var row = rowsContainer.nestedUnkeyedContainer()
            for v in values { try row.encode(v) }
        }
        var m = c.nestedContainer(keyedBy: MetaKeys.self, forKey: .meta)
        for (k, v) in meta.sorted(by: { $0.key < $1.key }) {
            if let key = MetaKeys(rawValue: k) { try m.encode(v, forKey: key) }
        }
    }
}

struct Everything: Codable, Equatable {
    var scalars: [Scalars]
    var optionals: [Optionals]
    var shapes: [Shape]
    var animals: [Dog]
    var matrix: Matrix
    var byName: [String: [Int]]
    var byNumber: [Int: String]
    var bySmallNumber: [Int8: Bool]
    var byUUID: [UUID: Double]
    var nested: [[String: [String: Date]]]
}

func makeEverything() -> Everything {
    Everything(
        scalars: [.minimums, .maximums],
        optionals: [
            Optionals(present: 1, absent: nil, explicitNil: nil),
            Optionals(present: nil, absent: "x", explicitNil: 2.5),
        ],
        shapes: [.circle(radius: 1.5), .rectangle(2, 3), .labelled("tri", points: [1, 2, 3]), .empty],
        animals: [Dog(name: "Rex", breed: "Collie"), Dog(name: "Fido", breed: "")],
        matrix: Matrix(name: "m", rows: [[1, 2], [], [3.5]], meta: ["author": "ada", "version": "2"]),
        byName: ["a": [1, 2], "": [], "é": [-1]], byNumber: [1: "one", -2: "minus two", 300: ""],
        bySmallNumber: [-1: true, 7: false], byUUID: [testUUID("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"): 1],
        nested: [["x": ["when": Date(timeIntervalSinceReferenceDate: 0)]], [:]])
}

/// Foundation's encoder in a form.
func foundationEncode<T: Encodable>(_ value: T, _ format: PropertyListSerialization.PropertyListFormat) throws -> Data {
    let encoder = PropertyListEncoder()
    encoder.outputFormat = format
    return try encoder.encode(value)
}

@Suite struct CodableFoundationParityTests {
    @Test func oursDecodesEqualInFoundation() throws {
        let everything = makeEverything()
        let bytes = try PlistEncoder().encode(everything)
        #expect(try PropertyListDecoder().decode(Everything.self, from: bytes) == everything)
        var xml = PlistEncoder()
        xml.outputFormat = .xml
        #expect(try PropertyListDecoder().decode(Everything.self, from: xml.encode(everything)) == everything)
    }

    @Test(arguments: [PropertyListSerialization.PropertyListFormat.binary, .xml])
    func foundationsDecodesEqualInOurs(format: PropertyListSerialization.PropertyListFormat) throws {
        let everything = makeEverything()
        let bytes = try foundationEncode(everything, format)
        #expect(try PlistDecoder().decode(Everything.self, from: bytes) == everything)
    }

    /// The same layout: Foundation's tree and ours are equal value for value.
    @Test func sameTreeAsFoundation() throws {
        let everything = makeEverything()
        let ours = try PlistEncoder().encodeValue(everything)
        let theirTree = try BinaryPlistDocument(foundationEncode(everything, .binary)).value()
        #expect(ours == theirTree)
    }
}

@Suite struct CodableFoundationDetailTests {
    struct Note: Codable, Equatable { var text: String }
    struct MaybeNote: Codable, Equatable { var text: String? }

    /// `encodeNil` is the string `"$null"` in Foundation's files and ours.
    @Test func nilIsTheNullString() throws {
        let ours = try PlistEncoder().encodeValue(Optionals(present: nil, absent: nil, explicitNil: nil))
        #expect(ours == .dict(["explicitNil": "$null"]))
        let theirs = try BinaryPlistDocument(
            foundationEncode(Optionals(present: nil, absent: nil, explicitNil: nil), .binary)
        )
        .value()
        #expect(ours == theirs)
        #expect(try PlistEncoder().encodeValue([nil, 1] as [Int?]) == .array(["$null", .int(1)]))
    }

    /// A real `"$null"` string is a string when a `String` is asked for, `nil` only for an optional.
    @Test func theNullStringIsAStringWhenAStringIsAskedFor() throws {
        let tree = PlistValue.dict(["text": "$null"])
        #expect(try PlistDecoder().decode(Note.self, from: tree) == Note(text: "$null"))
        #expect(try PlistDecoder().decode(MaybeNote.self, from: tree) == MaybeNote(text: nil))
        #expect(try PlistDecoder().decode([String].self, from: .array(["$null"])) == ["$null"])
        #expect(try PlistDecoder().decode([String?].self, from: .array(["$null", "x"])) == [nil, "x"])
        // Our file with the string "$null" reads back as the string (Foundation's decoder reads nil there).
        let bytes = try PlistEncoder().encode(Note(text: "$null"))
        #expect(try PlistDecoder().decode(Note.self, from: bytes) == Note(text: "$null"))
        // The null object (0x00), which Apple's writers never emit, is nil too.
        #expect(try PlistDecoder().decode(MaybeNote.self, from: .dict(["text": .null])) == MaybeNote(text: nil))
    }

    /// Foundation refuses a top-level scalar; we write it as the root.
    @Test func topLevelScalars() throws {
        #expect(throws: EncodingError.self) { try foundationEncode(5, .binary) }
        let bytes = try PlistEncoder().encode(5)
        #expect(try BinaryPlistDocument(bytes).value() == .int(5))
        #expect(try PlistDecoder().decode(Int.self, from: bytes) == 5)
        #expect(try PropertyListDecoder().decode(Int.self, from: bytes) == 5)
        #expect(try PlistDecoder().decode(String.self, from: PlistEncoder().encode("text")) == "text")
        #expect(
            try PlistDecoder().decode(Date.self, from: PlistEncoder().encode(Date(timeIntervalSince1970: 0)))
                == Date(timeIntervalSince1970: 0))
    }

    /// `Float` is a 4-byte real (marker 0x22), `Double` an 8-byte one (0x23), as in Foundation.
    @Test func floatAndDoubleWidths() throws {
        let float = try PlistEncoder().encode([Float(1.5)])
        let double = try PlistEncoder().encode([Double(1.5)])
        let foundationFloat = try foundationEncode([Float(1.5)], .binary)
        #expect(float.contains(0x22) && !float.contains(0x23))
        #expect(double.contains(0x23) && !double.contains(0x22))
        #expect(foundationFloat.contains(0x22))
        #expect(try PlistDecoder().decode([Float].self, from: foundationFloat) == [1.5])
        #expect(try PlistDecoder().decode([Float].self, from: float) == [1.5])
    }

    /// ±0, ±infinity and NaN, both widths, both ways (compared by bit pattern).
    @Test(arguments: [0.0, -0.0, .infinity, -.infinity, .nan, Double.leastNonzeroMagnitude, -1e-300])
    func specialReals(_ d: Double) throws {
        struct Reals: Codable {
            var d: Double
            var f: Float
        }
        let value = Reals(d: d, f: Float(d))
        let oursInFoundation = try PropertyListDecoder().decode(Reals.self, from: PlistEncoder().encode(value))
        let foundationInOurs = try PlistDecoder().decode(Reals.self, from: foundationEncode(value, .binary))
        let xmlInOurs = try PlistDecoder().decode(Reals.self, from: foundationEncode(value, .xml))
        for r in [oursInFoundation, foundationInOurs] {
            #expect(r.d.bitPattern == d.bitPattern || (r.d.isNaN && d.isNaN))
            #expect(r.f.bitPattern == Float(d).bitPattern || (r.f.isNaN && d.isNaN))
        }
        #expect(xmlInOurs.d == d || (xmlInOurs.d.isNaN && d.isNaN))
    }

    /// A URL is `{relative}` or `{base, relative}` (URL's own Codable), as Foundation writes it.
    @Test func urls() throws {
        let base = testURL("https://example.org/dir/")
        let urls = [testURL("b/c.txt", relativeTo: base), testURL("mailto:a@b.c")]
        let ours = try PlistEncoder().encodeValue(urls)
        #expect(ours == (try BinaryPlistDocument(foundationEncode(urls, .binary)).value()))
        #expect(ours[0]?["base"]?["relative"] == "https://example.org/dir/")
        #expect(ours[0]?["relative"] == "b/c.txt")
        let back = try PlistDecoder().decode([URL].self, from: ours)
        #expect(back.map(\.absoluteString) == urls.map(\.absoluteString))
        #expect(back[0].baseURL == base)
    }

    /// UUID is its string; Decimal its fields; `[Int: V]` string keys; other keys an alternating array.
    @Test func foundationValueLayouts() throws {
        let uuid = testUUID("E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        #expect(try PlistEncoder().encodeValue([uuid]) == .array(["E621E1F8-C36C-495A-93FC-0C247A3E6E5F"]))
        let decimal = testDecimal("-12345.6789")
        let decimalTree = try PlistEncoder().encodeValue([decimal])
        #expect(decimalTree == (try BinaryPlistDocument(foundationEncode([decimal], .binary)).value()))
        #expect(decimalTree[0]?["exponent"] == .int(-4))
        #expect(try PlistDecoder().decode([Decimal].self, from: decimalTree) == [decimal])
        #expect(try PlistEncoder().encodeValue([3: "c"]) == .dict(["3": "c"]))
        #expect(
            try PlistDecoder().decode([Int: String].self, from: .dict(["3": "c", "-4": "d"])) == [3: "c", -4: "d"])
        #expect(try PlistEncoder().encodeValue([Int8(3): "c"]) == .array([.int(3), "c"]))
        #expect(try PlistDecoder().decode([Int8: String].self, from: .array([.int(3), "c"])) == [3: "c"])
    }

    /// Enums with associated values, and `superEncoder()` under the key "super".
    @Test func enumsAndSuper() throws {
        let tree = try PlistEncoder().encodeValue([Shape.labelled("t", points: [1])])
        #expect(tree == .array([.dict(["labelled": .dict(["_0": "t", "points": .array([.int(1)])])])]))
        let dog = try PlistEncoder().encodeValue(Dog(name: "Rex", breed: "Collie"))
        #expect(dog == .dict(["breed": "Collie", "super": .dict(["name": "Rex"])]))
        #expect(try PlistDecoder().decode(Dog.self, from: dog) == Dog(name: "Rex", breed: "Collie"))
    }

    /// UIDs (keyed archives) decode into `PlistUID`; other coders see `{"CF$UID": n}`.
    @Test func uids() throws {
        let archive = try NSKeyedArchiver.archivedData(withRootObject: ["a", "b"], requiringSecureCoding: false)
        struct Top: Decodable { var root: PlistUID }
        let top = try PlistDecoder().decode(Top.self, from: BinaryPlistDocument(archive), at: "$top")
        #expect(top.root.value >= 1)
        let objects = try PlistDecoder().decode(
            [PlistUIDOrString].self, from: BinaryPlistDocument(archive), at: "$objects")
        #expect(objects.first == .string("$null"))
        #expect(try PlistEncoder().encodeValue([PlistUID(7)]) == .array([.uid(7)]))
        #expect(try PlistDecoder().decode([PlistUID].self, from: .array([.uid(7)])) == [PlistUID(7)])
        let json = try JSONEncoder().encode(PlistUID(7))
        #expect(String(decoding: json, as: UTF8.self) == #"{"CF$UID":7}"#)
        #expect(try JSONDecoder().decode(PlistUID.self, from: json) == PlistUID(7))
        // Foundation's encoder writes PlistUID's Codable form, {"CF$UID": 7}, which in XML is a UID.
        #expect(
            try PlistDecoder().decode([PlistUID].self, from: foundationEncode([PlistUID(7)], .xml)) == [PlistUID(7)])
    }

    enum PlistUIDOrString: Decodable, Equatable {
        case uid(PlistUID), string(String), other
        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let s = try? c.decode(String.self) {
                self = .string(s)
            } else if let u = try? c.decode(PlistUID.self) {
                self = .uid(u)
            } else {
                self = .other
            }
        }
    }
}

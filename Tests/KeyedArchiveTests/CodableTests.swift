// Tests/KeyedArchiveTests/CodableTests.swift - KeyedArchiveEncoder / KeyedArchiveDecoder.

import Foundation
import KeyedArchive
import PropertyList
import Testing

struct Settings: Codable, Equatable {
    var theme: String
    var volume: Double
    var recent: [URL]
    var id: UUID
}

struct Profile: Codable, Equatable {
    enum Role: Codable, Equatable {
        case admin
        case guest(until: Date)
    }
    var name: String
    var nickname: String?
    var scores: [Int]
    var byYear: [Int: [String]]
    var labels: Set<String>
    var settings: Settings
    var history: [Settings]
    var role: Role
    var blob: Data
    var flag: Bool
    var small: Int8
    var huge: UInt64
    var ratio: Float
}

struct Renamed: Codable, Equatable, KeyedArchiveClassNamed {
    static let archiveClassName = "XWZRenamed"
    var x: Int
}

final class FSettings: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    var theme = ""
    var volume = 0.0
    var recent: [URL] = []
    var id: UUID?
    override init() {}
    func encode(with coder: NSCoder) {
        coder.encode(theme, forKey: "theme")
        coder.encode(volume, forKey: "volume")
        coder.encode(recent, forKey: "recent")
        coder.encode(id, forKey: "id")
    }
    init?(coder: NSCoder) {
        theme = coder.decodeObject(forKey: "theme") as? String ?? "?"
        volume = coder.decodeDouble(forKey: "volume")
        recent = coder.decodeObject(forKey: "recent") as? [URL] ?? []
        id = coder.decodeObject(forKey: "id") as? UUID
    }
}

@Suite struct CodableTests {
    let settings = Settings(
        theme: "därk", volume: 0.75,
        recent: [URL(string: "file:///tmp/a.txt"), URL(string: "https://example.com/x?y=1")].compactMap { $0 },
        id: UUID())

    @Test func issueCallSitesRoundTrip() throws {
        let s = try KeyedArchiveEncoder().encode(settings)  // Codable, no boilerplate
        let t = try KeyedArchiveDecoder().decode(Settings.self, from: s)
        #expect(t == settings)
    }

    @Test func richValuesRoundTrip() throws {
        let profile = Profile(
            name: "Ada", nickname: nil, scores: [1, -2, Int.max], byYear: [2024: ["a"], -1: []],
            labels: ["x", "y"], settings: settings, history: [settings, settings],
            role: .guest(until: Date(timeIntervalSinceReferenceDate: 42)), blob: Data([1, 2, 3]), flag: true,
            small: -128, huge: .max, ratio: 0.5)
        let data = try KeyedArchiveEncoder().encode(profile)
        #expect(try KeyedArchiveDecoder().decode(Profile.self, from: data) == profile)
        var admin = profile
        admin.role = .admin
        admin.nickname = "A"
        #expect(try KeyedArchiveDecoder().decode(Profile.self, from: KeyedArchiveEncoder().encode(admin)) == admin)
    }

    @Test func topLevelCollectionsAndScalars() throws {
        let enc = KeyedArchiveEncoder()
        let dec = KeyedArchiveDecoder()
        #expect(try dec.decode([Settings].self, from: enc.encode([settings])) == [settings])
        #expect(try dec.decode([String: Settings].self, from: enc.encode(["k": settings])) == ["k": settings])
        #expect(try dec.decode(Int.self, from: enc.encode(5)) == 5)
        #expect(try dec.decode(String?.self, from: enc.encode(String?.none)) == nil)
    }

    @Test func layoutUsesFoundationClasses() throws {
        let data = try KeyedArchiveEncoder().encode(settings)
        let objects = try #require(try BinaryPlistDocument(data).value()["$objects"]?.arrayValue)
        let names = Set(objects.compactMap { $0["$classname"]?.stringValue })
        #expect(names.isSuperset(of: ["Settings", "NSArray", "NSURL", "NSUUID"]))
        let renamed = try KeyedArchiveEncoder().encode(Renamed(x: 1))
        let renamedObjects = try #require(try BinaryPlistDocument(renamed).value()["$objects"]?.arrayValue)
        #expect(renamedObjects.contains { $0["$classname"] == "XWZRenamed" })
        #expect(try KeyedArchiveDecoder().decode(Renamed.self, from: renamed) == Renamed(x: 1))
    }

    @Test func foundationReadsCodableArchives() throws {
        let data = try KeyedArchiveEncoder().encode(settings)
        let u = try foundationUnarchiver(data)
        u.setClass(FSettings.self, forClassName: "Settings")
        let f = try #require(u.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? FSettings)
        #expect(f.theme == settings.theme)
        #expect(f.volume == settings.volume)
        #expect(f.recent == settings.recent)
        #expect(f.id == settings.id)
        let plain = try KeyedArchiveEncoder().encode(["a": [1, 2], "b": []] as [String: [Int]])
        #expect(
            try foundationUnarchiver(plain).decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? [String: [Int]] == [
                "a": [1, 2], "b": [],
            ])
    }

    @Test func codableReadsFoundationArchives() throws {
        let f = FSettings()
        f.theme = "light"
        f.volume = 0.25
        f.recent = settings.recent
        f.id = settings.id
        let data = try NSKeyedArchiver.archivedData(withRootObject: f, requiringSecureCoding: false)
        var decoder = KeyedArchiveDecoder()
        decoder.setClassName(NSStringFromClass(FSettings.self), for: Settings.self)
        let s = try decoder.decode(Settings.self, from: data)
        #expect(s == Settings(theme: "light", volume: 0.25, recent: settings.recent, id: settings.id))
        // Without the mapping, the class check refuses it.
        #expect(throws: DecodingError.self) { try KeyedArchiveDecoder().decode(Settings.self, from: data) }
    }

    @Test func errorsAreDecodingErrorsWithTheCodingPath() throws {
        struct Wrong: Codable { var theme: Int }
        struct Other: Codable {
            var theme: String
            var missing: String
        }
        struct Holder: Codable { var inner: Wrong }
        struct HolderS: Codable { var inner: Settings }
        let data = try KeyedArchiveEncoder().encode(HolderS(inner: settings))
        var d0 = KeyedArchiveDecoder()
        d0.setClassName("HolderS", for: Holder.self)
        do {
            _ = try d0.decode(Holder.self, from: data)
            Issue.record("expected an error")
        } catch DecodingError.typeMismatch(_, let context) {
            // `inner` is a Settings object: the class check fails first, at "inner".
            #expect(context.codingPath.map(\.stringValue) == ["root", "inner"])
            #expect((context.underlyingError as? KeyedArchiveError)?.code == .classNotAllowed)
        }
        var decoder = KeyedArchiveDecoder()
        decoder.setClassName("Settings", for: Wrong.self)
        decoder.setClassName("HolderS", for: Holder.self)
        do {
            _ = try decoder.decode(Holder.self, from: data)
            Issue.record("expected an error")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["root", "inner", "theme"])
            #expect((context.underlyingError as? KeyedArchiveError)?.code == .typeMismatch)
        }
        let flat = try KeyedArchiveEncoder().encode(settings)
        var d2 = KeyedArchiveDecoder()
        d2.setClassName("Settings", for: Other.self)
        do {
            _ = try d2.decode(Other.self, from: flat)
            Issue.record("expected an error")
        } catch DecodingError.keyNotFound(let key, _) {
            #expect(key.stringValue == "missing")
        }
        #expect(throws: DecodingError.self) { try KeyedArchiveDecoder().decode(Settings.self, from: Data([1, 2, 3])) }
    }

    @Test func encodingErrorsAreEncodingErrors() throws {
        struct Deep: Encodable {
            var depth: Int
            func encode(to encoder: any Encoder) throws {
                var c = encoder.unkeyedContainer()
                if depth > 0 { try c.encode(Deep(depth: depth - 1)) }
            }
        }
        #expect(throws: EncodingError.self) { try KeyedArchiveEncoder().encode(Deep(depth: 5000)) }
        #expect(try KeyedArchiveEncoder().encode(Deep(depth: 100)).count > 0)
    }

    @Test func codableInsideKeyedArchivable() throws {
        final class Box: KeyedArchivable {
            var settings: Settings
            init(_ s: Settings) { settings = s }
            func encode(with coder: KeyedArchiver) throws { try coder.encodeEncodable(settings, forKey: "settings") }
            init(from coder: KeyedUnarchiver) throws {
                settings = try coder.decodeDecodable(Settings.self, forKey: "settings")
            }
        }
        let data = try KeyedArchiver.archivedData(withRootObject: Box(settings))
        #expect(try KeyedUnarchiver.unarchivedObject(ofClass: Box.self, from: data).settings == settings)
    }
}

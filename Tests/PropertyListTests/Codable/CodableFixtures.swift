// Tests/PropertyListTests/Codable/CodableFixtures.swift - Literal URLs, UUIDs and decimals for the Codable
// tests. Each literal is valid; a typo would give the fallback value, which every check that uses it
// would then see differ.

import Foundation

func testURL(_ text: String, relativeTo base: URL? = nil) -> URL {
    URL(string: text, relativeTo: base) ?? URL(fileURLWithPath: "/invalid-test-url")
}

func testUUID(_ text: String) -> UUID {
    UUID(uuidString: text) ?? UUID(uuid: (0xBA, 0xD, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
}

func testDecimal(_ text: String) -> Decimal { Decimal(string: text) ?? .nan }

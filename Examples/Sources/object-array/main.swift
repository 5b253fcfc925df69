// object-array - An array of custom objects.
//
// A Swift array of `KeyedArchivable` objects is archived as an NSArray (`NS.objects` holding one
// UID per element), exactly what `NSKeyedArchiver` writes for `[Book]`; it reads back as `[Book]`.
// Collections nest (arrays of arrays, dictionaries of arrays), and an object that appears several
// times is stored once and decoded as one instance.
//
// Run: swift run object-array

import Foundation
import KeyedArchive

final class Book: KeyedArchivable {
    let title: String
    let authors: [String]
    let year: Int
    let rating: Double?

    init(title: String, authors: [String], year: Int, rating: Double? = nil) {
        self.title = title
        self.authors = authors
        self.year = year
        self.rating = rating
    }

    func encode(with coder: KeyedArchiver) throws {
        try coder.encode(title, forKey: "title")
        try coder.encode(authors, forKey: "authors")
        try coder.encode(year, forKey: "year")
        if let rating { try coder.encode(rating, forKey: "rating") }  // absent key when nil
    }

    init(from coder: KeyedUnarchiver) throws {
        title = try coder.decode(String.self, forKey: "title")
        authors = try coder.decode([String].self, forKey: "authors")
        year = try coder.decode(Int.self, forKey: "year")
        rating = try coder.decodeIfPresent(Double.self, forKey: "rating")
    }
}

func check(_ ok: Bool, _ what: String) {
    print(ok ? "  ok: \(what)" : "  FAILED: \(what)")
    if !ok { exit(1) }
}

let sicp = Book(
    title: "Structure and Interpretation of Computer Programs", authors: ["Abelson", "Sussman"], year: 1985)
let books = [
    Book(title: "The Art of Computer Programming", authors: ["Knuth"], year: 1968, rating: 5),
    sicp,
    Book(title: "Gödel, Escher, Bach", authors: ["Hofstadter"], year: 1979, rating: 4.5),
    sicp,  // the same instance twice, e.g. in a "recently read" list
]

// The whole array is the root object.
let data = try KeyedArchiver.archivedData(withRootObject: books)
print("archived \(books.count) books: \(data.count) bytes")

let decoded = try KeyedUnarchiver.unarchivedObject(ofClass: [Book].self, from: data)
check(decoded.count == 4, "four elements")
check(zip(books, decoded).allSatisfy { $0.title == $1.title && $0.authors == $1.authors }, "titles and authors")
check(decoded[0].rating == 5 && decoded[1].rating == nil, "optional field present and absent")
check(decoded[2].title == "Gödel, Escher, Bach", "non-ASCII text (stored as UTF-16)")
check(decoded[1] === decoded[3], "the repeated book is one instance after decoding")

// Nested collections work the same way: a dictionary of arrays of objects.
let shelves: [String: [Book]] = ["classics": [books[0], sicp], "fun": [books[2]]]
let shelfData = try KeyedArchiver.archivedData(withRootObject: shelves)
let shelvesBack = try KeyedUnarchiver.unarchivedObject(ofClass: [String: [Book]].self, from: shelfData)
check(shelvesBack["classics"]?.map(\.year) == [1968, 1985], "a dictionary of arrays of books")

// The root is an NSArray whose elements are Book objects, as Apple's unarchiver expects.
let graph = try KeyedArchiveGraph(data)
if case .object(let root) = graph.node(graph.root ?? 0) {
    print("  root object: \(root.className), elements: \(root.references)")
    check(root.className == "NSArray" && root.references.count == 4, "an NSArray of 4 references")
    check(Set(root.references).count == 3, "3 distinct objects (SICP twice)")
} else {
    check(false, "the root is an object")
}
print("object-array: OK")

// Sources/KeyedArchive/Unarchiving/LentInput.swift - One borrow of the input per top-level decode.
//
// Fenced (scripts/check-unsafe): the only place the unarchiver keeps the borrowed input.
//
// Every `decode(_:forKey:)` reads through a `BinaryPlistDocument.Reader`. Borrowing one costs about
// 300 instructions (`Data.bytes`, the exclusivity check on Data's storage, a copy of the document),
// paid once per field of every object: 9 % of an unarchive. Instead, the outermost read of a decode
// borrows the input once and lends it to the unarchiver for the whole of that call; every read
// nested in it (the fields of all the objects it reaches) goes through the lent bytes.
//
// Why this is sound: `lent` is set only inside `withLentBytes`'s closure and reset by `defer` before
// that closure returns, so it is never read after the borrow ends; reads nested in the closure run
// on the same thread, synchronously, because the unarchiver is not `Sendable`; and a coder kept by a
// type and called after the top-level decode returns finds `lent` empty and borrows anew.

@_spi(Internals) import PropertyList

/// The input lent for the current top-level read, if any. Only this file touches `lent`.
@safe struct LentInput {
    fileprivate var lent: BinaryPlistDocument.LentBytes? = nil
}

extension KeyedUnarchiver {
    /// Runs `body` with a reader of the input: over the lent bytes inside a read that lent them,
    /// otherwise with the input borrowed and lent for the whole of `body`.
    @inline(__always)
    func withInput<R, E: Error>(_ body: (borrowing PlistReader) throws(E) -> R) throws(E) -> R {
        if let lent = unsafe state.input.lent {
            // Inside the outermost read's closure below: the borrow is live (see the file header).
            return try unsafe document.withReader(lent: lent, body)
        }
        return try unsafe document.withLentBytes { (bytes) throws(E) -> R in
            unsafe state.input.lent = bytes
            defer { unsafe state.input.lent = nil }
            return try unsafe document.withReader(lent: bytes, body)
        }
    }
}

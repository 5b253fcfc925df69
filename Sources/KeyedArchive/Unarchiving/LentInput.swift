// Sources/KeyedArchive/Unarchiving/LentInput.swift - One reader of the input per top-level decode.
//
// Fenced (scripts/check-unsafe): the only place the unarchiver keeps the borrowed input.
//
// Every `decode(_:forKey:)` reads through a `BinaryPlistDocument.Reader`. Borrowing the input costs
// about 300 instructions (`Data.bytes`, the exclusivity check on Data's storage), and making a reader
// costs a retain and a release of the input's storage: paid once per field of every object, 9 % and
// then 8 % of an unarchive. Instead, the outermost read of a decode borrows the input once, makes one
// reader of it and lends that reader to the unarchiver for the whole of the call; every read nested
// in it (the fields of all the objects it reaches) goes through the lent reader.
//
// Why this is sound: `lentReader` is set (and `isLent` raised) only inside `withLentBytes`'s closure,
// and both are reset by `defer` before that closure returns (the reader then reads no bytes), so the
// reader whose bytes are the borrow is never used after the borrow ends; reads nested in the closure
// run on the same thread, synchronously, because the unarchiver is not `Sendable`; and a coder kept
// by a type and called after the top-level decode returns finds `isLent` false and borrows anew.
// Nested reads only read `lentReader` (a borrow for the duration of their body); only the outermost
// read writes it, before and after its body.
// Release builds keep it in a `StateCell` (no run-time exclusivity checks, see StateCell.swift);
// debug builds keep it a stored property of the unarchiver, every access checked.

@_spi(Internals) import PropertyList

#if !DEBUG
    extension KeyedUnarchiver {
        /// The reader lent for the current top-level read, when `isLent` (see the file header).
        var lentReader: PlistReader {
            unsafeAddress { unsafe readerCell.address }
            unsafeMutableAddress { unsafe readerCell.mutableAddress }
        }
    }
#endif

extension KeyedUnarchiver {
    /// Runs `body` with a reader of the input: the lent one inside a read that lent it, otherwise a
    /// new one, lent for the whole of `body`. (The reader is passed where it is kept, not matched out
    /// of an optional: a binding would copy its ~200 bytes on every field.)
    @inline(__always)
    func withInput<R, E: Error>(_ body: (borrowing PlistReader) throws(E) -> R) throws(E) -> R {
        if state.isLent { return try body(lentReader) }
        return try withNewInput(body)
    }

    /// The outermost read: borrows the input, lends one reader of it for `body`, then takes it back.
    @inline(never)
    func withNewInput<R, E: Error>(_ body: (borrowing PlistReader) throws(E) -> R) throws(E) -> R {
        try unsafe document.withLentBytes { (bytes) throws(E) -> R in
            // Inside the borrow's closure: the reader's bytes are valid until it returns (file header).
            lentReader = unsafe document.reader(lent: bytes)
            state.isLent = true
            defer {
                state.isLent = false
                lentReader = document.idleReader()
            }
            return try body(lentReader)
        }
    }
}

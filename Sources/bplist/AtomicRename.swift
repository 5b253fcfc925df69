// Sources/bplist/AtomicRename.swift - rename(2), the last step of an atomic file write.
//
// Foundation on Linux has no safe call that renames a file over an existing one: `moveItem` refuses
// an existing destination, and `replaceItemAt` (swift-foundation, Swift 6.3) renamed the original
// over the new item in a test on this toolchain, losing the new file. POSIX rename(2) replaces the
// destination in one step. It takes C strings, so the call is marked `unsafe`: the only unsafe code
// of the tool (fenced in scripts/check-unsafe).

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(ucrt)
    import ucrt
#elseif canImport(WASILibc)
    import WASILibc
#endif

enum AtomicRename {
    /// Renames the file at `source` over `destination` in one step (the destination, if any, is
    /// replaced atomically); the `errno` of a failure, `nil` on success.
    static func move(_ source: String, over destination: String) -> Int32? {
        // Safe: both Strings are bridged to NUL-terminated C strings that live for the call, and
        // rename(2) keeps neither pointer.
        let status = unsafe rename(source, destination)
        return status == 0 ? nil : errno
    }
}

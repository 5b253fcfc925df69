// Sources/PropertyList/Binary/Reading/DocumentTree.swift - A binary document walked in place by the text
// writers: no PlistValue tree is built, so converting a large file holds one object at a time.

#if canImport(FoundationEssentials) && !KEYEDARCHIVE_FORCE_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// A ``BinaryPlistDocument`` as a ``PlistTree``: nodes are object references, a container's children
/// are its reference lists (read from the input as they are needed), scalars are decoded one at a time.
///
/// With `replacingLoneSurrogates`, a UTF-16 string holding an unpaired surrogate reads with U+FFFD in
/// its place (as CoreFoundation reads it) instead of failing, and its reference is recorded in
/// ``repairs`` so that the caller can say where.
package struct DocumentTree: PlistTree {
    package let document: BinaryPlistDocument
    /// The same bytes, read with ``PlistReadOptions/replacesLoneSurrogates``.
    private let lenient: BinaryPlistDocument?
    /// The strings read with replacement characters (shared by copies of the tree).
    package let repairs = RepairLog()

    package init(_ document: BinaryPlistDocument, replacingLoneSurrogates: Bool = false) {
        self.document = document
        if replacingLoneSurrogates && !document.options.replacesLoneSurrogates {
            var options = document.options
            options.replacesLoneSurrogates = true
            lenient = document.with(options: options)
        } else {
            lenient = nil
        }
    }

    package func contents(of ref: ObjectRef) throws(PlistError) -> PlistTreeContents<ReferenceList> {
        // One borrow of the input for the object and its payload (nil: a string to read leniently).
        let contents = try document.withReader {
            (r: borrowing BinaryPlistDocument.Reader) throws(PlistError) -> PlistTreeContents<ReferenceList>? in
            let object = try r.object(ref)
            switch object {
            case .array(let list): return .array(list, id: UInt64(ref.index))
            case .set(let list): return .set(list, id: UInt64(ref.index))
            case .dictionary(let keys, let values):
                return .dictionary(keys: keys, values: values, id: UInt64(ref.index))
            case .null: return .scalar(.null)
            case .fill:
                // As materialising it is: padding is not a value (CoreFoundation refuses such a file).
                throw PlistError(
                    .corrupted, offset: document.offsetOfObject(ref.index), object: ref.index,
                    "a fill byte (0x0F) is padding, not a value")
            case .bool(let b): return .scalar(.bool(b))
            case .integer(let i): return .scalar(.integer(i))
            case .real(let d): return .scalar(.real(d))
            case .date(let d): return .scalar(.date(d))
            case .uid(let u): return .scalar(.uid(u))
            case .data(let range): return .scalar(.data(r.bytes(range)))
            case .asciiString, .utf16String:
                do throws(PlistError) {
                    return .scalar(.string(PlistString(try r.string(object) ?? "")))
                } catch {
                    guard error.code == .invalidString, case .utf16String = object, lenient != nil else { throw error }
                    return nil
                }
            }
        }
        if let contents { return contents }
        // A lone surrogate, read with U+FFFD (and recorded).
        guard let lenient, let text = try lenient.string(ref) else { return .scalar(.string("")) }
        repairs.record(ref)
        return .scalar(.string(PlistString(text)))
    }

    package var maxDepth: Int { document.limits.maxDepth }

    package var denseIDBound: Int? { document.objectCount }

    /// The root object.
    package var root: ObjectRef { document.root }
}

/// The objects a ``DocumentTree`` read leniently, each once, in the order met.
package final class RepairLog {
    private var seen = Set<ObjectRef>()
    package private(set) var refs: [ObjectRef] = []

    package init() {}

    func record(_ ref: ObjectRef) {
        if seen.insert(ref).inserted { refs.append(ref) }
    }
}

extension BinaryPlistDocument {
    /// This document read with other options (same bytes, trailer and limits; nothing is validated
    /// again: the options change how objects decode, not what was proven at open).
    package func with(options: PlistReadOptions) -> BinaryPlistDocument {
        var copy = self
        copy.options = options
        return copy
    }

    /// A key path to each of `refs` (the first found in a depth-first walk from the root, keys in
    /// entry order), for messages about objects found some other way; a ref not reached is absent.
    package func keyPaths(to refs: [ObjectRef]) throws(PlistError) -> [ObjectRef: PlistKeyPath] {
        var wanted = Set(refs)
        var found: [ObjectRef: PlistKeyPath] = [:]
        var visited = IDSet(bound: objectCount)
        var work: [(ObjectRef, [PlistKeyPath.Component])] = [(root, [])]
        while !wanted.isEmpty, let (ref, path) = work.popLast() {
            if wanted.remove(ref) != nil { found[ref] = PlistKeyPath(path) }
            switch try object(ref) {
            case .array(let list), .set(let list):
                guard visited.insert(UInt64(ref.index)) else { continue }
                for i in list.indices.reversed() { work.append((list[i], path + [PlistKeyPath.Component(index: i)])) }
            case .dictionary(let keys, let values):
                guard visited.insert(UInt64(ref.index)) else { continue }
                for i in keys.indices.reversed() {
                    let key = (try? string(keys[i])).flatMap { $0 } ?? "#\(keys[i].index)"
                    work.append((values[i], path + [PlistKeyPath.Component(key)]))
                }
            default:
                continue
            }
        }
        return found
    }
}

extension BinaryPlistDocument {
    /// The byte offset of an object, read from the offset table; nil when the index is out of range.
    package func offsetOfObject(_ index: Int) -> Int? {
        guard index >= 0, index < objectCount else { return nil }
        let width = trailer.offsetIntSize
        let start = data.startIndex + trailer.offsetTableOffset + index * width
        guard start + width <= data.endIndex else { return nil }
        var value = 0
        for b in data[start..<start + width] { value = value << 8 | Int(b) }
        return value
    }
}

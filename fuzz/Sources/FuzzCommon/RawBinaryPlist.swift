// fuzz/Sources/FuzzCommon/RawBinaryPlist.swift - A binary property list read raw, trusting nothing
// but bounds: what the differential targets check before they hand an input to Foundation, which
// may read (and trap on, or expand without bound) what our reader refuses.

import Foundation

/// A big-endian reader of `width` bytes at `at` (nil out of bounds or past `Int.max`).
public func bigEndian(_ p: [UInt8]) -> (_ at: Int, _ width: Int) -> Int? {
    { at, width in
        guard at >= 0, width >= 1, width <= 8, at <= p.count - width else { return nil }
        var v: UInt64 = 0
        for i in 0..<width { v = v << 8 | UInt64(p[at + i]) }
        return v > UInt64(Int.max) ? nil : Int(v)
    }
}

/// A binary property list's bytes, object offsets and reference size, read raw from its trailer
/// (bounds checked, nothing else: CoreFoundation may read what ours refuses).
public func rawObjectTable(_ payload: Data) -> (bytes: [UInt8], offsets: [Int], refSize: Int)? {
    guard payload.starts(with: Array("bplist".utf8)) else { return nil }
    let p = Array(payload)
    guard p.count >= 40 else { return nil }
    let t = p.count - 32
    let be = bigEndian(p)
    let offsetSize = Int(p[t + 6])
    let refSize = Int(p[t + 7])
    guard let count = be(t + 8, 8), let table = be(t + 24, 8), (1...8).contains(offsetSize),
        (1...8).contains(refSize), count > 0, count <= p.count, table <= p.count
    else { return nil }
    var offsets: [Int] = []
    for i in 0..<count {
        guard let o = be(table + i * offsetSize, offsetSize) else { break }
        offsets.append(o)
    }
    return (p, offsets, refSize)
}

/// Number of nodes the objects reachable from a binary property list's root expand to (shared
/// objects counted each time), up to `cap`; `cap` for a cycle or nesting past 512. The bytes are
/// read raw, with none of our checks (CoreFoundation accepts offsets ours refuses), so that it
/// also measures input that ours refuses.
public func binaryExpansion(_ payload: Data, cap: Int) -> Int {
    let b = Array(payload)
    guard b.count >= 40, b.starts(with: Array("bplist".utf8)) else { return 0 }
    let t = b.count - 32
    func be(_ at: Int, _ width: Int) -> Int? {
        guard width >= 1, width <= 8, at >= 0, at <= b.count - width else { return nil }
        let v = b[at..<(at + width)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return v > UInt64(Int.max) ? nil : Int(v)
    }
    let offsetWidth = Int(b[t + 6])
    let refWidth = Int(b[t + 7])
    guard let count = be(t + 8, 8), let top = be(t + 16, 8), let table = be(t + 24, 8), count < 1 << 16,
        table < b.count
    else {
        return 0
    }
    func children(_ object: Int) -> [Int] {
        guard let offset = be(table + object * offsetWidth, offsetWidth), offset < b.count else { return [] }
        let marker = b[offset]
        guard [0xA, 0xC, 0xD].contains(marker >> 4) else { return [] }
        var n = Int(marker & 0x0F)
        var start = offset + 1
        if n == 0x0F {
            guard start < b.count, b[start] >> 4 == 1, let wide = be(start + 1, 1 << Int(b[start] & 0x0F)) else {
                return []
            }
            guard wide < 1 << 16 else { return [] }
            n = wide
            start += 1 + (1 << Int(b[start] & 0x0F))
        }
        let total = marker >> 4 == 0xD ? 2 * n : n
        guard total < 1 << 16 else { return [] }
        return (0..<total).compactMap { be(start + $0 * refWidth, refWidth) }.filter { $0 < count }
    }
    var memo: [Int: Int] = [:]
    var open: Set<Int> = []
    func size(_ object: Int, _ depth: Int) -> Int {
        if let known = memo[object] { return known }
        guard depth < 512, open.insert(object).inserted else { return cap }
        defer { open.remove(object) }
        var total = 1
        for child in children(object) where total < cap { total += size(child, depth + 1) }
        memo[object] = min(total, cap)
        return min(total, cap)
    }
    return top < count ? size(top, 0) : 0
}

/// What traps Foundation when it reads a binary property list: a non-empty set (bridging it to
/// `Set<AnyHashable>`), or a dictionary with a UID key (iterating the `NSDictionary`).
public enum RawFoundationTrap: Sendable {
    case set
    case uidKey
}

/// What would trap Foundation in a binary property list (found by scanning every object of its
/// offset table, reachable or not, read raw).
public func rawFoundationTrap(_ payload: Data) -> RawFoundationTrap? {
    guard payload.starts(with: Array("bplist".utf8)) else { return nil }
    // Read raw, trusting nothing but bounds: an input our reader refuses (an overlapping offset
    // table, say) may still be one CoreFoundation reads, and traps on.
    guard let (p, offsets, refSize) = rawObjectTable(payload) else { return nil }
    let be = bigEndian(p)
    for off in offsets where off < p.count {
        let marker = p[off]
        switch marker >> 4 {
        case 0xC where marker & 0x0F != 0:
            return .set
        case 0xD:
            var n = Int(marker & 0x0F)
            var keys = off + 1
            if n == 0x0F {
                // An extended count: an integer marker and its bytes.
                guard keys < p.count, p[keys] >> 4 == 0x1, let c = be(keys + 1, 1 << Int(p[keys] & 0x0F)) else {
                    continue
                }
                n = min(c, p.count)
                keys += 1 + (1 << Int(p[keys] & 0x0F))
            }
            for k in 0..<n {
                guard let r = be(keys + k * refSize, refSize) else { break }
                if r < offsets.count, offsets[r] < p.count, p[offsets[r]] >> 4 == 0x8 { return .uidKey }
            }
        default: break
        }
    }
    return nil
}

/// Whether any object of the offset table is a UID above `UInt32.max` (also one our tree does
/// not keep: the value of a repeated key).
public func rawHoldsWideUID(_ payload: Data) -> Bool {
    guard let (p, offsets, _) = rawObjectTable(payload) else { return false }
    for off in offsets where off < p.count && p[off] >> 4 == 0x8 {
        let width = Int(p[off] & 0x0F) + 1
        guard off + width < p.count else { continue }
        if p[(off + 1)..<(off + 1 + width)].dropLast(4).contains(where: { $0 != 0 }) { return true }
    }
    return false
}

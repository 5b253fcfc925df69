// Sources/PropertyList/Text/TextSink.swift - The fixed-size buffer the text writers fill and hand on.
//
// Canonical JSON, XML and OpenStep text (and the tool's renderings) write a shared sub-tree once per
// reference, so their output can be far larger than the value in memory. They write into a
// `TextSink`: a buffer of at most `capacity` bytes that is handed to its owner's `deliver` closure
// each time it fills and once more at the end. The writer's output memory is the buffer, whatever the
// size of the output. The String/Data-returning APIs use a collecting sink (`collecting()`), which
// never delivers and gives its bytes back at the end.
//
// A delivery that fails (a full disk, a closed pipe) returns `false`: the sink stops, later bytes are
// dropped, and the writers end their walk early (they check `isStopped`). The owner of the closure
// keeps the reason and reports it once the writer returns, as `ferror` does for a `FILE *`.
//
// The output budget (`OutputBudget`) is not checked here: every writer measures the expansion before
// its first byte, so a value over the budget writes nothing at all, and a value within it is written
// in full (its byte estimate leaves out indentation, so the text may pass `maxBytes` by that much).

/// A buffer of at most ``capacity`` bytes of UTF-8 output, handed to its owner whenever it fills.
///
/// ```swift
/// var sink = TextSink { chunk in write(chunk); return true }   // at most 64 KiB at a time
/// try value.writeCanonicalJSON(into: &sink)
/// guard sink.finish() else { /* a delivery failed */ }
/// ```
package struct TextSink: ~Copyable {
    /// The buffer size of a delivering sink unless told otherwise: 64 KiB.
    package static let defaultCapacity = 1 << 16

    /// The most bytes held at once; every delivery but the last is exactly this long.
    package let capacity: Int
    private var buffer: [UInt8]
    /// Takes one full buffer; `false` when it could not (then the sink stops). `nil`: collecting.
    private let deliver: (([UInt8]) -> Bool)?
    /// Whether a delivery failed: later writes are dropped, and writers should stop walking.
    package private(set) var isStopped = false
    /// Bytes handed to `deliver` so far.
    package private(set) var deliveredBytes = 0
    /// Bytes written after a failed delivery, dropped (a writer that stops promptly keeps this small).
    package private(set) var droppedBytes = 0

    /// A sink that hands each `capacity` bytes to `deliver` (and what is left to ``finish()``).
    ///
    /// - Parameters:
    ///   - capacity: The buffer size, at least 1.
    ///   - deliver: Takes the bytes of one full buffer (valid for the call only); returns `false`
    ///     when it could not, which stops the sink.
    package init(capacity: Int = TextSink.defaultCapacity, deliver: @escaping ([UInt8]) -> Bool) {
        self.capacity = max(capacity, 1)
        self.deliver = deliver
        buffer = []
        buffer.reserveCapacity(self.capacity)
    }

    private init(collectingWithReserve reserve: Int) {
        capacity = Int.max
        deliver = nil
        buffer = []
        buffer.reserveCapacity(reserve)
    }

    /// A sink that keeps everything (the writers' String and Data results): read it with ``takeBytes()``.
    package static func collecting(reserving reserve: Int = 1024) -> TextSink {
        TextSink(collectingWithReserve: reserve)
    }

    /// A sink that drops what it is given (a writer run only for its errors).
    package static func discarding() -> TextSink {
        TextSink(capacity: defaultCapacity) { _ in true }
    }

    /// The bytes written and not yet delivered (all of them for a collecting sink).
    package var pendingBytes: Int { buffer.count }

    /// The bytes the buffer has room for without growing: stays at its initial size while the sink
    /// delivers (the proof that output memory is bounded).
    package var bufferCapacity: Int { buffer.capacity }

    // MARK: Writing

    package mutating func write(_ byte: UInt8) {
        if buffer.count == capacity { flush() }
        buffer.append(byte)
    }

    /// The UTF-8 of `text`.
    package mutating func write(_ text: String) {
        let utf8 = text.utf8
        if utf8.count <= capacity &- buffer.count {
            buffer.append(contentsOf: utf8)
        } else {
            writeInPieces(utf8)
        }
    }

    package mutating func write(_ bytes: some Collection<UInt8>) {
        if bytes.count <= capacity &- buffer.count {
            buffer.append(contentsOf: bytes)
        } else {
            writeInPieces(bytes)
        }
    }

    /// `count` copies of `byte` (indentation).
    package mutating func write(repeating byte: UInt8, count: Int) {
        var left = max(count, 0)
        while left > 0 {
            if buffer.count == capacity { flush() }
            let n = min(left, capacity &- buffer.count)
            buffer.append(contentsOf: repeatElement(byte, count: n))
            left &-= n
        }
    }

    /// Bytes longer than the room left: a buffer's worth at a time.
    private mutating func writeInPieces<C: Collection<UInt8>>(_ bytes: C) {
        var start = bytes.startIndex
        while start != bytes.endIndex {
            if buffer.count == capacity { flush() }
            let end =
                bytes.index(start, offsetBy: capacity &- buffer.count, limitedBy: bytes.endIndex) ?? bytes.endIndex
            buffer.append(contentsOf: bytes[start..<end])
            start = end
        }
    }

    /// Hands the buffered bytes on now (nothing for a collecting sink or an empty buffer).
    package mutating func flush() {
        guard let deliver, !buffer.isEmpty else { return }
        if isStopped {
            droppedBytes &+= buffer.count
        } else if deliver(buffer) {
            deliveredBytes &+= buffer.count
        } else {
            isStopped = true
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Delivers what is left; `false` when any delivery failed (the output is incomplete).
    package consuming func finish() -> Bool {
        flush()
        return !isStopped
    }

    /// Everything a collecting sink was given (for a delivering sink: what was not delivered yet).
    package consuming func takeBytes() -> [UInt8] {
        buffer
    }
}

extension TextSink {
    /// The base64 alphabet (RFC 4648, section 4).
    static let base64Alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// `data` in base64 with padding, as groups of four characters handed to `emit` in order (the
    /// last group padded with `=`): the one encoder of canonical JSON's single line and XML's
    /// wrapped lines, which break lines between groups.
    static func base64Groups(of data: some Sequence<UInt8>, _ emit: (UInt8, UInt8, UInt8, UInt8) -> Void) {
        let table = base64Alphabet
        var quantum: UInt32 = 0
        var count = 0
        for b in data {
            quantum = quantum << 8 | UInt32(b)
            count &+= 1
            if count == 3 {
                emit(
                    table[Int(quantum >> 18 & 0x3F)], table[Int(quantum >> 12 & 0x3F)],
                    table[Int(quantum >> 6 & 0x3F)], table[Int(quantum & 0x3F)])
                quantum = 0
                count = 0
            }
        }
        if count == 1 {
            emit(table[Int(quantum >> 2 & 0x3F)], table[Int(quantum << 4 & 0x3F)], 0x3D, 0x3D)
        } else if count == 2 {
            emit(
                table[Int(quantum >> 10 & 0x3F)], table[Int(quantum >> 4 & 0x3F)], table[Int(quantum << 2 & 0x3F)],
                0x3D)
        }
    }
}

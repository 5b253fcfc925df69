// fuzz/Sources/FuzzCommon/FuzzInput.swift - Splits a fuzz input into reading options and a payload.
//
// Every target reads the same layout, so one reproducer means the same thing to all of them:
//
//   byte 0   bit 0    allowsTrailingData
//            bit 1    allowsUTF8InASCIIStrings
//            bit 2    allowsCompression = false (0 keeps the default, true)
//            bits 3-4 maxDepth:             512, 1, 4, 32
//            bits 5-7 maxValues:             default, 1, 2, 8, 64, 512, 4096, 65536
//   byte 1   bits 0-1 maxObjects:           default, 1, 16, 256
//            bits 2-3 maxUID:               UInt32.max, 0, 255, UInt64.max
//            bits 4-5 maxDecompressedBytes: 65536, 0, 100, 4096
//            bits 6-7 a free choice for the target (compression level, writer mode, ...)
//   byte 2…  the payload: the bytes handed to the reader
//
// An input shorter than two bytes is all payload with the default configuration, so `00 00` +
// a file is "that file, default limits" (except a small decompression cap: a fuzz run must never
// inflate hundreds of megabytes).

import Foundation
import PropertyList

/// Reading options and limits derived from the first two bytes of a fuzz input.
public struct FuzzConfig: Sendable, Hashable {
    /// Number of configuration bytes in front of the payload.
    public static let prefixLength = 2

    /// The two configuration bytes.
    public let byte0: UInt8
    public let byte1: UInt8

    /// The limits the payload is read with.
    public var limits: PlistLimits
    /// The options the payload is opened with.
    public var options: PlistReadOptions
    /// Two bits for the target's own use (0...3).
    public var choice: Int { Int(byte1 >> 6) }

    /// The configuration `00 00`: default options and limits, 64 KiB decompression cap.
    public static let standard = FuzzConfig(0, 0)

    public init(_ byte0: UInt8, _ byte1: UInt8) {
        self.byte0 = byte0
        self.byte1 = byte1
        options = PlistReadOptions(
            allowsTrailingData: byte0 & 1 != 0,
            allowsUTF8InASCIIStrings: byte0 & 2 != 0,
            allowsCompression: byte0 & 4 == 0)
        var limits = PlistLimits()
        limits.maxDepth = [512, 1, 4, 32][Int(byte0 >> 3 & 3)]
        let nodes = [limits.maxValues, 1, 2, 8, 64, 512, 4096, 65536]
        limits.maxValues = nodes[Int(byte0 >> 5 & 7)]
        limits.maxObjects = [limits.maxObjects, 1, 16, 256][Int(byte1 & 3)]
        limits.maxUID = [UInt64(UInt32.max), 0, 255, UInt64.max][Int(byte1 >> 2 & 3)]
        limits.maxDecompressedBytes = [65536, 0, 100, 4096][Int(byte1 >> 4 & 3)]
        self.limits = limits
    }

    /// The prefix bytes that select this configuration.
    public var prefix: [UInt8] { [byte0, byte1] }

    /// A readable summary, for reproducer reports and regression tests.
    public var summary: String {
        var parts: [String] = []
        if options.allowsTrailingData { parts.append("allowsTrailingData") }
        if options.allowsUTF8InASCIIStrings { parts.append("allowsUTF8InASCIIStrings") }
        if !options.allowsCompression { parts.append("allowsCompression=false") }
        let d = PlistLimits()
        if limits.maxDepth != d.maxDepth { parts.append("maxDepth=\(limits.maxDepth)") }
        if limits.maxValues != d.maxValues { parts.append("maxValues=\(limits.maxValues)") }
        if limits.maxObjects != d.maxObjects { parts.append("maxObjects=\(limits.maxObjects)") }
        if limits.maxUID != d.maxUID { parts.append("maxUID=\(limits.maxUID)") }
        parts.append("maxDecompressedBytes=\(limits.maxDecompressedBytes)")
        if choice != 0 { parts.append("choice=\(choice)") }
        return parts.joined(separator: ", ")
    }
}

/// One fuzz input: its configuration and its payload.
public struct FuzzInput: Sendable {
    public let config: FuzzConfig
    public let payload: Data

    /// Splits raw bytes into configuration and payload.
    public init(bytes: some Collection<UInt8>) {
        if bytes.count < FuzzConfig.prefixLength {
            config = .standard
            payload = Data(bytes)
        } else {
            let b0 = bytes[bytes.startIndex]
            let b1 = bytes[bytes.index(after: bytes.startIndex)]
            config = FuzzConfig(b0, b1)
            payload = Data(bytes.dropFirst(FuzzConfig.prefixLength))
        }
    }

    /// libFuzzer's view of the input: `size` bytes at `start` (which may be null when `size` is 0).
    public init(_ start: UnsafePointer<UInt8>?, _ size: Int) {
        self.init(bytes: UnsafeBufferPointer(start: size > 0 ? start : nil, count: size > 0 ? size : 0))
    }
}

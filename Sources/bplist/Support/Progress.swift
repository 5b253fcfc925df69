// Sources/bplist/Support/Progress.swift - A progress line on stderr for long work on big inputs.
//
// Shown only when stderr is a terminal: never in pipes, files, tests or CI (`CI` set), and never
// with `BPLIST_NO_PROGRESS` set. It appears at once for inputs above 16 MiB, otherwise after one
// second of work, is redrawn ten times a second from a background thread (so one long call, such
// as materialising a tree, still shows time passing), and is erased when the work ends, before any
// output or error line.

import Foundation
import Synchronization

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

/// Whether the standard streams are terminals.
enum Terminal {
    static var stdoutIsTerminal: Bool { isatty(1) == 1 }
    static var stderrIsTerminal: Bool { isatty(2) == 1 }

    /// The value of an environment variable, `nil` when unset.
    static func environment(_ name: String) -> String? { ProcessInfo.processInfo.environment[name] }
}

/// A self-erasing progress line on stderr: `bplist convert: decoding… 2.4 s (48.0 MiB)`.
///
/// ```swift
/// let progress = Progress("convert", inputBytes: data.count)
/// defer { progress.finish() }
/// progress.phase("decoding")
/// progress.update(done: 10, of: 200)   // optional: a percentage for loops that can count
/// ```
final class Progress: Sendable {
    /// Inputs at least this large show the line immediately.
    static let bigInput = 16 << 20
    /// Otherwise the line appears once the work has taken this long.
    static let delay: Duration = .seconds(1)

    /// Whether a progress line may be drawn at all in this process.
    static var allowed: Bool {
        Terminal.stderrIsTerminal && Terminal.environment("CI") == nil
            && Terminal.environment("BPLIST_NO_PROGRESS") == nil
    }

    /// What the drawing thread and the worker share, behind one lock.
    private struct State {
        var phaseName = "reading"
        var done = 0
        var total = 0
        var stopped = false
        var drawn = false
        var spin = 0
    }

    private let state: Mutex<State>
    private let label: String
    private let inputBytes: Int
    private let started = ContinuousClock.now

    /// Starts tracking work on an input of `inputBytes`; draws nothing unless ``allowed``.
    init(_ label: String, inputBytes: Int) {
        self.label = label
        self.inputBytes = inputBytes
        state = Mutex(State(stopped: !Progress.allowed))
        guard Progress.allowed else { return }
        let thread = Thread { [self] in
            while tick() { Thread.sleep(forTimeInterval: 0.1) }
        }
        thread.start()
    }

    /// Names the current step (`decoding`, `writing`, …).
    func phase(_ name: String) {
        state.withLock {
            $0.phaseName = name
            $0.done = 0
            $0.total = 0
        }
    }

    /// Reports `done` of `total` units of the current step.
    func update(done: Int, of total: Int) {
        state.withLock {
            $0.done = done
            $0.total = total
        }
    }

    /// Stops drawing and erases the line. Call before writing results or errors.
    func finish() {
        state.withLock {
            guard !$0.stopped else { return }
            $0.stopped = true
            if $0.drawn { Progress.write("\r\u{1B}[K") }
        }
    }

    /// ``finish()`` when standard output is a terminal (the line shares it), for a command's first
    /// output; nothing when output goes elsewhere, so the line goes on while the output is written.
    func erasingBeforeTerminalOutput() {
        if Terminal.stdoutIsTerminal { finish() }
    }

    /// Draws the line when due; `false` once finished.
    private func tick() -> Bool {
        state.withLock {
            guard !$0.stopped else { return false }
            let elapsed = ContinuousClock.now - started
            guard inputBytes >= Progress.bigInput || elapsed >= Progress.delay else { return true }
            let frames = ["|", "/", "-", "\\"]
            $0.spin = ($0.spin + 1) % frames.count
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            var line = "\(frames[$0.spin]) bplist \(label): \($0.phaseName)…"
            if $0.total > 0 { line += " \(min(100, $0.done * 100 / $0.total))%" }
            line += " " + String(format: "%.1f s", seconds)
            line += " (" + Progress.size(inputBytes) + ")"
            Progress.write("\r\u{1B}[K" + line)
            $0.drawn = true
            return true
        }
    }

    /// `512 bytes`, `12.0 KiB`, `48.3 MiB`.
    static func size(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) bytes" }
        if bytes < 1 << 20 { return String(format: "%.1f KiB", Double(bytes) / 1024) }
        if bytes < 1 << 30 { return String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
        return String(format: "%.1f GiB", Double(bytes) / 1_073_741_824)
    }

    private static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

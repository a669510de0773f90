import FanoutMicrobenchCounters
import Foundation

/// Puts a case's memory out of every cache level before a cold measurement:
/// the heap blocks allocated while the case was built are flushed line by
/// line (`clflush` on x86-64), which takes microseconds, rather than pushed
/// out by a pass over a buffer larger than the last-level cache, which takes
/// tens of milliseconds (``LastLevelSweep``, used to cross-check it).
///
/// Only heap blocks are flushed: the code, the stack, and the type metadata
/// and witness tables in the binary's data stay where they are, as they would
/// for a delegate method called between frames of other work.
public struct Eviction: Sendable {
    /// One recorded heap block.
    public struct Block: Sendable, Equatable {
        public var start: UInt
        public var bytes: Int
    }

    /// The blocks allocated while recording, in allocation order.
    public var blocks: [Block]

    /// Whether the host can flush lines (x86-64) and this binary records
    /// allocations (the counting hooks are present).
    public static var isAvailable: Bool {
        Counters.areAvailable && microbench_flush(nil, 0) == 1
    }

    /// Runs `body` and records every heap block it allocates on this thread.
    public static func recording<Result>(_ body: () throws -> Result) rethrows -> (Result, Eviction) {
        microbench_recording_start()
        let result: Result
        do { result = try body() } catch {
            var ignored: UnsafePointer<microbench_block>?
            _ = microbench_recording_stop(&ignored)
            throw error
        }
        var recorded: UnsafePointer<microbench_block>?
        let count = microbench_recording_stop(&recorded)
        let blocks = (0..<count).map { index in
            let block = recorded![index]
            return Block(start: UInt(bitPattern: block.start), bytes: block.bytes)
        }
        return (result, Eviction(blocks: blocks))
    }

    /// Flushes every recorded block's lines from the caches (a block freed
    /// since costs a flush of memory nobody reads).
    public func flush() {
        for block in blocks {
            _ = microbench_flush(UnsafeRawPointer(bitPattern: block.start), block.bytes)
        }
    }

    /// The number of 64-byte lines the recorded blocks span.
    public var lines: Int {
        blocks.reduce(0) { total, block in
            total + Int((block.start + UInt(block.bytes) + 63) / 64 - block.start / 64)
        }
    }
}

/// A buffer four times the last-level cache, and a pass that writes a byte in
/// each of its lines: everything else leaves the caches (inclusive or not,
/// with or without a prefetcher's help). Slow: tens of milliseconds.
public final class LastLevelSweep: @unchecked Sendable {
    /// The last-level cache's size, from sysfs (the highest `index*/size`),
    /// or 32 MiB when it cannot be read.
    public static let lastLevelBytes: Int = {
        let directory = "/sys/devices/system/cpu/cpu0/cache"
        let sizes = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasPrefix("index") }
            .compactMap { try? String(contentsOfFile: "\(directory)/\($0)/size", encoding: .utf8) }
            .compactMap { text -> Int? in
                let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                let scale = trimmed.hasSuffix("K") ? 1 << 10 : trimmed.hasSuffix("M") ? 1 << 20 : 1
                return Int(trimmed.filter(\.isNumber)).map { $0 * scale }
            }
        return sizes.max() ?? 32 << 20
    }()

    public let bytes: Int
    private let buffer: UnsafeMutableRawPointer

    /// A sweep over `bytes` (default: four times the last-level cache).
    public init(bytes: Int = 4 * LastLevelSweep.lastLevelBytes) {
        self.bytes = bytes
        buffer = .allocate(byteCount: bytes, alignment: 64)
        buffer.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
    }

    deinit { buffer.deallocate() }

    /// Writes a byte in every line of the buffer.
    public func run() { microbench_sweep(buffer, bytes) }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

#if canImport(Glibc)
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
private let systemWrite = Darwin.write
#endif

/// A log written as lines to a file descriptor (standard output for `shoppable serve`), the
/// access log's lines in batches.
///
/// One `write(2)` per access-log line was about 4 % of the CPU a first visit costs the server (a
/// cached category page, ~23 µs; issue #14, docs/BENCHMARKS.md): the system call, not the text.
/// Access-log lines (``append(_:)``) are therefore gathered and written together once
/// `batchBytes` have gathered, or `flushInterval` after the first of them, whichever comes first
/// — as nginx's `access_log … buffer= flush=` does. Every other line (``write(_:)``: start,
/// stop, errors) is written at once, after the lines gathered before it, so the log keeps the
/// order in which its lines were made.
///
/// What is lost: when the process is killed without a chance to stop (`kill -9`, a crash), the
/// access-log lines of its last `flushInterval` at most. A stop by signal writes them
/// (`shoppable serve` writes its closing line through ``write(_:)``).
public final class LineLog: Sendable {
    /// The process's standard output.
    public static let standardOutput = LineLog(fileDescriptor: STDOUT_FILENO)

    private let fileDescriptor: Int32
    /// Bytes gathered before they are written without waiting for the interval.
    public let batchBytes: Int
    /// Longest time a gathered line waits.
    public let flushInterval: Duration
    private let pending = Mutex<[UInt8]>([])
    /// The thread that writes gathered lines after `flushInterval`.
    private let flusher = Atomic<FlusherState>(.notStarted)

    /// A log writing to `fileDescriptor` (left open: the log does not own it).
    public init(fileDescriptor: Int32, batchBytes: Int = 16_384, flushInterval: Duration = .milliseconds(100)) {
        precondition(batchBytes > 0 && flushInterval > .zero, "LineLog: a batch needs room and an interval")
        self.fileDescriptor = fileDescriptor
        self.batchBytes = batchBytes
        self.flushInterval = flushInterval
    }

    /// Gathers `line` (a newline is added), written with the next batch.
    public func append(_ line: String) {
        startFlusherIfNeeded()
        guard flusher.load(ordering: .relaxed) != .failed else { return write(line) }
        pending.withLock { bytes in
            if bytes.capacity < batchBytes { bytes.reserveCapacity(batchBytes + 512) }
            bytes.append(contentsOf: line.utf8)
            bytes.append(UInt8(ascii: "\n"))
            if bytes.count >= batchBytes { writeAll(&bytes) }
        }
    }

    /// Writes the gathered lines, then `line` (a newline is added), now.
    public func write(_ line: String) {
        pending.withLock { bytes in
            bytes.append(contentsOf: line.utf8)
            bytes.append(UInt8(ascii: "\n"))
            writeAll(&bytes)
        }
    }

    /// Writes the gathered lines now.
    public func flush() {
        pending.withLock { bytes in
            if !bytes.isEmpty { writeAll(&bytes) }
        }
    }

    /// Writes `bytes` whole (a short write is continued; an error drops the rest, as a log
    /// that cannot be written cannot report it) and empties them, keeping their storage. Called
    /// under the lock, so batches reach the descriptor in the order their lines were made.
    private func writeAll(_ bytes: inout [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return }
                offset += written
            }
        }
        bytes.removeAll(keepingCapacity: true)
    }

    private func startFlusherIfNeeded() {
        guard flusher.load(ordering: .relaxed) == .notStarted,
              flusher.compareExchange(expected: .notStarted, desired: .running, ordering: .relaxed).exchanged
        else { return }
        let (seconds, attoseconds) = flushInterval.components
        let micros = UInt32(clamping: seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
        // A thread of its own (not a dispatch timer): a log must not wait for a queue the request
        // threads may be keeping busy. It holds the log weakly and ends after the log does.
        var thread = pthread_t()
        let box = Unmanaged.passRetained(Flusher(log: self, micros: micros)).toOpaque()
        let created = pthread_create(&thread, nil, { argument in
            let flusher = Unmanaged<Flusher>.fromOpaque(argument!).takeRetainedValue()
            while true {
                usleep(flusher.micros)
                guard let log = flusher.log else { return nil }
                log.flush()
            }
        }, box)
        if created == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<Flusher>.fromOpaque(box).release()
            flusher.store(.failed, ordering: .relaxed)
        }
    }

    deinit { flush() }
}

/// Whether the thread writing gathered lines runs.
private enum FlusherState: UInt8, AtomicRepresentable {
    case notStarted, running
    /// No thread could be made: every line is written as it comes, as before batching.
    case failed
}

/// What the thread writing gathered lines holds.
private final class Flusher: @unchecked Sendable {
    weak var log: LineLog?
    let micros: UInt32
    init(log: LineLog, micros: UInt32) {
        self.log = log
        self.micros = micros
    }
}

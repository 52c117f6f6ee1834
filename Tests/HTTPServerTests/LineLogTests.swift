import Foundation
import HTTPServer
import Testing

@Suite("LineLog: access-log lines in batches, other lines at once, in order")
struct LineLogTests {
    /// A pipe whose read end never blocks: what the log has written so far.
    final class Pipe {
        let read: Int32
        let write: Int32

        init() {
            var ends: [Int32] = [0, 0]
            precondition(pipe(&ends) == 0)
            read = ends[0]
            write = ends[1]
            _ = fcntl(read, F_SETFL, fcntl(read, F_GETFL) | O_NONBLOCK)
        }

        deinit {
            close(read)
            close(write)
        }

        /// Everything written since the last call.
        func written() -> String {
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = chunk.withUnsafeMutableBytes { Foundation.read(read, $0.baseAddress!, $0.count) }
                if count <= 0 { break }
                bytes += chunk[..<count]
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    @Test func accessLinesWaitForTheNextLineWrittenAtOnceAndKeepTheirOrder() {
        let pipe = Pipe()
        let log = LineLog(fileDescriptor: pipe.write, batchBytes: 4_096, flushInterval: .seconds(60))
        log.append("GET / 200 10 5µs a")
        log.append("GET /cart 200 20 9µs b")
        #expect(pipe.written() == "", "gathered, not written")
        log.write("shoppable: stopping")
        #expect(pipe.written() == "GET / 200 10 5µs a\nGET /cart 200 20 9µs b\nshoppable: stopping\n")
        log.append("GET /late 200 1 1µs c")
        log.flush()
        #expect(pipe.written() == "GET /late 200 1 1µs c\n")
        log.flush()
        #expect(pipe.written() == "", "nothing twice")
    }

    @Test func aFullBatchIsWrittenWithoutWaiting() {
        let pipe = Pipe()
        let log = LineLog(fileDescriptor: pipe.write, batchBytes: 100, flushInterval: .seconds(60))
        let line = String(repeating: "x", count: 39)  // 40 bytes with its newline
        log.append(line)
        log.append(line)
        #expect(pipe.written() == "")
        log.append(line)
        #expect(pipe.written() == String(repeating: line + "\n", count: 3))
    }

    @Test func aGatheredLineIsWrittenAfterTheIntervalWithoutAnotherLine() throws {
        let pipe = Pipe()
        let log = LineLog(fileDescriptor: pipe.write, batchBytes: 4_096, flushInterval: .milliseconds(20))
        log.append("GET /alone 200 1 1µs d")
        var seen = ""
        let deadline = Date().addingTimeInterval(10)
        while seen.isEmpty && Date() < deadline {
            usleep(5_000)
            seen = pipe.written()
        }
        #expect(seen == "GET /alone 200 1 1µs d\n")
    }

    @Test func linesFromManyThreadsArriveWholeAndNoneIsLost() {
        let pipe = Pipe()
        let log = LineLog(fileDescriptor: pipe.write, batchBytes: 1_024, flushInterval: .seconds(60))
        // 1 200 lines of ~30 bytes: within the pipe's 64 KiB, so no write waits for a reader.
        let threads = 4, perThread = 300
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread {
                log.append("GET /t\(thread)/\(index) 200 \(index) 1µs \(thread)")
            }
        }
        log.flush()
        let lines = pipe.written().split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == threads * perThread)
        #expect(Set(lines).count == threads * perThread)
        for thread in 0..<threads {
            // Each thread's lines in the order it made them.
            let own = lines.filter { $0.hasPrefix("GET /t\(thread)/") }.map(String.init)
            #expect(own == (0..<perThread).map { "GET /t\(thread)/\($0) 200 \($0) 1µs \(thread)" })
        }
    }
}

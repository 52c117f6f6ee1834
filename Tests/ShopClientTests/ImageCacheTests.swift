import Foundation
import HTTPServer
import ShopAPI
import ShopClient
import ShopTestSupport
import Synchronization
import Testing
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("ImageCache")
struct ImageCacheTests {
    /// A fresh folder for a disk cache, removed afterwards.
    final class Folder: Sendable {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("shopclient-images-\(UUID().uuidString)")
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    @Test func missThenMemoryThenDiskThenRevalidatedWith304() async throws {
        let live = try LiveShop()
        defer { live.stop() }
        let client = live.client()
        let chair = try #require(try await client.products().first { $0.title == "Oak Chair" })
        let url = try #require(URL(string: chair.image))
        let folder = Folder()
        let clock = TestClock(Date(timeIntervalSince1970: 1_800_000_000))
        let recorder = Recorder()

        let first = ImageCache(transport: recorder.transport, directory: folder.url, now: { clock.now })
        let miss = try await first.lookup(url)
        #expect(miss.source == .network)
        #expect(String(decoding: miss.data, as: UTF8.self).hasPrefix("<svg"))
        let etag = try #require(try await recorder.live.send(URLRequest(url: url)).1.value(forHTTPHeaderField: "ETag"))
        #expect(try await first.lookup(url).source == .memory)
        #expect(recorder.requests.count == 1)

        // A new cache (the app relaunched) finds the image on disk, still fresh: no request.
        let second = ImageCache(transport: recorder.transport, directory: folder.url, now: { clock.now })
        let fromDisk = try await second.lookup(url)
        #expect(fromDisk.source == .disk && fromDisk.data == miss.data)
        #expect(recorder.requests.count == 1)
        #expect(try await second.lookup(url).source == .memory)

        // Past `max-age` (the shop sends a day): revalidated with the ETag; 304 keeps the bytes.
        clock.advance(by: 2 * 86_400)
        let revalidated = try await second.lookup(url)
        #expect(revalidated.source == .revalidated && revalidated.data == miss.data)
        #expect(recorder.requests.count == 2)
        #expect(recorder.requests.last?.value(forHTTPHeaderField: "If-None-Match") == etag)
        #expect(try await second.lookup(url).source == .memory, "fresh again for another day")

        // The renewed freshness was written to disk too.
        let third = ImageCache(transport: recorder.transport, directory: folder.url, now: { clock.now })
        #expect(try await third.lookup(url).source == .disk)
        #expect(recorder.requests.count == 2)

        // The client's own cache serves the product's image.
        #expect(try await client.image(of: chair) == miss.data)
    }

    @Test func memoryIsAnLRUBoundedInBytes() async throws {
        let calls = Counter()
        try await withServer({ request in
            _ = calls.next()
            let size = request.path == "/big" ? 3_000 : 1_000
            return Response(status: .ok, headers: ["Content-Type": "image/png", "ETag": "\"\(request.path)\"",
                                                   "Cache-Control": "public, max-age=600"],
                            body: [UInt8](repeating: UInt8(request.path.utf8.last ?? 0), count: size))
        }) { (base: URL) async throws in
            let a = base.appendingPathComponent("a"), b = base.appendingPathComponent("b")
            let c = base.appendingPathComponent("c"), big = base.appendingPathComponent("big")
            let cache = ImageCache(memoryByteLimit: 2_500)
            func source(_ url: URL) async throws -> ImageCache.Source { try await cache.lookup(url).source }
            func inMemory(_ urls: URL...) async -> [Bool] {
                var answers: [Bool] = []
                for url in urls { answers.append(await cache.isInMemory(url)) }
                return answers
            }
            #expect(try await source(a) == .network)
            #expect(try await source(b) == .network)
            #expect(try await source(a) == .memory)  // a is now the most recently used
            #expect(try await source(c) == .network)  // over the limit: b goes
            #expect(await cache.memoryByteCount == 2_000)
            #expect(await inMemory(a, b, c) == [true, false, true])
            #expect(try await source(b) == .network)
            #expect(await inMemory(a, b, c) == [false, true, true], "a was the least recently used")

            // Larger than the whole limit: served, never kept in memory.
            #expect(try await cache.lookup(big).data.count == 3_000)
            #expect(await inMemory(big) == [false])
            #expect(await cache.memoryByteCount == 2_000)
            #expect(calls.value == 5)
        }
    }

    @Test func theDiskFolderIsBoundedAndEvictsTheLeastRecentlyUsed() async throws {
        let revalidations = Mutex<[String]>([])
        try await withServer({ request in
            let etag = "\"\(request.path)\""
            if request.headers["If-None-Match"] == etag {
                revalidations.withLock { $0.append(request.path) }
                return Response(status: .notModified, headers: ["ETag": etag, "Cache-Control": "max-age=600"])
            }
            return Response(status: .ok, headers: ["ETag": etag, "Cache-Control": "max-age=600"],
                            body: [UInt8](repeating: UInt8(request.path.utf8.last ?? 0), count: 1_000))
        }) { (base: URL) async throws in
            let folder = Folder()
            let clock = TestClock(Date(timeIntervalSince1970: 1_800_000_000))
            let (a, b, c, d) = (base.appendingPathComponent("a"), base.appendingPathComponent("b"),
                                base.appendingPathComponent("c"), base.appendingPathComponent("d"))
            /// A cache over the folder that keeps nothing in memory, so every lookup reads the disk.
            func diskOnly(_ transport: HTTPTransport = .urlSession()) -> ImageCache {
                ImageCache(transport: transport, memoryByteLimit: 0, directory: folder.url, diskByteLimit: 2_600,
                           now: { clock.now })
            }
            /// Which images the folder still holds (fresh, so a lookup that needs the network fails).
            func onDisk(_ urls: URL...) async -> [Bool] {
                var answers: [Bool] = []
                for url in urls { answers.append((try? await diskOnly(.unimplemented).lookup(url).source) == .disk) }
                return answers
            }
            func source(_ cache: ImageCache, _ url: URL) async throws -> ImageCache.Source {
                clock.advance(by: 1)
                return try await cache.lookup(url).source
            }

            // Two images (1 000 bytes and their metadata each) fit in 2 600 bytes; a third does not.
            let cache = diskOnly()
            #expect(try await source(cache, a) == .network)
            #expect(try await source(cache, b) == .network)
            #expect(try await source(cache, a) == .disk)  // a is now the most recently used
            #expect(try await source(cache, c) == .network)  // over the limit: b goes
            #expect(await onDisk(a, b, c) == [true, false, true])
            let count = await cache.diskByteCount()
            #expect(count > 2_000 && count <= 2_600)

            // Relaunched, a new cache finds the order in the files' dates: c was used after a.
            let relaunched = diskOnly()
            #expect(try await source(relaunched, c) == .disk)
            #expect(try await source(relaunched, d) == .network)  // a is the least recently used
            #expect(await onDisk(a, c, d) == [false, true, true])
            #expect(await relaunched.diskByteCount() <= 2_600)

            // Past max-age, what is kept still revalidates with its ETag: 304, the bytes kept.
            clock.advance(by: 700)
            let revalidated = try await relaunched.lookup(c)
            #expect(revalidated.source == .revalidated && revalidated.data == Data(repeating: UInt8(ascii: "c"), count: 1_000))
            #expect(revalidations.withLock { $0 } == ["/c"])

            // An image larger than the whole limit is served but not kept on disk.
            let tiny = ImageCache(memoryByteLimit: 0, directory: folder.url, diskByteLimit: 500, now: { clock.now })
            #expect(try await tiny.lookup(b).source == .network)
            #expect(await onDisk(b) == [false])
        }
    }

    @Test func offlineRevalidationServesTheStaleBytes() async throws {
        let folder = Folder()
        let stored = try await withServer({ _ in
            Response(status: .ok, headers: ["ETag": "\"v1\"", "Cache-Control": "no-cache"], body: Array("image".utf8))
        }) { base in
            let cache = ImageCache(directory: folder.url)
            #expect(try await cache.lookup(base.appendingPathComponent("x")).source == .network)
            // On disk: the bytes and their metadata, named by a 64-bit hash of the URL.
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
            #expect(files.count == 2 && files[0].hasSuffix(".data") && files[1].hasSuffix(".json"))
            #expect(files.allSatisfy { $0.prefix(while: { $0 != "." }).count == 16 })
            return base.appendingPathComponent("x")
        }
        // The server is gone; `no-cache` means every lookup revalidates, and that fails offline.
        let cache = ImageCache(directory: folder.url)
        let stale = try await cache.lookup(stored)
        #expect(stale.source == .stale && stale.data == Data("image".utf8))
    }

    @Test func aMissingImageIsA404AndNothingIsCached() async throws {
        let live = try LiveShop()
        defer { live.stop() }
        let url = live.baseURL.appendingPathComponent("static/images/demo/no-such-image.svg")
        let cache = ImageCache()
        let error = await #expect(throws: NetworkError.self) { try await cache.lookup(url) }
        #expect(error?.status == 404)
        let kept = await cache.isInMemory(url)
        #expect(!kept)
    }

    @Test func concurrentLookupsOfOneURLShareOneRequest() async throws {
        let calls = Counter()
        try await withServer({ _ in
            _ = calls.next()
            Thread.sleep(forTimeInterval: 0.2)
            return Response(status: .ok, headers: ["Cache-Control": "max-age=60"], body: Array("shared".utf8))
        }) { base in
            let cache = ImageCache()
            let url = base.appendingPathComponent("thumb")
            let results = try await withThrowingTaskGroup(of: Data.self) { group in
                for _ in 0..<5 { group.addTask { try await cache.data(for: url) } }
                return try await group.reduce(into: [Data]()) { $0.append($1) }
            }
            #expect(results.count == 5 && results.allSatisfy { $0 == Data("shared".utf8) })
            #expect(calls.value == 1)
        }
    }
}

import HTTPServer
@testable import ShopWeb
import Testing

/// Issue #14: a full page cache keeps what is read again (second chance) instead of starting
/// over, and stays within its byte budget.
@Suite("Page cache: what is kept when it is full")
struct PageCacheSweepTests {
    static func entry(_ bytes: Int, version: Int64 = 1) -> PageCache.Entry {
        PageCache.Entry(version: version, title: "t", tab: nil, mainClass: "m", html: [UInt8](repeating: 65, count: bytes))
    }

    @Test func pagesReadSinceTheLastSweepStayAndTheTailGoes() {
        let cache = PageCache(capacity: 4, byteLimit: 1 << 20)
        for key in ["hot-1", "hot-2", "tail-1", "tail-2"] { cache.store(Self.entry(100), for: key) }
        _ = cache.lookup("hot-1", version: 1)
        _ = cache.lookup("hot-2", version: 1)
        cache.store(Self.entry(100), for: "tail-3")  // the fifth: a sweep
        #expect(cache.sweeps == 1)
        #expect(cache.lookup("hot-1", version: 1) != nil && cache.lookup("hot-2", version: 1) != nil)
        #expect(cache.lookup("tail-1", version: 1) == nil && cache.lookup("tail-2", version: 1) == nil)
        #expect(cache.lookup("tail-3", version: 1) != nil, "the page just stored is kept")
        // A long tail of one-off pages never pushes out the pages read between sweeps.
        for index in 0..<40 {
            cache.store(Self.entry(100), for: "one-off-\(index)")
            _ = cache.lookup("hot-1", version: 1)
        }
        #expect(cache.lookup("hot-1", version: 1) != nil && cache.count <= 4)
    }

    @Test func theByteBudgetIsKeptAcrossPagesDocumentsAndAnswers() {
        let cache = PageCache(capacity: 1_000, byteLimit: 40_000)
        for index in 0..<200 {
            cache.store(Self.entry(1_000), for: "page-\(index)")
            cache.storeDocument([UInt8](repeating: 66, count: 1_500), version: 1, for: "document-\(index)")
            cache.storeResponse(Response(status: .ok, body: [UInt8](repeating: 67, count: 700)), version: 1, for: "answer-\(index)")
            #expect(cache.keptBytes <= 40_000)
        }
        #expect(cache.sweeps > 0 && cache.keptBytes > 0)
    }

    @Test func pagesOfAnOlderCatalogGoFirstEvenWhenRead() {
        let cache = PageCache(capacity: 3, byteLimit: 1 << 20)
        cache.store(Self.entry(10, version: 1), for: "old")
        _ = cache.lookup("old", version: 1)
        cache.store(Self.entry(10, version: 2), for: "a")
        cache.store(Self.entry(10, version: 2), for: "b")
        _ = cache.lookup("a", version: 2)
        cache.store(Self.entry(10, version: 2), for: "c")  // a sweep at the newest version
        #expect(cache.lookup("old", version: 1) == nil && cache.lookup("a", version: 2) != nil)
    }

    @Test func replacingAPageCountsItsBytesOnce() {
        let cache = PageCache(capacity: 10, byteLimit: 1 << 20)
        for version in 1...5 { cache.store(Self.entry(1_000, version: Int64(version)), for: "same") }
        #expect(cache.keptBytes == 1_500 && cache.count == 1, "the page and half again for its compressed forms")
    }

    @Test func whenEverythingKeptIsHotHalfTheRoomIsMadeAnyway() {
        let cache = PageCache(capacity: 4, byteLimit: 1 << 20)
        for key in ["a", "b", "c", "d"] {
            cache.store(Self.entry(10), for: key)
            _ = cache.lookup(key, version: 1)
        }
        cache.store(Self.entry(10), for: "e")
        #expect(cache.count <= 3 && cache.lookup("e", version: 1) != nil)
    }
}

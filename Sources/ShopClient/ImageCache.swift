public import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Images by URL: an in-memory LRU bounded in bytes, over an optional on-disk cache that keeps
/// each image's `ETag` and revalidates it with `If-None-Match` (a `304` keeps the stored bytes).
///
/// Freshness follows the response's `Cache-Control`: within `max-age` an image is served from
/// memory or disk without a request; after it, or without `max-age`, the next lookup revalidates.
/// `no-store` answers are not kept. When revalidation finds the shop offline, the stale bytes are
/// served (an old thumbnail beats none). Concurrent lookups of one URL share one request.
///
/// Disk layout: `<directory>/<hash>.data` (the bytes) and `<hash>.json` (URL, ETag, dates),
/// where `<hash>` is the FNV-1a 64 hash of the URL in hex; the stored URL is compared on read,
/// so a hash collision is a miss, never the wrong image.
///
/// The disk folder is bounded in bytes (``diskByteLimit``, default 100 MB, both files of each
/// image counted). Every use of an image — a disk read, a write, a revalidation, a memory hit —
/// makes it the most recently used; a write that takes the folder over the limit deletes the
/// least recently used images until it is under again (never the one just written; an image
/// larger than the whole limit is not kept on disk). Recency survives a relaunch as the `.data`
/// file's modification date, set from the cache's clock on each disk read and write (a memory
/// hit only updates the order kept in memory). The folder is scanned once, at its first use; put
/// it in the caches directory (``defaultDirectory``), which the system may purge too.
///
/// ```swift
/// let images = ImageCache(directory: ImageCache.defaultDirectory)
/// let data = try await images.data(for: URL(string: product.image)!)
/// ```
public actor ImageCache {
    /// Where a lookup's bytes came from.
    public enum Source: Hashable, Sendable {
        /// The in-memory LRU, fresh.
        case memory
        /// The disk cache, fresh (now in memory too).
        case disk
        /// A full download (`200`).
        case network
        /// Revalidated with `If-None-Match`: `304`, the cached bytes kept.
        case revalidated
        /// Stale cached bytes served because the shop could not be reached.
        case stale
    }

    /// An image's bytes and where they came from.
    public struct Lookup: Sendable {
        public var data: Data
        public var source: Source
    }

    /// A cached image with what revalidation needs.
    struct Entry: Codable, Sendable {
        var url: String
        var etag: String?
        var storedAt: Date
        /// Seconds after `storedAt` that the image is fresh (nil: revalidate every time).
        var maxAge: TimeInterval?
        var byteCount: Int

        func isFresh(at now: Date) -> Bool { maxAge.map { now < storedAt.addingTimeInterval($0) } ?? false }
    }

    private struct MemoryItem {
        var entry: Entry
        var data: Data
        var lastUse: UInt64
    }

    /// The most bytes kept in memory.
    public nonisolated let memoryByteLimit: Int
    /// The disk cache's folder, or nil for memory only.
    public nonisolated let directory: URL?
    /// The most bytes the disk folder keeps (`.data` and `.json` files together).
    public nonisolated let diskByteLimit: Int
    private let transport: HTTPTransport
    private let now: @Sendable () -> Date
    private var memory: [URL: MemoryItem] = [:]
    private var useCounter: UInt64 = 0
    /// Bytes in the memory cache now.
    public private(set) var memoryByteCount = 0
    private var inFlight: [URL: Task<Lookup, any Error>] = [:]
    /// What the disk folder holds, once scanned.
    private var disk: DiskIndex?

    /// A cache.
    /// - Parameters:
    ///   - transport: how images are fetched; default `URLSession.shared`.
    ///   - memoryByteLimit: the most bytes in memory (default 32 MB); an image larger than this
    ///     is kept on disk only.
    ///   - directory: the disk cache's folder (created when needed), or nil for memory only.
    ///   - diskByteLimit: the most bytes in `directory` (default 100 MB); least recently used
    ///     images are deleted past it.
    ///   - now: the clock freshness and recency are measured with (tests move it).
    public init(transport: HTTPTransport = .urlSession(), memoryByteLimit: Int = 32 << 20, directory: URL? = nil,
                diskByteLimit: Int = 100 << 20, now: @escaping @Sendable () -> Date = { Date() }) {
        self.transport = transport
        self.memoryByteLimit = max(0, memoryByteLimit)
        self.directory = directory
        self.diskByteLimit = max(0, diskByteLimit)
        self.now = now
    }

    /// `<caches>/ShopClient/images`, the usual place for the disk cache.
    public static var defaultDirectory: URL? {
        FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first?
            .appendingPathComponent("ShopClient/images", isDirectory: true)
    }

    /// The image at `url`, from memory, disk or the network.
    /// - Parameter url: the image's absolute URL.
    /// - Returns: its bytes.
    /// - Throws: ``NetworkError`` (`.serverError` for a non-2xx answer, `.noData` for an empty one).
    public func data(for url: URL) async throws(NetworkError) -> Data {
        try await lookup(url).data
    }

    /// The image at `url` and where it came from.
    /// - Parameter url: the image's absolute URL.
    /// - Returns: the bytes and their ``Source``.
    /// - Throws: ``NetworkError``.
    public func lookup(_ url: URL) async throws(NetworkError) -> Lookup {
        let now = now()
        if var item = memory[url], item.entry.isFresh(at: now) {
            useCounter += 1
            item.lastUse = useCounter
            memory[url] = item
            disk?.use(Self.fileStem(for: url), at: useCounter)
            return Lookup(data: item.data, source: .memory)
        }
        if let task = inFlight[url] { return try await Self.value(of: task) }
        let task = Task { try await self.load(url, now: now) }
        inFlight[url] = task
        defer { inFlight[url] = nil }
        return try await Self.value(of: task)
    }

    /// Whether `url`'s bytes are in the memory cache (fresh or not).
    public func isInMemory(_ url: URL) -> Bool { memory[url] != nil }

    /// Empties the memory cache and deletes the disk cache's files.
    public func removeAll() {
        memory = [:]
        memoryByteCount = 0
        if let directory { try? FileManager.default.removeItem(at: directory) }
        disk = nil
    }

    /// Bytes in the disk folder now, as the cache counts them (scanning it the first time).
    public func diskByteCount() -> Int { diskIndex()?.byteCount ?? 0 }

    private static func value(of task: Task<Lookup, any Error>) async throws(NetworkError) -> Lookup {
        do { return try await task.value } catch { throw NetworkError(error) }
    }

    /// Memory (stale) or disk, then the network: revalidating what is cached, downloading otherwise.
    private func load(_ url: URL, now: Date) async throws(NetworkError) -> Lookup {
        var cached = memory[url].map { ($0.entry, $0.data) }
        if cached == nil, let fromDisk = readDisk(url) {
            if fromDisk.entry.isFresh(at: now) {
                remember(url, fromDisk.entry, fromDisk.data)
                return Lookup(data: fromDisk.data, source: .disk)
            }
            cached = fromDisk
        }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 30)
        if let etag = cached?.0.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        let data: Data
        let response: HTTPURLResponse
        do {
            (data, response) = try await transport.send(request)
        } catch {
            let error = NetworkError(error)
            if case .offline = error, let cached { return Lookup(data: cached.1, source: .stale) }
            throw error
        }
        let cacheControl = response.value(forHTTPHeaderField: "Cache-Control")
        if response.statusCode == 304, let cached {
            let (entry, bytes) = cached
            var renewed = entry
            renewed.storedAt = now
            renewed.maxAge = Self.maxAge(cacheControl)
            if let etag = response.value(forHTTPHeaderField: "ETag") { renewed.etag = etag }
            store(url, renewed, bytes, writeBytes: false)
            return Lookup(data: bytes, source: .revalidated)
        }
        guard (200..<300).contains(response.statusCode) else { throw ShopClient.serverError(data, response) }
        guard !data.isEmpty else { throw .noData }
        if cacheControl?.lowercased().contains("no-store") != true {
            let entry = Entry(url: url.absoluteString, etag: response.value(forHTTPHeaderField: "ETag"), storedAt: now,
                              maxAge: Self.maxAge(cacheControl), byteCount: data.count)
            store(url, entry, data, writeBytes: true)
        }
        return Lookup(data: data, source: .network)
    }

    /// `max-age` of a `Cache-Control` value (nil for `no-cache` or none).
    static func maxAge(_ cacheControl: String?) -> TimeInterval? {
        guard let cacheControl = cacheControl?.lowercased() else { return nil }
        let directives = cacheControl.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard !directives.contains("no-cache") else { return nil }
        return directives.lazy.compactMap { directive -> TimeInterval? in
            guard directive.hasPrefix("max-age=") else { return nil }
            return TimeInterval(directive.dropFirst("max-age=".count))
        }.first
    }

    private func store(_ url: URL, _ entry: Entry, _ data: Data, writeBytes: Bool) {
        remember(url, entry, data)
        writeDisk(url, entry, writeBytes ? data : nil)
    }

    // MARK: - Memory (LRU by bytes)

    private func remember(_ url: URL, _ entry: Entry, _ data: Data) {
        if let old = memory.removeValue(forKey: url) { memoryByteCount -= old.data.count }
        guard data.count <= memoryByteLimit else { return }
        useCounter += 1
        memory[url] = MemoryItem(entry: entry, data: data, lastUse: useCounter)
        memoryByteCount += data.count
        while memoryByteCount > memoryByteLimit,
              let oldest = memory.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            memoryByteCount -= memory.removeValue(forKey: oldest)?.data.count ?? 0
        }
    }

    // MARK: - Disk

    /// The file name stem for `url`: FNV-1a 64 of its UTF-8, 16 hex digits.
    static func fileStem(for url: URL) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in url.absoluteString.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    private func files(for url: URL) -> (data: URL, meta: URL)? {
        guard let directory else { return nil }
        let stem = Self.fileStem(for: url)
        return (directory.appendingPathComponent(stem + ".data"), directory.appendingPathComponent(stem + ".json"))
    }

    private func readDisk(_ url: URL) -> (entry: Entry, data: Data)? {
        guard let files = files(for: url),
              let meta = try? Data(contentsOf: files.meta),
              let entry = try? JSONDecoder().decode(Entry.self, from: meta),
              entry.url == url.absoluteString,
              let data = try? Data(contentsOf: files.data),
              data.count == entry.byteCount else { return nil }
        touch(Self.fileStem(for: url), files.data)
        return (entry, data)
    }

    /// Writes the metadata and, when given, the bytes (first, so metadata never points at
    /// missing bytes). Failures only cost a later miss.
    private func writeDisk(_ url: URL, _ entry: Entry, _ data: Data?) {
        guard let directory, let files = files(for: url) else { return }
        let stem = Self.fileStem(for: url)
        let meta: Data
        do {
            meta = try JSONEncoder().encode(entry)
            guard entry.byteCount + meta.count <= diskByteLimit else { return removeFiles(stem) }
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            if let data { try data.write(to: files.data, options: .atomic) }
            try meta.write(to: files.meta, options: .atomic)
        } catch {
            return removeFiles(stem)
        }
        touch(stem, files.data)
        guard var index = diskIndex() else { return }
        index.set(stem, bytes: entry.byteCount + meta.count)
        index.evictions(toFit: diskByteLimit, keeping: stem).forEach(deleteFiles)
        disk = index
    }

    /// Deletes an image's files and forgets them.
    private func removeFiles(_ stem: String) {
        deleteFiles(stem)
        disk?.remove(stem)
    }

    private func deleteFiles(_ stem: String) {
        guard let directory else { return }
        for suffix in [".data", ".json"] {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(stem + suffix))
        }
    }

    /// Marks an image as just used: first in the index, and on disk as the `.data` file's
    /// modification date (the order a relaunched cache starts from).
    private func touch(_ stem: String, _ dataFile: URL) {
        useCounter += 1
        disk?.use(stem, at: useCounter)
        try? FileManager.default.setAttributes([.modificationDate: now()], ofItemAtPath: dataFile.path)
    }

    /// The index of the disk folder, scanning it the first time: each image's bytes, and its
    /// recency from the `.data` file's modification date (a `.json` alone counts by its own).
    private func diskIndex() -> DiskIndex? {
        if let disk { return disk }
        guard let directory else { return nil }
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        let names = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys)) ?? []
        var found: [String: (bytes: Int, modified: Date)] = [:]
        for file in names where ["data", "json"].contains(file.pathExtension) {
            let values = try? file.resourceValues(forKeys: Set(keys))
            let stem = file.deletingPathExtension().lastPathComponent
            var item = found[stem] ?? (0, .distantPast)
            item.bytes += values?.fileSize ?? 0
            if file.pathExtension == "data" || item.modified == .distantPast {
                item.modified = values?.contentModificationDate ?? .distantPast
            }
            found[stem] = item
        }
        var index = DiskIndex()
        // Oldest first, so the order of first use this session continues the files' order.
        for (stem, item) in found.sorted(by: { ($0.value.modified, $0.key) < ($1.value.modified, $1.key) }) {
            useCounter += 1
            index.set(stem, bytes: item.bytes)
            index.use(stem, at: useCounter)
        }
        disk = index
        return index
    }
}

/// The images of the disk folder: bytes and last use of each (by file stem), and their total.
struct DiskIndex: Sendable {
    private(set) var items: [String: (bytes: Int, lastUse: UInt64)] = [:]
    private(set) var byteCount = 0

    /// Records an image's size (new or rewritten).
    mutating func set(_ stem: String, bytes: Int) {
        byteCount += bytes - (items[stem]?.bytes ?? 0)
        items[stem] = (bytes, items[stem]?.lastUse ?? 0)
    }

    /// Marks an image as used at `counter` (later counters are more recent).
    mutating func use(_ stem: String, at counter: UInt64) {
        items[stem]?.lastUse = counter
    }

    mutating func remove(_ stem: String) {
        byteCount -= items.removeValue(forKey: stem)?.bytes ?? 0
    }

    /// Removes least recently used images other than `kept` until the total is at most `limit`.
    /// - Returns: the stems removed, to delete their files.
    mutating func evictions(toFit limit: Int, keeping kept: String) -> [String] {
        var victims: [String] = []
        while byteCount > limit,
              let oldest = items.filter({ $0.key != kept }).min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            remove(oldest)
            victims.append(oldest)
        }
        return victims
    }
}

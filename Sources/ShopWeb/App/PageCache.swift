import Foundation
import HTTPServer
import Synchronization

/// Rendered catalog pages (the part inside `<main>`), kept while the catalog version stays the
/// same, so a category or product page costs a version check and a copy instead of queries,
/// model building and rendering (`docs/BENCHMARKS.md` has the before/after figures).
///
/// What a visitor sees that is theirs alone — the cart badge, flash messages — lives in the
/// layout around the cached part and is rendered for every request. Entries are keyed by the
/// page's path and query and the locale; a page rendered for an older catalog version is
/// replaced on its next request. The cache holds at most `capacity` pages and starts over when
/// full (pages are cheap to rebuild; the point is the hot ones).
public final class PageCache: Sendable {
    /// A cached page body.
    struct Entry: Sendable {
        var version: Int64
        var title: String
        var tab: Tab?
        var mainClass: String
        /// The rendered content of `<main>`.
        var html: [UInt8]
        /// `html` as gzip pieces (`CompressedPage`), made the first time a client takes gzip.
        let compressed = CompressedSlot()

        init(version: Int64, title: String, tab: Tab?, mainClass: String, html: [UInt8]) {
            self.version = version
            self.title = title
            self.tab = tab
            self.mainClass = mainClass
            self.html = html
        }
    }

    private let entries = Mutex<[String: Entry]>([:])
    /// Bytes held by both maps; over `byteLimit` the cache starts over.
    private let bytes = Mutex(0)
    /// Whole documents as sent to visitors with no session and no message (empty cart, nothing
    /// personal in the layout): the common first visit, answered with one lookup.
    private let documents = Mutex<[String: Document]>([:])

    /// A whole document, where its `</body>` is, and its gzip pieces once a client took gzip.
    struct Document: Sendable {
        var version: Int64
        var bytes: [UInt8]
        var bodyEnd: Int?
        var compressed: CompressedSlot

        /// The document as pieces to join (`CompressedBody`).
        var compressedBody: CompressedBody { CompressedBody([.kept(compressed, bytes: bytes, cutBefore: bodyEnd)]) }
    }
    /// Whole JSON API answers to catalog reads without a token (`APIApp`), by path, query and
    /// language.
    private let responses = Mutex<[String: (version: Int64, response: Response)]>([:])
    /// Compressed layouts around shoppers' pages (`CompressedPage`).
    let pageMemo = PageMemo()
    /// The layout around every page, kept per look (`LayoutCache`).
    let layouts = LayoutCache()
    /// Most pages kept.
    public let capacity: Int
    /// Most bytes of HTML kept (both maps together).
    public let byteLimit: Int

    /// Creates an empty cache of at most `capacity` pages and `byteLimit` bytes (default 64 MiB;
    /// a capacity of 0 disables caching).
    public init(capacity: Int = 2_000, byteLimit: Int = 64 << 20) {
        self.capacity = capacity
        self.byteLimit = byteLimit
    }

    /// Counts `added` bytes; empties both maps first when the budget would be exceeded.
    private func reserve(_ added: Int) -> Bool {
        guard added <= byteLimit / 4 else { return false }  // one huge page is not worth keeping
        let overBudget = bytes.withLock { total -> Bool in
            if total + added > byteLimit { total = added; return true }
            total += added
            return false
        }
        if overBudget {
            entries.withLock { $0.removeAll(keepingCapacity: true) }
            documents.withLock { $0.removeAll(keepingCapacity: true) }
            responses.withLock { $0.removeAll(keepingCapacity: true) }
        }
        return true
    }

    func lookup(_ key: String, version: Int64) -> Entry? {
        entries.withLock { entries in
            guard let entry = entries[key], entry.version == version else { return nil }
            return entry
        }
    }

    func store(_ entry: Entry, for key: String) {
        // The compressed copy, made later, is about a fifth of the HTML: counted now.
        guard capacity > 0, reserve(entry.html.count + entry.html.count / 4) else { return }
        entries.withLock { entries in
            if entries.count >= capacity, entries[key] == nil { entries.removeAll(keepingCapacity: true) }
            entries[key] = entry
        }
    }

    func lookupDocument(_ key: String, version: Int64) -> Document? {
        documents.withLock { documents in
            guard let document = documents[key], document.version == version else { return nil }
            return document
        }
    }

    /// Keeps a whole document (its gzip pieces are cut before `</body>`, where the first-visit
    /// introduction goes) and returns it as kept.
    @discardableResult
    func storeDocument(_ bytes: [UInt8], version: Int64, for key: String) -> Document {
        let document = Document(version: version, bytes: bytes, bodyEnd: CompressedPage.bodyEnd(in: bytes),
                                compressed: CompressedSlot())
        guard capacity > 0, reserve(bytes.count + bytes.count / 4) else { return document }
        documents.withLock { documents in
            if documents.count >= capacity, documents[key] == nil { documents.removeAll(keepingCapacity: true) }
            documents[key] = document
        }
        return document
    }

    func lookupResponse(_ key: String, version: Int64) -> Response? {
        responses.withLock { responses in
            guard let cached = responses[key], cached.version == version else { return nil }
            return cached.response
        }
    }

    func storeResponse(_ response: Response, version: Int64, for key: String) {
        guard capacity > 0, reserve(response.body.count) else { return }
        responses.withLock { responses in
            if responses.count >= capacity, responses[key] == nil { responses.removeAll(keepingCapacity: true) }
            responses[key] = (version, response)
        }
    }

    /// Number of pages held (for tests and metrics).
    public var count: Int { entries.withLock { $0.count } }
}

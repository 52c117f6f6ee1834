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
        var html: String
    }

    private let entries = Mutex<[String: Entry]>([:])
    /// Bytes held by both maps; over `byteLimit` the cache starts over.
    private let bytes = Mutex(0)
    /// Whole documents as sent to visitors with no session and no message (empty cart, nothing
    /// personal in the layout): the common first visit, answered with one lookup.
    private let documents = Mutex<[String: (version: Int64, bytes: [UInt8])]>([:])
    /// Whole JSON API answers to catalog reads without a token (`APIApp`), by path, query and
    /// language.
    private let responses = Mutex<[String: (version: Int64, response: Response)]>([:])
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
        guard capacity > 0, reserve(entry.html.utf8.count) else { return }
        entries.withLock { entries in
            if entries.count >= capacity, entries[key] == nil { entries.removeAll(keepingCapacity: true) }
            entries[key] = entry
        }
    }

    func lookupDocument(_ key: String, version: Int64) -> [UInt8]? {
        documents.withLock { documents in
            guard let document = documents[key], document.version == version else { return nil }
            return document.bytes
        }
    }

    func storeDocument(_ bytes: [UInt8], version: Int64, for key: String) {
        guard capacity > 0, reserve(bytes.count) else { return }
        documents.withLock { documents in
            if documents.count >= capacity, documents[key] == nil { documents.removeAll(keepingCapacity: true) }
            documents[key] = (version, bytes)
        }
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

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
/// replaced on its next request.
///
/// **What is kept when it is full** (issue #14: "a cache that keeps hot entries, size by bytes"):
/// pages, whole documents and API answers share one budget of bytes (and each kind at most
/// `capacity` entries). When a store would go past either, a sweep gives every entry a second
/// chance: entries of another catalog version and entries not read since the last sweep go;
/// the rest stay, marked unread. A long tail of one-off searches then passes through without
/// pushing out the pages shoppers keep asking for — before, a full cache started over, and the
/// hot pages went with the tail. If everything kept was read since the last sweep and the budget
/// is still exceeded, entries go in no particular order until half the budget is free.
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

    /// A whole document, where its `</body>` is, and its gzip pieces once a client took gzip.
    struct Document: Sendable {
        var version: Int64
        var bytes: [UInt8]
        var bodyEnd: Int?
        var compressed: CompressedSlot
        /// Its gzip member compressed whole (it has no markers: the same for every visitor).
        var whole = WholeMember()

        /// The document as pieces to join (`CompressedBody`).
        var compressedBody: CompressedBody {
            CompressedBody([.kept(compressed, bytes: bytes, cutBefore: bodyEnd)], whole: whole)
        }
    }
    /// One kept value: its catalog version, the bytes it is counted for, and whether it was
    /// read since the last sweep.
    private struct Kept<Value: Sendable>: Sendable {
        var value: Value
        var version: Int64
        var cost: Int
        var read = false
    }

    /// Everything kept, under one lock: the three maps share the byte budget.
    private struct State: Sendable {
        /// `<main>` parts of pages.
        var entries: [String: Kept<Entry>] = [:]
        /// Whole documents as sent to visitors with no session and no message (empty cart,
        /// nothing personal in the layout): the common first visit, answered with one lookup.
        var documents: [String: Kept<Document>] = [:]
        /// Whole JSON API answers to catalog reads without a token (`APIApp`), by path, query
        /// and language.
        var responses: [String: Kept<Response>] = [:]
        /// Bytes counted for everything kept.
        var bytes = 0
        /// Sweeps so far (tests).
        var sweeps = 0
    }

    private let state = Mutex(State())
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

    func lookup(_ key: String, version: Int64) -> Entry? {
        state.withLock { Self.read(&$0.entries, key, version) }
    }

    func store(_ entry: Entry, for key: String) {
        // The compressed copy, made later, is about a fifth of the HTML: counted now.
        // Half again for its compressed pieces and their templates (`CompressedPage.Run`; a
        // category page compresses to about a ninth of its size, and a run keeps two templates).
        keep(entry, version: entry.version, cost: entry.html.count + entry.html.count / 2, for: key, in: \.entries)
    }

    func lookupDocument(_ key: String, version: Int64) -> Document? {
        state.withLock { Self.read(&$0.documents, key, version) }
    }

    /// Keeps a whole document (its gzip pieces are cut before `</body>`, where the first-visit
    /// introduction goes) and returns it as kept.
    @discardableResult
    func storeDocument(_ bytes: [UInt8], version: Int64, for key: String) -> Document {
        let document = Document(version: version, bytes: bytes, bodyEnd: CompressedPage.bodyEnd(in: bytes),
                                compressed: CompressedSlot())
        // Counted with its compressed pieces or member (each about a fifth of it) and slack.
        keep(document, version: version, cost: bytes.count + bytes.count / 2, for: key, in: \.documents)
        return document
    }

    func lookupResponse(_ key: String, version: Int64) -> Response? {
        state.withLock { Self.read(&$0.responses, key, version) }
    }

    func storeResponse(_ response: Response, version: Int64, for key: String) {
        keep(response, version: version, cost: response.body.count, for: key, in: \.responses)
    }

    /// The value kept for `key` at `version`, marked read.
    private static func read<Value>(_ map: inout [String: Kept<Value>], _ key: String, _ version: Int64) -> Value? {
        guard let kept = map[key], kept.version == version else { return nil }
        if !kept.read { map[key]!.read = true }
        return kept.value
    }

    /// Keeps `value` for `key`, sweeping first when the budget or the map's capacity would be
    /// exceeded (see the type's comment). A value over a quarter of the budget is not kept.
    private func keep<Value>(_ value: Value, version: Int64, cost: Int, for key: String,
                             in map: WritableKeyPath<State, [String: Kept<Value>]>) {
        guard capacity > 0, cost <= byteLimit / 4 else { return }
        state.withLock { state in
            if let old = state[keyPath: map].removeValue(forKey: key) { state.bytes -= old.cost }
            if state.bytes + cost > byteLimit || state[keyPath: map].count >= capacity {
                Self.sweep(&state, newest: version, byteLimit: byteLimit, capacity: capacity)
            }
            state[keyPath: map][key] = Kept(value: value, version: version, cost: cost)
            state.bytes += cost
        }
    }

    /// The second-chance sweep: drops what is of another version or unread since the last
    /// sweep and marks the rest unread; past the budget or a capacity still, drops more.
    private static func sweep(_ state: inout State, newest version: Int64, byteLimit: Int, capacity: Int) {
        state.sweeps += 1
        func sweep<Value>(_ map: inout [String: Kept<Value>]) {
            map = map.filter { $0.value.read && $0.value.version == version }
            for key in map.keys { map[key]!.read = false }
        }
        sweep(&state.entries)
        sweep(&state.documents)
        sweep(&state.responses)
        func total() -> Int {
            state.entries.values.reduce(0) { $0 + $1.cost } + state.documents.values.reduce(0) { $0 + $1.cost }
                + state.responses.values.reduce(0) { $0 + $1.cost }
        }
        state.bytes = total()
        // Everything kept was read since the last sweep: make room anyway.
        func thin<Value>(_ map: inout [String: Kept<Value>], _ bytes: inout Int) {
            var count = map.count
            for key in Array(map.keys) where bytes > byteLimit / 2 || count > capacity / 2 {
                bytes -= map.removeValue(forKey: key)!.cost
                count -= 1
            }
        }
        if state.bytes > byteLimit / 2 || state.entries.count >= capacity || state.documents.count >= capacity
            || state.responses.count >= capacity {
            var bytes = state.bytes
            thin(&state.responses, &bytes)
            thin(&state.documents, &bytes)
            thin(&state.entries, &bytes)
            state.bytes = bytes
        }
    }

    /// Sweeps so far (tests).
    var sweeps: Int { state.withLock { $0.sweeps } }

    /// Bytes counted for everything kept (tests).
    var keptBytes: Int { state.withLock { $0.bytes } }

    /// Number of pages held (for tests and metrics).
    public var count: Int { state.withLock { $0.entries.count } }
}

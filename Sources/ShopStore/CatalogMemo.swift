public import ShopCore
import Synchronization

/// One value kept for one catalog version (`CatalogStore.version()`, which changes with any
/// catalog write by any process, stock included): the one home of "kept per catalog version".
///
/// The rule every user shares: **only a newer version replaces what is kept.** A reader reads
/// the version *before* it reads what it keeps; a slow reader of an older version that finishes
/// after a faster reader of a newer one must not put its older value back — the next callers
/// would read the version, find it newer than the kept one and read again, but a value kept
/// under an older version is simply never answered at a newer one.
///
/// ```swift
/// let bestRated = CatalogMemo<[Product]>()
/// let pool = try bestRated.value(catalog) { try catalog.products(query).products }
/// ```
public final class CatalogMemo<Value: Sendable>: Sendable {
    private let kept = Mutex<(version: Int64, value: Value)?>(nil)

    /// An empty memo.
    public init() {}

    /// The kept value when the catalog has not changed since it was made; else `make()`'s, kept
    /// (unless a newer version's value was kept meanwhile).
    ///
    /// The version is read before `make` runs: a write landing meanwhile leaves the value under
    /// the older version, so the next call makes it again — a change is never hidden.
    /// - Parameters:
    ///   - catalog: the store whose `version()` the value follows.
    ///   - make: works the value out (without the lock held).
    /// - Returns: the value for the catalog's current version.
    /// - Throws: what `version()` or `make` throws; nothing is kept then.
    public func value(_ catalog: CatalogStore, make: () throws -> Value) throws -> Value {
        try value(at: catalog.version(), make: make)
    }

    /// The value kept for `version`; else `make()`'s, kept (unless a newer version's value was
    /// kept meanwhile). For values that follow more than the catalog (`SharedVersion`).
    /// - Parameters:
    ///   - version: the version read before `make` runs.
    ///   - make: works the value out (without the lock held).
    /// - Throws: what `make` throws; nothing is kept then.
    public func value(at version: Int64, make: () throws -> Value) throws -> Value {
        if let hit = read(at: version, { $0 }) { return hit }
        let value = try make()
        update(at: version, empty: value) { _ in }
        return value
    }

    /// Runs `body` on the value kept for exactly `version`; nil when none is (nothing kept yet,
    /// or kept for another version).
    /// - Parameters:
    ///   - version: the catalog version the caller read.
    ///   - body: reads the kept value (under the lock: keep it short).
    /// - Returns: what `body` returns, or nil.
    public func read<Result>(at version: Int64, _ body: (Value) -> Result) -> Result? {
        kept.withLock { kept in
            guard let kept, kept.version == version else { return nil }
            return body(kept.value)
        }
    }

    /// Changes the value kept for `version`, starting from `empty` when what is kept is older
    /// (or nothing is); does nothing when a newer version's value is kept.
    /// - Parameters:
    ///   - version: the catalog version read before the value was worked out.
    ///   - empty: the value a newer version starts from.
    ///   - change: changes the kept value in place (under the lock: keep it short).
    public func update(at version: Int64, empty: @autoclosure () -> Value, _ change: (inout Value) -> Void) {
        kept.withLock { kept in
            if kept == nil || kept!.version != version {
                // Only a newer version replaces what is kept; an older reader's answer is dropped.
                if let current = kept?.version, current > version { return }
                kept = (version, empty())
            }
            change(&kept!.value)
        }
    }
}

/// Answers kept per catalog version, by key (a statement, or a statement and the filters its
/// answer was counted with): for the listing statements whose answer is the same for many pages
/// the page cache does not share (issue #14). Every category page groups the same products for
/// its facets — the published ones over every category, since the category facet lifts its own
/// filter — whatever category, sort, page or vendor it shows; and every page of one category
/// lists the same tags. On 100 000 products those two statements were ~250 ms and ~9 ms of every
/// such page.
///
/// The engines ask with the catalog version read in the listing's own read transaction, so what
/// is kept under a version was read at it; `CatalogMemo`'s rule keeps an older reader from
/// putting its answer back over a newer version's. A search's statements are not kept (their
/// matches differ with every search): the engines ask without a version, and `read()` answers.
public final class CatalogStatementMemo<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// At most this many answers are kept per version (a price band or a filter makes its own):
    /// past it, the kept ones are dropped and kept anew.
    public let statementLimit: Int

    private let memo = CatalogMemo<[Key: Value]>()

    /// An empty memo keeping at most `statementLimit` answers.
    public init(statementLimit: Int = 64) {
        self.statementLimit = max(statementLimit, 1)
    }

    /// The answer for `key` at catalog `version`: the kept one, or `read()`'s, then kept. Without
    /// a version, `read()`'s, not kept.
    public func answer(at version: Int64?, _ key: Key, read: () throws -> Value) rethrows -> Value {
        guard let version else { return try read() }
        if let kept = memo.read(at: version, { $0[key] }) ?? nil { return kept }
        let value = try read()
        memo.update(at: version, empty: [:]) { kept in
            if kept.count >= statementLimit { kept.removeAll() }
            kept[key] = value
        }
        return value
    }
}

/// The listing answers a catalog store keeps per catalog version, the same on every engine
/// (`CatalogStatementMemo`), with statements' values of the engine's own type (`Parameter`).
public final class CatalogListingMemos<Parameter: Hashable & Sendable>: Sendable {
    /// A read statement: its SQL and its values.
    public struct Statement: Hashable, Sendable {
        public var sql: String
        public var values: [Parameter]

        public init(_ sql: String, _ values: [Parameter]) {
            self.sql = sql
            self.values = values
        }
    }

    /// A facet statement with the filters its groups were counted under.
    public struct CountedStatement: Hashable, Sendable {
        public var statement: Statement
        public var filters: FacetTally.Filters
    }

    /// The facet groups of at most 8 statements: on 100 000 products one statement's groups are
    /// ~19 000 (≈ 1 MB); the statements differ only by the price band or range chosen.
    public let facetGroups = CatalogStatementMemo<Statement, [FacetTally.Group]>(statementLimit: 8)
    /// The groups counted (`FacetTally.Counted`) under at most 256 filters: one per category,
    /// vendor and stock filter a visitor chose. Counting ~19 000 groups took ~0.3 ms of every
    /// category page once the groups were kept (perf: 12 % of the server's samples).
    public let facetCounts = CatalogStatementMemo<CountedStatement, FacetTally.Counted>(statementLimit: 256)
    /// The tag lists (50 tags at most each) of 64 statements: one per category and filter.
    public let tags = CatalogStatementMemo<Statement, [String]>(statementLimit: 64)
    /// The ordered product ids of 512 listing statements (a category in a sort, with filters),
    /// each at most `listingIDLimit` long (nil: longer; its pages are read with `LIMIT`/`OFFSET`):
    /// a deep page of a 2 500-product category walked ~1 200 index entries to reach its 24
    /// (~160 µs of SQLite per page on 100 000 products). 512, not 256: 40 categories in 6 sorts
    /// with the name sort in 3 languages are 320 statements, and past the limit every kept one
    /// is read again (~1.1 ms each for 2 500 products; at most 20 MB kept).
    public let listings = CatalogStatementMemo<Statement, [Int64]?>(statementLimit: 512)
    /// The longest listing whose ids are kept (40 KB of ids).
    public static var listingIDLimit: Int { 5_000 }

    public init() {}

    /// The ids of one page (`offset`, `limit`) of the listing `statement` (ordered, without a
    /// limit or offset of its own): sliced from the listing's kept ids at `version`, read with
    /// `all(listingIDLimit + 1)` (a limit for the statement) the first time; or `page()`'s when
    /// nothing is kept (no version, or a longer listing).
    public func pageIDs(at version: Int64?, _ statement: Statement, offset: Int, limit: Int,
                        all: (_ limit: Int) throws -> [Int64], page: () throws -> [Int64]) rethrows -> [Int64] {
        let kept = try listings.answer(at: version, statement) {
            guard version != nil else { return nil }
            let ids = try all(Self.listingIDLimit + 1)
            return ids.count > Self.listingIDLimit ? nil : ids
        }
        guard let kept else { return try page() }
        return Array(kept.dropFirst(max(offset, 0)).prefix(max(limit, 0)))
    }

    /// The facets of a listing whose facet statement is `statement`, counted by `tally`: kept at
    /// `version` (or worked out, without one) from the groups `groups()` reads (kept too), with
    /// the counted categories from `categories(ids)`.
    public func facets(at version: Int64?, _ statement: Statement, _ tally: FacetTally,
                       groups: () throws -> [FacetTally.Group],
                       categories: ([Int64]) throws -> [Category]) rethrows -> FacetTally.Counted {
        try facetCounts.answer(at: version, CountedStatement(statement: statement, filters: tally.filters)) {
            var tally = tally
            for group in try facetGroups.answer(at: version, statement, read: groups) { tally.add(group) }
            return try tally.counted(categories: categories)
        }
    }
}

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
        let version = try catalog.version()
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

/// Answers of read statements kept per catalog version, by statement (SQL and values): for the
/// listing statements whose answer is the same for many pages the page cache does not share
/// (issue #14). Every category page groups the same products for its facets — the published
/// ones over every category, since the category facet lifts its own filter — whatever category,
/// sort, page or vendor it shows; and every page of one category lists the same tags. On 100 000
/// products those two statements were ~250 ms and ~9 ms of every such page.
///
/// The engines ask with the catalog version read in the listing's own read transaction, so what
/// is kept under a version was read at it; `CatalogMemo`'s rule keeps an older reader from
/// putting its answer back over a newer version's. A search's statements are not kept (their
/// matches differ with every search).
public final class CatalogStatementMemo<Value: Sendable>: Sendable {
    /// At most this many statements' answers are kept per version (a price band or a filter
    /// makes its own): past it, the kept ones are dropped and kept anew.
    public let statementLimit: Int

    private let memo = CatalogMemo<[String: Value]>()

    /// An empty memo keeping at most `statementLimit` statements' answers.
    public init(statementLimit: Int = 64) {
        self.statementLimit = max(statementLimit, 1)
    }

    /// The answer of the statement `sql` with `values` at catalog `version`: the kept one, or
    /// `read()`'s, then kept.
    public func answer(at version: Int64, sql: String, values: [String], read: () throws -> Value) rethrows -> Value {
        let key = ([sql] + values).joined(separator: "\u{1}")
        if let kept = memo.read(at: version, { $0[key] }) ?? nil { return kept }
        let value = try read()
        memo.update(at: version, empty: [:]) { kept in
            if kept.count >= statementLimit { kept.removeAll() }
            kept[key] = value
        }
        return value
    }
}

/// The listing statements' answers a catalog store keeps per catalog version, the same on every
/// engine: a listing's facet groups and its tag list (`CatalogStatementMemo`).
public final class CatalogListingMemos: Sendable {
    /// The facet groups of at most 8 statements: on 100 000 products one statement's groups are
    /// ~19 000 (≈ 1 MB); the statements differ only by the price band or range chosen.
    public let facetGroups = CatalogStatementMemo<[FacetTally.Group]>(statementLimit: 8)
    /// The tag lists (50 tags at most each) of 64 statements: one per category and filter.
    public let tags = CatalogStatementMemo<[String]>(statementLimit: 64)

    public init() {}
}


public import ShopCore
public import ShopStore
import Foundation
import SQLite

extension CatalogStore {
    /// The catalog in a SQLite database (schema: `ShopSchema`, migrated beforehand).
    ///
    /// Each call checks out one pooled connection. Reads run in a deferred transaction (one
    /// consistent WAL snapshot for the page, its count, variants and images); a page loads its
    /// variants and images with one query per table (`IN (SELECT value FROM json_each(?))`),
    /// so every SQL text is prepared once per connection and reused.
    /// - Parameters:
    ///   - database: the migrated database.
    ///   - currency: the shop currency; drafts priced in another one are refused.
    ///   - searchCountLimit: how many matches a search counts and computes its facets over
    ///     (`ProductPage.totalCountIsCapped`); tests make it small.
    public static func sqlite(_ database: SQLiteDatabase, currency: Currency = .usd,
                              searchCountLimit: Int = ProductPage.searchCountLimit) -> CatalogStore {
        let version = SQLiteDatabase.Memo<Int64>(readFrom: .catalogState)
        @Sendable func catalogVersion() throws -> Int64 {
            try database.remembered(version, read: SQLCatalog.catalogVersion)
        }
        let memos = CatalogListingMemos<SQLValue>()
        return CatalogStore(
            categories: {
                // Slow on a large catalog (~1 s on 100 000 products): `CatalogStore.caching()`
                // keeps the answer per catalog version, above every engine.
                try database.withConnection { connection in
                    try connection.prepare("""
                        SELECT c.id, c.handle, c.name, count(*),
                          (SELECT i.url FROM products p2 JOIN product_images i ON i.product_id = p2.id
                           WHERE p2.category_id = c.id AND p2.is_published = 1 AND \(SQLCatalog.listed("p2"))
                           ORDER BY p2.id, i.position LIMIT 1)
                        FROM categories c
                        JOIN products p ON p.category_id = c.id AND p.is_published = 1 AND \(SQLCatalog.listed("p"))
                        GROUP BY c.id ORDER BY c.name, c.id
                        """).query().map { row in
                        CategorySummary(category: try SQLCatalog.category(row), productCount: try row.int(3),
                                        imageURL: try row.optionalString(4))
                    }
                }
            },
            categoryByHandle: { handle in
                try database.withConnection { connection in
                    try connection.prepare("SELECT id, handle, name FROM categories WHERE handle = ?")
                        .first([.text(handle)]).map(SQLCatalog.category)
                }
            },
            products: { query in
                try database.withConnection { connection in
                    try SQLCatalog.rebuildSearchIndexIfStale(connection)
                    return try connection.transaction(.deferred) { 
                        try SQLCatalog.page(query, currency: currency, searchCountLimit: searchCountLimit, memos: memos,
                                            connection)
                    }
                }
            },
            productByHandle: { handle in
                try database.withConnection { connection in
                    try connection.transaction(.deferred) {
                        let rows = try connection.prepare(SQLCatalog.selectProducts + " WHERE handle = ? AND is_published = 1")
                            .query([.text(handle)])
                        return try SQLCatalog.products(rows, connection).first
                    }
                }
            },
            productsByID: { ids in
                guard !ids.isEmpty else { return [:] }
                return try database.withConnection { connection in
                    try connection.transaction(.deferred) {
                        let rows = try connection.prepare(SQLCatalog.selectProducts + """
                             WHERE id IN (SELECT value FROM json_each(?)) AND is_published = 1
                            """).query([SQLCatalog.jsonIDs(ids.map(\.rawValue))])
                        let products = try SQLCatalog.products(rows, connection)
                        return Dictionary(products.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
                    }
                }
            },
            upsertBy: { drafts, actor, now, progress in
                // Every draft is checked before the write transaction opens; each is folded
                // inside it just before it is written (SQLCatalog.upsert).
                let checked = try CheckedDrafts.check(drafts, currency: currency)
                // Another process (a second server, `shoppable import`) may hold the write lock for
                // a whole import: wait for it, not SQLite's usual 5 s.
                return try database.write(busyTimeoutMilliseconds: SQLCatalog.importBusyTimeoutMilliseconds) { connection in
                    let result = try SQLCatalog.upsert(checked, audit: .init(actor: actor, action: "import", now: now),
                                                       progress: progress, connection)
                    _ = try SQLOrders.trimHoldsToStock(now: now, connection)  // a lowered stock trims holds
                    return result
                }
            },
            insertProduct: { draft, actor, now, creationKey in
                let checked = try CheckedDrafts.check([draft], currency: currency)
                return try database.write { connection in
                    // BEGIN IMMEDIATE: a second submit of the form waits for the first, then finds its key.
                    if let creationKey, let created = try connection.prepare(
                        "SELECT product_id FROM product_creation_keys WHERE key = ?").first([.text(creationKey)]),
                       let product = try SQLCatalog.storedProduct(id: try created.int64(0), connection) {
                        return product
                    }
                    guard try connection.prepare("SELECT 1 FROM products WHERE handle = ?").first([.text(draft.handle)]) == nil else {
                        throw CatalogStoreError.handleTaken(draft.handle)
                    }
                    _ = try SQLCatalog.upsert(checked, allowsTakeOver: false, audit: .init(actor: actor, action: "create", now: now),
                                     connection)
                    let product = try SQLCatalog.storedProduct(handle: draft.handle, connection)
                    if let creationKey {
                        try connection.prepare("INSERT INTO product_creation_keys (key, product_id) VALUES (?, ?)")
                            .run([.text(creationKey), .integer(product.product.id.rawValue)])
                    }
                    return product
                }
            },
            changeProductsBy: { ids, actor, now, change in
                try database.write { connection in
                    // BEGIN IMMEDIATE: the reads and the write are one step for every writer.
                    let changed = try ProductChangeBatch.run(
                        ids, actor: actor, now: now,
                        read: { try SQLCatalog.storedProduct(id: $0.rawValue, connection) },
                        write: { _ = try SQLCatalog.upsert(try CheckedDrafts.check($0, currency: currency), connection) },
                        audit: { try SQLAudit.insert($0, connection) }, change: change)
                    _ = try SQLOrders.trimHoldsToStock(now: now, connection)  // a lowered stock trims holds
                    return changed
                }
            },
            productCount: {
                try database.withConnection { connection in
                    try connection.prepare("SELECT count(*) FROM products").first()?.int(0) ?? 0
                }
            },
            version: { try catalogVersion() },
            previewUpsertWith: { drafts, progress in
                let checked = try CheckedDrafts.check(drafts, currency: currency)
                do {
                    return try database.write { connection throws -> CatalogUpsertResult in
                        throw SQLCatalog.Preview(result: try SQLCatalog.upsert(checked, progress: progress, connection))
                    }
                } catch let preview as SQLCatalog.Preview {
                    return preview.result  // thrown out of the transaction, so it rolled back
                }
            },
            allProducts: {
                try database.withConnection { connection in
                    try connection.transaction(.deferred) {
                        let names = Dictionary(uniqueKeysWithValues: try connection.prepare("SELECT id, name FROM categories")
                            .query().map { (try $0.int64(0), try $0.string(1)) })
                        let rows = try connection.prepare(SQLCatalog.selectProducts + " ORDER BY p.id").query()
                        return try SQLCatalog.products(rows, connection).map { product in
                            StoredProduct(product: product, categoryName: product.categoryID.flatMap { names[$0.rawValue] })
                        }
                    }
                }
            },
            findProducts: { query in
                let page = query.pageSQL(isTrue: { "\($0) = 1" })
                return try database.withConnection { connection in
                    try connection.transaction(.deferred) {
                        let values = page.values.map(SQLValue.init)
                        let total = try connection.prepare(page.count).first(Array(values.dropLast(2)))?.int(0) ?? 0
                        let rows = try connection.prepare(page.sql).query(values).map { try CatalogListQuery.row($0) }
                        return CatalogListPage(rows: rows, total: total)
                    }
                }
            },
            storedProduct: { id in
                try database.withConnection { connection in
                    try connection.transaction(.deferred) { try SQLCatalog.storedProduct(id: id.rawValue, connection) }
                }
            }
        )
    }
}

/// The SQL behind `CatalogStore.sqlite`.
enum SQLCatalog {
    /// The columns `products(_:_:)` reads, of `products p`.
    static let selectProducts = "SELECT \(StoredCatalog.productColumns) FROM products p"

    static func category(_ row: Row) throws -> Category {
        Category(id: Category.ID(try row.int64(0)), handle: try row.string(1), name: try row.string(2))
    }

    /// SQLite's way with the conditions of `ProductQueryConditions`. "Searchable" is read from
    /// the entry of `products_search_facts` a search has found by id (the unary `+` keeps SQLite
    /// from seeking the index once per value of the list).
    static let dialect = SQLDialect(
        isTrue: { "\($0) = 1" }, isAmongIDs: { "\($0) IN (SELECT value FROM json_each(?))" },
        ids: { .text("[" + $0.map(String.init).joined(separator: ",") + "]") },
        searchable: { "+\($0).visibility IN ('visible', 'search')" })

    /// The condition "listed" (`CatalogVisibility.isListed`) on products aliased `alias`.
    static func listed(_ alias: String) -> String { dialect.listed(alias) }

    static func jsonIDs(_ ids: [Int64]) -> SQLValue { SQLValue(dialect.ids(ids)) }

    // MARK: Reading

    /// A page of `query` inside the caller's read transaction: the page, its count and (when
    /// asked) the two facets, each one statement.
    ///
    /// A search starts from the FTS5 matches (`product_search s CROSS JOIN products p`: CROSS
    /// JOIN fixes the loop order): without statistics the planner would otherwise walk an
    /// `is_published` index over every product and probe the matches. Each match then reads
    /// the covering index `products_search_facts`, not the wide product row.
    /// How long an upsert waits for another process's write lock (10 minutes): imports of
    /// 100 000 rows hold it for tens of seconds, and one import should wait for another.
    static let importBusyTimeoutMilliseconds = 600_000

    /// The catalog version as this connection's transaction sees it.
    static func catalogVersion(_ connection: Connection) throws -> Int64 {
        try connection.prepare("SELECT version FROM catalog_state WHERE id = 1").first([])?.int64(0) ?? 0
    }

    /// The version a listing's kept answers (`CatalogListingMemos`) are valid for: the catalog
    /// version less the bumps of holds (migration 35) — a listing's statements name the products
    /// checkouts hold out, so a hold changes their key, not their answer.
    static func listingVersion(_ connection: Connection) throws -> Int64 {
        try connection.prepare("SELECT version - holds FROM catalog_state WHERE id = 1").first([])?.int64(0) ?? 0
    }

    static func page(_ query: ProductQuery, currency: Currency, searchCountLimit: Int = ProductPage.searchCountLimit,
                     memos: CatalogListingMemos<SQLValue>, _ connection: Connection) throws -> ProductPage {
        let search = query.searchTerms.isEmpty ? nil : try SearchMatch.terms(query, connection)
        // Without a search, a listing's ids, facets and tags are the same for many pages: kept
        // per catalog version (`CatalogListingMemos`), read once in this transaction. A search's
        // are not kept (no version).
        let version = search == nil ? try listingVersion(connection) : nil

        // The conditions but the search match: `base` those no facet lifts (ProductFacets);
        // `scope` adds the facets' own filters but vendor's (the vendor and tag lists are
        // computed over it); `filter` adds vendor and tag: the page itself.
        let from = search == nil ? "products p" : "product_search s CROSS JOIN products p INDEXED BY products_search_facts"
        let conditions = ProductQueryConditions(query, isSearch: search != nil, dialect: SQLCatalog.dialect)
        func split(_ parts: [ProductQueryConditions.Part]) -> ([String], [SQLValue]) {
            (parts.map(\.sql), parts.flatMap(\.values).map(SQLValue.init))
        }
        let (scope, scopeValues) = split(conditions.scope)
        let (filter, filterValues) = split(conditions.filter)
        // A search starts from the FTS5 matches of the whole search (`.all` with typos): every
        // statement below is `FROM \(from) WHERE \(matching(…))`.
        let match = try search.map { try SearchMatch.expression($0.all, connection) }
        func matching(_ conditions: [String], _ values: [SQLValue]) -> (sql: String, values: [SQLValue]) {
            guard let match else { return (conditions.joined(separator: " AND "), values) }
            return ((["s.product_search MATCH ?", "p.id = s.rowid"] + conditions).joined(separator: " AND "),
                    [.text(match)] + values)
        }
        // A search looks at its first `searchCountLimit` matches (+ 1, to know there are more)
        // for the count, the facets and the tag list: `LIMIT ?` on the matches, in FTS5 order.
        let scanLimit: SQLValue? = search.map { _ in SQLValue(searchCountLimit + 1) }  // not `nil`: SQLValue takes `nil` as NULL

        // Two steps: the page's ids (sorting only narrow index entries), then its 24-odd rows.
        let ids: [Int64]
        if let search, query.sort == .relevance {
            ids = try relevancePage(search, from: from, filter, filterValues, offset: query.offset, limit: query.limit,
                                    connection)
        } else {
            let order: String
            switch query.sort {
            case .relevance, .featured: order = "p.id"
            case .priceAscending: order = "p.min_price_minor, p.id"          // NULL first ascending
            case .priceDescending: order = "p.min_price_minor DESC, p.id"    // NULL last descending
            case .newest: order = "p.published_at DESC, p.id"                // NULL last descending
            case .rating: order = "p.rating_hundredths DESC, p.rating_count DESC, p.id"
            case .name:                                                      // BINARY: UTF-8 bytes
                switch query.locale {
                case .english: order = "p.sort_title, p.id"
                case .turkish: order = "p.sort_title_tr, p.id"
                case .spanish: order = "p.sort_title_es, p.id"
                }
            }
            let page = matching(filter, filterValues)
            let listing = "SELECT p.id FROM \(from) WHERE \(page.sql) ORDER BY \(order)"
            ids = try memos.pageIDs(at: version, .init(listing, page.values), offset: query.offset, limit: query.limit) { all in
                try connection.prepare(listing + " LIMIT ?").query(page.values + [SQLValue(all)]).map { try $0.int64(0) }
            } page: {
                try connection.prepare(listing + " LIMIT ? OFFSET ?")
                    .query(page.values + [SQLValue(query.limit), SQLValue(query.offset)])
                    .map { try $0.int64(0) }
            }
        }
        let rowsByID = try Dictionary(
            connection.prepare(selectProducts + " WHERE p.id IN (SELECT value FROM json_each(?))").query([jsonIDs(ids)])
                .map { (try $0.int64(0), $0) },
            uniquingKeysWith: { first, _ in first })
        let rows = ids.compactMap { rowsByID[$0] }

        /// The number of products matching `conditions`, at most `searchCountLimit` + 1 for a search.
        func count(_ conditions: [String], _ values: [SQLValue]) throws -> Int {
            let counted = matching(conditions, values)
            guard let scanLimit else {
                return try connection.prepare("SELECT count(*) FROM \(from) WHERE \(counted.sql)").first(counted.values)?.int(0) ?? 0
            }
            return try connection.prepare("SELECT count(*) FROM (SELECT 1 FROM \(from) WHERE \(counted.sql) LIMIT ?)")
                .first(counted.values + [scanLimit])?.int(0) ?? 0
        }
        var vendors: [String] = []
        var tags: [String] = []
        var facets: ProductFacets?
        var total: Int
        var isSampled = false
        if query.includesFacets {
            // The facets' one statement also gives the count (its groups that pass every filter)
            // and the vendor list (the vendor facet's values).
            let (facetBase, facetBaseValues) = split(conditions.facetBase)
            let counted = try productFacets(from: from, where: matching(facetBase, facetBaseValues), limit: scanLimit,
                                            conditions.facetColumns, FacetTally(query, currency: currency), memos: memos,
                                            version: version, connection)
            isSampled = counted.tally.scanned > searchCountLimit && scanLimit != nil
            facets = counted.tally.facets
            // Past the limit the groups hold a sample: the filters' own count, capped, says how many.
            total = isSampled && conditions.hasFacetFilters ? try count(filter, filterValues) : counted.tally.total
            vendors = counted.tally.facets.vendors.map(\.value)
            // The tag list's products: the facets' sample when no filter tells them apart (the
            // search is not matched again), else the first ones in the scope, else the scope.
            let listed = matching(scope, scopeValues)
            let tagSource: (sql: String, values: [SQLValue])
            if scanLimit != nil && query.tag == nil && !conditions.hasFacetFilters {
                // A sample's first `tagSampleSize` products give its tags (50 are listed at most).
                let ids = isSampled ? Array(counted.sampledIDs.prefix(FacetTally.tagSampleSize)) : counted.sampledIDs
                tagSource = ("product_tags t WHERE t.product_id IN (SELECT value FROM json_each(?))", [jsonIDs(ids)])
            } else if let scanLimit {
                tagSource = ("(SELECT p.id FROM \(from) WHERE \(listed.sql) LIMIT ?) p JOIN product_tags t ON t.product_id = p.id",
                             listed.values + [scanLimit])
            } else {
                tagSource = ("\(from) JOIN product_tags t ON t.product_id = p.id WHERE \(listed.sql)", listed.values)
            }
            // The tags of the most products (`ProductPage.tags`), then in spelling order.
            let tagSQL = """
                SELECT spelling FROM (SELECT min(t.tag) AS spelling, count(*) AS uses FROM \(tagSource.sql)
                                      GROUP BY t.tag_key ORDER BY uses DESC, spelling LIMIT \(ProductPage.facetLimit)) AS kept
                ORDER BY spelling
                """
            tags = try memos.tags.answer(at: version, .init(tagSQL, tagSource.values)) {
                try connection.prepare(tagSQL).query(tagSource.values).map { try $0.string(0) }
            }
        } else {
            total = try count(filter, filterValues)
        }
        let isCapped = scanLimit != nil && total > searchCountLimit
        if isCapped { total = searchCountLimit }
        let suggestion = try search.flatMap { total == 0 ? try SearchMatch.suggestion($0, connection) : nil }
        return ProductPage(products: try products(rows, connection), totalCount: total, vendors: vendors, tags: tags,
                           suggestion: suggestion, facets: facets, totalCountIsCapped: isCapped, facetsAreSampled: isSampled)
    }

    /// A relevance page of a search (`ProductQuery.Sort.relevance`): the tiers in turn, each the
    /// products it matches that no earlier tier matched, by id — so a page reads its matches
    /// only as far as it reaches (the first page of a word that matches 90 000 products reads
    /// 24 of them), never sorting them all. FTS5 gives each tier's matches in rowid (= id)
    /// order. A tier is only read once the earlier ones ran out, so the products they gave are
    /// all of theirs that pass the filters: the later tier leaves out those ids rather than
    /// matching the earlier tiers' expressions again.
    static func relevancePage(_ search: SearchTerms, from: String, _ conditions: [String], _ values: [SQLValue],
                              offset: Int, limit: Int, _ connection: Connection) throws -> [Int64] {
        let tiers = try search.relevanceTiers.map { try SearchMatch.expression($0, connection) }
        let wanted = offset + limit
        var found: [Int64] = []
        let sql = (["s.product_search MATCH ?", "p.id = s.rowid"] + conditions
                   + ["p.id NOT IN (SELECT value FROM json_each(?))"]).joined(separator: " AND ")
        for tier in tiers where found.count < wanted {
            found += try connection.prepare("SELECT p.id FROM \(from) WHERE \(sql) ORDER BY s.rowid LIMIT ?")
                .query([.text(tier)] + values + [jsonIDs(found), SQLValue(wanted - found.count)])
                .map { try $0.int64(0) }
        }
        return Array(found.dropFirst(offset))
    }

    /// The facets with their disjunctive counts in one statement: the products matching every
    /// condition no facet lifts are grouped by (category, vendor, price band, in the chosen band,
    /// availability) in SQL, and each facet adds up the groups that pass the other facets'
    /// filters; `total` adds up those that pass them all (the page's count), `scanned` all of
    /// them. With `limit`, only the first `limit` products matching `condition` are counted
    /// (read one by one, not grouped in SQL: at most a thousand), and `sampledIDs` are theirs.
    static func productFacets(from: String, where condition: (sql: String, values: [SQLValue]), limit: SQLValue?,
                              _ columns: ProductQueryConditions.Part, _ tally: FacetTally, memos: CatalogListingMemos<SQLValue>,
                              version: Int64?, _ connection: Connection) throws -> (tally: FacetTally.Counted, sampledIDs: [Int64]) {
        let bands = tally.bands
        // The band's index (-1 without a price): bands are contiguous from 0, so the highest
        // lower bound at or below the price names it.
        let bandCase = "CASE WHEN p.min_price_minor IS NULL THEN -1 "
            + bands.indices.reversed().map { "WHEN p.min_price_minor >= \(bands[$0].lowerMinor) THEN \($0) " }.joined()
            + "ELSE 0 END"
        // Limited, the first products are read one row each (a group of 1), with their ids.
        let sql = limit == nil ? """
            SELECT p.category_id, p.vendor, \(bandCase), \(columns.sql), count(*) FROM \(from)
            WHERE \(condition.sql) GROUP BY 1, 2, 3, 4, 5
            """ : """
            SELECT p.category_id, p.vendor, \(bandCase), \(columns.sql), 1, p.id FROM \(from)
            WHERE \(condition.sql) LIMIT ?
            """
        let values = columns.values.map(SQLValue.init) + condition.values + (limit.map { [$0] } ?? [])
        var sampledIDs: [Int64] = []
        // A limited statement reads a search's matches: never kept.
        let counted = try memos.facets(at: limit == nil ? version : nil, .init(sql, values), tally) {
            // A search's 1 001 rows are read in place (`forEachRow`): no `Row` each.
            var groups: [FacetTally.Group] = []
            try connection.prepare(sql).forEachRow(values) { row in
                if limit != nil { sampledIDs.append(try row.int64(6)) }
                groups.append(FacetTally.Group(categoryID: try row.optionalInt64(0), vendor: try row.string(1),
                                               band: try row.int(2), isInBand: try row.bool(3), isAvailable: try row.bool(4),
                                               count: try row.int(5)))
            }
            return groups
        } categories: { ids in
            try connection.prepare("""
                SELECT id, handle, name FROM categories WHERE id IN (SELECT value FROM json_each(?)) ORDER BY name, id
                """).query([jsonIDs(ids)]).map(SQLCatalog.category)
        }
        return (counted, sampledIDs)
    }

    /// Products from `selectProducts` rows, in row order, with their variants and images
    /// (one query each for all of them).
    static func products(_ rows: [Row], _ connection: Connection) throws -> [Product] {
        guard !rows.isEmpty else { return [] }
        let idList = jsonIDs(try rows.map { try $0.int64(0) })
        do {
            var variantsByProduct: [Int64: [Variant]] = [:]
            var currencies: [String: Currency] = [:]
            for row in try connection.prepare("""
                SELECT \(StoredCatalog.variantColumns) FROM variants
                WHERE product_id IN (SELECT value FROM json_each(?)) ORDER BY product_id, position
                """).query([idList]) {
                let (productID, variant) = try StoredCatalog.variant(row, currencies: &currencies)
                variantsByProduct[productID, default: []].append(variant)
            }
            var imagesByProduct: [Int64: [ProductImage]] = [:]
            for row in try connection.prepare("""
                SELECT \(StoredCatalog.imageColumns) FROM product_images
                WHERE product_id IN (SELECT value FROM json_each(?)) ORDER BY product_id, position
                """).query([idList]) {
                let (productID, image) = try StoredCatalog.image(row)
                imagesByProduct[productID, default: []].append(image)
            }
            return try rows.map { row in
                let id = try row.int64(0)
                return try StoredCatalog.product(row, images: imagesByProduct[id] ?? [], variants: variantsByProduct[id] ?? [])
            }
        } catch let corrupt as StoredCatalog.CorruptValue {
            throw SQLiteStoreError.corruptValue(table: corrupt.table, column: corrupt.column, rowID: corrupt.rowID)
        }
    }

    /// The product with this id, published or not, with its category's name.
    static func storedProduct(id: Int64, _ connection: Connection) throws -> StoredProduct? {
        try storedProduct(connection.prepare(selectProducts + " WHERE id = ?").query([.integer(id)]), connection)
    }

    /// The product with this handle, which the caller's transaction has just written.
    static func storedProduct(handle: String, _ connection: Connection) throws -> StoredProduct {
        guard let stored = try storedProduct(connection.prepare(selectProducts + " WHERE handle = ?").query([.text(handle)]),
                                             connection) else {
            throw SQLiteStoreError.corruptValue(table: "products", column: "handle", rowID: 0)  // unreachable
        }
        return stored
    }

    private static func storedProduct(_ rows: [Row], _ connection: Connection) throws -> StoredProduct? {
        guard let product = try products(rows, connection).first else { return nil }
        let name = try product.categoryID.flatMap { categoryID in
            try connection.prepare("SELECT name FROM categories WHERE id = ?").first([.integer(categoryID.rawValue)])?.string(0)
        }
        return StoredProduct(product: product, categoryName: name)
    }

    // MARK: Writing

    /// A preview's result, thrown out of its transaction so that the transaction rolls back.
    struct Preview: Error {
        var result: CatalogUpsertResult
    }

    /// Upserts of at least this many drafts drop the bulk-write triggers for their length
    /// (`BulkWriteTriggers`); smaller ones (an API write, a short file) leave the schema alone.
    static let bulkWriteMinimum = 200

    /// Writes prepared drafts inside the caller's transaction (any error rolls it all back).
    /// Each draft updates `CatalogUpsertRules.targets(…)`'s product (by handle, else by its SKUs,
    /// decided for every draft before any is written), whose values the fields its file does not
    /// carry keep (`CatalogUpsertRules.keepingUncarried`); a product its draft leaves unchanged is
    /// not written.
    static func upsert(_ checked: CheckedDrafts, allowsTakeOver: Bool = true, audit: ProductAudit.Context? = nil,
                       progress: UpsertProgress? = nil,
                       bulkWriteMinimum: Int = bulkWriteMinimum,
                       _ connection: Connection) throws -> CatalogUpsertResult {
        let recorder = audit.map { ProductAudit.Recorder($0) { try SQLAudit.insert($0, connection) } }
        let stemmer = ProductSearchStemmer()
        var result = CatalogUpsertResult()
        // Each draft's product, decided for all of them against the catalog as it is before
        // anything is written (`CatalogUpsertRules.targets`): the stored product with each
        // draft's handle, and every variant of each product owning one of the drafts' SKUs.
        let handles = try connection.prepare("SELECT handle, id FROM products WHERE handle IN (SELECT value FROM json_each(?))")
            .query([.text(JSONStringArray.encode(checked.drafts.map(\.handle)))])
        var idByHandle: [String: Product.ID] = [:]
        for row in handles { idByHandle[try row.string(0)] = Product.ID(try row.int64(1)) }
        let handleMatches = checked.drafts.map { idByHandle[$0.handle] }
        let owners = try connection.prepare("""
            SELECT v.product_id, p.handle, v.sku FROM variants v JOIN products p ON p.id = v.product_id
            WHERE v.product_id IN (SELECT product_id FROM variants WHERE sku_key IN (SELECT value FROM json_each(?)))
            ORDER BY v.product_id, v.position
            """).query([.text(JSONStringArray.encode(checked.drafts.flatMap { $0.variants.compactMap { SKUIdentity.key($0.sku) } }))])
            .map { row in
                CatalogUpsertRules.SKUOwner(productID: Product.ID(try row.int64(0)), handle: try row.string(1),
                                            sku: try row.optionalString(2))
            }
        let targets = try CatalogUpsertRules.targets(for: checked.drafts, handleMatches: handleMatches, skuOwners: owners,
                                                     allowsTakeOver: allowsTakeOver)
        // Remembered for this transaction only: categories by handle, so an import of 30 000
        // products asks for each category once.
        var categories: [String: (id: Int64, name: String)] = [:]
        // Each stored category's name folded in every family, once (`addCategory`).
        var foldedCategories: [String: FoldedCategoryName] = [:]
        var searchRows = SearchIndexBatch()
        // Drafts are folded on a second thread ahead of this one (DraftPreparer).
        let preparer = DraftPreparer(checked.drafts, progress: progress)
        defer { preparer.stop() }
        // The per-row triggers stand aside (migration 26): each product written is refreshed
        // once below, and the version is bumped once at the end.
        try connection.prepare("UPDATE catalog_state SET is_bulk_writing = 1 WHERE id = 1").run()
        var isBulkWriting = true
        // A large upsert drops them too, from its first write to its end, so its statements need
        // no statement journal (BulkWriteTriggers). An unchanged file leaves the schema alone.
        var droppedTriggers: BulkWriteTriggers?
        defer {
            // Thrown out of: the transaction rolls back, unless a caller goes on with it. Either
            // way the triggers must not stay aside past this call.
            if isBulkWriting { try? connection.prepare("UPDATE catalog_state SET is_bulk_writing = 0 WHERE id = 1").run() }
            if droppedTriggers?.isSetAside == true { try? droppedTriggers?.restore(connection) }
        }
        let refreshProduct = try connection.prepare("""
            UPDATE products SET (min_price_minor, is_available) =
                (SELECT f.min_price_minor, f.is_available FROM product_variant_facts f WHERE f.product_id = products.id)
            WHERE id = ?
            """)
        for (index, fileDraft) in checked.drafts.enumerated() {
            let handleMatch = handleMatches[index]
            let stored = try handleMatch.flatMap { try storedProduct(id: $0.rawValue, connection) }
            // A draft that takes another product over by its SKUs keeps that product's values (below).
            let takesOver = targets[index].map { $0 != handleMatch } ?? false
            var draft = takesOver ? fileDraft : try CatalogUpsertRules.keepingUncarried(fileDraft, from: stored)
            if let stored, CatalogUpsertRules.leavesUnchanged(stored, draft) {
                try preparer.skip(index)
                result.productsUnchanged += 1
                result.products.append(.init(handle: draft.handle, change: .unchanged))
                continue
            }
            if droppedTriggers == nil && checked.drafts.count >= bulkWriteMinimum {
                droppedTriggers = try BulkWriteTriggers(droppingIn: connection)
            }
            var prepared = try preparer.take(index)
            // The product written: the one with the handle, or the one owning the draft's SKUs.
            var target = stored
            if let id = targets[index], id != handleMatch {
                target = try storedProduct(id: id.rawValue, connection)
                draft = try CatalogUpsertRules.keepingUncarried(fileDraft, from: target)
            }
            prepared = prepared.refolded(for: draft, stemmer: stemmer)
            let category = try category(handle: prepared.categoryHandle, name: draft.categoryName, known: &categories,
                                        connection, &result)
            let categoryID = category?.id
            let productValues: [SQLValue] = [
                .text(draft.title), .text(draft.descriptionHTML), .text(draft.descriptionText), .text(draft.vendor),
                .text(draft.productType), SQLValue(categoryID), .text(JSONStringArray.encode(draft.tags)),
                SQLValue(draft.publishedAt.map(StoredTime.unixSeconds)), SQLValue(draft.isPublished),
                SQLValue(draft.rating?.rateHundredths), SQLValue(draft.rating?.count ?? 0),
                .text(JSONStringArray.encode(draft.optionNames)), .text(prepared.sortTitle),
                .text(prepared.sortTitleTurkish), .text(prepared.sortTitleSpanish), .text(draft.visibility.rawValue),
            ]
            let productID: Int64
            if let target {
                productID = target.product.id.rawValue
                try connection.prepare("""
                    UPDATE products SET title = ?, description_html = ?, description_text = ?, vendor = ?,
                        product_type = ?, category_id = ?, tags = ?, published_at = ?, is_published = ?,
                        rating_hundredths = ?, rating_count = ?, option_names = ?, sort_title = ?,
                        sort_title_tr = ?, sort_title_es = ?, visibility = ?, handle = ?
                    WHERE id = ?
                    """).run(productValues + [.text(draft.handle), .integer(productID)])
                result.productsUpdated += 1
                let previousHandle = target.product.handle
                result.products.append(.init(handle: draft.handle, change: .updated,
                                             previousHandle: previousHandle == draft.handle ? nil : previousHandle))
            } else {
                try connection.prepare("""
                    INSERT INTO products (title, description_html, description_text, vendor, product_type, category_id,
                        tags, published_at, is_published, rating_hundredths, rating_count, option_names, sort_title,
                        sort_title_tr, sort_title_es, visibility, handle)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """).run(productValues + [.text(draft.handle)])
                productID = connection.lastInsertRowID
                result.productsCreated += 1
                result.products.append(.init(handle: draft.handle, change: .created))
            }

            // A product created just now has no variants, images, tags or search row to replace.
            let isNew = target == nil
            if let recorder {
                var written = draft
                written.categoryName = category?.name  // the stored category's own spelling
                try recorder.record(replacing: target, with: written)
            }
            try upsertVariants(of: draft, productID: productID, storedVariants: target?.product.variants ?? [],
                               isNew: isNew, connection, &result)
            try refreshProduct.run([.integer(productID)])

            if !isNew {
                try connection.prepare("DELETE FROM product_images WHERE product_id = ?").run([.integer(productID)])
            }
            let insertImage = try connection.prepare(
                "INSERT INTO product_images (product_id, position, url, alt, width, height, has_alpha) VALUES (?, ?, ?, ?, ?, ?, ?)")
            for (position, image) in draft.images.enumerated() {
                try insertImage.run([.integer(productID), SQLValue(position), .text(image.url), .text(image.altText),
                                     SQLValue(image.width), SQLValue(image.height),
                                     SQLValue(image.hasAlpha)])
            }
            result.imagesStored += draft.images.count

            let categoryName = category?.name ?? ""
            if foldedCategories[categoryName] == nil {
                foldedCategories[categoryName] = FoldedCategoryName(categoryName, stemmer: stemmer)
            }
            let folded = foldedCategories[categoryName]!
            let documents = folded.documents(of: prepared)
            try searchRows.add(productID: productID, documents: documents,
                               vocabulary: prepared.vocabulary.union(folded.words), words: prepared.words.union(folded.words),
                               tags: draft.tags, tagKeys: prepared.tagKeys,
                               replacing: !isNew, connection)
        }
        try searchRows.flush(connection)
        try droppedTriggers?.restore(connection)
        // One bump for the whole upsert, when it wrote anything (an unchanged file changes no cache).
        let wroteAnything = result.productsCreated + result.productsUpdated + result.categoriesCreated > 0
        try connection.prepare("""
            UPDATE catalog_state SET is_bulk_writing = 0, version = version + (CASE WHEN ? THEN 1 ELSE 0 END) WHERE id = 1
            """).run([SQLValue(wroteAnything)])
        isBulkWriting = false
        try recorder?.finish()
        return result
    }

    // MARK: Search index

    /// `true` while migration 4's `search_index_state` asks for a rebuild.
    static func searchIndexIsStale(_ connection: Connection) throws -> Bool {
        try connection.prepare("SELECT is_stale FROM search_index_state WHERE id = 1").first()?.bool(0) ?? false
    }

    /// Indexes every product (search rows, tag rows, `sort_title`) when the database holds
    /// products from before migration 4, in one write transaction; a no-op (one primary-key
    /// read) otherwise. Concurrent callers take turns; the second finds the work done.
    static func rebuildSearchIndexIfStale(_ connection: Connection) throws {
        guard try searchIndexIsStale(connection) else { return }
        try connection.transaction {
            guard try searchIndexIsStale(connection) else { return }
            try connection.execute("""
                DELETE FROM product_search; DELETE FROM product_tags; DELETE FROM search_vocabulary;
                DELETE FROM search_words;
                """)
            let rows = try connection.prepare("""
                SELECT p.id, p.title, p.vendor, p.tags, p.description_text, c.name,
                  (SELECT json_group_array(v.sku) FROM variants v WHERE v.product_id = p.id AND v.sku IS NOT NULL),
                  (SELECT json_group_array(v.barcode) FROM variants v WHERE v.product_id = p.id AND v.barcode IS NOT NULL)
                FROM products p LEFT JOIN categories c ON c.id = p.category_id
                """).query()
            let stemmer = ProductSearchStemmer()
            var searchRows = SearchIndexBatch()
            let setSortTitle = try connection.prepare(
                "UPDATE products SET sort_title = ?, sort_title_tr = ?, sort_title_es = ? WHERE id = ?")
            for row in rows {
                let id = try row.int64(0)
                guard let tags = JSONStringArray.decode(try row.string(3)) else {
                    throw SQLiteStoreError.corruptValue(table: "products", column: "tags", rowID: id)
                }
                let title = try row.string(1)
                let (vendor, descriptionText, categoryName) = (try row.string(2), try row.string(4), try row.optionalString(5))
                guard let skus = JSONStringArray.decode(try row.string(6)) else {
                    throw SQLiteStoreError.corruptValue(table: "variants", column: "sku", rowID: id)
                }
                guard let barcodes = JSONStringArray.decode(try row.string(7)) else {
                    throw SQLiteStoreError.corruptValue(table: "variants", column: "barcode", rowID: id)
                }
                let documents = ProductSearchRules.Family.allCases.map { family in
                    ProductSearchDocument(title: title, vendor: vendor, tags: tags, categoryName: categoryName,
                                          descriptionText: descriptionText, skus: skus, barcodes: barcodes, family: family,
                                          stemmer: stemmer)
                }
                // The four tables were emptied above: no rows to delete first.
                try searchRows.add(productID: id, documents: documents, tags: tags,
                                   tagKeys: tags.map(ProductSearchRules.tagKey), replacing: false, connection)
                try setSortTitle.run([.text(ProductSearchRules.sortTitle(title)),
                                      .text(ProductSearchRules.sortTitle(title, locale: .turkish)),
                                      .text(ProductSearchRules.sortTitle(title, locale: .spanish)), .integer(id)])
            }
            try searchRows.flush(connection)
            try connection.prepare("UPDATE search_index_state SET is_stale = 0 WHERE id = 1").run()
        }
    }

    /// The id and stored name of the draft's category (`handle` from
    /// `CatalogUpsertRules.categoryHandle(for: name)`), created when new; nil without one.
    private static func category(handle: String?, name: String?, known: inout [String: (id: Int64, name: String)],
                                 _ connection: Connection,
                                 _ result: inout CatalogUpsertResult) throws -> (id: Int64, name: String)? {
        guard let handle, let name else { return nil }
        if let category = known[handle] { return category }
        if let row = try connection.prepare("SELECT id, name FROM categories WHERE handle = ?").first([.text(handle)]) {
            known[handle] = (try row.int64(0), try row.string(1))
            return known[handle]
        }
        let trimmed = name.trimmedOfWhiteSpace
        try connection.prepare("INSERT INTO categories (handle, name) VALUES (?, ?)").run([.text(handle), .text(trimmed)])
        result.categoriesCreated += 1
        known[handle] = (connection.lastInsertRowID, trimmed)
        return known[handle]
    }

    private static func upsertVariants(of draft: ProductDraft, productID: Int64, storedVariants: [Variant], isNew: Bool,
                                       _ connection: Connection, _ result: inout CatalogUpsertResult) throws {
        let stored = isNew ? [] : try connection.prepare("SELECT id, sku, option_key FROM variants WHERE product_id = ?")
            .query([.integer(productID)]).map { row in
                CatalogUpsertRules.StoredVariant(id: Variant.ID(try row.int64(0)), sku: try row.optionalString(1),
                                                 optionKey: try row.string(2))
            }
        let matches = CatalogUpsertRules.matchVariants(existing: stored, drafts: draft.variants)
        let kept = Set(matches.compactMap { $0 })
        let delete = try connection.prepare("DELETE FROM variants WHERE id = ?")
        for variant in stored where !kept.contains(variant.id) {
            try delete.run([.integer(variant.id.rawValue)])  // cart lines stay: the cart reports them (v19)
        }
        // Variants may swap option values; park the changing keys first so UNIQUE(product_id,
        // option_key) holds after every statement. Real keys never contain U+001E.
        let storedKeys = Dictionary(uniqueKeysWithValues: stored.map { ($0.id, $0.optionKey) })
        let park = try connection.prepare("UPDATE variants SET option_key = char(30) || id WHERE id = ?")
        for (variantDraft, match) in zip(draft.variants, matches) {
            if let match, storedKeys[match] != CatalogUpsertRules.optionKey(variantDraft.optionValues) {
                try park.run([.integer(match.rawValue)])
            }
        }
        // Likewise SKUs may move between the product's variants: the unique sku_key must hold
        // after every statement, so the product's keys are cleared and written back below.
        if !isNew {
            try connection.prepare("UPDATE variants SET sku_key = NULL WHERE product_id = ?").run([.integer(productID)])
        }
        // Updates first (matched variants), then inserts, so new variants never collide with
        // keys that matched ones are giving up.
        for (position, (variantDraft, match)) in zip(draft.variants, matches).enumerated() {
            guard let match else { continue }
            try connection.prepare("""
                UPDATE variants SET position = ?, sku = ?, sku_key = ?, option_values = ?, option_key = ?, price_minor = ?,
                    compare_at_minor = ?, currency = ?, inventory_tracked = ?, stock = ?, allow_backorder = ?, barcode = ?,
                    option_choices = ?
                WHERE id = ?
                """).run(variantValues(variantDraft, position: position) + [.integer(match.rawValue)])
            let before = storedVariants.firstIndex { $0.id == match }
            if before != position || !CatalogUpsertRules.leavesUnchanged(storedVariants[before!], variantDraft) {
                result.variantsUpdated += 1
            }
        }
        for (position, (variantDraft, match)) in zip(draft.variants, matches).enumerated() where match == nil {
            try connection.prepare("""
                INSERT INTO variants (position, sku, sku_key, option_values, option_key, price_minor, compare_at_minor,
                    currency, inventory_tracked, stock, allow_backorder, barcode, option_choices, product_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).run(variantValues(variantDraft, position: position) + [.integer(productID)])
            result.variantsCreated += 1
        }
    }

    /// Column values for `position … option_choices`, in the order the UPDATE and INSERT use.
    private static func variantValues(_ draft: VariantDraft, position: Int) -> [SQLValue] {
        StoredCatalog.variantValues(draft, position: position).map(SQLValue.init)
    }
}

/// FTS5 query text for `product_search` (a `SearchTerms.Match` rendered), and the look-ups
/// `SearchTerms` asks of the engine.
enum SearchMatch {
    /// The terms of `query`, expanded with this connection's look-ups.
    static func terms(_ query: ProductQuery, _ connection: Connection) throws -> SearchTerms {
        try SearchTerms(query, matchesAny: { try matchesAny($0, connection) },
                        vocabulary: { try vocabulary(near: $0, edits: $1, connection) })
    }

    /// "Did you mean" (`SearchTerms.suggestion`) with this connection's look-ups.
    static func suggestion(_ terms: SearchTerms, _ connection: Connection) throws -> String? {
        try terms.suggestion(matchesAny: { try matchesAny($0, connection) },
                             vocabulary: { try vocabulary(near: $0, edits: $1, connection) })
    }

    /// `expression(_:wordsBeginning:)` with the prefix's words from this connection's `search_words`.
    static func expression(_ match: SearchTerms.Match, _ connection: Connection) throws -> String {
        try expression(match) { try words(beginning: $0, connection) }
    }

    /// `(t1) AND (t2) …`, each term `({columns} : "word" [*] OR {stem columns} : "stem"
    /// [OR {columns} : "candidate" …])`: every word in one of the columns (FTS5 ANDs them), the
    /// last word also as a prefix; then `OR (skus : "key" [*] [OR skus : "barcode" [*]])`.
    /// Words are SearchFolding output (letters and digits only); quotes are doubled all the same.
    ///
    /// A prefix longer than the index's prefix lengths (`prefix = '1 2 3'`) is written as the
    /// words it begins, `{columns} : ("lamp" OR "lampara" OR "lamps")`, when `wordsBeginning`
    /// gives them (at most `prefixWordLimit`): FTS5 answers `"lamp" *` without a prefix index
    /// by merging the whole doclist of every such word before its first row (3 ms for 23 590
    /// products), while an `OR` of words is read a page at a time and stops at the statement's
    /// `LIMIT` (0.2 ms). The same products match either way.
    ///
    /// Known edge: FTS5's `unicode61` tokenizer uses older Unicode tables than Swift, so a word
    /// made only of letters newer than its tables is a separator to it and is ignored here.
    /// Latin (Turkish and Spanish included), Greek and Cyrillic text is not affected.
    static func expression(_ match: SearchTerms.Match, wordsBeginning: (String) throws -> [String]) rethrows -> String {
        var text = try words(match.terms, family: match.family, match, wordsBeginning: wordsBeginning)
        if let alternative = match.standardAlternative {
            var standard = match
            standard.typos = false
            text = "(" + text + ") OR ("
                + (try words(alternative, family: .standard, standard, wordsBeginning: wordsBeginning)) + ")"
        }
        guard !match.skuKey.isEmpty else { return text }
        let prefix = match.identifiersByPrefix ? " *" : ""
        let barcode = match.barcodeToken.map { " OR skus : " + quoted($0) + prefix } ?? ""
        return "(" + text + ") OR (skus : " + quoted(match.skuKey) + prefix + barcode + ")"
    }

    /// `terms` in `family`'s columns of `match.fields`, ANDed (see `expression`).
    private static func words(_ terms: [SearchTerms.Term], family: ProductSearchRules.Family, _ match: SearchTerms.Match,
                              wordsBeginning: (String) throws -> [String]) rethrows -> String {
        let suffix = family == .turkish ? "_tr" : ""
        let (columns, stemColumns) = switch match.fields {
        case .title: (["title"], ["title_stems"])
        case .titleAndMeta: (["title", "meta"], ["title_stems"])
        case .all: (["title", "meta", "body"], ["title_stems", "text_stems"])
        }
        let words = "{" + columns.map { $0 + suffix }.joined(separator: " ") + "} : "
        let stems = "{" + stemColumns.map { $0 + suffix }.joined(separator: " ") + "} : "
        return try terms.map { term in
            var word = words + quoted(term.word) + (term.isPrefix ? " *" : "")
            if term.isPrefix, term.word.unicodeScalars.count > indexedPrefixLength {
                let begun = try wordsBeginning(term.word)
                if !begun.isEmpty, begun.count <= prefixWordLimit {
                    word = words + "(" + begun.map(quoted).joined(separator: " OR ") + ")"
                }
            }
            var alternatives = [word, stems + quoted(term.stem)]
            if match.typos { alternatives += term.typoCandidates.map { words + quoted($0) } }
            return "(" + alternatives.joined(separator: " OR ") + ")"
        }.joined(separator: " AND ")
    }

    /// The longest prefix `product_search` keeps a prefix index for (`prefix = '1 2 3'`).
    static let indexedPrefixLength = 3
    /// The most words a prefix is written as; past it, `"prefix" *`.
    static let prefixWordLimit = 32

    /// The `search_words` that begin with `prefix`, in order: at most one more than
    /// `prefixWordLimit` (enough to know there are too many).
    static func words(beginning prefix: String, _ connection: Connection) throws -> [String] {
        // Every text that begins with `prefix` sorts (BINARY: by UTF-8 bytes) between it and
        // `prefix` followed by the highest scalar.
        try connection.prepare("SELECT word FROM search_words WHERE word >= ? AND word < ? ORDER BY word LIMIT ?")
            .query([.text(prefix), .text(prefix + "\u{10FFFF}"), SQLValue(prefixWordLimit + 1)]).map { try $0.string(0) }
    }

    static func quoted(_ word: String) -> String {
        "\"" + word.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Whether any published product matches `expression`. CROSS JOIN starts from the matches:
    /// with a plain JOIN the planner walked every product and evaluated the MATCH per row
    /// (hundreds of ms on a search that finds nothing; `docs/BENCHMARKS.md`).
    static func matchesAny(_ match: SearchTerms.Match, _ connection: Connection) throws -> Bool {
        try connection.prepare("""
            SELECT 1 FROM product_search s CROSS JOIN products p
            WHERE s.product_search MATCH ? AND p.id = s.rowid AND p.is_published = 1 LIMIT 1
            """).first([.text(try expression(match, connection))]) != nil
    }

    /// The `search_vocabulary` words that may lie within `edits` of `word`: starting with one
    /// of `SearchTolerance.leadingScalars(of: word)`, their length within `edits` of its.
    static func vocabulary(near word: String, edits: Int, _ connection: Connection) throws -> [String] {
        let length = word.unicodeScalars.count
        let select = try connection.prepare("""
            SELECT term FROM search_vocabulary WHERE term >= ? AND term < ? AND length(term) BETWEEN ? AND ?
            """)
        var words: [String] = []
        for scalar in SearchTolerance.leadingScalars(of: word) {
            guard let next = Unicode.Scalar(scalar.value + 1) else { continue }
            words += try select.query([.text(String(scalar)), .text(String(next)), SQLValue(length - edits),
                                       SQLValue(length + edits)]).map { try $0.string(0) }
        }
        return words
    }
}

public import ShopCore
public import ShopStore
import Foundation
import Postgres

extension CatalogStore {
    /// The catalog in PostgreSQL (`PostgresSchema` migrations 1, 2 and 4), with the behaviour of
    /// `CatalogStore.sqlite`: what is checked, folded, matched, ranked and counted is decided
    /// above both engines (`CheckedDrafts`, `PreparedDraft`, `SearchTerms`, `FacetTally`,
    /// `StoredCatalog`); this file only speaks SQL.
    ///
    /// - Reads run in one `REPEATABLE READ` transaction (one snapshot for a page, its count,
    ///   facets, variants and images).
    /// - Writes (`upsert`, `insertProduct`, `changeProduct`, `previewUpsert`) first take the
    ///   catalog writers' advisory lock (`PGCatalog.writersLockKey`), so they take turns as
    ///   SQLite's single writer makes them; the version is bumped once per transaction that
    ///   changed a row, at its commit (migration 2's triggers), and read per call (servers share it).
    /// - Search renders `SearchTerms` as `tsquery` over the vectors of migration 4 (`PostgresSearch`).
    /// - Parameters:
    ///   - database: the migrated database.
    ///   - currency: the shop currency; drafts priced in another one are refused.
    ///   - searchCountLimit: how many matches a search counts and computes its facets over.
    public static func postgres(_ database: PostgresDatabase, currency: Currency = .usd,
                                searchCountLimit: Int = ProductPage.searchCountLimit) -> CatalogStore {
        @Sendable func read<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
            try database.pool.transaction(.repeatableRead, attempts: 3, body)
        }
        @Sendable func write<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
            try database.transaction { connection in
                try connection.query("SELECT pg_advisory_xact_lock($1::int, hashtext(current_schema()))",
                                     [.integer(PGCatalog.writersLockKey)])
                return try body(connection)
            }
        }
        let memos = CatalogListingMemos<PostgresValue>()
        return CatalogStore(
            categories: {
                try read { connection in
                    try connection.query("""
                        SELECT c.id, c.handle, c.name, count(*),
                          (SELECT i.url FROM products p2 JOIN product_images i ON i.product_id = p2.id
                           WHERE p2.category_id = c.id AND p2.is_published AND \(PGCatalog.listed("p2"))
                           ORDER BY p2.id, i.position LIMIT 1)
                        FROM categories c
                        JOIN products p ON p.category_id = c.id AND p.is_published AND \(PGCatalog.listed("p"))
                        GROUP BY c.id ORDER BY c.name, c.id
                        """).map { row in
                        CategorySummary(category: try PGCatalog.category(row), productCount: try row.int(3),
                                        imageURL: try row.optionalString(4))
                    }
                }
            },
            categoryByHandle: { handle in
                try database.withConnection { connection in
                    try connection.first("SELECT id, handle, name FROM categories WHERE handle = $1", [.text(handle)])
                        .map(PGCatalog.category)
                }
            },
            products: { query in
                try read { connection in
                    try PGCatalog.page(query, currency: currency, searchCountLimit: searchCountLimit, memos: memos, connection)
                }
            },
            productByHandle: { handle in
                try read { connection in
                    let rows = try connection.query(PGCatalog.selectProducts + " WHERE p.handle = $1 AND p.is_published",
                                                    [.text(handle)])
                    return try PGCatalog.products(rows, connection).first
                }
            },
            productsByID: { ids in
                guard !ids.isEmpty else { return [:] }
                return try read { connection in
                    let rows = try connection.query(PGCatalog.selectProducts + " WHERE p.id = ANY($1::bigint[]) AND p.is_published",
                                                    [PostgresArray.integers(ids.map(\.rawValue))])
                    let products = try PGCatalog.products(rows, connection)
                    return Dictionary(products.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
                }
            },
            upsertBy: { drafts, actor, now, progress in
                let checked = try CheckedDrafts.check(drafts, currency: currency)
                return try write { connection in
                    let result = try PGCatalog.upsert(checked, audit: .init(actor: actor, action: "import", now: now),
                                                      progress: progress, connection)
                    _ = try PGOrders.trimHoldsToStock(now: now, connection)  // a lowered stock trims holds
                    return result
                }
            },
            insertProduct: { draft, actor, now, creationKey in
                let checked = try CheckedDrafts.check([draft], currency: currency)
                func created(_ connection: PostgresConnection) throws -> StoredProduct? {
                    guard let creationKey, let row = try connection.first(
                        "SELECT product_id FROM product_creation_keys WHERE key = $1", [.text(creationKey)]) else { return nil }
                    return try PGCatalog.storedProduct(id: try row.int64(0), connection)
                }
                do {
                    return try write { connection in
                        if let product = try created(connection) { return product }
                        guard try connection.first("SELECT 1 FROM products WHERE handle = $1", [.text(draft.handle)]) == nil else {
                            throw CatalogStoreError.handleTaken(draft.handle)
                        }
                        _ = try PGCatalog.upsert(checked, allowsTakeOver: false, audit: .init(actor: actor, action: "create", now: now),
                                             connection)
                        let product = try PGCatalog.storedProduct(handle: draft.handle, connection)
                        // A second submit of the form that got here too waits on the key's row, then
                        // finds it taken: its product is rolled back and the first one answered.
                        if let creationKey, try connection.first("""
                            INSERT INTO product_creation_keys (key, product_id) VALUES ($1, $2)
                            ON CONFLICT (key) DO NOTHING RETURNING 1
                            """, [.text(creationKey), .integer(product.product.id.rawValue)]) == nil {
                            throw CreationKeyTaken()
                        }
                        return product
                    }
                } catch is CreationKeyTaken {
                    guard let product = try read(created) else { throw CatalogStoreError.handleTaken(draft.handle) }
                    return product
                }
            },
            changeProductsBy: { ids, actor, now, change in
                try write { connection in
                    let changed = try ProductChangeBatch.run(
                        ids, actor: actor, now: now,
                        read: { try PGCatalog.storedProduct(id: $0.rawValue, connection) },
                        write: { _ = try PGCatalog.upsert(try CheckedDrafts.check($0, currency: currency), connection) },
                        audit: { try PGAudit.insert($0, connection) }, change: change)
                    _ = try PGOrders.trimHoldsToStock(now: now, connection)  // a lowered stock trims holds
                    return changed
                }
            },
            productCount: {
                try database.withConnection { connection in
                    try connection.first("SELECT count(*) FROM products")?.int(0) ?? 0
                }
            },
            version: { try database.withConnection(PGCatalog.catalogVersion) },
            previewUpsertWith: { drafts, progress in
                let checked = try CheckedDrafts.check(drafts, currency: currency)
                do {
                    return try write { connection -> CatalogUpsertResult in
                        throw PGCatalog.Preview(result: try PGCatalog.upsert(checked, progress: progress, connection))
                    }
                } catch let preview as PGCatalog.Preview {
                    return preview.result  // thrown out of the transaction, so it rolled back
                }
            },
            allProducts: {
                try read { connection in
                    let names = Dictionary(uniqueKeysWithValues: try connection.query("SELECT id, name FROM categories")
                        .map { (try $0.int64(0), try $0.string(1)) })
                    let rows = try connection.query(PGCatalog.selectProducts + " ORDER BY p.id")
                    return try PGCatalog.products(rows, connection).map { product in
                        StoredProduct(product: product, categoryName: product.categoryID.flatMap { names[$0.rawValue] })
                    }
                }
            },
            findProducts: { query in
                let page = query.pageSQL(isTrue: { $0 })
                return try read { connection in
                    let values = page.values.map(PostgresValue.init)
                    let total = Int(try connection.first(PGCatalog.numbered(page.count), Array(values.dropLast(2)))?.int64(0) ?? 0)
                    let rows = try connection.query(PGCatalog.numbered(page.sql), values).map { try CatalogListQuery.row($0) }
                    return CatalogListPage(rows: rows, total: total)
                }
            },
            storedProduct: { id in
                try read { connection in try PGCatalog.storedProduct(id: id.rawValue, connection) }
            }
        )
    }
}

/// PostgreSQL array literals, bound as one text parameter (`$1::bigint[]`, `$1::text[]`).
enum PostgresArray {
    static func integers(_ values: [Int64]) -> PostgresValue {
        .text("{" + values.map(String.init).joined(separator: ",") + "}")
    }

    static func texts(_ values: some Sequence<String>) -> PostgresValue {
        .text("{" + values.map { value in
            "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }.joined(separator: ",") + "}")
    }
}

/// The SQL behind `CatalogStore.postgres`.
enum PGCatalog {
    /// `pg_advisory_xact_lock`'s first key for catalog writers: "Cata" in ASCII (the second is
    /// the schema's hash, as for migrations).
    static let writersLockKey: Int64 = 0x4361_7461

    static let selectProducts = "SELECT \(StoredCatalog.productColumns) FROM products p"

    static func category(_ row: PostgresRow) throws -> Category {
        Category(id: Category.ID(try row.int64(0)), handle: try row.string(1), name: try row.string(2))
    }

    /// PostgreSQL's way with the conditions of `ProductQueryConditions`.
    static let dialect = SQLDialect(
        isTrue: { $0 }, isAmongIDs: { "\($0) = ANY(?::bigint[])" },
        ids: { .text("{" + $0.map(String.init).joined(separator: ",") + "}") },
        searchable: { "\($0).visibility IN ('visible', 'search')" })

    /// The condition "listed" (`CatalogVisibility.isListed`) on products aliased `alias`.
    static func listed(_ alias: String) -> String { dialect.listed(alias) }

    /// `sql` with each `?` replaced by `$1`, `$2`, … in order: the page's statements are built
    /// from conditions written with `?` (the catalog's SQL holds no other `?`).
    static func numbered(_ sql: String) -> String {
        var result = ""
        result.reserveCapacity(sql.utf8.count + 16)
        var number = 0
        for character in sql {
            if character == "?" {
                number += 1
                result += "$\(number)"
            } else {
                result.append(character)
            }
        }
        return result
    }

    // MARK: Reading

    /// A page of `query` inside the caller's read transaction: the page, its count and (when
    /// asked) the facets — the statements of `SQLCatalog.page`, in PostgreSQL's dialect.
    /// The catalog version as this connection's transaction sees it.
    static func catalogVersion(_ connection: PostgresConnection) throws -> Int64 {
        try connection.first("SELECT version FROM catalog_state WHERE id = 1")?.int64(0) ?? 0
    }

    /// The version a listing's kept answers are valid for: the catalog version less the bumps
    /// of holds (PostgreSQL migration 34; `SQLCatalog.listingVersion`).
    static func listingVersion(_ connection: PostgresConnection) throws -> Int64 {
        try connection.first("SELECT version - holds FROM catalog_state WHERE id = 1")?.int64(0) ?? 0
    }

    static func page(_ query: ProductQuery, currency: Currency, searchCountLimit: Int, memos: CatalogListingMemos<PostgresValue>,
                     _ connection: PostgresConnection) throws -> ProductPage {
        let search = query.searchTerms.isEmpty ? nil : try PostgresSearch.terms(query, connection)
        // Without a search, a listing's ids, facets and tags are kept per catalog version
        // (`CatalogListingMemos`), read once in this transaction; a search's are not (no version).
        let version = search == nil ? try listingVersion(connection) : nil
        let from = search == nil ? "products p" : "product_search s JOIN products p ON p.id = s.product_id"
        let conditions = ProductQueryConditions(query, isSearch: search != nil, dialect: PGCatalog.dialect)
        func split(_ parts: [ProductQueryConditions.Part]) -> ([String], [PostgresValue]) {
            (parts.map(\.sql), parts.flatMap(\.values).map(PostgresValue.init))
        }
        let (scope, scopeValues) = split(conditions.scope)
        let (filter, filterValues) = split(conditions.filter)
        let match = search.map { PostgresSearch.condition($0.all) }
        func matching(_ conditions: [String], _ values: [PostgresValue]) -> (sql: String, values: [PostgresValue]) {
            guard let match else { return (conditions.joined(separator: " AND "), values) }
            return (([match.sql] + conditions).joined(separator: " AND "), match.values + values)
        }
        // A search looks at its first `searchCountLimit` matches (+ 1), by id as SQLite's FTS5 gives them.
        let scanLimit: PostgresValue? = search.map { _ in PostgresValue(searchCountLimit + 1) }

        let ids: [Int64]
        if let search, query.sort == .relevance {
            ids = try relevancePage(search, from: from, filter, filterValues, offset: query.offset, limit: query.limit,
                                    connection)
        } else {
            // SQLite orders NULL below every value; PostgreSQL must be told.
            let order: String = switch query.sort {
            case .relevance, .featured: "p.id"
            case .priceAscending: "p.min_price_minor ASC NULLS FIRST, p.id"
            case .priceDescending: "p.min_price_minor DESC NULLS LAST, p.id"
            case .newest: "p.published_at DESC NULLS LAST, p.id"
            case .rating: "p.rating_hundredths DESC NULLS LAST, p.rating_count DESC, p.id"
            case .name:  // COLLATE "C" columns: UTF-8 bytes
                switch query.locale {
                case .english: "p.sort_title, p.id"
                case .turkish: "p.sort_title_tr, p.id"
                case .spanish: "p.sort_title_es, p.id"
                }
            }
            let page = matching(filter, filterValues)
            let listing = "SELECT p.id FROM \(from) WHERE \(page.sql) ORDER BY \(order)"
            ids = try memos.pageIDs(at: version, .init(listing, page.values), offset: query.offset, limit: query.limit) { all in
                try connection.query(numbered(listing + " LIMIT ?"), page.values + [PostgresValue(all)]).map { try $0.int64(0) }
            } page: {
                try connection.query(numbered(listing + " LIMIT ? OFFSET ?"),
                                     page.values + [PostgresValue(query.limit), PostgresValue(query.offset)])
                    .map { try $0.int64(0) }
            }
        }
        let rowsByID = try Dictionary(
            connection.query(selectProducts + " WHERE p.id = ANY($1::bigint[])", [PostgresArray.integers(ids)])
                .map { (try $0.int64(0), $0) },
            uniquingKeysWith: { first, _ in first })
        let rows = ids.compactMap { rowsByID[$0] }

        func count(_ conditions: [String], _ values: [PostgresValue]) throws -> Int {
            let counted = matching(conditions, values)
            guard let scanLimit else {
                return try connection.first(numbered("SELECT count(*) FROM \(from) WHERE \(counted.sql)"), counted.values)?
                    .int(0) ?? 0
            }
            return try connection.first(numbered("SELECT count(*) FROM (SELECT 1 FROM \(from) WHERE \(counted.sql) LIMIT ?) m"),
                                        counted.values + [scanLimit])?.int(0) ?? 0
        }
        var vendors: [String] = []
        var tags: [String] = []
        var facets: ProductFacets?
        var total: Int
        var isSampled = false
        if query.includesFacets {
            let (facetBase, facetBaseValues) = split(conditions.facetBase)
            let counted = try productFacets(from: from, where: matching(facetBase, facetBaseValues), limit: scanLimit,
                                            conditions.facetColumns, FacetTally(query, currency: currency), memos: memos,
                                            version: version, connection)
            let sampledIDs = counted.sampledIDs
            isSampled = counted.tally.scanned > searchCountLimit && scanLimit != nil
            facets = counted.tally.facets
            total = isSampled && conditions.hasFacetFilters ? try count(filter, filterValues) : counted.tally.total
            vendors = counted.tally.facets.vendors.map(\.value)
            let listed = matching(scope, scopeValues)
            let tagSource: (sql: String, values: [PostgresValue])
            if scanLimit != nil && query.tag == nil && !conditions.hasFacetFilters {
                let ids = isSampled ? Array(sampledIDs.prefix(FacetTally.tagSampleSize)) : sampledIDs
                tagSource = ("product_tags t WHERE t.product_id = ANY(?::bigint[])", [PostgresArray.integers(ids)])
            } else if let scanLimit {
                tagSource = ("(SELECT p.id FROM \(from) WHERE \(listed.sql) ORDER BY p.id LIMIT ?) p JOIN product_tags t ON t.product_id = p.id",
                             listed.values + [scanLimit])
            } else {
                tagSource = ("\(from) JOIN product_tags t ON t.product_id = p.id WHERE \(listed.sql)", listed.values)
            }
            // The tags of the most products (`ProductPage.tags`), then in spelling order.
            let tagSQL = numbered("""
                SELECT spelling FROM (SELECT min(t.tag) AS spelling, count(*) AS uses FROM \(tagSource.sql)
                                      GROUP BY t.tag_key ORDER BY uses DESC, spelling LIMIT \(ProductPage.facetLimit)) AS kept
                ORDER BY spelling
                """)
            tags = try memos.tags.answer(at: version, .init(tagSQL, tagSource.values)) {
                try connection.query(tagSQL, tagSource.values).map { try $0.string(0) }
            }
        } else {
            total = try count(filter, filterValues)
        }
        let isCapped = scanLimit != nil && total > searchCountLimit
        if isCapped { total = searchCountLimit }
        let suggestion = try search.flatMap { total == 0 ? try PostgresSearch.suggestion($0, connection) : nil }
        return ProductPage(products: try products(rows, connection), totalCount: total, vendors: vendors, tags: tags,
                           suggestion: suggestion, facets: facets, totalCountIsCapped: isCapped, facetsAreSampled: isSampled)
    }

    /// A relevance page: the tiers of `SearchTerms.relevanceTiers` in turn, each the products it
    /// matches that no earlier tier gave, by id, only as far as the page reaches.
    static func relevancePage(_ search: SearchTerms, from: String, _ conditions: [String], _ values: [PostgresValue],
                              offset: Int, limit: Int, _ connection: PostgresConnection) throws -> [Int64] {
        let wanted = offset + limit
        var found: [Int64] = []
        for tier in search.relevanceTiers where found.count < wanted {
            let match = PostgresSearch.condition(tier)
            let sql = ([match.sql] + conditions + ["NOT (p.id = ANY(?::bigint[]))"]).joined(separator: " AND ")
            found += try connection.query(numbered("SELECT p.id FROM \(from) WHERE \(sql) ORDER BY p.id LIMIT ?"),
                                          match.values + values + [PostgresArray.integers(found), PostgresValue(wanted - found.count)])
                .map { try $0.int64(0) }
        }
        return Array(found.dropFirst(offset))
    }

    /// Groups the products matching `condition` for `tally` (`FacetTally`); limited, the first
    /// `limit` by id one row each, whose ids it returns.
    static func productFacets(from: String, where condition: (sql: String, values: [PostgresValue]), limit: PostgresValue?,
                              _ columns: ProductQueryConditions.Part, _ tally: FacetTally, memos: CatalogListingMemos<PostgresValue>,
                              version: Int64?, _ connection: PostgresConnection) throws -> (tally: FacetTally.Counted, sampledIDs: [Int64]) {
        let bands = tally.bands
        let bandCase = "CASE WHEN p.min_price_minor IS NULL THEN -1 "
            + bands.indices.reversed().map { "WHEN p.min_price_minor >= \(bands[$0].lowerMinor) THEN \($0) " }.joined()
            + "ELSE 0 END"
        let sql = limit == nil ? """
            SELECT p.category_id, p.vendor, \(bandCase), \(columns.sql), count(*) FROM \(from)
            WHERE \(condition.sql) GROUP BY 1, 2, 3, 4, 5
            """ : """
            SELECT p.category_id, p.vendor, \(bandCase), \(columns.sql), 1, p.id FROM \(from)
            WHERE \(condition.sql) ORDER BY p.id LIMIT ?
            """
        let values = columns.values.map(PostgresValue.init) + condition.values + (limit.map { [$0] } ?? [])
        var sampledIDs: [Int64] = []
        // A limited statement reads a search's matches: never kept.
        let counted = try memos.facets(at: limit == nil ? version : nil, .init(sql, values), tally) {
            try connection.query(numbered(sql), values).map { row in
                if limit != nil { sampledIDs.append(try row.int64(6)) }
                return FacetTally.Group(categoryID: try row.optionalInt64(0), vendor: try row.string(1), band: try row.int(2),
                                        isInBand: try row.bool(3), isAvailable: try row.bool(4), count: try row.int(5))
            }
        } categories: { ids in
            try connection.query("SELECT id, handle, name FROM categories WHERE id = ANY($1::bigint[]) ORDER BY name, id",
                                 [PostgresArray.integers(ids)]).map(category)
        }
        return (counted, sampledIDs)
    }

    /// Products from `selectProducts` rows, in row order, with their variants and images.
    static func products(_ rows: [PostgresRow], _ connection: PostgresConnection) throws -> [Product] {
        guard !rows.isEmpty else { return [] }
        let ids = PostgresArray.integers(try rows.map { try $0.int64(0) })
        do {
            var variantsByProduct: [Int64: [Variant]] = [:]
            var currencies: [String: Currency] = [:]
            for row in try connection.query("""
                SELECT \(StoredCatalog.variantColumns) FROM variants
                WHERE product_id = ANY($1::bigint[]) ORDER BY product_id, position
                """, [ids]) {
                let (productID, variant) = try StoredCatalog.variant(row, currencies: &currencies)
                variantsByProduct[productID, default: []].append(variant)
            }
            var imagesByProduct: [Int64: [ProductImage]] = [:]
            for row in try connection.query("""
                SELECT \(StoredCatalog.imageColumns) FROM product_images
                WHERE product_id = ANY($1::bigint[]) ORDER BY product_id, position
                """, [ids]) {
                let (productID, image) = try StoredCatalog.image(row)
                imagesByProduct[productID, default: []].append(image)
            }
            return try rows.map { row in
                let id = try row.int64(0)
                return try StoredCatalog.product(row, images: imagesByProduct[id] ?? [], variants: variantsByProduct[id] ?? [])
            }
        } catch let corrupt as StoredCatalog.CorruptValue {
            throw PostgresStoreError.corruptValue(table: corrupt.table, column: corrupt.column, rowID: corrupt.rowID)
        }
    }

    /// The product with this id, published or not, with its category's name.
    static func storedProduct(id: Int64, _ connection: PostgresConnection) throws -> StoredProduct? {
        try storedProduct(connection.query(selectProducts + " WHERE p.id = $1", [.integer(id)]), connection)
    }

    /// The product with this handle, which the caller's transaction has just written.
    static func storedProduct(handle: String, _ connection: PostgresConnection) throws -> StoredProduct {
        guard let stored = try storedProduct(connection.query(selectProducts + " WHERE p.handle = $1", [.text(handle)]),
                                             connection) else {
            throw PostgresStoreError.corruptValue(table: "products", column: "handle", rowID: 0)  // unreachable
        }
        return stored
    }

    private static func storedProduct(_ rows: [PostgresRow], _ connection: PostgresConnection) throws -> StoredProduct? {
        guard let product = try products(rows, connection).first else { return nil }
        let name = try product.categoryID.flatMap { categoryID in
            try connection.first("SELECT name FROM categories WHERE id = $1", [.integer(categoryID.rawValue)])?.string(0)
        }
        return StoredProduct(product: product, categoryName: name)
    }

    // MARK: Writing

    /// A preview's result, thrown out of its transaction so that the transaction rolls back.
    struct Preview: Error {
        var result: CatalogUpsertResult
    }

    /// Writes checked drafts inside the caller's transaction (any error rolls it all back), as
    /// `SQLCatalog.upsert` does: each draft updates `CatalogUpsertRules.targets(…)`'s product (by
    /// handle, else by its SKUs, decided for every draft before any is written), whose values the
    /// fields its file does not carry keep (`CatalogUpsertRules.keepingUncarried`); a product its
    /// draft leaves unchanged is not written. The
    /// variants' triggers keep each product's price and availability; migration 2's triggers
    /// bump the version once.
    static func upsert(_ checked: CheckedDrafts, allowsTakeOver: Bool = true, audit: ProductAudit.Context? = nil,
                       progress: UpsertProgress? = nil,
                       _ connection: PostgresConnection) throws -> CatalogUpsertResult {
        let recorder = audit.map { ProductAudit.Recorder($0) { try PGAudit.insert($0, connection) } }
        let stemmer = ProductSearchStemmer()
        var result = CatalogUpsertResult()
        // Each draft's product, decided for all of them against the catalog as it is before
        // anything is written (`CatalogUpsertRules.targets`), as `SQLCatalog.upsert` does.
        var idByHandle: [String: Product.ID] = [:]
        for row in try connection.query("SELECT handle, id FROM products WHERE handle = ANY($1::text[])",
                                        [PostgresArray.texts(checked.drafts.map(\.handle))]) {
            idByHandle[try row.string(0)] = Product.ID(try row.int64(1))
        }
        let handleMatches = checked.drafts.map { idByHandle[$0.handle] }
        let owners = try connection.query("""
            SELECT v.product_id, p.handle, v.sku FROM variants v JOIN products p ON p.id = v.product_id
            WHERE v.product_id IN (SELECT product_id FROM variants WHERE sku_key = ANY($1::text[]))
            ORDER BY v.product_id, v.position
            """, [PostgresArray.texts(checked.drafts.flatMap { $0.variants.compactMap { SKUIdentity.key($0.sku) } })])
            .map { row in
                CatalogUpsertRules.SKUOwner(productID: Product.ID(try row.int64(0)), handle: try row.string(1),
                                            sku: try row.optionalString(2))
            }
        let targets = try CatalogUpsertRules.targets(for: checked.drafts, handleMatches: handleMatches, skuOwners: owners,
                                                     allowsTakeOver: allowsTakeOver)
        var categories: [String: (id: Int64, name: String)] = [:]
        var foldedCategories: [String: FoldedCategoryName] = [:]
        var addedWords: Set<String> = []
        let preparer = DraftPreparer(checked.drafts, progress: progress)
        defer { preparer.stop() }
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
            var prepared = try preparer.take(index)
            var target = stored
            if let id = targets[index], id != handleMatch {
                target = try storedProduct(id: id.rawValue, connection)
                draft = try CatalogUpsertRules.keepingUncarried(fileDraft, from: target)
            }
            prepared = prepared.refolded(for: draft, stemmer: stemmer)
            let category = try category(handle: prepared.categoryHandle, name: draft.categoryName, known: &categories,
                                        connection, &result)
            let productValues: [PostgresValue] = [
                .text(draft.title), .text(draft.descriptionHTML), .text(draft.descriptionText), .text(draft.vendor),
                .text(draft.productType), PostgresValue(category?.id), .text(JSONStringArray.encode(draft.tags)),
                PostgresValue(draft.publishedAt.map(StoredTime.unixSeconds)), .bool(draft.isPublished),
                PostgresValue(draft.rating?.rateHundredths), PostgresValue(draft.rating?.count ?? 0),
                .text(JSONStringArray.encode(draft.optionNames)), .text(prepared.sortTitle),
                .text(prepared.sortTitleTurkish), .text(prepared.sortTitleSpanish), .text(draft.visibility.rawValue),
                .text(draft.handle),
            ]
            let productID: Int64
            if let target {
                productID = target.product.id.rawValue
                try connection.run("""
                    UPDATE products SET title = $1, description_html = $2, description_text = $3, vendor = $4,
                        product_type = $5, category_id = $6, tags = $7, published_at = $8, is_published = $9,
                        rating_hundredths = $10, rating_count = $11, option_names = $12, sort_title = $13,
                        sort_title_tr = $14, sort_title_es = $15, visibility = $16, handle = $17
                    WHERE id = $18
                    """, productValues + [.integer(productID)])
                result.productsUpdated += 1
                let previousHandle = target.product.handle
                result.products.append(.init(handle: draft.handle, change: .updated,
                                             previousHandle: previousHandle == draft.handle ? nil : previousHandle))
            } else {
                productID = try connection.first("""
                    INSERT INTO products (title, description_html, description_text, vendor, product_type, category_id,
                        tags, published_at, is_published, rating_hundredths, rating_count, option_names, sort_title,
                        sort_title_tr, sort_title_es, visibility, handle)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) RETURNING id
                    """, productValues)?.int64(0) ?? 0
                result.productsCreated += 1
                result.products.append(.init(handle: draft.handle, change: .created))
            }
            let isNew = target == nil
            if let recorder {
                var written = draft
                written.categoryName = category?.name  // the stored category's own spelling
                try recorder.record(replacing: target, with: written)
            }
            try upsertVariants(of: draft, productID: productID, storedVariants: target?.product.variants ?? [],
                               isNew: isNew, connection, &result)
            if !isNew {
                try connection.run("DELETE FROM product_images WHERE product_id = $1", [.integer(productID)])
            }
            for (position, image) in draft.images.enumerated() {
                try connection.run("""
                    INSERT INTO product_images (product_id, position, url, alt, width, height, has_alpha)
                    VALUES ($1, $2, $3, $4, $5, $6, $7)
                    """, [.integer(productID), PostgresValue(position), .text(image.url), .text(image.altText),
                          PostgresValue(image.width), PostgresValue(image.height), .bool(image.hasAlpha)])
            }
            result.imagesStored += draft.images.count

            let categoryName = category?.name ?? ""
            if foldedCategories[categoryName] == nil {
                foldedCategories[categoryName] = FoldedCategoryName(categoryName, stemmer: stemmer)
            }
            let folded = foldedCategories[categoryName]!
            try PostgresSearch.index(productID: productID, documents: folded.documents(of: prepared),
                                     newWords: prepared.vocabulary.union(folded.words).subtracting(addedWords),
                                     tags: draft.tags, tagKeys: prepared.tagKeys, replacing: !isNew, connection)
            addedWords.formUnion(prepared.vocabulary)
            addedWords.formUnion(folded.words)
        }
        try recorder?.finish()
        return result
    }

    /// The id and stored name of the draft's category, created when new; nil without one.
    private static func category(handle: String?, name: String?, known: inout [String: (id: Int64, name: String)],
                                 _ connection: PostgresConnection,
                                 _ result: inout CatalogUpsertResult) throws -> (id: Int64, name: String)? {
        guard let handle, let name else { return nil }
        if let category = known[handle] { return category }
        if let row = try connection.first("SELECT id, name FROM categories WHERE handle = $1", [.text(handle)]) {
            known[handle] = (try row.int64(0), try row.string(1))
            return known[handle]
        }
        let trimmed = name.trimmedOfWhiteSpace
        let id = try connection.first("INSERT INTO categories (handle, name) VALUES ($1, $2) RETURNING id",
                                      [.text(handle), .text(trimmed)])?.int64(0) ?? 0
        result.categoriesCreated += 1
        known[handle] = (id, trimmed)
        return known[handle]
    }

    private static func upsertVariants(of draft: ProductDraft, productID: Int64, storedVariants: [Variant], isNew: Bool,
                                       _ connection: PostgresConnection, _ result: inout CatalogUpsertResult) throws {
        let stored = isNew ? [] : try connection.query("SELECT id, sku, option_key FROM variants WHERE product_id = $1",
                                                       [.integer(productID)]).map { row in
            CatalogUpsertRules.StoredVariant(id: Variant.ID(try row.int64(0)), sku: try row.optionalString(1),
                                             optionKey: try row.string(2))
        }
        let matches = CatalogUpsertRules.matchVariants(existing: stored, drafts: draft.variants)
        let kept = Set(matches.compactMap { $0 })
        for variant in stored where !kept.contains(variant.id) {
            try connection.run("DELETE FROM variants WHERE id = $1", [.integer(variant.id.rawValue)])
        }
        // Park changing option keys (U+001E never occurs in a real key), and clear the product's
        // SKU keys, so the unique indexes hold after every statement while values move around.
        let storedKeys = Dictionary(uniqueKeysWithValues: stored.map { ($0.id, $0.optionKey) })
        for (variantDraft, match) in zip(draft.variants, matches) {
            if let match, storedKeys[match] != CatalogUpsertRules.optionKey(variantDraft.optionValues) {
                try connection.run("UPDATE variants SET option_key = chr(30) || id::text WHERE id = $1", [.integer(match.rawValue)])
            }
        }
        if !isNew {
            try connection.run("UPDATE variants SET sku_key = NULL WHERE product_id = $1", [.integer(productID)])
        }
        let columns = StoredCatalog.variantWriteColumns
        let update = "UPDATE variants SET "
            + columns.enumerated().map { "\($1) = $\($0 + 1)" }.joined(separator: ", ")
            + " WHERE id = $\(columns.count + 1)"
        let insert = "INSERT INTO variants (" + columns.joined(separator: ", ") + ", product_id) VALUES ("
            + (1...columns.count + 1).map { "$\($0)" }.joined(separator: ", ") + ")"
        for (position, (variantDraft, match)) in zip(draft.variants, matches).enumerated() {
            guard let match else { continue }
            try connection.run(update, StoredCatalog.variantValues(variantDraft, position: position).map(PostgresValue.init)
                               + [.integer(match.rawValue)])
            let before = storedVariants.firstIndex { $0.id == match }
            if before != position || !CatalogUpsertRules.leavesUnchanged(storedVariants[before!], variantDraft) {
                result.variantsUpdated += 1
            }
        }
        for (position, (variantDraft, match)) in zip(draft.variants, matches).enumerated() where match == nil {
            try connection.run(insert, StoredCatalog.variantValues(variantDraft, position: position).map(PostgresValue.init)
                               + [.integer(productID)])
            result.variantsCreated += 1
        }
    }
}

/// A create's form key was kept by another create that committed first (`insertProduct`).
private struct CreationKeyTaken: Error {}

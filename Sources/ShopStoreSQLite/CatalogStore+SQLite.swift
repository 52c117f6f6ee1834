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
    public static func sqlite(_ database: SQLiteDatabase, currency: Currency = .usd) -> CatalogStore {
        CatalogStore(
            categories: {
                try database.withConnection { connection in
                    try connection.prepare("""
                        SELECT c.id, c.handle, c.name, count(*),
                          (SELECT i.url FROM products p2 JOIN product_images i ON i.product_id = p2.id
                           WHERE p2.category_id = c.id AND p2.is_published = 1
                           ORDER BY p2.id, i.position LIMIT 1)
                        FROM categories c
                        JOIN products p ON p.category_id = c.id AND p.is_published = 1
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
                    try connection.transaction(.deferred) { try SQLCatalog.page(query, connection) }
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
            upsert: { drafts in
                try database.withConnection { connection in
                    try connection.transaction { try SQLCatalog.upsert(drafts, currency: currency, connection) }
                }
            },
            productCount: {
                try database.withConnection { connection in
                    try connection.prepare("SELECT count(*) FROM products").first()?.int(0) ?? 0
                }
            },
            version: {
                try database.withConnection { connection in
                    try connection.prepare("SELECT version FROM catalog_state WHERE id = 1").first([])?.int64(0) ?? 0
                }
            }
        )
    }
}

/// The SQL behind `CatalogStore.sqlite`.
enum SQLCatalog {
    static let selectProducts = """
        SELECT id, handle, title, description_html, description_text, vendor, product_type, category_id,
               tags, published_at, is_published, rating_hundredths, rating_count, option_names
        FROM products
        """

    static func category(_ row: Row) throws -> Category {
        Category(id: Category.ID(try row.int64(0)), handle: try row.string(1), name: try row.string(2))
    }

    static func jsonIDs(_ ids: [Int64]) -> SQLValue {
        .text("[" + ids.map(String.init).joined(separator: ",") + "]")
    }

    // MARK: Reading

    static func page(_ query: ProductQuery, _ connection: Connection) throws -> ProductPage {
        let filter = query.categoryID == nil ? "is_published = 1" : "is_published = 1 AND category_id = ?"
        let order = switch query.sort {
        case .featured: "id"
        case .rating: "rating_hundredths DESC, rating_count DESC, id"  // NULL sorts last in DESC
        }
        let filterValues: [SQLValue] = query.categoryID.map { [.integer($0.rawValue)] } ?? []
        let rows = try connection.prepare("\(selectProducts) WHERE \(filter) ORDER BY \(order) LIMIT ? OFFSET ?")
            .query(filterValues + [SQLValue(query.limit), SQLValue(query.offset)])
        let total = try connection.prepare("SELECT count(*) FROM products WHERE \(filter)").first(filterValues)?.int(0) ?? 0
        return ProductPage(products: try products(rows, connection), totalCount: total)
    }

    /// Products from `selectProducts` rows, in row order, with their variants and images
    /// (one query each for all of them).
    static func products(_ rows: [Row], _ connection: Connection) throws -> [Product] {
        guard !rows.isEmpty else { return [] }
        let ids = try rows.map { try $0.int64(0) }
        let idList = jsonIDs(ids)

        var variantsByProduct: [Int64: [Variant]] = [:]
        var currencies: [String: Currency] = [:]
        for row in try connection.prepare("""
            SELECT id, product_id, sku, option_values, price_minor, compare_at_minor, currency,
                   inventory_tracked, stock, allow_backorder
            FROM variants WHERE product_id IN (SELECT value FROM json_each(?)) ORDER BY product_id, position
            """).query([idList]) {
            let id = try row.int64(0)
            let code = try row.string(6)
            let currency: Currency
            if let cached = currencies[code] {
                currency = cached
            } else {
                guard let parsed = try? Currency(code: code) else {
                    throw SQLiteStoreError.corruptValue(table: "variants", column: "currency", rowID: id)
                }
                currencies[code] = parsed
                currency = parsed
            }
            guard let optionValues = JSONStringArray.decode(try row.string(3)) else {
                throw SQLiteStoreError.corruptValue(table: "variants", column: "option_values", rowID: id)
            }
            let inventory: Inventory = try row.bool(7)
                ? .tracked(quantity: try row.int(8), allowsBackorder: try row.bool(9))
                : .untracked
            variantsByProduct[try row.int64(1), default: []].append(Variant(
                id: Variant.ID(id), sku: try row.optionalString(2), optionValues: optionValues,
                price: Money(minorUnits: try row.int64(4), currency: currency),
                compareAtPrice: try row.optionalInt64(5).map { Money(minorUnits: $0, currency: currency) },
                inventory: inventory))
        }

        var imagesByProduct: [Int64: [ProductImage]] = [:]
        for row in try connection.prepare("""
            SELECT product_id, url, alt FROM product_images
            WHERE product_id IN (SELECT value FROM json_each(?)) ORDER BY product_id, position
            """).query([idList]) {
            imagesByProduct[try row.int64(0), default: []]
                .append(ProductImage(url: try row.string(1), altText: try row.string(2)))
        }

        return try rows.map { row in
            let id = try row.int64(0)
            guard let tags = JSONStringArray.decode(try row.string(8)) else {
                throw SQLiteStoreError.corruptValue(table: "products", column: "tags", rowID: id)
            }
            guard let optionNames = JSONStringArray.decode(try row.string(13)) else {
                throw SQLiteStoreError.corruptValue(table: "products", column: "option_names", rowID: id)
            }
            let rating = try row.optionalInt(11).map { Rating(rateHundredths: $0, count: try row.int(12)) }
            return Product(
                id: Product.ID(id), handle: try row.string(1), title: try row.string(2),
                descriptionHTML: try row.string(3), descriptionText: try row.string(4), vendor: try row.string(5),
                productType: try row.string(6), categoryID: try row.optionalInt64(7).map { Category.ID($0) },
                tags: tags, publishedAt: try row.optionalInt64(9).map { StoredTime.date(unixSeconds: $0) },
                isPublished: try row.bool(10), images: imagesByProduct[id] ?? [], rating: rating,
                optionNames: optionNames, variants: variantsByProduct[id] ?? [])
        }
    }

    // MARK: Writing

    /// Upserts inside the caller's transaction; throws on the first bad draft (the caller's
    /// transaction then rolls everything back).
    static func upsert(_ drafts: [ProductDraft], currency: Currency, _ connection: Connection) throws -> CatalogUpsertResult {
        var result = CatalogUpsertResult()
        var firstLineByHandle: [String: Int] = [:]
        for draft in drafts {
            if let firstLine = firstLineByHandle[draft.handle] {
                throw CatalogStoreError.duplicateHandle(draft.handle, firstLine: firstLine, line: draft.sourceLine)
            }
            firstLineByHandle[draft.handle] = draft.sourceLine
            try CatalogUpsertRules.check(draft, currency: currency)

            let categoryID = try categoryID(for: draft.categoryName, connection, &result)
            let productValues: [SQLValue] = [
                .text(draft.title), .text(draft.descriptionHTML), .text(draft.descriptionText), .text(draft.vendor),
                .text(draft.productType), SQLValue(categoryID), .text(JSONStringArray.encode(draft.tags)),
                SQLValue(draft.publishedAt.map(StoredTime.unixSeconds)), SQLValue(draft.isPublished),
                SQLValue(draft.rating?.rateHundredths), SQLValue(draft.rating?.count ?? 0),
                .text(JSONStringArray.encode(draft.optionNames)),
            ]
            let productID: Int64
            if let existing = try connection.prepare("SELECT id FROM products WHERE handle = ?").first([.text(draft.handle)]) {
                productID = try existing.int64(0)
                try connection.prepare("""
                    UPDATE products SET title = ?, description_html = ?, description_text = ?, vendor = ?,
                        product_type = ?, category_id = ?, tags = ?, published_at = ?, is_published = ?,
                        rating_hundredths = ?, rating_count = ?, option_names = ?
                    WHERE id = ?
                    """).run(productValues + [.integer(productID)])
                result.productsUpdated += 1
            } else {
                try connection.prepare("""
                    INSERT INTO products (title, description_html, description_text, vendor, product_type, category_id,
                        tags, published_at, is_published, rating_hundredths, rating_count, option_names, handle)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """).run(productValues + [.text(draft.handle)])
                productID = connection.lastInsertRowID
                result.productsCreated += 1
            }

            try upsertVariants(of: draft, productID: productID, connection, &result)

            try connection.prepare("DELETE FROM product_images WHERE product_id = ?").run([.integer(productID)])
            let insertImage = try connection.prepare(
                "INSERT INTO product_images (product_id, position, url, alt) VALUES (?, ?, ?, ?)")
            for (position, image) in draft.images.enumerated() {
                try insertImage.run([.integer(productID), SQLValue(position), .text(image.url), .text(image.altText)])
            }
            result.imagesStored += draft.images.count
        }
        return result
    }

    private static func categoryID(for name: String?, _ connection: Connection,
                                   _ result: inout CatalogUpsertResult) throws -> Int64? {
        guard let handle = CatalogUpsertRules.categoryHandle(for: name), let name else { return nil }
        if let row = try connection.prepare("SELECT id FROM categories WHERE handle = ?").first([.text(handle)]) {
            return try row.int64(0)
        }
        try connection.prepare("INSERT INTO categories (handle, name) VALUES (?, ?)")
            .run([.text(handle), .text(name.trimmingCharacters(in: .whitespacesAndNewlines))])
        result.categoriesCreated += 1
        return connection.lastInsertRowID
    }

    private static func upsertVariants(of draft: ProductDraft, productID: Int64, _ connection: Connection,
                                       _ result: inout CatalogUpsertResult) throws {
        let stored = try connection.prepare("SELECT id, sku, option_key FROM variants WHERE product_id = ?")
            .query([.integer(productID)]).map { row in
                CatalogUpsertRules.StoredVariant(id: Variant.ID(try row.int64(0)), sku: try row.optionalString(1),
                                                 optionKey: try row.string(2))
            }
        let matches = CatalogUpsertRules.matchVariants(existing: stored, drafts: draft.variants)
        let kept = Set(matches.compactMap { $0 })
        let delete = try connection.prepare("DELETE FROM variants WHERE id = ?")
        for variant in stored where !kept.contains(variant.id) {
            try delete.run([.integer(variant.id.rawValue)])  // cart lines go with it (ON DELETE CASCADE)
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
        // Updates first (matched variants), then inserts, so new variants never collide with
        // keys that matched ones are giving up.
        for (position, (variantDraft, match)) in zip(draft.variants, matches).enumerated() {
            guard let match else { continue }
            try connection.prepare("""
                UPDATE variants SET position = ?, sku = ?, option_values = ?, option_key = ?, price_minor = ?,
                    compare_at_minor = ?, currency = ?, inventory_tracked = ?, stock = ?, allow_backorder = ?
                WHERE id = ?
                """).run(variantValues(variantDraft, position: position) + [.integer(match.rawValue)])
            result.variantsUpdated += 1
        }
        for (position, (variantDraft, match)) in zip(draft.variants, matches).enumerated() where match == nil {
            try connection.prepare("""
                INSERT INTO variants (position, sku, option_values, option_key, price_minor, compare_at_minor, currency,
                    inventory_tracked, stock, allow_backorder, product_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).run(variantValues(variantDraft, position: position) + [.integer(productID)])
            result.variantsCreated += 1
        }
    }

    /// Column values for `position … allow_backorder`, in the order the UPDATE and INSERT use.
    private static func variantValues(_ draft: VariantDraft, position: Int) -> [SQLValue] {
        let inventory: (tracked: Bool, stock: Int, backorder: Bool) = switch draft.inventory {
        case .untracked: (false, 0, false)
        case let .tracked(quantity, allowsBackorder): (true, quantity, allowsBackorder)
        }
        return [
            SQLValue(position), SQLValue(draft.sku), .text(JSONStringArray.encode(draft.optionValues)),
            .text(CatalogUpsertRules.optionKey(draft.optionValues)), .integer(draft.price.minorUnits),
            SQLValue(draft.compareAtPrice?.minorUnits), .text(draft.price.currency.code),
            SQLValue(inventory.tracked), SQLValue(inventory.stock), SQLValue(inventory.backorder),
        ]
    }
}

/// The shop's SQLite schema as numbered migrations.
///
/// Conventions: times are Unix seconds (`INTEGER`), money is minor units (`INTEGER`) with an
/// ISO 4217 `currency` column, booleans are 0/1, lists of strings are JSON arrays in `TEXT`
/// (readable with `json_each`).
public enum ShopSchema {
    /// Every migration, in order.
    public static let migrations: [Migration] = [
        Migration(version: 1, sql: """
            CREATE TABLE categories (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                handle TEXT NOT NULL UNIQUE,
                name TEXT NOT NULL
            );

            CREATE TABLE products (
                id INTEGER PRIMARY KEY AUTOINCREMENT,        -- never reused
                handle TEXT NOT NULL UNIQUE,
                title TEXT NOT NULL,
                description_html TEXT NOT NULL DEFAULT '',
                description_text TEXT NOT NULL DEFAULT '',
                vendor TEXT NOT NULL DEFAULT '',
                product_type TEXT NOT NULL DEFAULT '',
                category_id INTEGER REFERENCES categories(id),
                tags TEXT NOT NULL DEFAULT '[]',             -- JSON array of strings
                published_at INTEGER,                        -- Unix seconds
                is_published INTEGER NOT NULL DEFAULT 1 CHECK (is_published IN (0, 1)),
                rating_hundredths INTEGER CHECK (rating_hundredths BETWEEN 0 AND 500),
                rating_count INTEGER NOT NULL DEFAULT 0 CHECK (rating_count >= 0),
                option_names TEXT NOT NULL DEFAULT '[]'      -- JSON array of strings
            );
            CREATE INDEX products_published_category ON products (is_published, category_id, id);
            CREATE INDEX products_published_rating
                ON products (is_published, rating_hundredths DESC, rating_count DESC, id);
            CREATE INDEX products_category_rating
                ON products (category_id, is_published, rating_hundredths DESC, rating_count DESC, id);

            CREATE TABLE product_images (
                product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                url TEXT NOT NULL,
                alt TEXT NOT NULL DEFAULT '',
                PRIMARY KEY (product_id, position)
            ) WITHOUT ROWID;

            CREATE TABLE variants (
                id INTEGER PRIMARY KEY AUTOINCREMENT,        -- never reused: carts refer to it
                product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                sku TEXT,
                option_values TEXT NOT NULL DEFAULT '[]',    -- JSON array, in option-name order
                option_key TEXT NOT NULL,                    -- CatalogUpsertRules.optionKey
                price_minor INTEGER NOT NULL CHECK (price_minor >= 0),
                compare_at_minor INTEGER,
                currency TEXT NOT NULL,
                inventory_tracked INTEGER NOT NULL CHECK (inventory_tracked IN (0, 1)),
                stock INTEGER NOT NULL DEFAULT 0,
                allow_backorder INTEGER NOT NULL DEFAULT 0 CHECK (allow_backorder IN (0, 1)),
                UNIQUE (product_id, option_key)
            );
            CREATE INDEX variants_product_position ON variants (product_id, position);
            CREATE INDEX variants_sku ON variants (sku) WHERE sku IS NOT NULL;

            CREATE TABLE sessions (
                id TEXT PRIMARY KEY,
                created_at INTEGER NOT NULL,                 -- Unix seconds
                last_seen_at INTEGER NOT NULL                -- Unix seconds
            ) WITHOUT ROWID;
            CREATE INDEX sessions_last_seen ON sessions (last_seen_at);

            CREATE TABLE cart_lines (
                session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
                variant_id INTEGER NOT NULL REFERENCES variants(id) ON DELETE CASCADE,
                product_id INTEGER NOT NULL,
                quantity INTEGER NOT NULL CHECK (quantity > 0),
                position INTEGER NOT NULL,
                PRIMARY KEY (session_id, variant_id)
            ) WITHOUT ROWID;
            CREATE INDEX cart_lines_variant ON cart_lines (variant_id);
            """),
        Migration(version: 2, sql: """
            -- A counter every catalog change bumps, whoever writes (server, `shoppable import` in
            -- another process, a stock change), so page caches know when they are stale.
            CREATE TABLE catalog_state (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                version INTEGER NOT NULL
            );
            INSERT INTO catalog_state (id, version) VALUES (1, 1);
            CREATE TRIGGER categories_insert_bumps_catalog_version AFTER INSERT ON categories
            BEGIN UPDATE catalog_state SET version = version + 1 WHERE id = 1; END;
            CREATE TRIGGER categories_update_bumps_catalog_version AFTER UPDATE ON categories
            BEGIN UPDATE catalog_state SET version = version + 1 WHERE id = 1; END;
            CREATE TRIGGER categories_delete_bumps_catalog_version AFTER DELETE ON categories
            BEGIN UPDATE catalog_state SET version = version + 1 WHERE id = 1; END;
            CREATE TRIGGER products_insert_bumps_catalog_version AFTER INSERT ON products
            BEGIN UPDATE catalog_state SET version = version + 1 WHERE id = 1; END;
            CREATE TRIGGER products_update_bumps_catalog_version AFTER UPDATE ON products
            BEGIN UPDATE catalog_state SET version = version + 1 WHERE id = 1; END;
            CREATE TRIGGER products_delete_bumps_catalog_version AFTER DELETE ON products
            BEGIN UPDATE catalog_state SET version = version + 1 WHERE id = 1; END;
            CREATE TRIGGER product_images_insert_bumps_catalog_version AFTER INSERT ON product_images
            BEGIN UPDATE catalog_state SET version = version + 1 WHERE id = 1; END;
            CREATE TRIGGER product_images_update_bumps_catalog_version AFTER UPDATE ON product_images
            BEGIN UPDATE catalog_state SET version = version + 1 WHERE id = 1; END;
            CREATE TRIGGER product_images_delete_bumps_catalog_version AFTER DELETE ON product_images
            BEGIN UPDATE catalog_state SET version = version + 1 WHERE id = 1; END;
            CREATE TRIGGER variants_insert_bumps_catalog_version AFTER INSERT ON variants
            BEGIN UPDATE catalog_state SET version = version + 1 WHERE id = 1; END;
            CREATE TRIGGER variants_update_bumps_catalog_version AFTER UPDATE ON variants
            BEGIN UPDATE catalog_state SET version = version + 1 WHERE id = 1; END;
            CREATE TRIGGER variants_delete_bumps_catalog_version AFTER DELETE ON variants
            BEGIN UPDATE catalog_state SET version = version + 1 WHERE id = 1; END;
            """),
    ]
}

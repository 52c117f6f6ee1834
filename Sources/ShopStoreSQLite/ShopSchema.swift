import ShopStore
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
        Migration(version: 3, sql: """
            -- Accounts (issue #3): users, signed-in sessions, carts and favorites of guests or
            -- accounts, single-use emailed tokens, sign-in failures, and the email outbox.

            CREATE TABLE users (
                id INTEGER PRIMARY KEY AUTOINCREMENT,        -- never reused
                email TEXT NOT NULL COLLATE NOCASE UNIQUE,   -- normalized by the app; unique without ASCII case
                name TEXT NOT NULL,
                password_hash TEXT NOT NULL,                 -- argon2id encoded string
                email_verified_at INTEGER,                   -- Unix seconds; NULL until confirmed
                created_at INTEGER NOT NULL                  -- Unix seconds
            );
            CREATE INDEX users_created ON users (created_at, id);

            -- Sessions gain an account, a CSRF token, a sliding expiry and a cookie kind. SQLite
            -- cannot add NOT NULL columns without defaults, so the tables are rebuilt: the old ones
            -- are renamed (foreign keys follow the rename), copied, then dropped child first so that
            -- no cascade deletes anything. Existing guest sessions and their carts are kept, each
            -- with a fresh random CSRF token and an expiry 30 days after it was last seen.
            ALTER TABLE cart_lines RENAME TO cart_lines_v2;
            ALTER TABLE sessions RENAME TO sessions_v2;

            CREATE TABLE sessions (
                id TEXT PRIMARY KEY,                         -- 32 hex digits
                user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,  -- NULL for a guest
                csrf_token TEXT NOT NULL,
                created_at INTEGER NOT NULL,                 -- Unix seconds
                last_seen_at INTEGER NOT NULL,               -- Unix seconds
                expires_at INTEGER NOT NULL,                 -- Unix seconds
                is_persistent INTEGER NOT NULL DEFAULT 1 CHECK (is_persistent IN (0, 1))
            ) WITHOUT ROWID;

            -- A line belongs to a guest session or to an account: exactly one of the two is set.
            CREATE TABLE cart_lines (
                id INTEGER PRIMARY KEY,
                session_id TEXT REFERENCES sessions(id) ON DELETE CASCADE,
                user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
                variant_id INTEGER NOT NULL REFERENCES variants(id) ON DELETE CASCADE,
                product_id INTEGER NOT NULL,
                quantity INTEGER NOT NULL CHECK (quantity > 0),
                position INTEGER NOT NULL,
                CHECK ((session_id IS NULL) <> (user_id IS NULL))
            );

            INSERT INTO sessions (id, user_id, csrf_token, created_at, last_seen_at, expires_at, is_persistent)
                SELECT id, NULL, lower(hex(randomblob(24))), created_at, last_seen_at, last_seen_at + 30 * 86400, 1
                FROM sessions_v2;
            INSERT INTO cart_lines (session_id, user_id, variant_id, product_id, quantity, position)
                SELECT session_id, NULL, variant_id, product_id, quantity, position FROM cart_lines_v2
                ORDER BY session_id, position;
            DROP TABLE cart_lines_v2;                        -- its indexes go with it
            DROP TABLE sessions_v2;

            CREATE INDEX sessions_user ON sessions (user_id) WHERE user_id IS NOT NULL;
            CREATE INDEX sessions_expires ON sessions (expires_at);
            CREATE UNIQUE INDEX cart_lines_session ON cart_lines (session_id, variant_id) WHERE session_id IS NOT NULL;
            CREATE UNIQUE INDEX cart_lines_user ON cart_lines (user_id, variant_id) WHERE user_id IS NOT NULL;
            CREATE INDEX cart_lines_variant ON cart_lines (variant_id);

            -- A favorite belongs to a guest session or to an account, like a cart line; it goes
            -- when its product is deleted.
            CREATE TABLE favorites (
                id INTEGER PRIMARY KEY,                      -- breaks ties of added_at: later first
                session_id TEXT REFERENCES sessions(id) ON DELETE CASCADE,
                user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
                product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
                added_at INTEGER NOT NULL,                   -- Unix seconds
                CHECK ((session_id IS NULL) <> (user_id IS NULL))
            );
            CREATE UNIQUE INDEX favorites_session ON favorites (session_id, product_id) WHERE session_id IS NOT NULL;
            CREATE UNIQUE INDEX favorites_user ON favorites (user_id, product_id) WHERE user_id IS NOT NULL;
            CREATE INDEX favorites_product ON favorites (product_id);

            -- Single-use emailed tokens, stored as the SHA-256 of the raw token only.
            CREATE TABLE account_tokens (
                id INTEGER PRIMARY KEY,
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                purpose TEXT NOT NULL,                       -- TokenPurpose raw value
                token_hash TEXT NOT NULL UNIQUE,             -- lower-case hex SHA-256
                expires_at INTEGER NOT NULL,                 -- Unix seconds
                used_at INTEGER                              -- Unix seconds; NULL while unused
            );
            CREATE INDEX account_tokens_user_purpose ON account_tokens (user_id, purpose);

            CREATE TABLE sign_in_failures (
                key TEXT NOT NULL,                           -- e.g. 'email:ana@example.com', 'ip:203.0.113.9'
                at INTEGER NOT NULL                          -- Unix seconds
            );
            CREATE INDEX sign_in_failures_key_at ON sign_in_failures (key, at);

            -- Emails queued in the transaction that caused them; a background worker sends them.
            CREATE TABLE outbox (
                id INTEGER PRIMARY KEY AUTOINCREMENT,        -- delivery order; never reused
                to_address TEXT NOT NULL,
                to_name TEXT NOT NULL DEFAULT '',
                subject TEXT NOT NULL,
                text_body TEXT NOT NULL,
                html_body TEXT,
                created_at INTEGER NOT NULL,                 -- Unix seconds
                attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
                next_attempt_at INTEGER NOT NULL,            -- Unix seconds
                sent_at INTEGER,                             -- Unix seconds; NULL until delivered
                last_error TEXT
            );
            CREATE INDEX outbox_due ON outbox (next_attempt_at, id) WHERE sent_at IS NULL;
            """),
        Migration(version: 4, sql: """
            -- Search, sorts and filters (issue #4).

            -- Denormalized from variants for the price sorts and filters and "in stock only".
            -- The triggers below keep them true whoever writes a variant (an import, a stock
            -- change by an order), so no code path has to remember them.
            ALTER TABLE products ADD COLUMN min_price_minor INTEGER;   -- lowest variant price_minor; NULL without variants
            ALTER TABLE products ADD COLUMN is_available INTEGER NOT NULL DEFAULT 0
                CHECK (is_available IN (0, 1));                        -- 1: some variant untracked, backordered or stock > 0
            -- Written by the app: ProductSearchRules.sortTitle(title) (SearchFolding, English rules).
            ALTER TABLE products ADD COLUMN sort_title TEXT NOT NULL DEFAULT '';

            -- Filling derived columns changes nothing shoppers see, so it does not bump
            -- catalog_state.version (the trigger of migration 2 is set aside meanwhile).
            DROP TRIGGER products_update_bumps_catalog_version;
            UPDATE products SET
                min_price_minor = (SELECT min(v.price_minor) FROM variants v WHERE v.product_id = products.id),
                is_available = EXISTS (SELECT 1 FROM variants v WHERE v.product_id = products.id
                                       AND (v.inventory_tracked = 0 OR v.allow_backorder = 1 OR v.stock > 0));
            CREATE TRIGGER products_update_bumps_catalog_version AFTER UPDATE ON products
            BEGIN UPDATE catalog_state SET version = version + 1 WHERE id = 1; END;

            CREATE TRIGGER variants_insert_refreshes_product AFTER INSERT ON variants
            BEGIN
                UPDATE products SET
                    min_price_minor = (SELECT min(v.price_minor) FROM variants v WHERE v.product_id = products.id),
                    is_available = EXISTS (SELECT 1 FROM variants v WHERE v.product_id = products.id
                                           AND (v.inventory_tracked = 0 OR v.allow_backorder = 1 OR v.stock > 0))
                WHERE id = NEW.product_id;
            END;
            CREATE TRIGGER variants_update_refreshes_product
            AFTER UPDATE OF product_id, price_minor, inventory_tracked, stock, allow_backorder ON variants
            BEGIN
                UPDATE products SET
                    min_price_minor = (SELECT min(v.price_minor) FROM variants v WHERE v.product_id = products.id),
                    is_available = EXISTS (SELECT 1 FROM variants v WHERE v.product_id = products.id
                                           AND (v.inventory_tracked = 0 OR v.allow_backorder = 1 OR v.stock > 0))
                WHERE id IN (OLD.product_id, NEW.product_id);
            END;
            CREATE TRIGGER variants_delete_refreshes_product AFTER DELETE ON variants
            BEGIN
                UPDATE products SET
                    min_price_minor = (SELECT min(v.price_minor) FROM variants v WHERE v.product_id = products.id),
                    is_available = EXISTS (SELECT 1 FROM variants v WHERE v.product_id = products.id
                                           AND (v.inventory_tracked = 0 OR v.allow_backorder = 1 OR v.stock > 0))
                WHERE id = OLD.product_id;
            END;

            -- One index per sort, over all products and within a category. Price descending
            -- reads the price index backwards (SQLite sorts only the id ties).
            CREATE INDEX products_published_price ON products (is_published, min_price_minor, id);
            CREATE INDEX products_category_price ON products (category_id, is_published, min_price_minor, id);
            CREATE INDEX products_published_newest ON products (is_published, published_at DESC, id);
            CREATE INDEX products_category_newest ON products (category_id, is_published, published_at DESC, id);
            CREATE INDEX products_published_name ON products (is_published, sort_title, id);
            CREATE INDEX products_category_name ON products (category_id, is_published, sort_title, id);
            CREATE INDEX products_published_vendor ON products (is_published, vendor);
            -- Search joins every FTS5 match to its product: through this narrow covering index
            -- (INDEXED BY) instead of the wide table rows, 14 000 matches cost ~1 ms, not ~8 ms.
            CREATE INDEX products_search_facts ON products (id, is_published, category_id, min_price_minor, is_available,
                rating_hundredths, rating_count, published_at, vendor, sort_title);

            -- Full-text search, rowid = products.id, every product (published or not). The app
            -- writes pre-folded text (ProductSearchDocument: SearchFolding words separated by
            -- spaces) in two rule families, because FTS5's tokenizers cannot fold Turkish I:
            -- title/meta/body with English rules, *_tr with Turkish rules. meta = vendor, tags
            -- and category name. Rewritten with the product on every upsert (which also bumps
            -- catalog_state through the products triggers); a category rename would have to
            -- reindex its products (categories are never renamed today).
            CREATE VIRTUAL TABLE product_search USING fts5(
                title, meta, body, title_tr, meta_tr, body_tr,
                tokenize = 'unicode61 remove_diacritics 0',
                prefix = '1 2 3'
            );
            CREATE TRIGGER products_delete_removes_search AFTER DELETE ON products
            BEGIN DELETE FROM product_search WHERE rowid = OLD.id; END;

            -- Tags one per row for the tag filter and facet; tag_key = ProductSearchRules.tagKey(tag).
            CREATE TABLE product_tags (
                product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
                tag TEXT NOT NULL,
                tag_key TEXT NOT NULL,
                PRIMARY KEY (product_id, tag)
            ) WITHOUT ROWID;
            CREATE INDEX product_tags_key ON product_tags (tag_key, product_id);

            -- The folded columns above need Swift (SearchFolding), so products that exist when
            -- this migration runs are indexed by the app on first use: is_stale = 1 makes the
            -- store rebuild product_search, product_tags and sort_title in one write transaction.
            CREATE TABLE search_index_state (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                is_stale INTEGER NOT NULL CHECK (is_stale IN (0, 1))
            );
            INSERT INTO search_index_state (id, is_stale) VALUES (1, EXISTS (SELECT 1 FROM products));
            """),
        Migration(version: 5, sql: """
            -- Issue #4: campaigns from the merchant's file, cart line selection, a cart's voucher code.

            -- The file is the truth: `shoppable campaigns import` replaces every row in one
            -- transaction. Exactly one of discount_percent / discount_amount is set.
            CREATE TABLE campaigns (
                id TEXT PRIMARY KEY,                         -- the file's id, e.g. 'winter-sale'
                title TEXT NOT NULL,
                description TEXT NOT NULL DEFAULT '',
                image_url TEXT,
                starts_at INTEGER NOT NULL,                  -- Unix seconds, inclusive
                ends_at INTEGER NOT NULL,                    -- Unix seconds, exclusive
                discount_percent INTEGER CHECK (discount_percent BETWEEN 1 AND 100),
                discount_amount INTEGER CHECK (discount_amount > 0),      -- minor units
                discount_currency TEXT,                      -- ISO 4217, with discount_amount
                target TEXT NOT NULL CHECK (target IN ('cart', 'category', 'products')),
                target_category TEXT,                        -- category handle, for 'category'
                target_products TEXT,                        -- JSON array of product handles, for 'products'
                minimum_subtotal INTEGER CHECK (minimum_subtotal > 0),    -- minor units
                minimum_currency TEXT,                       -- ISO 4217, with minimum_subtotal
                voucher_code TEXT UNIQUE,                    -- upper case (VoucherCode.normalized)
                usage_limit_per_account INTEGER CHECK (usage_limit_per_account >= 1),
                CHECK (ends_at > starts_at),
                CHECK ((discount_percent IS NULL) <> (discount_amount IS NULL)),
                CHECK ((discount_amount IS NULL) = (discount_currency IS NULL)),
                CHECK ((minimum_subtotal IS NULL) = (minimum_currency IS NULL)),
                CHECK ((target = 'category') = (target_category IS NOT NULL)),
                CHECK ((target = 'products') = (target_products IS NOT NULL))
            );                                               -- rowid kept: error messages name it
            CREATE INDEX campaigns_starts ON campaigns (starts_at, id);

            -- Bumped by every replace that changes something (page caches compare it).
            CREATE TABLE campaign_state (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                version INTEGER NOT NULL
            );
            INSERT INTO campaign_state (id, version) VALUES (1, 1);

            -- Per-line selection: existing lines stay ticked.
            ALTER TABLE cart_lines ADD COLUMN selected INTEGER NOT NULL DEFAULT 1 CHECK (selected IN (0, 1));

            -- The voucher code a shopper entered, owned like cart lines: a guest session or an account.
            CREATE TABLE cart_vouchers (
                id INTEGER PRIMARY KEY,
                session_id TEXT REFERENCES sessions(id) ON DELETE CASCADE,
                user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
                code TEXT NOT NULL,                          -- upper case (VoucherCode.normalized)
                CHECK ((session_id IS NULL) <> (user_id IS NULL))
            );
            CREATE UNIQUE INDEX cart_vouchers_session ON cart_vouchers (session_id) WHERE session_id IS NOT NULL;
            CREATE UNIQUE INDEX cart_vouchers_user ON cart_vouchers (user_id) WHERE user_id IS NOT NULL;
            """),
        Migration(version: 6, sql: """
            -- Issue #5: stock reservations, checkouts in progress, the address book, orders.

            -- Stock held for a shopper during checkout (a guest session or an account, like cart
            -- lines). Live while expires_at > now; swept by sweepExpiredReservations. Only tracked,
            -- non-backorder variants are reserved.
            CREATE TABLE stock_reservations (
                id INTEGER PRIMARY KEY,
                session_id TEXT REFERENCES sessions(id) ON DELETE CASCADE,
                user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
                variant_id INTEGER NOT NULL REFERENCES variants(id) ON DELETE CASCADE,
                quantity INTEGER NOT NULL CHECK (quantity > 0),
                expires_at INTEGER NOT NULL,                 -- Unix seconds
                CHECK ((session_id IS NULL) <> (user_id IS NULL))
            );
            CREATE INDEX stock_reservations_variant ON stock_reservations (variant_id, expires_at);
            CREATE UNIQUE INDEX stock_reservations_session ON stock_reservations (session_id, variant_id)
                WHERE session_id IS NOT NULL;
            CREATE UNIQUE INDEX stock_reservations_user ON stock_reservations (user_id, variant_id)
                WHERE user_id IS NOT NULL;
            CREATE INDEX stock_reservations_expires ON stock_reservations (expires_at);

            -- A checkout in progress: the JSON of ShopStore.CheckoutState, one per owner.
            CREATE TABLE checkouts (
                id INTEGER PRIMARY KEY,
                session_id TEXT REFERENCES sessions(id) ON DELETE CASCADE,
                user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
                state TEXT NOT NULL,                         -- JSON (JSONEncoder of CheckoutState)
                updated_at INTEGER NOT NULL,                 -- Unix seconds
                CHECK ((session_id IS NULL) <> (user_id IS NULL))
            );
            CREATE UNIQUE INDEX checkouts_session ON checkouts (session_id) WHERE session_id IS NOT NULL;
            CREATE UNIQUE INDEX checkouts_user ON checkouts (user_id) WHERE user_id IS NOT NULL;

            -- The address book: at most one default per account (the partial unique index backs
            -- the store's rule, which clears the old default in the same transaction).
            CREATE TABLE addresses (
                id INTEGER PRIMARY KEY AUTOINCREMENT,        -- never reused
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                first_name TEXT NOT NULL,
                last_name TEXT NOT NULL,
                phone TEXT NOT NULL,
                email TEXT,
                line1 TEXT NOT NULL,
                line2 TEXT NOT NULL DEFAULT '',
                city TEXT NOT NULL,
                postal_code TEXT NOT NULL,
                region TEXT,
                country_code TEXT NOT NULL,                  -- ISO 3166-1 alpha-2
                is_default INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1))
            );
            CREATE INDEX addresses_user ON addresses (user_id, id);
            CREATE UNIQUE INDEX addresses_user_default ON addresses (user_id) WHERE is_default = 1;

            -- Placed orders. Everything is a snapshot: the address and shipping method are copied
            -- in, lines keep title/SKU/prices, so later catalog edits or deletions change nothing.
            -- Money: minor units in `currency` (ISO 4217), one currency per order.
            CREATE TABLE orders (
                id INTEGER PRIMARY KEY,                      -- max(id) + 1, taken inside the write transaction
                number TEXT NOT NULL UNIQUE,                 -- e.g. '1042-KX7M' (1000 + id, 4 random letters)
                status TEXT NOT NULL CHECK (status IN ('awaiting_payment', 'paid', 'shipped', 'cancelled')),
                placed_at INTEGER NOT NULL,                  -- Unix seconds
                user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,  -- NULL: a guest order
                email TEXT NOT NULL,
                ship_first_name TEXT NOT NULL,
                ship_last_name TEXT NOT NULL,
                ship_phone TEXT NOT NULL,
                ship_email TEXT,
                ship_line1 TEXT NOT NULL,
                ship_line2 TEXT NOT NULL,
                ship_city TEXT NOT NULL,
                ship_postal_code TEXT NOT NULL,
                ship_region TEXT,
                ship_country_code TEXT NOT NULL,
                shipping_method TEXT NOT NULL,
                shipping_minor INTEGER NOT NULL,
                subtotal_minor INTEGER NOT NULL,
                discount_minor INTEGER NOT NULL,
                total_minor INTEGER NOT NULL,
                currency TEXT NOT NULL,
                voucher_code TEXT,
                guest_token_hash TEXT UNIQUE                 -- SHA-256 hex of a guest's link token
            );
            CREATE INDEX orders_user ON orders (user_id, placed_at, id) WHERE user_id IS NOT NULL;
            CREATE INDEX orders_status ON orders (status, placed_at, id);
            CREATE INDEX orders_placed ON orders (placed_at, id);

            -- Line snapshots; product_id/variant_id are plain values (no foreign key): the line
            -- outlives its product.
            CREATE TABLE order_lines (
                order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                product_id INTEGER,
                variant_id INTEGER,
                title TEXT NOT NULL,
                variant_title TEXT NOT NULL,
                sku TEXT,
                unit_price_minor INTEGER NOT NULL,
                quantity INTEGER NOT NULL CHECK (quantity > 0),
                discount_minor INTEGER NOT NULL,
                total_minor INTEGER NOT NULL,
                PRIMARY KEY (order_id, position)
            ) WITHOUT ROWID;
            CREATE INDEX order_lines_variant ON order_lines (variant_id);

            -- Place-order form keys already used, per shopper ('guest:<session id>' or
            -- 'account:<user id>'): a replay returns the first order.
            CREATE TABLE order_idempotency_keys (
                owner TEXT NOT NULL,
                key TEXT NOT NULL,
                order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
                PRIMARY KEY (owner, key)
            ) WITHOUT ROWID;
            CREATE INDEX order_idempotency_keys_order ON order_idempotency_keys (order_id);
            """),
        Migration(version: 7, sql: """
            -- What shoppers see as available is stock minus live reservations (issue #5), so
            -- holding or releasing stock changes catalog pages: bump the catalog version like any
            -- other catalog change. (A reservation that simply expires is deleted by the sweeper
            -- within a minute, which bumps it then.)
            CREATE TRIGGER stock_reservations_insert_bumps_catalog_version AFTER INSERT ON stock_reservations
            BEGIN UPDATE catalog_state SET version = version + 1 WHERE id = 1; END;
            CREATE TRIGGER stock_reservations_update_bumps_catalog_version AFTER UPDATE ON stock_reservations
            BEGIN UPDATE catalog_state SET version = version + 1 WHERE id = 1; END;
            CREATE TRIGGER stock_reservations_delete_bumps_catalog_version AFTER DELETE ON stock_reservations
            BEGIN UPDATE catalog_state SET version = version + 1 WHERE id = 1; END;
            """),
        Migration(version: 8, sql: """
            -- Issue #8: one table counts every throttled attempt (sign-ins, registrations, reset
            -- and verification emails), checked and counted in one write transaction
            -- (AccountStore.countAttempt). Sign-in keys keep their counts under a 'sign-in:' prefix.
            ALTER TABLE sign_in_failures RENAME TO throttle_events;
            DROP INDEX sign_in_failures_key_at;
            CREATE INDEX throttle_events_key_at ON throttle_events (key, at);
            UPDATE throttle_events SET key = 'sign-in:' || key;
            CREATE INDEX throttle_events_at ON throttle_events (at);   -- purgeAttempts
            """),
        Migration(version: 9, sql: """
            -- Issue #8: lowering the stock below what is held trims the holds, latest taken first
            -- (by stock_reservations.id: since this version `reserve` renews a hold in place, so a
            -- renewal keeps its place), so what is left stays sellable. Each shopper whose hold was
            -- trimmed is told at their next checkout step, from this table. A trim lapses with the
            -- hold it trimmed (expires_at) and goes with its owner or variant.
            CREATE TABLE reservation_trims (
                id INTEGER PRIMARY KEY,
                session_id TEXT REFERENCES sessions(id) ON DELETE CASCADE,
                user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
                variant_id INTEGER NOT NULL REFERENCES variants(id) ON DELETE CASCADE,
                held INTEGER NOT NULL CHECK (held > 0),                -- what the shopper held
                kept INTEGER NOT NULL CHECK (kept >= 0 AND kept < held), -- what is still held for them
                expires_at INTEGER NOT NULL,                           -- Unix seconds: the trimmed hold's end
                CHECK ((session_id IS NULL) <> (user_id IS NULL))
            );
            CREATE UNIQUE INDEX reservation_trims_session ON reservation_trims (session_id, variant_id)
                WHERE session_id IS NOT NULL;
            CREATE UNIQUE INDEX reservation_trims_user ON reservation_trims (user_id, variant_id)
                WHERE user_id IS NOT NULL;
            CREATE INDEX reservation_trims_expires ON reservation_trims (expires_at);
            """),
        Migration(version: 10, sql: """
            -- Issue #8: session ids and CSRF tokens are stored only as their SHA-256 (hex), like
            -- account tokens: a copy of the database must not yield live sessions. Existing
            -- sessions stay valid (the step below re-keys them and every row that names them), so
            -- nobody is signed out and no guest cart is lost by the upgrade.
            ALTER TABLE sessions RENAME COLUMN csrf_token TO csrf_token_hash;
            """, step: SessionHashing.hashStoredSessions),
        Migration(version: 11, sql: """
            -- Issue #9: secrets the servers of one shop share (several app servers on one
            -- database must derive the same values). 'guest-session' keys the guest session token
            -- derived from a visitor's CSRF cookie, so simultaneous first requests of one visitor
            -- create one session. Made by the step below from libsodium's random bytes.
            CREATE TABLE server_secrets (
                name TEXT PRIMARY KEY,
                value BLOB NOT NULL CHECK (length(value) = 32)
            );
            """, step: ServerSecrets.create),
        Migration(version: 12, sql: """
            -- Issue #10: accounts get a role. Operators write the catalog through the API and see
            -- every account; everyone else is a shopper (every existing account).
            ALTER TABLE users ADD COLUMN role TEXT NOT NULL DEFAULT 'shopper'
                CHECK (role IN ('shopper', 'operator'));
            """),
        Migration(version: 13, sql: """
            -- Issue #10: the Fake Store user fields. A username is a second sign-in name, unique
            -- without case (UsernameRules allows ASCII only, so NOCASE is exact); NULL for the
            -- accounts that sign in with their email only. Phone and one postal address as a
            -- Fake Store client writes them ('' and 0 when unknown).
            ALTER TABLE users ADD COLUMN username TEXT COLLATE NOCASE;
            CREATE UNIQUE INDEX users_username ON users (username) WHERE username IS NOT NULL;
            ALTER TABLE users ADD COLUMN phone TEXT NOT NULL DEFAULT '';
            ALTER TABLE users ADD COLUMN address_city TEXT NOT NULL DEFAULT '';
            ALTER TABLE users ADD COLUMN address_street TEXT NOT NULL DEFAULT '';
            ALTER TABLE users ADD COLUMN address_number INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE users ADD COLUMN address_zipcode TEXT NOT NULL DEFAULT '';
            ALTER TABLE users ADD COLUMN address_lat TEXT NOT NULL DEFAULT '';
            ALTER TABLE users ADD COLUMN address_long TEXT NOT NULL DEFAULT '';
            """),
        Migration(version: 14, sql: """
            -- Issue #10: Fake Store carts, kept as saved carts — dated product lists of one account,
            -- apart from the live cart (cart_lines): they hold no stock and change nothing on the web.
            CREATE TABLE api_carts (
                id INTEGER PRIMARY KEY AUTOINCREMENT,        -- never reused
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                date_ms INTEGER NOT NULL                     -- Unix milliseconds (Fake Store dates have them)
            );
            CREATE INDEX api_carts_user ON api_carts (user_id, id);
            CREATE INDEX api_carts_date ON api_carts (date_ms, id);
            CREATE TABLE api_cart_lines (
                cart_id INTEGER NOT NULL REFERENCES api_carts(id) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
                quantity INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 99),
                PRIMARY KEY (cart_id, position),
                UNIQUE (cart_id, product_id)
            ) WITHOUT ROWID;
            CREATE INDEX api_cart_lines_product ON api_cart_lines (product_id);
            """),
        Migration(version: 15, sql: """
            -- Issue #10: the JSON API's access and refresh tokens (POST /api/v1/auth/tokens), only
            -- as their SHA-256, each pair tied to the signed-in session it acts for: ending the
            -- session (sign-out, everywhere, a password change, expiry) ends its tokens. A refresh
            -- token is spent once (spent_at); a spent one presented again ends the session.
            CREATE TABLE api_tokens (
                refresh_token_hash TEXT PRIMARY KEY,
                access_token_hash TEXT NOT NULL UNIQUE,
                session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
                access_expires_at INTEGER NOT NULL,           -- Unix seconds
                created_at INTEGER NOT NULL,
                spent_at INTEGER                              -- NULL while the refresh token is live
            ) WITHOUT ROWID;
            CREATE INDEX api_tokens_session ON api_tokens (session_id);
            """),
        Migration(version: 16, sql: """
            -- Issue #11: the language a shopper chose on the storefront (its picker, or the one
            -- they registered in): 'en', 'tr', 'es'; NULL until they choose. A value the running
            -- version does not speak reads as NULL.
            ALTER TABLE users ADD COLUMN locale TEXT CHECK (locale IS NULL OR length(locale) BETWEEN 2 AND 35);
            """),
        Migration(version: 17, sql: """
            -- Issue #11: the name sort follows the shopper's language. Written by the app:
            -- ProductSearchRules.sortTitle(title, locale:) with Turkish and Spanish rules (ç after c,
            -- ı before i, ñ after n); sort_title stays the English key. Existing products get
            -- theirs from the app's rebuild on first use (search_index_state, migration 4).
            ALTER TABLE products ADD COLUMN sort_title_tr TEXT NOT NULL DEFAULT '';
            ALTER TABLE products ADD COLUMN sort_title_es TEXT NOT NULL DEFAULT '';
            CREATE INDEX products_published_name_tr ON products (is_published, sort_title_tr, id);
            CREATE INDEX products_category_name_tr ON products (category_id, is_published, sort_title_tr, id);
            CREATE INDEX products_published_name_es ON products (is_published, sort_title_es, id);
            CREATE INDEX products_category_name_es ON products (category_id, is_published, sort_title_es, id);
            UPDATE search_index_state SET is_stale = 1 WHERE EXISTS (SELECT 1 FROM products);
            """),
        Migration(version: 18, sql: """
            -- Issue #11: a campaign's title and description in the shopper's language. title and
            -- description stay the merchant's default text; these hold the translations as a JSON
            -- object by language code ({"tr": "…", "es": "…"}), NULL when there are none. A code
            -- the running version does not speak is ignored on reading.
            ALTER TABLE campaigns ADD COLUMN title_translations TEXT;
            ALTER TABLE campaigns ADD COLUMN description_translations TEXT;
            """),
        Migration(version: 19, sql: """
            -- Issue #13: catalog visibility (WooCommerce "Visibility in catalog", CatalogVisibility):
            -- 'visible' listed and searchable, 'catalog' listed only, 'search' searchable only,
            -- 'hidden' neither. Every published product stays reachable by its handle.
            ALTER TABLE products ADD COLUMN visibility TEXT NOT NULL DEFAULT 'visible'
                CHECK (visibility IN ('visible', 'catalog', 'search', 'hidden'));
            -- Issue #13: SKU identity. sku_key is SKUIdentity.key(sku) (trimmed, lower-cased),
            -- written by the app; one variant per key in the whole catalog, enforced here so that
            -- two imports at once cannot both create it. Existing rows get SQLite's lower(trim())
            -- (exact for ASCII SKUs; a non-ASCII one is rewritten by its next import), and where
            -- older imports left one SKU on several variants, only the oldest keeps the key: the
            -- others are matched by their options until a re-import gives them their own SKU.
            -- Filling the key changes nothing shoppers see: catalog_state.version is left alone
            -- (the trigger of migration 2 is set aside meanwhile, as in migration 4).
            ALTER TABLE variants ADD COLUMN sku_key TEXT;
            DROP TRIGGER variants_update_bumps_catalog_version;
            UPDATE variants SET sku_key = lower(trim(sku)) WHERE sku IS NOT NULL AND trim(sku) <> '';
            UPDATE variants SET sku_key = NULL WHERE sku_key IS NOT NULL AND EXISTS (
                SELECT 1 FROM variants older WHERE older.sku_key = variants.sku_key AND older.id < variants.id);
            CREATE TRIGGER variants_update_bumps_catalog_version AFTER UPDATE ON variants
            BEGIN UPDATE catalog_state SET version = version + 1 WHERE id = 1; END;
            CREATE UNIQUE INDEX variants_sku_key ON variants (sku_key) WHERE sku_key IS NOT NULL;
            -- Issue #13: a variant a re-import drops leaves its cart lines behind (no foreign key
            -- to variants any more), so the cart tells the shopper, as for an unpublished product,
            -- that it is no longer sold and removes the line. cart_lines is only a child table:
            -- rebuilding it cascades nothing.
            CREATE TABLE cart_lines_v19 (
                id INTEGER PRIMARY KEY,
                session_id TEXT REFERENCES sessions(id) ON DELETE CASCADE,
                user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
                variant_id INTEGER NOT NULL,                 -- may name a variant that is gone
                product_id INTEGER NOT NULL,
                quantity INTEGER NOT NULL CHECK (quantity > 0),
                position INTEGER NOT NULL,
                selected INTEGER NOT NULL DEFAULT 1 CHECK (selected IN (0, 1)),
                CHECK ((session_id IS NULL) <> (user_id IS NULL))
            );
            INSERT INTO cart_lines_v19 (id, session_id, user_id, variant_id, product_id, quantity, position, selected)
                SELECT id, session_id, user_id, variant_id, product_id, quantity, position, selected FROM cart_lines;
            DROP TABLE cart_lines;
            ALTER TABLE cart_lines_v19 RENAME TO cart_lines;
            CREATE UNIQUE INDEX cart_lines_session ON cart_lines (session_id, variant_id) WHERE session_id IS NOT NULL;
            CREATE UNIQUE INDEX cart_lines_user ON cart_lines (user_id, variant_id) WHERE user_id IS NOT NULL;
            CREATE INDEX cart_lines_variant ON cart_lines (variant_id);
            """),
        Migration(version: 20, sql: """
            -- Issue #13, point 5: search that forgives. product_search gains the words' Snowball
            -- stems (ProductSearchStemmer: English, Turkish and Spanish stems of every word, per
            -- rule family; title_stems = the title's, text_stems = meta's and body's) and the
            -- variants' SKU keys (ProductSearchRules.skuKey, one token each). FTS5 tables cannot
            -- gain columns: it is dropped and made again (the delete trigger on products names it
            -- by name and works again once it exists).
            DROP TABLE product_search;
            CREATE VIRTUAL TABLE product_search USING fts5(
                title, meta, body, title_tr, meta_tr, body_tr,
                title_stems, text_stems, title_stems_tr, text_stems_tr, skus,
                tokenize = 'unicode61 remove_diacritics 0',
                prefix = '1 2 3'
            );
            -- The folded title and meta words of every indexed product (both rule families), for
            -- typo candidates and "did you mean" (SearchTolerance). Only added to: a word whose
            -- products are gone stays until the next rebuild (it then finds nothing, and "did you
            -- mean" only offers words that find a product).
            CREATE TABLE search_vocabulary (term TEXT PRIMARY KEY) WITHOUT ROWID;
            -- Stems and vocabulary need Swift (libstemmer): the app rebuilds the index on first use.
            UPDATE search_index_state SET is_stale = 1 WHERE EXISTS (SELECT 1 FROM products);
            """),
        Migration(version: 21, sql: """
            -- Issue #13, point 4: an image stored in the media library has its pixel size (pages
            -- give width and height, so nothing moves when it loads) and whether it has
            -- transparency (its smaller copies are then PNG, not JPEG: ImageRenditions). NULL for
            -- remote images and for images imported before; their pages keep a plain <img>.
            ALTER TABLE product_images ADD COLUMN width INTEGER CHECK (width > 0);
            ALTER TABLE product_images ADD COLUMN height INTEGER CHECK (height > 0);
            ALTER TABLE product_images ADD COLUMN has_alpha INTEGER NOT NULL DEFAULT 0 CHECK (has_alpha IN (0, 1));
            """),
        Migration(version: 22, sql: """
            -- Issue #13, point 5: barcodes (Variant.barcode: GTIN, UPC, EAN, ISBN), trimmed, NULL
            -- when none; not unique. Searched through product_search.skus, where each one is a
            -- word of its own (ProductSearchRules.barcodeToken); no variant has one yet, so the
            -- index needs no rebuild.
            ALTER TABLE variants ADD COLUMN barcode TEXT;
            """),
        Migration(version: 23, sql: """
            -- Issue #13, point 2: WooCommerce "any" variations are ONE sellable variant (one SKU, one
            -- stock pool) whose open options the shopper picks. option_choices: the allowed values
            -- per option as a JSON array of arrays in option order (Variant.optionChoices), the open
            -- option's value in option_values being ''; NULL for a variant without open options.
            ALTER TABLE variants ADD COLUMN option_choices TEXT;
            -- The picked values ride on the cart line and are part of its identity
            -- (ChosenValues.text: 'Size=M', options joined by a line feed; '' when none): one variant
            -- with Size=M and Size=L is two lines, whose quantities count together against the
            -- variant's stock (SessionStore.changeCart, the sign-in merge, holds and placement sum
            -- a variant's lines).
            ALTER TABLE cart_lines ADD COLUMN chosen_values TEXT NOT NULL DEFAULT '';
            DROP INDEX cart_lines_session;
            DROP INDEX cart_lines_user;
            CREATE UNIQUE INDEX cart_lines_session ON cart_lines (session_id, variant_id, chosen_values)
                WHERE session_id IS NOT NULL;
            CREATE UNIQUE INDEX cart_lines_user ON cart_lines (user_id, variant_id, chosen_values) WHERE user_id IS NOT NULL;
            -- The order line keeps them as placed (its variant_title has the values filled in too).
            ALTER TABLE order_lines ADD COLUMN chosen_values TEXT NOT NULL DEFAULT '';
            """),
        Migration(version: 24, sql: """
            -- Issue #13, point 5: a search page within 20 ms on 100 000 products. A search reads,
            -- for each match it looks at, the covering index products_search_facts; visibility
            -- (migration 19) was not in it, so every match also read its wide product row (the
            -- column sits after the descriptions, often on an overflow page). The same index with
            -- visibility after is_published; nothing else changes.
            DROP INDEX products_search_facts;
            CREATE INDEX products_search_facts ON products (id, is_published, visibility, category_id, min_price_minor,
                is_available, rating_hundredths, rating_count, published_at, vendor, sort_title);
            """),
        Migration(version: 25, sql: """
            -- Issue #13, point 6: an import of 100 000 rows spent most of its FTS5 time on
            -- position lists no query reads. Searches match single words (a quoted word is one
            -- token: SearchFolding output, SKU keys, barcode tokens) by column and order by rowid,
            -- never by phrase, NEAR or bm25, so the index keeps which columns hold a word
            -- (detail=column) and not where in them. Same columns, same prefix indexes, same
            -- queries; the rows of an existing database are copied over as they are (the
            -- folded text is Swift's, so it is copied, not rebuilt). The delete trigger on
            -- products names the table and works again once it exists (as in migration 20).
            CREATE TABLE product_search_v24 AS SELECT rowid AS id, title, meta, body, title_tr, meta_tr, body_tr,
                title_stems, text_stems, title_stems_tr, text_stems_tr, skus FROM product_search;
            DROP TABLE product_search;
            CREATE VIRTUAL TABLE product_search USING fts5(
                title, meta, body, title_tr, meta_tr, body_tr,
                title_stems, text_stems, title_stems_tr, text_stems_tr, skus,
                tokenize = 'unicode61 remove_diacritics 0',
                prefix = '1 2 3',
                detail = column
            );
            INSERT INTO product_search (rowid, title, meta, body, title_tr, meta_tr, body_tr,
                title_stems, text_stems, title_stems_tr, text_stems_tr, skus)
                SELECT id, title, meta, body, title_tr, meta_tr, body_tr,
                    title_stems, text_stems, title_stems_tr, text_stems_tr, skus FROM product_search_v24 ORDER BY id;
            DROP TABLE product_search_v24;
            """),
        Migration(version: 26, sql: """
            -- Issue #13, point 6: an import writes thousands of products in one transaction, and
            -- per row the triggers bumped catalog_state.version (one UPDATE per product, image and
            -- variant) and refreshed the product's price and availability (one UPDATE of the
            -- product and its price indexes per variant): 40 % of the rows' write time. While
            -- is_bulk_writing is 1 — only inside a write transaction of SQLCatalog.upsert, which
            -- sets it back to 0 before it returns, so no other connection ever sees it — these
            -- triggers stand aside; the upsert refreshes each product it wrote once, from the
            -- same view the triggers use, and bumps the version once.
            ALTER TABLE catalog_state ADD COLUMN is_bulk_writing INTEGER NOT NULL DEFAULT 0
                CHECK (is_bulk_writing IN (0, 1));
            -- A product's lowest price and whether any variant can be bought: the one home of the
            -- rule behind products.min_price_minor and products.is_available (migration 4).
            CREATE VIEW product_variant_facts AS
                SELECT p.id AS product_id,
                    (SELECT min(v.price_minor) FROM variants v WHERE v.product_id = p.id) AS min_price_minor,
                    EXISTS (SELECT 1 FROM variants v WHERE v.product_id = p.id
                            AND (v.inventory_tracked = 0 OR v.allow_backorder = 1 OR v.stock > 0)) AS is_available
                FROM products p;
            DROP TRIGGER variants_insert_refreshes_product;
            CREATE TRIGGER variants_insert_refreshes_product AFTER INSERT ON variants
            WHEN (SELECT is_bulk_writing FROM catalog_state WHERE id = 1) IS NOT 1
            BEGIN
                UPDATE products SET (min_price_minor, is_available) =
                    (SELECT f.min_price_minor, f.is_available FROM product_variant_facts f WHERE f.product_id = products.id)
                WHERE id = NEW.product_id;
            END;
            DROP TRIGGER variants_update_refreshes_product;
            CREATE TRIGGER variants_update_refreshes_product AFTER UPDATE OF product_id, price_minor, inventory_tracked, stock, allow_backorder ON variants
            WHEN (SELECT is_bulk_writing FROM catalog_state WHERE id = 1) IS NOT 1
            BEGIN
                UPDATE products SET (min_price_minor, is_available) =
                    (SELECT f.min_price_minor, f.is_available FROM product_variant_facts f WHERE f.product_id = products.id)
                WHERE id IN (OLD.product_id, NEW.product_id);
            END;
            DROP TRIGGER variants_delete_refreshes_product;
            CREATE TRIGGER variants_delete_refreshes_product AFTER DELETE ON variants
            WHEN (SELECT is_bulk_writing FROM catalog_state WHERE id = 1) IS NOT 1
            BEGIN
                UPDATE products SET (min_price_minor, is_available) =
                    (SELECT f.min_price_minor, f.is_available FROM product_variant_facts f WHERE f.product_id = products.id)
                WHERE id = OLD.product_id;
            END;
            DROP TRIGGER categories_insert_bumps_catalog_version;
            CREATE TRIGGER categories_insert_bumps_catalog_version AFTER INSERT ON categories
            WHEN (SELECT is_bulk_writing FROM catalog_state WHERE id = 1) IS NOT 1
            BEGIN UPDATE catalog_state SET version = version + 1 WHERE id = 1; END;
            DROP TRIGGER categories_update_bumps_catalog_version;
            CREATE TRIGGER categories_update_bumps_catalog_version AFTER UPDATE ON categories
            WHEN (SELECT is_bulk_writing FROM catalog_state WHERE id = 1) IS NOT 1
            BEGIN UPDATE catalog_state SET version = version + 1 WHERE id = 1; END;
            DROP TRIGGER categories_delete_bumps_catalog_version;
            CREATE TRIGGER categories_delete_bumps_catalog_version AFTER DELETE ON categories
            WHEN (SELECT is_bulk_writing FROM catalog_state WHERE id = 1) IS NOT 1
            BEGIN UPDATE catalog_state SET version = version + 1 WHERE id = 1; END;
            DROP TRIGGER products_insert_bumps_catalog_version;
            CREATE TRIGGER products_insert_bumps_catalog_version AFTER INSERT ON products
            WHEN (SELECT is_bulk_writing FROM catalog_state WHERE id = 1) IS NOT 1
            BEGIN UPDATE catalog_state SET version = version + 1 WHERE id = 1; END;
            DROP TRIGGER products_update_bumps_catalog_version;
            CREATE TRIGGER products_update_bumps_catalog_version AFTER UPDATE ON products
            WHEN (SELECT is_bulk_writing FROM catalog_state WHERE id = 1) IS NOT 1
            BEGIN UPDATE catalog_state SET version = version + 1 WHERE id = 1; END;
            DROP TRIGGER products_delete_bumps_catalog_version;
            CREATE TRIGGER products_delete_bumps_catalog_version AFTER DELETE ON products
            WHEN (SELECT is_bulk_writing FROM catalog_state WHERE id = 1) IS NOT 1
            BEGIN UPDATE catalog_state SET version = version + 1 WHERE id = 1; END;
            DROP TRIGGER product_images_insert_bumps_catalog_version;
            CREATE TRIGGER product_images_insert_bumps_catalog_version AFTER INSERT ON product_images
            WHEN (SELECT is_bulk_writing FROM catalog_state WHERE id = 1) IS NOT 1
            BEGIN UPDATE catalog_state SET version = version + 1 WHERE id = 1; END;
            DROP TRIGGER product_images_update_bumps_catalog_version;
            CREATE TRIGGER product_images_update_bumps_catalog_version AFTER UPDATE ON product_images
            WHEN (SELECT is_bulk_writing FROM catalog_state WHERE id = 1) IS NOT 1
            BEGIN UPDATE catalog_state SET version = version + 1 WHERE id = 1; END;
            DROP TRIGGER product_images_delete_bumps_catalog_version;
            CREATE TRIGGER product_images_delete_bumps_catalog_version AFTER DELETE ON product_images
            WHEN (SELECT is_bulk_writing FROM catalog_state WHERE id = 1) IS NOT 1
            BEGIN UPDATE catalog_state SET version = version + 1 WHERE id = 1; END;
            DROP TRIGGER variants_insert_bumps_catalog_version;
            CREATE TRIGGER variants_insert_bumps_catalog_version AFTER INSERT ON variants
            WHEN (SELECT is_bulk_writing FROM catalog_state WHERE id = 1) IS NOT 1
            BEGIN UPDATE catalog_state SET version = version + 1 WHERE id = 1; END;
            DROP TRIGGER variants_update_bumps_catalog_version;
            CREATE TRIGGER variants_update_bumps_catalog_version AFTER UPDATE ON variants
            WHEN (SELECT is_bulk_writing FROM catalog_state WHERE id = 1) IS NOT 1
            BEGIN UPDATE catalog_state SET version = version + 1 WHERE id = 1; END;
            DROP TRIGGER variants_delete_bumps_catalog_version;
            CREATE TRIGGER variants_delete_bumps_catalog_version AFTER DELETE ON variants
            WHEN (SELECT is_bulk_writing FROM catalog_state WHERE id = 1) IS NOT 1
            BEGIN UPDATE catalog_state SET version = version + 1 WHERE id = 1; END;
            """),
        Migration(version: 27, sql: """
            -- Issue #16: the order's life (OrderStatus.transition, docs/ORDERS.md). The status
            -- CHECK gains fulfilled (issue #5's 'shipped', which nothing wrote) and delivered, and
            -- orders gain the carrier and tracking number. SQLite cannot change a CHECK: orders
            -- and its two child tables are rebuilt — children renamed first, then orders (their
            -- foreign keys follow it), copied, and dropped child first, so no cascade deletes
            -- anything; the indexes are made again once the old tables (and names) are gone.
            ALTER TABLE order_idempotency_keys RENAME TO order_idempotency_keys_v26;
            ALTER TABLE order_lines RENAME TO order_lines_v26;
            ALTER TABLE orders RENAME TO orders_v26;
            CREATE TABLE orders (
                id INTEGER PRIMARY KEY,                      -- max(id) + 1, taken inside the write transaction
                number TEXT NOT NULL UNIQUE,                 -- e.g. '1042-KX7M' (1000 + id, 4 random letters)
                status TEXT NOT NULL
                    CHECK (status IN ('awaiting_payment', 'paid', 'fulfilled', 'delivered', 'cancelled')),
                placed_at INTEGER NOT NULL,                  -- Unix seconds
                user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,  -- NULL: a guest order
                email TEXT NOT NULL,
                ship_first_name TEXT NOT NULL,
                ship_last_name TEXT NOT NULL,
                ship_phone TEXT NOT NULL,
                ship_email TEXT,
                ship_line1 TEXT NOT NULL,
                ship_line2 TEXT NOT NULL,
                ship_city TEXT NOT NULL,
                ship_postal_code TEXT NOT NULL,
                ship_region TEXT,
                ship_country_code TEXT NOT NULL,
                shipping_method TEXT NOT NULL,
                shipping_minor INTEGER NOT NULL,
                subtotal_minor INTEGER NOT NULL,
                discount_minor INTEGER NOT NULL,
                total_minor INTEGER NOT NULL,
                currency TEXT NOT NULL,
                voucher_code TEXT,
                guest_token_hash TEXT UNIQUE,                -- SHA-256 hex of a guest's link token
                carrier TEXT,                                -- set when fulfilled
                tracking_number TEXT,
                -- 1: placed before this migration. What it took from stock was not recorded (no
                -- order_stock rows: a cancel gives nothing back), and its payment may have been
                -- received outside the shop: the shop never cancels it as unpaid.
                before_lifecycle INTEGER NOT NULL DEFAULT 0 CHECK (before_lifecycle IN (0, 1))
            );
            INSERT INTO orders (id, number, status, placed_at, user_id, email, ship_first_name, ship_last_name,
                                ship_phone, ship_email, ship_line1, ship_line2, ship_city, ship_postal_code, ship_region,
                                ship_country_code, shipping_method, shipping_minor, subtotal_minor, discount_minor,
                                total_minor, currency, voucher_code, guest_token_hash, before_lifecycle)
                SELECT id, number, CASE status WHEN 'shipped' THEN 'fulfilled' ELSE status END, placed_at, user_id, email,
                       ship_first_name, ship_last_name, ship_phone, ship_email, ship_line1, ship_line2, ship_city,
                       ship_postal_code, ship_region, ship_country_code, shipping_method, shipping_minor, subtotal_minor,
                       discount_minor, total_minor, currency, voucher_code, guest_token_hash, 1
                FROM orders_v26;
            CREATE TABLE order_lines (
                order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                product_id INTEGER,
                variant_id INTEGER,
                title TEXT NOT NULL,
                variant_title TEXT NOT NULL,
                sku TEXT,
                unit_price_minor INTEGER NOT NULL,
                quantity INTEGER NOT NULL CHECK (quantity > 0),
                discount_minor INTEGER NOT NULL,
                total_minor INTEGER NOT NULL,
                chosen_values TEXT NOT NULL DEFAULT '',
                PRIMARY KEY (order_id, position)
            ) WITHOUT ROWID;
            INSERT INTO order_lines (order_id, position, product_id, variant_id, title, variant_title, sku,
                                     unit_price_minor, quantity, discount_minor, total_minor, chosen_values)
                SELECT order_id, position, product_id, variant_id, title, variant_title, sku, unit_price_minor, quantity,
                       discount_minor, total_minor, chosen_values FROM order_lines_v26;
            CREATE TABLE order_idempotency_keys (
                owner TEXT NOT NULL,
                key TEXT NOT NULL,
                order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
                PRIMARY KEY (owner, key)
            ) WITHOUT ROWID;
            INSERT INTO order_idempotency_keys (owner, key, order_id) SELECT owner, key, order_id FROM order_idempotency_keys_v26;
            DROP TABLE order_idempotency_keys_v26;
            DROP TABLE order_lines_v26;
            DROP TABLE orders_v26;
            CREATE INDEX orders_user ON orders (user_id, placed_at, id) WHERE user_id IS NOT NULL;
            CREATE INDEX orders_status ON orders (status, placed_at, id);
            CREATE INDEX orders_placed ON orders (placed_at, id);
            CREATE INDEX order_lines_variant ON order_lines (variant_id);
            CREATE INDEX order_idempotency_keys_order ON order_idempotency_keys (order_id);

            -- What each order took from stock, per variant (OrderPlacement step 4), so a cancel
            -- gives back exactly that — a variant's tracking may change later — and only once:
            -- the rows go when it is given back. Orders placed before this migration have none:
            -- whether a variant was counted when they were placed is not known (guessing from
            -- today's tracking would give back units never taken).
            CREATE TABLE order_stock (
                order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
                variant_id INTEGER NOT NULL,                 -- a plain value: the variant may be gone
                quantity INTEGER NOT NULL CHECK (quantity > 0),
                PRIMARY KEY (order_id, variant_id)
            ) WITHOUT ROWID;

            -- Each status change: who, when, from, to (the order page's history, the CLI's output).
            CREATE TABLE order_events (
                id INTEGER PRIMARY KEY,
                order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
                at INTEGER NOT NULL,                         -- Unix seconds
                actor TEXT NOT NULL,                         -- 'cli', a staff member's email, 'shop'
                action TEXT NOT NULL,                        -- OrderAction's raw value
                from_status TEXT NOT NULL,
                to_status TEXT NOT NULL,
                carrier TEXT,
                tracking_number TEXT,
                items_returned INTEGER NOT NULL DEFAULT 0,   -- items given back to stock
                refunded_minor INTEGER NOT NULL DEFAULT 0    -- a refund recorded, in the order's currency
            );
            CREATE INDEX order_events_order ON order_events (order_id, id);
            """),
        // Issue #16: staff accounts and their back-office sessions — separate from shoppers'
        // accounts and sessions (their own cookie, scoped to /admin).
        Migration(version: 28, sql: """
            CREATE TABLE staff_members (
                id INTEGER PRIMARY KEY,
                email TEXT NOT NULL UNIQUE,                  -- lower-cased (EmailRules.normalize)
                name TEXT NOT NULL,
                role TEXT NOT NULL CHECK (role IN ('owner', 'manager', 'support')),
                password_hash TEXT NOT NULL,
                language TEXT NOT NULL DEFAULT 'en',
                created_at INTEGER NOT NULL                  -- Unix seconds
            );
            CREATE TABLE staff_sessions (
                id TEXT PRIMARY KEY,                         -- SHA-256 of the cookie's token
                staff_id INTEGER NOT NULL REFERENCES staff_members(id) ON DELETE CASCADE,
                csrf_token_hash TEXT NOT NULL,
                created_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX staff_sessions_staff ON staff_sessions (staff_id);
            CREATE INDEX staff_sessions_expiry ON staff_sessions (expires_at);
            -- The shopper's language at checkout: the emails about the order's steps are written
            -- in it. Orders placed before are English.
            ALTER TABLE orders ADD COLUMN language TEXT NOT NULL DEFAULT 'en';
            """),
        // Issue #16, point 2: the audit log — who changed what, when, through what, written in
        // the change's own transaction; append-only (the triggers refuse updates and deletes).
        Migration(version: 29, sql: """
            CREATE TABLE audit_events (
                id INTEGER PRIMARY KEY,
                at INTEGER NOT NULL,                         -- Unix seconds
                actor TEXT NOT NULL,                         -- a staff member's email, 'cli', 'shop'
                source TEXT NOT NULL,                        -- AuditSource: back-office, cli, shop, api
                subject TEXT NOT NULL,                       -- order, staff, stock, campaign
                subject_id TEXT NOT NULL,                    -- an order number, an email, a SKU, an id
                action TEXT NOT NULL,
                changes TEXT NOT NULL DEFAULT '[]'           -- JSON [{field, before, after}]
            );
            CREATE INDEX audit_events_at ON audit_events (at, id);
            CREATE TRIGGER audit_events_no_update BEFORE UPDATE ON audit_events
            BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
            CREATE TRIGGER audit_events_no_delete BEFORE DELETE ON audit_events
            BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
            """),
        // Issue #16: refunds of some units of a line.
        Migration(version: 30, sql: """
            ALTER TABLE order_lines ADD COLUMN refunded_quantity INTEGER NOT NULL DEFAULT 0 CHECK (refunded_quantity >= 0);
            """),
        // Issue #16: a campaign the merchant paused from the back office (or the file's "paused").
        Migration(version: 31, sql: """
            ALTER TABLE campaigns ADD COLUMN paused INTEGER NOT NULL DEFAULT 0 CHECK (paused IN (0, 1));
            """),
        // Issue #16: the staff's optional second factor (TOTP). The secret is Base32; the last
        // step used refuses a code's replay; a session waits for the code before it opens anything.
        Migration(version: 32, sql: """
            ALTER TABLE staff_members ADD COLUMN totp_secret TEXT;
            ALTER TABLE staff_members ADD COLUMN totp_last_step INTEGER;
            ALTER TABLE staff_sessions ADD COLUMN needs_second_factor INTEGER NOT NULL DEFAULT 0 CHECK (needs_second_factor IN (0, 1));
            """),
        // Issue #16, point 4: a catalog file checked or imported from the back office, with where
        // it is (step, counts) and, once finished, what it did (JSON) — read by every app server.
        Migration(version: 33, sql: """
            CREATE TABLE import_jobs (
                id TEXT PRIMARY KEY,                         -- a random token, in the job page's address
                started_by TEXT NOT NULL,                    -- a staff member's email
                runner TEXT NOT NULL DEFAULT '',             -- host:pid of the server running it
                file_name TEXT NOT NULL,
                dry_run INTEGER NOT NULL CHECK (dry_run IN (0, 1)),
                step TEXT NOT NULL CHECK (step IN ('reading', 'checking-images', 'downloading-images', 'writing', 'finished')),
                done INTEGER NOT NULL DEFAULT 0,
                total INTEGER NOT NULL DEFAULT 0,
                outcome TEXT,                                -- JSON (ImportJobOutcome), once finished
                started_at INTEGER NOT NULL,                 -- Unix seconds
                updated_at INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX import_jobs_started ON import_jobs (started_at);
            """),
        // Issue #14: a listing's page reads its rows' visibility (listed or not) from the index it
        // walks in order, not from the table: page 100 of a 2 500-product category skipped 2 400
        // table rows (~8 ms); with `visibility` last in each listing index, ~0.4 ms.
        Migration(version: 34, sql: """
            DROP INDEX products_published_category;
            CREATE INDEX products_published_category ON products (is_published, category_id, id, visibility);
            DROP INDEX products_published_rating;
            CREATE INDEX products_published_rating ON products (is_published, rating_hundredths DESC, rating_count DESC, id, visibility);
            DROP INDEX products_category_rating;
            CREATE INDEX products_category_rating ON products (category_id, is_published, rating_hundredths DESC, rating_count DESC, id, visibility);
            DROP INDEX products_published_price;
            CREATE INDEX products_published_price ON products (is_published, min_price_minor, id, visibility);
            DROP INDEX products_category_price;
            CREATE INDEX products_category_price ON products (category_id, is_published, min_price_minor, id, visibility);
            DROP INDEX products_published_newest;
            CREATE INDEX products_published_newest ON products (is_published, published_at DESC, id, visibility);
            DROP INDEX products_category_newest;
            CREATE INDEX products_category_newest ON products (category_id, is_published, published_at DESC, id, visibility);
            DROP INDEX products_published_name;
            CREATE INDEX products_published_name ON products (is_published, sort_title, id, visibility);
            DROP INDEX products_category_name;
            CREATE INDEX products_category_name ON products (category_id, is_published, sort_title, id, visibility);
            DROP INDEX products_published_name_tr;
            CREATE INDEX products_published_name_tr ON products (is_published, sort_title_tr, id, visibility);
            DROP INDEX products_category_name_tr;
            CREATE INDEX products_category_name_tr ON products (category_id, is_published, sort_title_tr, id, visibility);
            DROP INDEX products_published_name_es;
            CREATE INDEX products_published_name_es ON products (is_published, sort_title_es, id, visibility);
            DROP INDEX products_category_name_es;
            CREATE INDEX products_category_name_es ON products (category_id, is_published, sort_title_es, id, visibility);
            """),
        // Issue #14: a hold still bumps the catalog version (cached pages show stock net of
        // holds), and counts itself in `holds` too, so `version - holds` moves only with the
        // catalog itself: a listing's kept ids, facets and tags (whose statements name the
        // products checkouts hold out) outlive every hold taken or released.
        Migration(version: 35, sql: """
            ALTER TABLE catalog_state ADD COLUMN holds INTEGER NOT NULL DEFAULT 0;
            DROP TRIGGER stock_reservations_insert_bumps_catalog_version;
            DROP TRIGGER stock_reservations_update_bumps_catalog_version;
            DROP TRIGGER stock_reservations_delete_bumps_catalog_version;
            CREATE TRIGGER stock_reservations_insert_bumps_catalog_version AFTER INSERT ON stock_reservations
            BEGIN UPDATE catalog_state SET version = version + 1, holds = holds + 1 WHERE id = 1; END;
            CREATE TRIGGER stock_reservations_update_bumps_catalog_version AFTER UPDATE ON stock_reservations
            BEGIN UPDATE catalog_state SET version = version + 1, holds = holds + 1 WHERE id = 1; END;
            CREATE TRIGGER stock_reservations_delete_bumps_catalog_version AFTER DELETE ON stock_reservations
            BEGIN UPDATE catalog_state SET version = version + 1, holds = holds + 1 WHERE id = 1; END;
            """),
        Migration(version: 36, sql: """
            -- Tag keys write the Turkish dotless ı as i (ProductSearchRules.tagKey), so ?tag=ışık
            -- finds a product tagged Işık: the new key is the old one with ı replaced. When a key
            -- changed, the catalog version moves on: no listing kept under the old keys is answered.
            UPDATE product_tags SET tag_key = replace(tag_key, 'ı', 'i') WHERE instr(tag_key, 'ı') > 0;
            UPDATE catalog_state SET version = version + 1 WHERE id = 1 AND changes() > 0;
            """),
        Migration(version: 37, sql: """
            -- Stock counts within ±1 000 000 000 (VariantDraft.maximumStock), as every write path
            -- now checks: the bulk change and imports had let 9 223 372 036 854 775 807 in, which
            -- overflowed the back office's sum of a product's stock.
            UPDATE variants SET stock = max(-1000000000, min(stock, 1000000000))
            WHERE stock > 1000000000 OR stock < -1000000000;
            """),
        Migration(version: 38, sql: """
            -- Every word of the index's title, meta and body columns (both rule families): a typed
            -- prefix of four letters or more is matched as the words it begins (SearchMatch), since
            -- FTS5 without a prefix index of that length merges the whole doclist of every such
            -- word before its first row (docs/BENCHMARKS.md, twenty-second session). Only added to,
            -- as search_vocabulary. Filled from the index itself; fts5vocab reads its terms.
            CREATE TABLE search_words (word TEXT PRIMARY KEY) WITHOUT ROWID;
            CREATE VIRTUAL TABLE temp.product_search_terms USING fts5vocab(main, product_search, 'col');
            INSERT OR IGNORE INTO search_words (word)
                SELECT term FROM temp.product_search_terms
                WHERE col IN ('title', 'meta', 'body', 'title_tr', 'meta_tr', 'body_tr');
            DROP TABLE temp.product_search_terms;
            """),
        Migration(version: 39, sql: """
            -- The key of the form a product was created from (the back office's "Add the product"):
            -- a second submit of that form answers the product the first one created instead of
            -- creating another (CatalogStore.insertProduct).
            CREATE TABLE product_creation_keys (
                key TEXT PRIMARY KEY,
                product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE
            ) WITHOUT ROWID;
            CREATE INDEX product_creation_keys_product ON product_creation_keys (product_id);
            """),
        Migration(version: 40, sql: """
            -- No statement looks cart lines up by variant alone (each names its owner, whose unique
            -- indexes lead with it), and every add to cart wrote this index's page too: one WAL
            -- frame in six of a new visitor's first add (docs/BENCHMARKS.md, twenty-third session).
            DROP INDEX cart_lines_variant;
            """),
        // Issue #14: a session's row no longer sits in its id's B-tree. Its id is the SHA-256 of a
        // random token, so each new session landed at a random place of a table whose leaves held
        // whole rows (about 35 a page), splitting them and rewriting their neighbours; as a rowid
        // table it appends, and only the id's index (about 60 entries a page) takes the random
        // insert. New visitors' adds: 5 842 → 6 187 a second, 185 → 175 µs each (docs/BENCHMARKS.md,
        // thirtieth session); a shopper's page reads its session through the index, unchanged.
        Migration(version: 41, sql: """
            CREATE TABLE sessions_v41 (
                id TEXT PRIMARY KEY,                         -- SHA-256 of the session token, hex
                user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,  -- NULL for a guest
                csrf_token_hash TEXT NOT NULL,
                created_at INTEGER NOT NULL,                 -- Unix seconds
                last_seen_at INTEGER NOT NULL,               -- Unix seconds
                expires_at INTEGER NOT NULL,                 -- Unix seconds
                is_persistent INTEGER NOT NULL DEFAULT 1 CHECK (is_persistent IN (0, 1))
            );
            INSERT INTO sessions_v41 (id, user_id, csrf_token_hash, created_at, last_seen_at, expires_at, is_persistent)
                SELECT id, user_id, csrf_token_hash, created_at, last_seen_at, expires_at, is_persistent FROM sessions;
            DROP TABLE sessions;                             -- its indexes go with it
            ALTER TABLE sessions_v41 RENAME TO sessions;
            CREATE INDEX sessions_user ON sessions (user_id) WHERE user_id IS NOT NULL;
            CREATE INDEX sessions_expires ON sessions (expires_at);
            """, rebuildsReferencedTable: true),
    ]
}

import Postgres
import SQLite
import ShopStore
import ShopStorePostgres
@testable import ShopStoreSQLite
import Testing

/// The indexes every cart-line write keeps up (issue #14: an add to cart's cost is mostly the
/// pages it writes).
@Suite("Cart line indexes")
struct CartLineIndexTests {
    /// Every statement on cart lines names their owner (a session or an account), whose unique
    /// index leads with it. Migration 40 dropped the index by variant alone that nothing read:
    /// it was one page in six of a new visitor's first add's write-ahead log.
    @Test(.bug(id: "14"), arguments: StoreKind.engines(for: .sessions))
    func cartLinesAreIndexedByTheirOwnersOnly(_ kind: StoreKind) throws {
        let stores = try StoreHarness(kind)
        let indexes: Set<String>
        if let postgres = stores.postgres {
            indexes = Set(try postgres.database.withConnection { connection in
                try connection.query("SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename = 'cart_lines'",
                                     [.text(postgres.schema)]).map { try $0.string(0) }
            })
        } else {
            indexes = Set(try stores.database.withConnection { connection in
                try connection.prepare("SELECT name FROM pragma_index_list('cart_lines')").query().map { try $0.string(0) }
            })
        }
        let primaryKey: Set<String> = kind == .postgres ? ["cart_lines_pkey"] : []
        #expect(indexes == Set(["cart_lines_session", "cart_lines_user"]).union(primaryKey))
    }
}

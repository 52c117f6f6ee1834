import Foundation
import ShopCore
import ShopStore
import ShopStoreSQLite
import ShopTestSupport
import Testing

/// Which implementation a contract test runs against.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case inMemory
    case sqlite

    var testDescription: String { rawValue }
}

/// A fresh catalog + session store of one kind; for SQLite, a migrated temporary file that is
/// deleted when the harness goes away.
final class StoreHarness {
    let catalog: CatalogStore
    let sessions: SessionStore
    let database: SQLiteDatabase?
    private let path: TemporaryDatabasePath?

    init(_ kind: StoreKind) throws {
        switch kind {
        case .inMemory:
            catalog = .inMemory()
            sessions = .inMemory()
            database = nil
            path = nil
        case .sqlite:
            let path = TemporaryDatabasePath()
            let database = try SQLiteDatabase.open(path: path.path, poolSize: 2)
            catalog = .sqlite(database)
            sessions = .sqlite(database)
            self.database = database
            self.path = path
        }
    }

    deinit {
        database?.close()
        path?.remove()
    }

    /// The published product with `handle`, or a test failure.
    func product(_ handle: String) throws -> Product {
        guard let product = try catalog.productByHandle(handle) else { throw MissingProduct(handle: handle) }
        return product
    }

    struct MissingProduct: Error { var handle: String }
}


import Foundation
import ShopCore
import ShopStore
@testable import ShopStoreSQLite
import SQLite
import ShopTestSupport
import Testing

/// An upsert writes a product's search rows from parts made in different places (issue #13,
/// point 6): the text folded on the fold thread, each category name folded once per upsert, the
/// vocabulary gathered ahead of the write. Put together, they must be what indexing each stored
/// product whole writes (`rebuildSearchIndexIfStale`, one `ProductSearchDocument` per family).
@Suite("Search index writes")
struct SearchIndexWriteTests {
    /// Small upserts fold inline, large ones on the fold thread with the triggers dropped.
    @Test(.bug(id: "13"), arguments: [3, DraftPreparer.inlineLimit + 1, SQLCatalog.bulkWriteMinimum])
    func anUpsertIndexesWhatARebuildIndexes(count: Int) throws {
        let path = TemporaryDatabasePath()
        defer { path.remove() }
        let database = try SQLiteDatabase.open(path: path.path, poolSize: 1)
        defer { database.close() }
        let categories = ["Işık ve Lambalar", "Chairs", "SILLAS DE MADERA", nil, "İç Mekân"]
        let words = ["Işıklı masa lambası", "Oak chair", "Silla pequeña", "Kırmızı DİVAN", "Lámparas nórdicas"]
        let drafts = (0..<count).map { index in
            ProductDraft.mock(handle: "p-\(index)", title: "\(words[index % 5]) \(index)",
                              category: categories[index % categories.count],
                              variants: [.mock(sku: "SKU-\(index)", barcode: index % 2 == 0 ? "400638133393\(index % 10)" : nil)],
                              tags: ["Yeni", "sale \(index % 3)", "Ağaç"])
        }
        _ = try CatalogStore.sqlite(database).upsert(drafts)
        let written = try Self.index(database)
        #expect(written.rows.count == count)
        #expect(written.vocabulary.contains("ısık"), "a category word is in the vocabulary")

        try database.withConnection { connection in
            try connection.execute("UPDATE search_index_state SET is_stale = 1 WHERE id = 1")
            try SQLCatalog.rebuildSearchIndexIfStale(connection)
        }
        let rebuilt = try Self.index(database)
        #expect(written.rows == rebuilt.rows)
        #expect(written.vocabulary == rebuilt.vocabulary)
    }

    static func index(_ database: SQLiteDatabase) throws -> (rows: [[String]], vocabulary: [String]) {
        try database.withConnection { connection in
            let rows = try connection.prepare("""
                SELECT rowid, title, meta, body, title_tr, meta_tr, body_tr, title_stems, text_stems,
                    title_stems_tr, text_stems_tr, skus FROM product_search ORDER BY rowid
                """).query().map { row in try (0..<12).map { try $0 == 0 ? String(row.int64(0)) : row.string($0) } }
            let vocabulary = try connection.prepare("SELECT term FROM search_vocabulary ORDER BY term").query()
                .map { try $0.string(0) }
            return (rows, vocabulary)
        }
    }
}

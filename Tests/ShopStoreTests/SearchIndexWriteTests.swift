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
        #expect(written.words == rebuilt.words)
        #expect(Set(written.vocabulary).isSubset(of: written.words))
    }

    /// Migration 38 fills `search_words` from the index itself (FTS5's own tokens of the title,
    /// meta and body columns): the same words the index writes add, Turkish and Spanish letters,
    /// tags, categories and descriptions included.
    @Test(.bug(id: "14")) func migration38FillsTheWordsTheIndexWritesAdd() throws {
        let path = TemporaryDatabasePath()
        defer { path.remove() }
        let database = try SQLiteDatabase.open(path: path.path, poolSize: 1)
        defer { database.close() }
        let drafts: [ProductDraft] = [
            .mock(handle: "lamp", title: "Işıklı masa lambası", category: "İç Mekân", tags: ["Yeni", "Ağaç"]),
            .mock(handle: "silla", title: "Silla pequeña", category: "Sillas", tags: ["Niño"]),
            .mock(handle: "chair", title: "Oak chair (2-pack)", category: nil, tags: []),
        ]
        _ = try CatalogStore.sqlite(database).upsert(drafts.map { draft in
            var draft = draft
            draft.descriptionText = "Straße café, hand-made in İzmir; ÇİNİ tiles & 3 lampholders."
            return draft
        })
        let written = try Self.index(database).words
        #expect(written.contains("lampholders"), "a description word")

        let migration = try #require(ShopSchema.migrations.first { $0.version == 38 })
        try database.withConnection { connection in
            try connection.execute("DROP TABLE search_words")
            try connection.execute(migration.sql)
        }
        #expect(try Self.index(database).words == written)
    }

    static func index(_ database: SQLiteDatabase) throws -> (rows: [[String]], vocabulary: [String], words: Set<String>) {
        try database.withConnection { connection in
            let rows = try connection.prepare("""
                SELECT rowid, title, meta, body, title_tr, meta_tr, body_tr, title_stems, text_stems,
                    title_stems_tr, text_stems_tr, skus FROM product_search ORDER BY rowid
                """).query().map { row in try (0..<12).map { try $0 == 0 ? String(row.int64(0)) : row.string($0) } }
            let vocabulary = try connection.prepare("SELECT term FROM search_vocabulary ORDER BY term").query()
                .map { try $0.string(0) }
            let words = try connection.prepare("SELECT word FROM search_words").query().map { try $0.string(0) }
            return (rows, vocabulary, Set(words))
        }
    }
}

import ShopStore
import SQLite

/// A write transaction's search-index writes (`product_search`, `product_tags`,
/// `search_vocabulary`, `search_words`), held for up to `capacity` products and written back to back.
///
/// Why not one product at a time: Debian 12's SQLite (3.40) FTS5 writes its pending terms to a
/// new index segment at every statement savepoint opened after it was written, and every
/// `INSERT INTO products` opens one (it has triggers and a unique handle). Interleaved with the
/// product rows, each product's search row became a segment of its own, merged again and again:
/// 18 % of a 100 000-row import's time (issue #13, point 6; docs/BENCHMARKS.md). Written back to
/// back, a batch is one segment.
///
/// The statements and their order are the same as one product at a time; only when they run
/// changes, so nothing in the transaction may read these four tables between `add` and
/// `flush` (the upsert reads products, variants, images and categories only). Call `flush()`
/// before the transaction commits.
struct SearchIndexBatch {
    private struct Entry {
        var productID: Int64
        /// One per `ProductSearchRules.Family`, in `allCases` order.
        var documents: [ProductSearchDocument]
        /// The documents' `vocabulary`, all families together.
        var vocabulary: Set<String>
        /// The documents' `words` (a superset of `vocabulary`), all families together.
        var words: Set<String>
        var tags: [String]
        /// `ProductSearchRules.tagKey` of each tag, in order.
        var tagKeys: [String]
        /// False for a product created in this transaction (no rows to delete first).
        var replacing: Bool
    }

    let capacity: Int
    private var pending: [Entry] = []
    /// The vocabulary words this transaction already added (skipped).
    private var addedVocabulary: Set<String> = []
    /// The `search_words` this transaction already added (skipped).
    private var addedWords: Set<String> = []

    init(capacity: Int = 256) {
        self.capacity = max(capacity, 1)
        pending.reserveCapacity(self.capacity)
    }

    /// Holds a product's search rows (replacing its old ones); writes the batch when full.
    /// - Parameters:
    ///   - vocabulary: the union of the documents' `vocabulary`, when the caller has it (an import
    ///     makes it on its fold thread); nil to make it here.
    ///   - words: the union of the documents' `words`, likewise.
    mutating func add(productID: Int64, documents: [ProductSearchDocument], vocabulary: Set<String>? = nil,
                      words: Set<String>? = nil, tags: [String], tagKeys: [String], replacing: Bool,
                      _ connection: Connection) throws {
        pending.append(Entry(productID: productID, documents: documents,
                             vocabulary: vocabulary ?? ProductSearchDocument.vocabulary(of: documents),
                             words: words ?? ProductSearchDocument.words(of: documents),
                             tags: tags, tagKeys: tagKeys, replacing: replacing))
        if pending.count >= capacity { try flush(connection) }
    }

    /// Writes every held product's rows: the FTS5 rows first, all together, then the words and tags.
    /// Words are only added: one whose products are gone stays until the next rebuild (a
    /// prefix then also stands for it, which finds nothing more).
    mutating func flush(_ connection: Connection) throws {
        guard !pending.isEmpty else { return }
        let delete = try connection.prepare("DELETE FROM product_search WHERE rowid = ?")
        let insert = try connection.prepare("""
            INSERT INTO product_search (rowid, title, meta, body, title_tr, meta_tr, body_tr,
                title_stems, text_stems, title_stems_tr, text_stems_tr, skus)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for entry in pending {
            if entry.replacing { try delete.run([.integer(entry.productID)]) }
            try insert.run([.integer(entry.productID)]
                           + entry.documents.flatMap { [.text($0.title), .text($0.meta), .text($0.body)] }
                           + entry.documents.flatMap { [.text($0.titleStems), .text($0.textStems)] }
                           + [.text(entry.documents.first?.skuKeys ?? "")])
        }
        let addVocabulary = try connection.prepare("INSERT OR IGNORE INTO search_vocabulary (term) VALUES (?)")
        let addWord = try connection.prepare("INSERT OR IGNORE INTO search_words (word) VALUES (?)")
        let deleteTags = try connection.prepare("DELETE FROM product_tags WHERE product_id = ?")
        let insertTag = try connection.prepare(
            "INSERT OR IGNORE INTO product_tags (product_id, tag, tag_key) VALUES (?, ?, ?)")
        for entry in pending {
            for word in entry.vocabulary where addedVocabulary.insert(word).inserted {
                try addVocabulary.run([.text(word)])
            }
            for word in entry.words where addedWords.insert(word).inserted {
                try addWord.run([.text(word)])
            }
            if entry.replacing { try deleteTags.run([.integer(entry.productID)]) }
            for (tag, key) in zip(entry.tags, entry.tagKeys) {
                try insertTag.run([.integer(entry.productID), .text(tag), .text(key)])
            }
        }
        pending.removeAll(keepingCapacity: true)
    }
}

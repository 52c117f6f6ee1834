import Foundation
public import Postgres
import ShopCore
import ShopStore

/// Search on PostgreSQL: a product's `ProductSearchDocument`s as `tsvector`s (migration 4) and a
/// `SearchTerms.Match` as `tsquery`, both written by the app — no text-search configuration,
/// parser or dictionary of the server's touches them, so the words are exactly the ones
/// `SearchFolding` and the stemmers made, as on SQLite.
///
/// A family's vector holds each word at position 1 (title, weight A), 2 (meta, B) or 3
/// (description, C), and each stem, marked with a leading `~`, at 4 (title stems, A) or 5 (the
/// others', D). A match restricts each lexeme to the weights of its fields:
///
/// | fields          | words           | stems        |
/// |-----------------|-----------------|--------------|
/// | `.title`        | `'w':A`         | `'~s':A`     |
/// | `.titleAndMeta` | `'w':AB`        | `'~s':A`     |
/// | `.all`          | `'w':ABC`       | `'~s':AD`    |
///
/// The last word is a prefix (`'w':*ABC`); a `~` stem is never reached by a word's prefix
/// (folded words are letters and digits). SKU keys and barcode tokens are a vector of their own.
enum PostgresSearch {
    /// The longest lexeme PostgreSQL keeps (2 KiB less one byte); longer words are not indexed.
    static let maximumLexemeBytes = 2046

    /// The terms of `query`, expanded with this connection's look-ups.
    static func terms(_ query: ProductQuery, _ connection: PostgresConnection) throws -> SearchTerms {
        try SearchTerms(query, matchesAny: { try matchesAny($0, connection) },
                        vocabulary: { try vocabulary(near: $0, edits: $1, connection) })
    }

    /// "Did you mean" with this connection's look-ups.
    static func suggestion(_ terms: SearchTerms, _ connection: PostgresConnection) throws -> String? {
        try terms.suggestion(matchesAny: { try matchesAny($0, connection) },
                             vocabulary: { try vocabulary(near: $0, edits: $1, connection) })
    }

    /// The condition (with `?` placeholders, for `PGCatalog.numbered`) that `product_search s`
    /// matches `match`.
    static func condition(_ match: SearchTerms.Match) -> (sql: String, values: [PostgresValue]) {
        let column = match.family == .turkish ? "s.turkish" : "s.standard"
        var sql = "\(column) @@ ?::tsquery"
        var values: [PostgresValue] = [.text(query(match.terms, match, typos: match.typos))]
        // A Turkish search's words by the standard rules, in the standard family (`SearchTerms.Match`).
        if let alternative = match.standardAlternative {
            sql = "(\(sql) OR s.standard @@ ?::tsquery)"
            values.append(.text(query(alternative, match, typos: false)))
        }
        guard !match.skuKey.isEmpty else { return (sql, values) }
        let prefix = match.identifiersByPrefix ? ":*" : ""
        let identifiers = ([match.skuKey] + (match.barcodeToken.map { [$0] } ?? [])).map { lexeme($0) + prefix }
            .joined(separator: " | ")
        return ("(\(sql) OR s.skus @@ ?::tsquery)", values + [.text(identifiers)])
    }

    /// `terms` as a `tsquery` of `match.fields`' weights, ANDed.
    private static func query(_ terms: [SearchTerms.Term], _ match: SearchTerms.Match, typos: Bool) -> String {
        let (wordWeights, stemWeights) = switch match.fields {
        case .title: ("A", "A")
        case .titleAndMeta: ("AB", "A")
        case .all: ("ABC", "AD")
        }
        return terms.map { term in
            var alternatives = [lexeme(term.word) + ":" + (term.isPrefix ? "*" : "") + wordWeights,
                                lexeme("~" + term.stem) + ":" + stemWeights]
            if typos { alternatives += term.typoCandidates.map { lexeme($0) + ":" + wordWeights } }
            return "(" + alternatives.joined(separator: " | ") + ")"
        }.joined(separator: " & ")
    }

    /// A quoted lexeme of a `tsvector` or `tsquery` literal.
    static func lexeme(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// Whether any published product matches.
    static func matchesAny(_ match: SearchTerms.Match, _ connection: PostgresConnection) throws -> Bool {
        let condition = condition(match)
        return try connection.first(PGCatalog.numbered("""
            SELECT 1 FROM product_search s JOIN products p ON p.id = s.product_id
            WHERE \(condition.sql) AND p.is_published LIMIT 1
            """), condition.values) != nil
    }

    /// The `search_vocabulary` words that may lie within `edits` of `word` (as SQLite's look-up).
    static func vocabulary(near word: String, edits: Int, _ connection: PostgresConnection) throws -> [String] {
        let length = word.unicodeScalars.count
        var words: [String] = []
        for scalar in SearchTolerance.leadingScalars(of: word) {
            guard let next = Unicode.Scalar(scalar.value + 1) else { continue }
            words += try connection.query("""
                SELECT term FROM search_vocabulary WHERE term >= $1 AND term < $2 AND length(term) BETWEEN $3 AND $4
                """, [.text(String(scalar)), .text(String(next)), PostgresValue(length - edits), PostgresValue(length + edits)])
                .map { try $0.string(0) }
        }
        return words
    }

    /// A family's document as a `tsvector` literal (see the type's notes).
    static func vector(_ document: ProductSearchDocument) -> String {
        var positions: [String: [String]] = [:]
        var order: [String] = []
        for (text, mark, position) in [(document.title, "", "1A"), (document.meta, "", "2B"), (document.body, "", "3C"),
                                       (document.titleStems, "~", "4A"), (document.textStems, "~", "5D")] {
            for word in text.split(separator: " ") where !word.isEmpty {
                let lexeme = mark + word
                guard lexeme.utf8.count <= maximumLexemeBytes else { continue }
                if positions[lexeme] == nil { order.append(lexeme) }
                if positions[lexeme]?.last != position { positions[lexeme, default: []].append(position) }
            }
        }
        return order.map { lexeme($0) + ":" + positions[$0]!.joined(separator: ",") }.joined(separator: " ")
    }

    /// The SKU keys and barcode tokens as a `tsvector` literal.
    static func identifiers(_ document: ProductSearchDocument) -> String {
        document.skuKeys.split(separator: " ").filter { !$0.isEmpty && $0.utf8.count <= maximumLexemeBytes }
            .map { lexeme(String($0)) }.joined(separator: " ")
    }

    /// Writes a product's search row, tag rows and new vocabulary words (replacing its old rows).
    /// - Parameter documents: one per `ProductSearchRules.Family`, in `allCases` order.
    static func index(productID: Int64, documents: [ProductSearchDocument], newWords: Set<String>, tags: [String],
                      tagKeys: [String], replacing: Bool, _ connection: PostgresConnection) throws {
        precondition(ProductSearchRules.Family.allCases == [.standard, .turkish])
        try connection.run("""
            INSERT INTO product_search (product_id, standard, turkish, skus) VALUES ($1, $2::tsvector, $3::tsvector, $4::tsvector)
            ON CONFLICT (product_id) DO UPDATE SET standard = excluded.standard, turkish = excluded.turkish, skus = excluded.skus
            """, [.integer(productID), .text(vector(documents[0])), .text(vector(documents[1])), .text(identifiers(documents[0]))])
        let words = newWords.filter { $0.utf8.count <= maximumLexemeBytes }
        if !words.isEmpty {
            try connection.run("INSERT INTO search_vocabulary (term) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING",
                               [PostgresArray.texts(words.sorted())])
        }
        if replacing { try connection.run("DELETE FROM product_tags WHERE product_id = $1", [.integer(productID)]) }
        if !tags.isEmpty {
            try connection.run("""
                INSERT INTO product_tags (product_id, tag, tag_key)
                SELECT $1, tag, tag_key FROM unnest($2::text[], $3::text[]) AS t (tag, tag_key) ON CONFLICT DO NOTHING
                """, [.integer(productID), PostgresArray.texts(tags), PostgresArray.texts(tagKeys)])
        }
    }
}

extension PostgresDatabase {
    /// Indexes every product for search again — its search vectors, tag rows, vocabulary and sort
    /// keys (`ProductSearchRules.sortTitle`) —
    /// from the product rows, inside the caller's transaction on `connection`: after rows were
    /// copied in from another engine (`shoppable db copy`), which has no such columns to copy.
    /// - Returns: how many products were indexed.
    /// - Throws: `PostgresError`; `PostgresStoreError.corruptValue` for a product row that does not decode.
    @discardableResult
    public static func reindexCatalog(_ connection: PostgresConnection) throws -> Int {
        try connection.execute("DELETE FROM product_search; DELETE FROM product_tags; DELETE FROM search_vocabulary")
        let rows = try connection.query("""
            SELECT p.id, p.title, p.vendor, p.tags, p.description_text, c.name,
              (SELECT coalesce(json_agg(v.sku ORDER BY v.position), '[]') FROM variants v WHERE v.product_id = p.id AND v.sku IS NOT NULL),
              (SELECT coalesce(json_agg(v.barcode ORDER BY v.position), '[]') FROM variants v
               WHERE v.product_id = p.id AND v.barcode IS NOT NULL)
            FROM products p LEFT JOIN categories c ON c.id = p.category_id ORDER BY p.id
            """)
        let stemmer = ProductSearchStemmer()
        var addedWords: Set<String> = []
        for row in rows {
            let id = try row.int64(0)
            guard let tags = JSONStringArray.decode(try row.string(3)),
                  let skus = JSONStringArray.decode(try row.string(6)),
                  let barcodes = JSONStringArray.decode(try row.string(7)) else {
                throw PostgresStoreError.corruptValue(table: "products", column: "tags", rowID: id)
            }
            let documents = ProductSearchDocument.allFamilies(
                title: try row.string(1), vendor: try row.string(2), tags: tags, categoryName: try row.optionalString(5),
                descriptionText: try row.string(4), skus: skus, barcodes: barcodes, stemmer: stemmer)
            let vocabulary = ProductSearchDocument.vocabulary(of: documents)
            try PostgresSearch.index(productID: id, documents: documents, newWords: vocabulary.subtracting(addedWords),
                                     tags: tags, tagKeys: tags.map(ProductSearchRules.tagKey), replacing: false, connection)
            // The sort keys too: a source that never computed them (rows from before they existed)
            // must still sort by name.
            let title = try row.string(1)
            try connection.run("UPDATE products SET sort_title = $1, sort_title_tr = $2, sort_title_es = $3 WHERE id = $4",
                               [.text(documents[0].title), .text(ProductSearchRules.sortTitle(title, locale: .turkish)),
                                .text(ProductSearchRules.sortTitle(title, locale: .spanish)), .integer(id)])
            addedWords.formUnion(vocabulary)
        }
        return rows.count
    }
}

public import ShopCore
import Foundation
import Stemmer

/// The search and filter rules every `CatalogStore` applies, shared so that every SQL engine
/// indexes the same text and compares the same keys.
public enum ProductSearchRules {
    /// The rule families a product's text is indexed with: Turkish folding differs from the
    /// others only in its `I`/`ı` rule, so two foldings cover all `SearchLocale`s.
    public enum Family: Sendable, CaseIterable {
        /// English and Spanish (`SearchLocale.english` rules).
        case standard
        /// Turkish (`SearchLocale.turkish` rules).
        case turkish

        /// The family of a locale.
        public init(_ locale: SearchLocale) { self = locale.keepsDotlessI ? .turkish : .standard }

        /// The locale whose folding this family indexes with.
        public var locale: SearchLocale { self == .turkish ? .turkish : .english }
    }

    /// The key the tag filter compares (`ProductQuery.tag`): the tag with `İ` written as `i`,
    /// lower-cased with Unicode's default mapping, in NFC, and `ı` written as `i` — so Turkish
    /// dotless and dotted I match whichever case was typed: `"Işık"`, `"IŞIK"`, `"ışık"` → `"işik"`
    /// (before migration 36 `?tag=ışık` did not find `Işık`: Unicode lower-cases `I` to `i`).
    /// `"Oak"`, `"OAK"` → `"oak"`; `"İndirim"` → `"indirim"`. Other diacritics and punctuation
    /// count (`"çay"` ≠ `"cay"`).
    public static func tagKey(_ tag: String) -> String {
        // ASCII (most tags) lower-cases byte by byte, without Foundation: the same key, ~20×
        // cheaper (Foundation's replace and NFC were 7 % of an uncached category page, issue #14).
        if tag.utf8.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: tag.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
        }
        return tag.replacingOccurrences(of: "İ", with: "i").lowercased().precomposedStringWithCanonicalMapping
            .replacingOccurrences(of: "ı", with: "i")
    }

    /// The key `ProductQuery.Sort.name` orders by in `locale`, compared as UTF-8 bytes: the title
    /// folded (`SearchFolding.fold`, so case, most diacritics and punctuation do not count), except
    /// that the letters the language's alphabet keeps apart are written as their base letter
    /// followed by `~` (U+007E, above every ASCII letter), so each sorts after all words of its
    /// base letter and before the next letter:
    /// - Turkish: `ç`→`c~`, `ğ`→`g~`, `ı`→`h~` (between `h` and `i`), `ö`→`o~`, `ş`→`s~`,
    ///   `ü`→`u~`; `I`/`İ` lower-case to `ı`/`i`. "cam" < "çay" < "dut"; "ılık" < "içki".
    /// - Spanish: `ñ`→`n~`. "nube" < "nz" < "ñandú" < "oso".
    /// - English: the folded title. "éclair" sorts as "eclair".
    /// This is the primary strength of each language's CLDR collation for the letters of its
    /// alphabet (what `String.compare(_:locale:)` gives); ties fall to the product id.
    public static func sortTitle(_ title: String, locale: SearchLocale = .english) -> String {
        let letters: [Character: String]
        switch locale {
        case .english: return SearchFolding.fold(title, locale: .english)
        case .turkish: letters = ["ç": "c~", "ğ": "g~", "ı": "h~", "ö": "o~", "ş": "s~", "ü": "u~"]
        case .spanish: letters = ["ñ": "n~"]
        }
        let lower = locale.keepsDotlessI
            ? title.replacingOccurrences(of: "İ", with: "i").replacingOccurrences(of: "I", with: "ı").lowercased()
            : title.lowercased()
        guard lower.contains(where: { letters[$0] != nil }) else { return SearchFolding.fold(lower, locale: locale) }
        // Character by character, so a kept letter stays where it was among the folded words.
        var key = ""
        var pendingSpace = false
        for character in lower {
            let piece = letters[character] ?? SearchFolding.fold(String(character), locale: locale)
            if piece.isEmpty { pendingSpace = true; continue }
            if pendingSpace && !key.isEmpty { key += " " }
            pendingSpace = false
            key += piece
        }
        return key
    }
}

/// Word stems for the search index and for queries (Snowball, `Stemmer`), the one home of which
/// stemmers apply: a product is indexed with the stems of **all three** stemmers (English,
/// Turkish, Spanish; a shop's text is in its merchant's language while shoppers search in theirs),
/// and a query word is stemmed with the **shopper's** language's stemmer only. A query word then
/// matches a product when the word itself, or its stem among the product's stems, is found:
/// "mugs" (en) finds "Mug", "lambalar" (tr) finds "lamba", "sillas" (es) finds "silla".
///
/// Words are `SearchFolding` words (stemmed after folding, so index and query agree). Not safe to
/// share between threads (libstemmer state): one per batch of products or per search.
public final class ProductSearchStemmer {
    private let stemmers: [Stemmer]
    /// Each word's distinct stems under the three stemmers, remembered: a catalog's vocabulary
    /// is small (a 100 000-row import has a few thousand distinct words), so an import asks
    /// libstemmer once per word rather than three times per occurrence (issue #13, point 6).
    private var stemsByWord: [Substring: [String]] = [:]
    /// Beyond this many words the memory is cleared (a long-running caller stays bounded).
    private static let rememberedWordLimit = 200_000

    /// Makes the three stemmers.
    public init() {
        stemmers = [Stemmer(.english), Stemmer(.turkish), Stemmer(.spanish)]
    }

    // MARK: Words remembered for a batch (issue #13, point 6)

    /// A run of text between ASCII white space, folded in both rule families: its words' ids.
    private struct FoldedChunk {
        var standard: [Int32]
        var turkish: [Int32]
    }

    /// Each distinct run of raw text met so far (folding is defined scalar by scalar, and ASCII
    /// white space separates words in every family, so a text folds as its runs do, joined).
    private var chunks: [Substring: FoldedChunk] = [:]
    /// Folded words by id, and the id of each.
    private var words: [String] = []
    private var wordIDs: [Substring: Int32] = [:]
    /// Each word's stem ids (nil until asked), and the stems by id.
    private var wordStemIDs: [[Int32]?] = []
    private var stemTexts: [String] = []
    private var stemIDs: [String: Int32] = [:]
    /// `indexStems(ofWords:)` marks the words and stems it has written with `generation`.
    private var wordMarks: [UInt32] = []
    private var stemMarks: [UInt32] = []
    private var generation: UInt32 = 0

    /// A text folded in both rule families, as word ids of this stemmer.
    struct FoldedWords: Equatable {
        var standard: [Int32]
        var turkish: [Int32]
    }

    /// Forgets the remembered runs and words once there are too many (a long-running caller
    /// stays bounded). Call between documents only: ids from before are void afterwards.
    func forgetWordsIfFull() {
        guard words.count >= Self.rememberedWordLimit || chunks.count >= Self.rememberedWordLimit else { return }
        chunks.removeAll(keepingCapacity: true)
        words.removeAll(keepingCapacity: true)
        wordIDs.removeAll(keepingCapacity: true)
        wordStemIDs.removeAll(keepingCapacity: true)
        stemTexts.removeAll(keepingCapacity: true)
        stemIDs.removeAll(keepingCapacity: true)
        wordMarks.removeAll(keepingCapacity: true)
        stemMarks.removeAll(keepingCapacity: true)
    }

    /// `SearchFolding.foldBothFamilies(text)` as word ids: each distinct run of `text` between
    /// ASCII white space is folded once per batch (a 100 000-row import folds ~30 000
    /// descriptions made of a few thousand distinct words).
    func foldedWords(_ text: String) -> FoldedWords {
        var result = FoldedWords(standard: [], turkish: [])
        let utf8 = text.utf8
        var start = utf8.startIndex
        var index = start
        func addChunk(_ end: String.Index) {
            guard start != end else { return }
            let chunk = folded(text[start..<end])
            result.standard += chunk.standard
            result.turkish += chunk.turkish
        }
        while index != utf8.endIndex {
            let byte = utf8[index]
            let next = utf8.index(after: index)
            if byte == 0x20 || (0x09...0x0D).contains(byte) {
                addChunk(index)
                start = next
            }
            index = next
        }
        addChunk(index)
        return result
    }

    private func folded(_ chunk: Substring) -> FoldedChunk {
        if let known = chunks[chunk] { return known }
        let both = SearchFolding.foldBothFamilies(String(chunk))
        let standard = both.standard.split(separator: " ").map(wordID)
        let folded = FoldedChunk(
            standard: standard,
            turkish: both.turkish == both.standard ? standard : both.turkish.split(separator: " ").map(wordID))
        // Kept as its own string: a Substring key would keep the whole text it came from alive.
        chunks[Substring(String(chunk))] = folded
        return folded
    }

    private func wordID(_ word: Substring) -> Int32 {
        if let id = wordIDs[word] { return id }
        let id = Int32(words.count)
        let text = String(word)
        words.append(text)
        wordIDs[Substring(text)] = id
        wordStemIDs.append(nil)
        wordMarks.append(0)
        return id
    }

    /// The words of `ids`, space-separated: the folded text.
    func text(ofWords ids: [Int32]) -> String {
        ids.map { words[Int($0)] }.joined(separator: " ")
    }

    /// `indexStems(of: text(ofWords: a + b + …))`, without splitting or hashing the words again.
    func indexStems(ofWords sequences: [Int32]...) -> String {
        generation &+= 1
        if generation == 0 {  // wrapped: old marks could match again
            for index in wordMarks.indices { wordMarks[index] = 0 }
            for index in stemMarks.indices { stemMarks[index] = 0 }
            generation = 1
        }
        var result: [String] = []
        for ids in sequences {
            for word in ids where wordMarks[Int(word)] != generation {
                wordMarks[Int(word)] = generation
                for stem in stemIDs(ofWord: word) where stemMarks[Int(stem)] != generation {
                    stemMarks[Int(stem)] = generation
                    result.append(stemTexts[Int(stem)])
                }
            }
        }
        return result.joined(separator: " ")
    }

    private func stemIDs(ofWord word: Int32) -> [Int32] {
        if let known = wordStemIDs[Int(word)] { return known }
        let ids = wordStems(Substring(words[Int(word)])).map { stem in
            if let id = stemIDs[stem] { return id }
            let id = Int32(stemTexts.count)
            stemTexts.append(stem)
            stemIDs[stem] = id
            stemMarks.append(0)
            return id
        }
        wordStemIDs[Int(word)] = ids
        return ids
    }

    /// The distinct stems of the words of folded `text` under all three stemmers, in first-seen
    /// order, space-separated: what the index's stem columns hold.
    public func indexStems(of text: String) -> String {
        var seen: Set<Substring> = []
        var stems: Set<String> = []
        var result: [String] = []
        for word in text.split(separator: " ") where seen.insert(word).inserted {
            for stem in wordStems(word) where stems.insert(stem).inserted {
                result.append(stem)
            }
        }
        return result.joined(separator: " ")
    }

    /// The distinct stems of one folded word under the three stemmers, in stemmer order.
    private func wordStems(_ word: Substring) -> [String] {
        if let known = stemsByWord[word] { return known }
        if stemsByWord.count >= Self.rememberedWordLimit { stemsByWord.removeAll(keepingCapacity: true) }
        var distinct: [String] = []
        let text = String(word)
        for stemmer in stemmers {
            let stem = stemmer.stem(text)
            if !distinct.contains(stem) { distinct.append(stem) }
        }
        // Kept as its own string: a Substring key would keep the whole text it came from alive.
        stemsByWord[Substring(text)] = distinct
        return distinct
    }

    /// The stem of one folded query word with the stemmer of the shopper's `locale` — or the
    /// word itself when the stem is shorter than ``shortestQueryStem`` letters: the Turkish
    /// stemmer takes "aydı" (a word typed halfway) to "a", which every English description's
    /// article "a" stems to, so the stem alternative found the whole catalog (a fresh tester).
    public func queryStem(of word: String, locale: SearchLocale) -> String {
        let language: Stemmer.Language = switch locale {
        case .english: .english
        case .turkish: .turkish
        case .spanish: .spanish
        }
        let stem = stemmers.first { $0.language == language }!.stem(word)
        return stem.unicodeScalars.count < Self.shortestQueryStem ? word : stem
    }

    /// The fewest letters a query word's stem may have to be matched as a stem.
    public static let shortestQueryStem = 3
}

extension ProductSearchRules {
    /// The key SKU search compares: the SKU folded with English rules and its words joined
    /// without separators, so case, blanks and punctuation do not count ("  mug-001/BLK " →
    /// "mug001blk"). A query finds a product when its own key equals (exact) or starts (prefix)
    /// one of the product's SKU keys; exact SKU matches rank first.
    public static func skuKey(_ sku: String) -> String {
        SearchFolding.terms(sku, locale: .english).joined()
    }

    /// The word a barcode is indexed under, beside the SKU keys (so the index keeps one column
    /// of identifiers): `barcodeMarker` followed by its `skuKey` ("4006381 333931" →
    /// "é4006381333931"); nil for a blank one. The marker keeps the two apart: SKU keys are
    /// folded without diacritics, so no SKU search reaches a barcode (a shopper's "40" does
    /// not list every barcode starting with 40) and no barcode search reaches a SKU.
    public static func barcodeToken(_ barcode: String) -> String? {
        let key = skuKey(barcode)
        return key.isEmpty ? nil : barcodeMarker + key
    }

    /// A letter no `skuKey` holds (English folding drops diacritics) that FTS5's `unicode61`
    /// tokenizer (`remove_diacritics 0`) keeps as part of the word.
    static let barcodeMarker = "é"

    /// The `barcodeToken` a search text looks barcodes up by, or nil when the text is not a
    /// barcode or a prefix of one worth looking up: its `skuKey` must be at least
    /// `minimumBarcodePrefix` digits (an ISBN-10 may end in `x`). A shorter number ("12", "2024")
    /// would find every barcode starting with it.
    public static func barcodeSearchToken(_ text: String) -> String? {
        let key = skuKey(text)
        let digits = key.last == "x" ? key.dropLast() : Substring(key)
        guard digits.count >= minimumBarcodePrefix, digits.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
        return barcodeMarker + key
    }

    /// The fewest digits a search needs to look barcodes up by prefix (and exactly).
    public static let minimumBarcodePrefix = 4
}

/// A product's searchable text in one rule family, folded (`SearchFolding.fold`), in the three
/// fields relevance ranks by, with their stems (`ProductSearchStemmer`) and the SKU keys. Stores
/// index exactly these strings.
public struct ProductSearchDocument: Hashable, Sendable {
    /// The folded title.
    public var title: String
    /// The folded vendor, tags and category name, space-separated.
    public var meta: String
    /// The folded description text.
    public var body: String
    /// `ProductSearchStemmer.indexStems(of: title)`.
    public var titleStems: String
    /// The stems of `meta` and `body` together.
    public var textStems: String
    /// `ProductSearchRules.skuKey` of each non-empty SKU, then `ProductSearchRules.barcodeToken`
    /// of each non-empty barcode, distinct, space-separated (the same in every family).
    public var skuKeys: String

    /// Folds a product's fields with the rules of `family`.
    /// - Parameters:
    ///   - title: the product title.
    ///   - vendor: the vendor ("" when unknown).
    ///   - tags: the tags.
    ///   - categoryName: the name of the product's category, nil when it has none.
    ///   - descriptionText: the plain-text description.
    ///   - skus: the variants' SKUs (nil and blank ones are left out).
    ///   - barcodes: the variants' barcodes (nil and blank ones are left out).
    ///   - family: the folding rules.
    ///   - stemmer: the stemmers (one per batch).
    public init(title: String, vendor: String, tags: [String], categoryName: String?, descriptionText: String,
                skus: [String?] = [], barcodes: [String?] = [], family: ProductSearchRules.Family,
                stemmer: ProductSearchStemmer) {
        let locale = family.locale
        self.title = SearchFolding.fold(title, locale: locale)
        self.meta = ([vendor] + tags)
            .map { SearchFolding.fold($0, locale: locale) }
            .filter { !$0.isEmpty }
            .joined(separator: " ")
        self.body = SearchFolding.fold(descriptionText, locale: locale)
        self.titleStems = stemmer.indexStems(of: self.title)
        self.textStems = stemmer.indexStems(of: self.meta + " " + self.body)
        var keys: [String] = []
        for key in skus.compactMap({ $0.map(ProductSearchRules.skuKey) }) + barcodes.compactMap({
            $0.flatMap(ProductSearchRules.barcodeToken)
        }) where !key.isEmpty && !keys.contains(key) {
            keys.append(key)
        }
        self.skuKeys = keys.joined(separator: " ")
        addCategory(categoryName, family: family, stemmer: stemmer)
    }

    /// The documents of every `ProductSearchRules.Family`, in `allCases` order: the same as one
    /// `init` per family, with each distinct run of text between white space folded once per
    /// `stemmer` in both families (`SearchFolding.foldBothFamilies`), each distinct word stemmed
    /// once per `stemmer`, and the Turkish fields taken from the standard ones where they agree.
    /// What a store indexes a product with (issue #13, point 6: an import folds 30 000
    /// descriptions made of a few thousand distinct words).
    /// - Parameters: as `init`, without the family.
    public static func allFamilies(title: String, vendor: String, tags: [String], categoryName: String?,
                                   descriptionText: String, skus: [String?] = [], barcodes: [String?] = [],
                                   stemmer: ProductSearchStemmer) -> [ProductSearchDocument] {
        precondition(ProductSearchRules.Family.allCases == [.standard, .turkish])
        stemmer.forgetWordsIfFull()
        let titles = stemmer.foldedWords(title)
        let metas = ([vendor] + tags).map(stemmer.foldedWords)
        let bodies = stemmer.foldedWords(descriptionText)
        var keys: [String] = []
        for key in skus.compactMap({ $0.map(ProductSearchRules.skuKey) }) + barcodes.compactMap({
            $0.flatMap(ProductSearchRules.barcodeToken)
        }) where !key.isEmpty && !keys.contains(key) {
            keys.append(key)
        }
        let skuKeys = keys.joined(separator: " ")
        let meta = ProductSearchStemmer.FoldedWords(standard: metas.flatMap(\.standard), turkish: metas.flatMap(\.turkish))
        let standard = ProductSearchDocument(
            title: stemmer.text(ofWords: titles.standard), meta: stemmer.text(ofWords: meta.standard),
            body: stemmer.text(ofWords: bodies.standard), titleStems: stemmer.indexStems(ofWords: titles.standard),
            textStems: stemmer.indexStems(ofWords: meta.standard, bodies.standard), skuKeys: skuKeys)
        // Most text has no `I`/`ı`: its Turkish words are the standard ones, and so are their stems.
        var turkish = standard
        if titles.turkish != titles.standard {
            turkish.title = stemmer.text(ofWords: titles.turkish)
            turkish.titleStems = stemmer.indexStems(ofWords: titles.turkish)
        }
        if meta.turkish != meta.standard || bodies.turkish != bodies.standard {
            turkish.meta = stemmer.text(ofWords: meta.turkish)
            turkish.body = stemmer.text(ofWords: bodies.turkish)
            turkish.textStems = stemmer.indexStems(ofWords: meta.turkish, bodies.turkish)
        }
        var documents = [standard, turkish]
        for (index, family) in ProductSearchRules.Family.allCases.enumerated() {
            documents[index].addCategory(categoryName, family: family, stemmer: stemmer)
        }
        return documents
    }

    /// A document of folded fields and their stems.
    private init(title: String, meta: String, body: String, titleStems: String, textStems: String, skuKeys: String) {
        self.title = title
        self.meta = meta
        self.body = body
        self.titleStems = titleStems
        self.textStems = textStems
        self.skuKeys = skuKeys
    }

    /// Adds a category name to `meta` (and its stems to `textStems`), as `init` does. A store
    /// folds a draft without its category (`categoryName: nil`) before its write transaction and
    /// adds the stored category name, known only inside it, there: the long texts are folded
    /// outside the transaction.
    public mutating func addCategory(_ categoryName: String?, family: ProductSearchRules.Family,
                                     stemmer: ProductSearchStemmer) {
        addCategory(FoldedCategory(categoryName, family: family, stemmer: stemmer))
    }

    /// Adds a category name folded once for every product of its category (an import of
    /// 30 000 products in 40 categories folds 40 names, not 60 000; issue #13, point 6).
    public mutating func addCategory(_ category: FoldedCategory) {
        guard !category.folded.isEmpty else { return }
        meta = meta.isEmpty ? category.folded : meta + " " + category.folded
        textStems = textStems.isEmpty ? category.stems : textStems + " " + category.stems
    }

    /// A category name as `addCategory` adds it in one rule family: folded, and its stems.
    public struct FoldedCategory: Sendable {
        public let folded: String
        public let stems: String
        /// What the name adds to a document's `vocabulary`.
        public var words: [String] { folded.split(separator: " ").map(String.init) }

        public init(_ categoryName: String?, family: ProductSearchRules.Family, stemmer: ProductSearchStemmer) {
            folded = SearchFolding.fold(categoryName ?? "", locale: family.locale)
            stems = folded.isEmpty ? "" : stemmer.indexStems(of: folded)
        }
    }

    /// The distinct words of `title` and `meta`: what a store adds to its typo and "did you
    /// mean" vocabulary (description words are left out: they would swamp it).
    public var vocabulary: Set<String> {
        Set((title + " " + meta).split(separator: " ").map(String.init))
    }

    /// The `vocabulary` of every document together.
    public static func vocabulary(of documents: [ProductSearchDocument]) -> Set<String> {
        documents.reduce(into: []) { words, document in words.formUnion(document.vocabulary) }
    }

    /// The distinct words of `title`, `meta` and `body`: every word a typed prefix can begin in
    /// those fields, which a store may look up to match the prefix as the words it stands for.
    public var words: Set<String> {
        Set([title, meta, body].joined(separator: " ").split(separator: " ").map(String.init))
    }

    /// The `words` of every document together.
    public static func words(of documents: [ProductSearchDocument]) -> Set<String> {
        documents.reduce(into: []) { words, document in words.formUnion(document.words) }
    }
}

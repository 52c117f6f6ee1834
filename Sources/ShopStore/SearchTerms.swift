import ShopCore

/// One search's words, expanded once per page, and the rules every engine matches them by: which
/// words may carry typos and which candidates they expand to, the relevance tiers, and "did you
/// mean". An engine supplies only its look-ups (`matchesAny`, `vocabulary`) and renders a
/// ``Match`` in its own query language (FTS5 on SQLite, `tsquery` on PostgreSQL).
public struct SearchTerms: Sendable {
    /// Which fields a match may use: the relevance tiers widen from the title outwards.
    public enum Fields: Sendable {
        /// The title's words, the title's stems; a SKU or barcode equal to the text.
        case title
        /// The title's and the meta fields' (vendor, tags, category) words, the title's stems.
        case titleAndMeta
        /// Every field's words and stems; a SKU or barcode starting with the text.
        case all
    }

    /// One folded query word: itself (a prefix when last), its stem in the shopper's language,
    /// and the vocabulary words within its typo budget (only when it finds nothing itself).
    public struct Term: Sendable, Equatable {
        public var word: String
        public var stem: String
        public var isPrefix: Bool
        public var typoCandidates: [String] = []

        public init(word: String, stem: String, isPrefix: Bool, typoCandidates: [String] = []) {
            self.word = word
            self.stem = stem
            self.isPrefix = isPrefix
            self.typoCandidates = typoCandidates
        }
    }

    /// What one statement matches: every term in `fields` (each as its word — a prefix when
    /// `isPrefix` — or its stem, or with `typos` one of its candidates), or else (`skuKey`
    /// non-empty and `fields` not `.titleAndMeta`) the SKU key or barcode token: equal for
    /// `.title`, a prefix for `.all`.
    public struct Match: Sendable {
        public var terms: [Term]
        public var fields: Fields
        public var typos: Bool
        public var family: ProductSearchRules.Family
        /// For a Turkish search with an `i` or `I`, the same words folded by the standard rules,
        /// matched in the standard family's text as an alternative to `terms`: `DINING` typed on
        /// a Turkish page is `dınıng` by Turkish rules — no English word — and `isik` typed
        /// without Turkish letters is not `ışık`; by the standard rules both match, as they do on
        /// an English or Spanish page (a fresh tester). A text typed with `ı` has none: it meant
        /// the Turkish letter. Words only: no typos.
        public var standardAlternative: [Term]?
        /// The SKU key, or "" when this match does not look SKUs up.
        public var skuKey: String
        /// The barcode token, when the text is one (`ProductSearchRules.barcodeSearchToken`) and
        /// SKUs are looked up.
        public var barcodeToken: String?
        /// Whether SKUs and barcodes match by prefix (`.all`) or exactly.
        public var identifiersByPrefix: Bool { fields == .all }
    }

    public private(set) var terms: [Term]
    public let skuKey: String
    /// `ProductSearchRules.barcodeSearchToken` of the text: nil unless it is 4 digits or more.
    public let barcodeToken: String?
    public let family: ProductSearchRules.Family
    /// A Turkish search's words by the standard rules (`Match.standardAlternative`), one per term.
    public let standardAlternative: [Term]?

    /// Stems the words and, for each word that finds nothing by itself (nor by its stem), looks
    /// up its typo candidates (`SearchTolerance.candidates`).
    /// - Parameters:
    ///   - matchesAny: whether any published product matches the match (words only, all fields).
    ///   - vocabulary: the indexed words that may lie within `edits` of `word`: starting with
    ///     one of `SearchTolerance.leadingScalars(of: word)`, their length within `edits` of its.
    public init(_ query: ProductQuery, matchesAny: (Match) throws -> Bool,
                vocabulary: (_ word: String, _ edits: Int) throws -> [String]) throws {
        let words = query.searchTerms
        let stemmer = ProductSearchStemmer()
        family = ProductSearchRules.Family(query.locale)
        skuKey = ProductSearchRules.skuKey(query.text ?? "")
        barcodeToken = ProductSearchRules.barcodeSearchToken(query.text ?? "")
        terms = words.enumerated().map { index, word in
            Term(word: word, stem: stemmer.queryStem(of: word, locale: query.locale), isPrefix: index == words.count - 1)
        }
        // Only for a text with an `i` or `I`, which a Turkish shopper may have meant as `ı` (typed
        // without Turkish letters, or in capitals): one typed with `ı` meant it, and matches by
        // the Turkish rules only. Folding differs between the families only in the I rules, so
        // the words line up.
        let ambiguous = query.text?.contains(where: { $0 == "i" || $0 == "I" }) ?? false
        let standardWords = family == .turkish && ambiguous
            ? query.text.map { SearchFolding.terms($0, locale: .english) } ?? [] : []
        // (Even the same words: `isik` is `isik` by either rule, but `IŞIK` is `ısık` in the
        // Turkish family's text and `isik` in the standard family's.)
        standardAlternative = !standardWords.isEmpty && standardWords.count == words.count
            ? standardWords.enumerated().map { index, word in
                Term(word: word, stem: stemmer.queryStem(of: word, locale: .english), isPrefix: index == words.count - 1)
            }
            : nil
        // When all the words together find a product, each of them does: one look-up, not one
        // per word (each is an index evaluation, a few ms for a common word).
        if terms.count > 1, terms.contains(where: { SearchTolerance.toleratesTypos($0.word) }),
           try matchesAny(wordsOnly(terms, typos: false, alternative: standardAlternative)) {
            return
        }
        for index in terms.indices where SearchTolerance.toleratesTypos(terms[index].word) {
            guard try !matchesAny(wordsOnly([terms[index]], typos: false, alternative: standardAlternative.map { [$0[index]] }))
            else { continue }
            let word = terms[index].word
            terms[index].typoCandidates = SearchTolerance.candidates(
                for: word, among: try vocabulary(word, SearchTolerance.allowedEdits(for: word)))
        }
    }

    /// Whether a word has typo candidates (the tiers then put exact matches first).
    public var hasTypoCandidates: Bool { terms.contains { !$0.typoCandidates.isEmpty } }

    /// The whole search: what a page, its count and its facets match (`.all` with typos).
    public var all: Match { match(.all, typos: true) }

    /// The relevance tiers, in order (`ProductQuery.Sort.relevance`): a page lists each tier's
    /// products that no earlier tier matched, each tier by id. Each lies within ``all``.
    public var relevanceTiers: [Match] {
        hasTypoCandidates
            // Exact matches (a SKU, mostly: a word with candidates found nothing itself) first,
            // then the typo matches by field.
            ? [match(.all, typos: false), match(.title, typos: true), match(.titleAndMeta, typos: true), all]
            : [match(.title, typos: false), match(.titleAndMeta, typos: false), all]
    }

    /// The match of these terms in `fields`, with the SKU and barcode look-up.
    public func match(_ fields: Fields, typos: Bool) -> Match {
        Match(terms: terms, fields: fields, typos: typos, family: family, standardAlternative: standardAlternative,
              skuKey: fields == .titleAndMeta ? "" : skuKey,
              barcodeToken: fields == .titleAndMeta || skuKey.isEmpty ? nil : barcodeToken)
    }

    /// "Did you mean" for a search that found nothing: each word that finds nothing even with
    /// its typos replaced by `SearchTolerance.suggestion`; nil when no word changes or the new
    /// words find no published product. Parameters as `init`'s.
    public func suggestion(matchesAny: (Match) throws -> Bool,
                           vocabulary: (_ word: String, _ edits: Int) throws -> [String]) throws -> String? {
        var suggested = terms
        var changed = false
        for index in terms.indices {
            let term = terms[index]
            let edits = max(2, SearchTolerance.allowedEdits(for: term.word))
            guard try !matchesAny(wordsOnly([term], typos: true, alternative: standardAlternative.map { [$0[index]] })),
                  let word = SearchTolerance.suggestion(for: term.word, among: try vocabulary(term.word, edits))
            else { continue }
            suggested[index] = Term(word: word, stem: word, isPrefix: term.isPrefix)
            changed = true
        }
        guard changed, try matchesAny(wordsOnly(suggested, typos: false)) else { return nil }
        return suggested.map(\.word).joined(separator: " ")
    }

    /// `terms` in every field, without the SKU look-up (with `alternative`, a Turkish search's
    /// same words by the standard rules).
    private func wordsOnly(_ terms: [Term], typos: Bool, alternative: [Term]? = nil) -> Match {
        Match(terms: terms, fields: .all, typos: typos, family: family, standardAlternative: alternative, skuKey: "",
              barcodeToken: nil)
    }
}

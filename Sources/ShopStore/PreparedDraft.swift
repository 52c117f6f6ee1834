public import ShopCore

/// Drafts that passed ``check(_:currency:)``: the only input an engine's upsert takes. Every
/// engine checks the same way, before its write transaction opens, so a refused draft fails the
/// upsert before anything is written.
public struct CheckedDrafts: Sendable {
    /// The drafts, in the caller's order.
    public private(set) var drafts: [ProductDraft]

    /// Checks every draft (`CatalogUpsertRules`, handles unique in the batch) without a connection.
    /// - Throws: `CatalogStoreError` for the first bad draft.
    public static func check(_ drafts: [ProductDraft], currency: Currency) throws(CatalogStoreError) -> CheckedDrafts {
        var firstLineByHandle: [String: Int] = [:]
        firstLineByHandle.reserveCapacity(drafts.count)
        for draft in drafts {
            if let firstLine = firstLineByHandle[draft.handle] {
                throw .duplicateHandle(draft.handle, firstLine: firstLine, line: draft.sourceLine)
            }
            firstLineByHandle[draft.handle] = draft.sourceLine
            try CatalogUpsertRules.check(draft, currency: currency)
        }
        return CheckedDrafts(drafts: drafts)
    }
}

/// A checked draft with everything derived from it alone (sort keys, folded search text),
/// made for an engine's upsert just before the draft is written (``DraftPreparer``: on a second
/// thread, at most a window of drafts ahead) and dropped after it, so an import of 30 000
/// products holds a few hundred products' folded text at a time, not all of them (issue #13,
/// point 6). Every engine indexes exactly these values.
public struct PreparedDraft: Sendable {
    public var draft: ProductDraft
    /// `CatalogUpsertRules.categoryHandle` of the draft's category name; nil without one.
    public var categoryHandle: String?
    /// `ProductSearchRules.sortTitle` in English, Turkish and Spanish.
    public var sortTitle: String
    public var sortTitleTurkish: String
    public var sortTitleSpanish: String
    /// One per `ProductSearchRules.Family`, in `allCases` order, without the category name
    /// (the stored one is added inside the transaction: ``ProductSearchDocument/addCategory(_:)``).
    public var documents: [ProductSearchDocument]
    /// `ProductSearchRules.tagKey` of each tag, in order.
    public var tagKeys: [String]
    /// The documents' `vocabulary`, without the category name's words.
    public var vocabulary: Set<String>
    /// The documents' `words`, without the category name's.
    public var words: Set<String>

    /// Folds one checked draft's text (`ProductSearchDocument` per rule family, without the
    /// category name) and derives its keys.
    /// - Parameter categoryHandles: `CatalogUpsertRules.categoryHandle` of each category name
    ///   met so far in the batch (a catalog has a few dozen; read and added to).
    public init(_ draft: ProductDraft, stemmer: ProductSearchStemmer, categoryHandles: inout [String: String?]) {
        let documents = ProductSearchDocument.allFamilies(
            title: draft.title, vendor: draft.vendor, tags: draft.tags, categoryName: nil,
            descriptionText: draft.descriptionText, skus: draft.variants.map(\.sku),
            barcodes: draft.variants.map(\.barcode), stemmer: stemmer)
        var categoryHandle: String?
        if let name = draft.categoryName {
            if let known = categoryHandles[name] {
                categoryHandle = known
            } else {
                categoryHandle = CatalogUpsertRules.categoryHandle(for: name)
                categoryHandles[name] = .some(categoryHandle)
            }
        }
        self.draft = draft
        self.categoryHandle = categoryHandle
        // The English sort key is the standard family's folded title (`sortTitle`'s rule).
        sortTitle = documents[0].title
        sortTitleTurkish = ProductSearchRules.sortTitle(draft.title, locale: .turkish)
        sortTitleSpanish = ProductSearchRules.sortTitle(draft.title, locale: .spanish)
        self.documents = documents
        tagKeys = draft.tags.map(ProductSearchRules.tagKey)
        vocabulary = ProductSearchDocument.vocabulary(of: documents)
        words = ProductSearchDocument.words(of: documents)
    }
}

extension PreparedDraft {
    /// This fold for `draft`: the draft it was made from, as it updates a stored product
    /// (`CatalogUpsertRules.keepingUncarried`). Only the fields a file may leave out differ, so
    /// the text is folded again only when one the search folds changed (vendor, tags,
    /// description, barcodes); a kept category changes the category handle alone.
    public func refolded(for draft: ProductDraft, stemmer: ProductSearchStemmer) -> PreparedDraft {
        guard draft != self.draft else { return self }
        if draft.vendor != self.draft.vendor || draft.tags != self.draft.tags
            || draft.descriptionText != self.draft.descriptionText
            || draft.variants.map(\.barcode) != self.draft.variants.map(\.barcode) {
            var categoryHandles: [String: String?] = [:]
            return PreparedDraft(draft, stemmer: stemmer, categoryHandles: &categoryHandles)
        }
        var prepared = self
        if draft.categoryName != self.draft.categoryName {
            prepared.categoryHandle = CatalogUpsertRules.categoryHandle(for: draft.categoryName)
        }
        prepared.draft = draft
        return prepared
    }
}

/// A stored category's name folded in every rule family, made once per upsert and added to each
/// of its products' documents (``ProductSearchDocument/addCategory(_:)``).
public struct FoldedCategoryName: Sendable {
    /// One per `ProductSearchRules.Family`, in `allCases` order.
    public var families: [ProductSearchDocument.FoldedCategory]
    /// Their words, for the vocabulary.
    public var words: [String]

    public init(_ name: String, stemmer: ProductSearchStemmer) {
        families = ProductSearchRules.Family.allCases.map { family in
            ProductSearchDocument.FoldedCategory(name, family: family, stemmer: stemmer)
        }
        words = families.flatMap(\.words)
    }

    /// `prepared`'s documents with this category's words added.
    public func documents(of prepared: PreparedDraft) -> [ProductSearchDocument] {
        var documents = prepared.documents
        for (index, family) in families.enumerated() { documents[index].addCategory(family) }
        return documents
    }
}

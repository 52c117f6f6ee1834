public import Foundation
public import ShopCore

/// Why a catalog upsert was refused. Every store checks drafts the same way (through
/// `CatalogUpsertRules`) and writes nothing when one fails.
public enum CatalogStoreError: Error, Equatable, Sendable, LocalizedError {
    /// A draft's handle is empty (after trimming).
    case emptyHandle(line: Int)
    /// Two drafts in one import share a handle; `line` is where the second one starts.
    case duplicateHandle(String, firstLine: Int, line: Int)
    /// A draft has no variants.
    case noVariants(handle: String, line: Int)
    /// Two variants of one draft have the same option values (compared trimmed and
    /// case-insensitively; see `CatalogUpsertRules.optionKey(_:)`).
    case duplicateVariantOptions(handle: String, optionValues: [String], line: Int)
    /// Two variants of one draft have the same SKU (compared by `SKUIdentity.key(_:)`).
    case duplicateSKU(handle: String, sku: String, line: Int)
    /// A draft's SKU belongs to a variant of another stored product that this upsert may not
    /// take over (see `CatalogUpsertRules.target(for:handleMatch:skuOwners:importHandles:allowsTakeOver:)`),
    /// or an earlier draft of the same upsert has it too (`CatalogUpsertRules.targets`).
    case skuTaken(sku: String, handle: String, line: Int, owner: String)
    /// A draft with a new handle shares some of its SKUs with one stored product, but not all of
    /// them: taking that product over would delete its other variants, so it is refused (see
    /// `CatalogUpsertRules.target(for:handleMatch:skuOwners:importHandles:allowsTakeOver:)`).
    case skuOfAnotherProduct(sku: String, handle: String, line: Int, owner: String)
    /// A price is not in the shop currency.
    case currencyMismatch(handle: String, expected: Currency, found: Currency, line: Int)
    /// A price is below zero.
    case negativePrice(handle: String, line: Int)
    /// A price above `VariantDraft.maximumPriceMinorUnits`: carts multiply and add prices, and a
    /// price near the integer limit would overflow a shopper's cart.
    case priceTooLarge(handle: String, maximum: Money, line: Int)
    /// A stock count beyond ±`VariantDraft.maximumStock`.
    case stockTooLarge(handle: String, line: Int)
    /// A product to create has a handle another product (published or not) already has.
    case handleTaken(String)
    /// A draft without options (`ProductDraft.Fields.options` uncarried: a sheet without option
    /// columns) names a SKU that is none of the stored product's variants: such a sheet changes
    /// the variants it names and cannot say which options a new one has.
    case skuNotAVariant(sku: String, handle: String, line: Int)
    /// A draft without options has several variants for a product that has no options (or is
    /// new): without options a product has one variant.
    case variantsNeedOptions(handle: String, line: Int)
    /// A draft without options has several variants and one of them has no SKU to be matched by.
    case variantNeedsSKU(handle: String, line: Int)

    /// English text for the CLI and logs, naming the product and its source line (a product
    /// written alone, through the API or the back office, has none: line 0 is not named).
    public var errorDescription: String? {
        let line = switch self {
        case let .emptyHandle(line), let .duplicateHandle(_, _, line), let .noVariants(_, line),
             let .duplicateVariantOptions(_, _, line), let .duplicateSKU(_, _, line), let .skuTaken(_, _, line, _),
             let .skuOfAnotherProduct(_, _, line, _),
             let .currencyMismatch(_, _, _, line), let .negativePrice(_, line), let .priceTooLarge(_, _, line),
             let .stockTooLarge(_, line), let .skuNotAVariant(_, _, line), let .variantsNeedOptions(_, line),
             let .variantNeedsSKU(_, line): line
        case .handleTaken: 0
        }
        return line > 0 ? "Line \(line): \(reason)" : reason.prefix(1).uppercased() + reason.dropFirst()
    }

    /// What is wrong, without the line.
    private var reason: String {
        switch self {
        case .emptyHandle:
            "the product has no handle."
        case let .duplicateHandle(handle, firstLine, _):
            "handle “\(handle)” is already used by the product on line \(firstLine)."
        case let .noVariants(handle, _):
            "product “\(handle)” has no variants."
        case let .duplicateVariantOptions(handle, values, _):
            "product “\(handle)” has two variants with options “\(values.joined(separator: " / "))”."
        case let .duplicateSKU(handle, sku, _):
            "product “\(handle)” has two variants with SKU “\(sku)”."
        case let .skuTaken(sku, handle, _, owner):
            "SKU “\(sku)” of product “\(handle)” already belongs to product “\(owner)”; a SKU names one variant of one product."
        case let .skuOfAnotherProduct(sku, _, _, owner):
            "SKU “\(sku)” belongs to product “\(owner)”; to change that product use its handle “\(owner)”, or give this product other SKUs."
        case let .currencyMismatch(handle, expected, found, _):
            "product “\(handle)” is priced in \(found.code), but the shop sells in \(expected.code)."
        case let .negativePrice(handle, _):
            "product “\(handle)” has a negative price."
        case let .priceTooLarge(handle, maximum, _):
            // The highest price is a number of minor units, so its amount depends on the
            // currency's decimals (a fresh tester was told "1000000000.00" in a KWD shop).
            "product “\(handle)” has a price above \(maximum)."
        case let .stockTooLarge(handle, _):
            "product “\(handle)” has a stock count beyond \(VariantDraft.maximumStock)."
        case let .handleTaken(handle):
            "another product already has the handle “\(handle)”."
        case let .skuNotAVariant(sku, handle, _):
            "SKU “\(sku)” is none of product “\(handle)”’s variants; a file without option columns changes the variants it names by SKU and cannot add one."
        case let .variantsNeedOptions(handle, _):
            "product “\(handle)” has no options, so it has one variant only; add the Option1 Name and Option1 Value columns to give it more."
        case let .variantNeedsSKU(handle, _):
            "a variant of product “\(handle)” has no SKU; a file without option columns names each of a product's variants by its SKU."
        }
    }
}

/// The rules every `CatalogStore` applies when upserting drafts, shared so that every SQL
/// engine behaves the same.
public enum CatalogUpsertRules {
    /// The key a variant is matched by when it has no matching SKU: the option values trimmed,
    /// lower-cased, stripped of C0 control characters, joined by U+001F (unit separator).
    /// `["M", " Red"]` → `"m\u{1F}red"`; no options → `""`. A key therefore never contains
    /// U+001E, which stores may use for temporary keys.
    public static func optionKey(_ optionValues: [String]) -> String {
        optionValues.map { value in
            var scalars = String.UnicodeScalarView()
            scalars.append(contentsOf: value.trimmedOfWhiteSpace.lowercased()
                .unicodeScalars.filter { $0.value >= 0x20 })
            return String(scalars)
        }
        .joined(separator: "\u{1F}")
    }

    /// Checks one draft on its own.
    /// - Parameters:
    ///   - draft: the draft.
    ///   - currency: the shop currency every price must be in.
    /// - Throws: `CatalogStoreError.emptyHandle`, `.noVariants`, `.duplicateSKU`,
    ///   `.duplicateVariantOptions`, `.variantNeedsSKU` (a draft without options, see
    ///   `ProductDraft.Fields.options`), `.currencyMismatch` or `.negativePrice`.
    public static func check(_ draft: ProductDraft, currency: Currency) throws(CatalogStoreError) {
        let line = draft.sourceLine
        guard !draft.handle.trimmedOfWhiteSpace.isEmpty else {
            throw .emptyHandle(line: line)
        }
        guard !draft.variants.isEmpty else { throw .noVariants(handle: draft.handle, line: line) }
        var skus: Set<String> = []
        var keys: Set<String> = []
        for variant in draft.variants {
            if let sku = variant.sku, let key = SKUIdentity.key(sku), !skus.insert(key).inserted {
                throw .duplicateSKU(handle: draft.handle, sku: sku, line: line)
            }
            if draft.uncarried.contains(.options) {
                // Matched by SKU to the stored product's variants (`keepingUncarried`).
                guard variant.sku != nil || draft.variants.count == 1 else {
                    throw .variantNeedsSKU(handle: draft.handle, line: line)
                }
            } else if !keys.insert(optionKey(variant.optionValues)).inserted {
                throw .duplicateVariantOptions(handle: draft.handle, optionValues: variant.optionValues, line: line)
            }
            for price in [variant.price] + (variant.compareAtPrice.map { [$0] } ?? []) {
                guard price.currency == currency else {
                    throw .currencyMismatch(handle: draft.handle, expected: currency, found: price.currency, line: line)
                }
                guard price.minorUnits >= 0 else { throw .negativePrice(handle: draft.handle, line: line) }
                guard price.minorUnits <= VariantDraft.maximumPriceMinorUnits else {
                    throw .priceTooLarge(handle: draft.handle,
                                         maximum: Money(minorUnits: VariantDraft.maximumPriceMinorUnits, currency: currency),
                                         line: line)
                }
            }
            if case let .tracked(quantity, _) = variant.inventory, quantity.magnitude > UInt(VariantDraft.maximumStock) {
                throw .stockTooLarge(handle: draft.handle, line: line)
            }
        }
    }

    /// An existing variant as far as matching needs it.
    public struct StoredVariant: Sendable {
        /// Its id.
        public var id: Variant.ID
        /// Its SKU, if any.
        public var sku: String?
        /// `optionKey(_:)` of its option values.
        public var optionKey: String

        /// Creates a stored-variant description.
        public init(id: Variant.ID, sku: String?, optionKey: String) {
            self.id = id
            self.sku = sku
            self.optionKey = optionKey
        }
    }

    /// A stored variant — with or without a SKU — of a product that owns one of a draft's SKUs,
    /// as far as `target` needs it.
    public struct SKUOwner: Sendable {
        /// The product the variant belongs to.
        public var productID: Product.ID
        /// That product's handle.
        public var handle: String
        /// The variant's SKU as stored; nil without one (such a variant keeps its product from
        /// being taken over by SKUs).
        public var sku: String?

        /// Creates the value.
        public init(productID: Product.ID, handle: String, sku: String?) {
            self.productID = productID
            self.handle = handle
            self.sku = sku
        }
    }

    /// The stored product each draft of one upsert updates (`target`, nil to create one), decided
    /// for every draft against the catalog as stored before the upsert, before anything is
    /// written — so the answer does not depend on the drafts' order: a SKU cannot move between
    /// products in one upsert, and a product whose handle is in the upsert cannot lose its SKUs
    /// to another draft. Then a SKU (by `SKUIdentity.key`) may be in one draft only.
    /// - Parameters:
    ///   - drafts: the upsert's drafts (checked: handles unique, no SKU twice in one draft).
    ///   - handleMatches: for each draft, in order, the stored product with its handle, if any.
    ///   - skuOwners: every stored variant (with or without a SKU) of each product that owns a
    ///     SKU of any draft.
    ///   - allowsTakeOver: false for creating one product (`insertProduct`).
    /// - Returns: for each draft, in order, the product it updates, or nil to create one.
    /// - Throws: the first draft's refusal in the drafts' order (`target`), else
    ///   `CatalogStoreError.skuTaken` for a later draft with a SKU an earlier one has, naming the
    ///   SKU's stored owner, or else the earlier draft's handle.
    public static func targets(for drafts: [ProductDraft], handleMatches: [Product.ID?], skuOwners: [SKUOwner],
                               allowsTakeOver: Bool = true) throws(CatalogStoreError) -> [Product.ID?] {
        precondition(drafts.count == handleMatches.count, "one handle match per draft")
        let importHandles = Set(drafts.map(\.handle))
        var variantsByProduct: [Product.ID: [SKUOwner]] = [:]
        var ownerBySKU: [String: SKUOwner] = [:]
        for owner in skuOwners {
            variantsByProduct[owner.productID, default: []].append(owner)
            if let key = SKUIdentity.key(owner.sku) { ownerBySKU[key] = owner }
        }
        var targets: [Product.ID?] = []
        targets.reserveCapacity(drafts.count)
        for (draft, handleMatch) in zip(drafts, handleMatches) {
            var ownerIDs: [Product.ID] = []
            for variant in draft.variants {
                if let key = SKUIdentity.key(variant.sku), let owner = ownerBySKU[key], !ownerIDs.contains(owner.productID) {
                    ownerIDs.append(owner.productID)
                }
            }
            targets.append(try target(for: draft, handleMatch: handleMatch,
                                      skuOwners: ownerIDs.flatMap { variantsByProduct[$0] ?? [] },
                                      importHandles: importHandles, allowsTakeOver: allowsTakeOver))
        }
        var firstDraftBySKU: [String: Int] = [:]
        for (index, draft) in drafts.enumerated() {
            for variant in draft.variants {
                guard let sku = variant.sku, let key = SKUIdentity.key(sku) else { continue }
                if let first = firstDraftBySKU[key], first != index {
                    throw .skuTaken(sku: sku, handle: draft.handle, line: draft.sourceLine,
                                    owner: ownerBySKU[key]?.handle ?? drafts[first].handle)
                }
                firstDraftBySKU[key] = index
            }
        }
        return targets
    }

    /// The stored product a draft updates — SKU identity across products (issue #13): a SKU
    /// names one variant of one product, so
    /// - the product with the draft's handle, when there is one — unless one of the draft's
    ///   SKUs belongs to another product (refused);
    /// - else the one product that owns the draft's SKUs, which then takes the draft's handle (a
    ///   re-import that changed a handle but kept the SKUs) — only when the draft's SKUs are
    ///   exactly that product's (as sets of `SKUIdentity.key`) and every variant of that product
    ///   has one (a partial overlap, or a stored variant without a SKU, would delete the
    ///   product's other variants, so it is refused), and unless `allowsTakeOver` is false, the
    ///   SKUs belong to several products, or the owner's own handle is in the same import;
    /// - else none: the draft is a new product.
    ///
    /// An upsert decides every draft at once, against the catalog before it: `targets`.
    /// - Parameters:
    ///   - draft: the draft.
    ///   - handleMatch: the stored product with the draft's handle, if any.
    ///   - skuOwners: every stored variant (with or without a SKU) of each product that owns one
    ///     of the draft's SKUs (by `SKUIdentity.key`).
    ///   - importHandles: the handles of every draft of the same upsert.
    ///   - allowsTakeOver: false for creating one product (`insertProduct`).
    /// - Returns: the product to update, or nil to create one.
    /// - Throws: `CatalogStoreError.skuOfAnotherProduct` for a take-over the stored product only
    ///   partly allows, else `.skuTaken`, naming the draft's first SKU of another product.
    public static func target(for draft: ProductDraft, handleMatch: Product.ID?, skuOwners: [SKUOwner],
                              importHandles: Set<String>, allowsTakeOver: Bool = true) throws(CatalogStoreError) -> Product.ID? {
        let keys = Set(draft.variants.compactMap { SKUIdentity.key($0.sku) })
        let others = skuOwners.filter { owner in
            owner.productID != handleMatch && SKUIdentity.key(owner.sku).map(keys.contains) == true
        }
        guard !others.isEmpty else { return handleMatch }
        // The draft's first SKU that another product owns, and that product.
        var conflict = others[0], sku = others[0].sku ?? ""
        for variant in draft.variants {
            if let key = SKUIdentity.key(variant.sku), let owner = others.first(where: { SKUIdentity.key($0.sku) == key }) {
                (conflict, sku) = (owner, variant.sku ?? "")
                break
            }
        }
        let ownerIDs = Set(others.map(\.productID))
        if handleMatch == nil, allowsTakeOver, ownerIDs.count == 1, !importHandles.contains(conflict.handle) {
            let ownerVariants = skuOwners.filter { $0.productID == conflict.productID }
            let ownerKeys = ownerVariants.compactMap { SKUIdentity.key($0.sku) }
            guard ownerKeys.count == ownerVariants.count, Set(ownerKeys) == keys else {
                throw .skuOfAnotherProduct(sku: sku, handle: draft.handle, line: draft.sourceLine, owner: conflict.handle)
            }
            return conflict.productID
        }
        throw .skuTaken(sku: sku, handle: draft.handle, line: draft.sourceLine, owner: conflict.handle)
    }

    /// `draft` as it updates `stored`: the fields its file does not carry (`draft.uncarried`)
    /// keep the stored product's values — a Shopify CSV's product keeps its publication date,
    /// rating and visibility, and its category when the row's category came from `Type`; a
    /// WooCommerce CSV's its vendor, product type, publication date, rating and the alt text of
    /// each image at a URL the product already has. Without a stored product (a new one) the
    /// draft's own values, the format's defaults, stay. Either way the result has no uncarried
    /// fields left: it is exactly what is written.
    ///
    /// A draft without options (`.options`: a sheet without option columns) keeps the stored
    /// product's option names and variants: each of its variants updates the stored variant
    /// with its SKU and takes that variant's option values; stored variants it does not name stay
    /// as they are.
    /// - Parameters:
    ///   - draft: the draft read from a file.
    ///   - stored: the product it updates (`target`), or nil when it creates one.
    /// - Throws: for a draft without options only: `CatalogStoreError.skuNotAVariant` for a
    ///   variant whose SKU the stored product has not (or without a SKU, `.variantNeedsSKU`),
    ///   `.variantsNeedOptions` for several variants of a product without options or a new one.
    public static func keepingUncarried(_ draft: ProductDraft, from stored: StoredProduct?) throws(CatalogStoreError) -> ProductDraft {
        var kept = draft
        kept.uncarried = []
        if draft.uncarried.contains(.options) {
            kept.variants = try keepingOptions(of: draft, from: stored?.product)
            if let stored { kept.optionNames = stored.product.optionNames }
        }
        guard let stored, !draft.uncarried.isEmpty else { return kept }
        let fields = draft.uncarried, product = stored.product
        if fields.contains(.vendor) { kept.vendor = product.vendor }
        if fields.contains(.productType) { kept.productType = product.productType }
        if fields.contains(.category) { kept.categoryName = stored.categoryName }
        if fields.contains(.publishedAt) { kept.publishedAt = product.publishedAt }
        if fields.contains(.rating) { kept.rating = product.rating }
        if fields.contains(.visibility) { kept.visibility = product.visibility }
        if fields.contains(.description) {
            kept.descriptionHTML = product.descriptionHTML
            kept.descriptionText = product.descriptionText
        }
        if fields.contains(.tags) { kept.tags = product.tags }
        if fields.contains(.published) { kept.isPublished = product.isPublished }
        if fields.contains(.images) {
            kept.images = product.images
        } else if fields.contains(.imageAltText) {
            let altTexts = Dictionary(product.images.map { ($0.url, $0.altText) }) { first, _ in first }
            for index in kept.images.indices {
                if let altText = altTexts[kept.images[index].url] { kept.images[index].altText = altText }
            }
        }
        let variantFields: ProductDraft.Fields = [.compareAtPrice, .inventory, .barcode, .backorders]
        if !fields.isDisjoint(with: variantFields) {
            // Each draft variant keeps the values of the stored variant it updates (matched as
            // the upsert matches them); a new variant keeps the format's defaults.
            let existing = product.variants.map {
                StoredVariant(id: $0.id, sku: $0.sku, optionKey: optionKey($0.optionValues))
            }
            let byID = Dictionary(product.variants.map { ($0.id, $0) }) { first, _ in first }
            for (index, match) in matchVariants(existing: existing, drafts: kept.variants).enumerated() {
                guard let match, let variant = byID[match] else { continue }
                if fields.contains(.compareAtPrice) { kept.variants[index].compareAtPrice = variant.compareAtPrice }
                if fields.contains(.inventory) {
                    kept.variants[index].inventory = variant.inventory
                } else if fields.contains(.backorders), case let .tracked(quantity, _) = kept.variants[index].inventory,
                          case let .tracked(_, allowsBackorder) = variant.inventory {
                    kept.variants[index].inventory = .tracked(quantity: quantity, allowsBackorder: allowsBackorder)
                }
                if fields.contains(.barcode) { kept.variants[index].barcode = variant.barcode }
            }
        }
        return kept
    }

    /// The variants a draft without options (`ProductDraft.Fields.options`) leaves `product`
    /// with, in the stored order: each stored variant, updated by the draft's variant with its
    /// SKU (taking the stored option values and choices). A product without options, or a new
    /// one, takes the draft's one variant.
    private static func keepingOptions(of draft: ProductDraft, from product: Product?) throws(CatalogStoreError) -> [VariantDraft] {
        guard let product, !product.optionNames.isEmpty else {
            guard draft.variants.count == 1 else {
                throw .variantsNeedOptions(handle: draft.handle, line: draft.sourceLine)
            }
            return draft.variants
        }
        var named: [String: VariantDraft] = [:]
        for variant in draft.variants {
            guard let sku = variant.sku, let key = SKUIdentity.key(sku) else {
                throw .variantNeedsSKU(handle: draft.handle, line: draft.sourceLine)
            }
            guard product.variants.contains(where: { SKUIdentity.key($0.sku) == key }) else {
                throw .skuNotAVariant(sku: sku, handle: draft.handle, line: draft.sourceLine)
            }
            named[key] = variant
        }
        return product.variants.map { stored in
            guard let key = SKUIdentity.key(stored.sku), var variant = named[key] else { return VariantDraft(stored) }
            variant.optionValues = stored.optionValues
            variant.optionChoices = stored.optionChoices
            return variant
        }
    }

    /// Matches a draft's variants to a product's existing variants: first by SKU (when the draft
    /// variant has one and an existing variant has the same `SKUIdentity.key`), then the rest by
    /// option key.
    /// Each existing variant matches at most once.
    /// - Returns: for each draft variant, in order, the id of the existing variant it updates,
    ///   or nil when it is new. Existing variants not returned are no longer in the catalog.
    public static func matchVariants(existing: [StoredVariant], drafts: [VariantDraft]) -> [Variant.ID?] {
        var matches = [Variant.ID?](repeating: nil, count: drafts.count)
        var taken: Set<Variant.ID> = []
        for (index, draft) in drafts.enumerated() {
            guard let key = SKUIdentity.key(draft.sku),
                  let found = existing.first(where: { SKUIdentity.key($0.sku) == key && !taken.contains($0.id) })
            else { continue }
            matches[index] = found.id
            taken.insert(found.id)
        }
        for (index, draft) in drafts.enumerated() where matches[index] == nil {
            let key = optionKey(draft.optionValues)
            guard let found = existing.first(where: { $0.optionKey == key && !taken.contains($0.id) }) else { continue }
            matches[index] = found.id
            taken.insert(found.id)
        }
        return matches
    }

    /// Whether upserting `draft` would leave `stored` exactly as it is: every field, the
    /// category (by handle, as categories are matched), the images and the variants in order
    /// (SKU, options, prices, stock, barcode), the publication date to the second as stores keep it.
    /// Such a product is not written and counts as unchanged.
    /// - Parameters:
    ///   - stored: the product with the draft's handle.
    ///   - draft: the draft about to be upserted.
    public static func leavesUnchanged(_ stored: StoredProduct, _ draft: ProductDraft) -> Bool {
        var current = ProductDraft(stored.product, categoryName: nil)
        var incoming = draft
        incoming.categoryName = nil
        incoming.sourceLine = current.sourceLine
        incoming.publishedAt = incoming.publishedAt.map(StoredTime.normalized)
        incoming.variants = incoming.variants.map(normalized)
        current.variants = current.variants.map(normalized)
        return current == incoming && categoryHandle(for: stored.categoryName) == categoryHandle(for: draft.categoryName)
    }

    /// A variant draft as a store keeps it: a compare-at price only when above the price.
    static func normalized(_ variant: VariantDraft) -> VariantDraft {
        var variant = variant
        if let compareAt = variant.compareAtPrice,
           compareAt.currency != variant.price.currency || compareAt.minorUnits <= variant.price.minorUnits {
            variant.compareAtPrice = nil
        }
        return variant
    }

    /// Whether a matched variant's stored values already are the draft's (`normalized`).
    public static func leavesUnchanged(_ stored: Variant, _ draft: VariantDraft) -> Bool {
        normalized(VariantDraft(stored)) == normalized(draft)
    }

    /// The category handle for a draft's category name, or nil when the name is nil or blank.
    public static func categoryHandle(for name: String?) -> String? {
        guard let name = name?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty else { return nil }
        return Handle.make(from: name)
    }
}

/// How stores keep times: whole Unix seconds (rounded down), so every store returns the same
/// `Date` for the same input.
public enum StoredTime {
    /// Seconds since 1970-01-01T00:00:00Z, rounded down.
    public static func unixSeconds(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.down))
    }

    /// The date `seconds` after 1970-01-01T00:00:00Z.
    public static func date(unixSeconds seconds: Int64) -> Date {
        Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// Milliseconds since 1970-01-01T00:00:00Z, rounded to the nearest (saved carts keep Fake
    /// Store's dates to the millisecond).
    public static func unixMilliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    /// The date `milliseconds` after 1970-01-01T00:00:00Z.
    public static func date(unixMilliseconds milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// `date` as a store gives it back: rounded down to the second.
    public static func normalized(_ date: Date) -> Date { self.date(unixSeconds: unixSeconds(date)) }
}

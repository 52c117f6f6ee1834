public import Foundation
public import ShopCore
public import ShopImport
public import ShopStore

/// Why a product write was refused (beyond `AccessError`).
public enum CatalogAdminError: Error, Hashable, Sendable {
    /// No published product has this id (deleted products are gone for the API too).
    case notFound
    /// A field is missing or breaks a catalog rule; `field` names it (`title`, `price`, …).
    case invalid(field: String?, message: String)
}

/// Product writes one at a time, in Fake Store's terms (title, price, description, category,
/// image) — for the API's `POST|PUT|PATCH|DELETE /api/products`. Operators only.
///
/// Every rule is the import's: the fields are checked by `CatalogImporter.draft` (the Fake Store
/// reader's text limits, price parsing, description sanitizing and category), and written by
/// `CatalogStore.insertProduct` / `changeProduct` with `upsert`'s rules. The one rule of its own:
/// an API price must be exact in the shop currency (`19.999` dollars is refused, not rounded).
///
/// What Fake Store cannot describe stays as it is on an update: variants' options, SKUs, stock
/// and "was" prices, tags, vendor, further images, the rating. A price written applies to the
/// variant the Fake Store shape shows (`Product.defaultVariant`), so a read after the write
/// shows it.
///
/// Deleting **unpublishes** the product: it leaves every list and read (404 after), carts show
/// it as unavailable, orders keep their lines, and the merchant can publish it again with an
/// import. Nothing is destroyed by a client call.
///
/// ```swift
/// let admin = CatalogAdminService(catalog: catalog, currency: .usd, now: Date.init)
/// let created = try admin.create(.init(title: "Oak Chair", price: Decimal(string: "49.90")), by: operatorAccount)
/// ```
public struct CatalogAdminService: Sendable {
    /// The catalog written.
    public var catalog: CatalogStore
    /// The shop currency: prices are major units of it.
    public var currency: Currency
    /// The clock.
    public var now: @Sendable () -> Date

    /// The name used in messages for the fields' source.
    static let source = "request body"

    /// Creates the service from its clients.
    public init(catalog: CatalogStore, currency: Currency, now: @escaping @Sendable () -> Date) {
        self.catalog = catalog
        self.currency = currency
        self.now = now
    }

    /// Fake Store's product fields; nil where a request leaves one out.
    public struct ProductFields: Hashable, Sendable {
        public var title: String?
        /// Major units of the shop currency.
        public var price: Decimal?
        /// Plain text.
        public var description: String?
        /// A category name; a new one creates the category.
        public var category: String?
        /// The main image's URL ("" removes it).
        public var image: String?

        /// Creates the fields.
        public init(title: String? = nil, price: Decimal? = nil, description: String? = nil, category: String? = nil,
                    image: String? = nil) {
            self.title = title
            self.price = price
            self.description = description
            self.category = category
            self.image = image
        }
    }

    /// Creates a published product with one untracked variant. Its handle comes from the title
    /// (`oak-chair`, then `oak-chair-2`, … when taken by any product, published or not).
    /// - Parameters:
    ///   - fields: `title` and `price` are required.
    ///   - account: who asks (an operator).
    /// - Returns: the product as stored.
    /// - Throws: `AccessError`, `CatalogAdminError.invalid`, or a store error.
    public func create(_ fields: ProductFields, by account: User) throws -> StoredProduct {
        try account.requireOperator()
        let record = try record(fields, current: nil)
        let draft = try checked(record, handle: Self.baseHandle(for: record.title))
        do {
            return try insert(draft, by: AuditActor(name: account.email, source: .api))
        } catch let error as CatalogStoreError {
            throw CatalogAdminError.invalid(field: nil, message: error.errorDescription ?? "\(error)")
        }
    }

    /// Adds `draft` as a new product under a handle made from its title (`oak-chair`, then
    /// `oak-chair-2`, … when taken by any product, published or not), audited as `actor`'s. For
    /// the API's `POST /api/products` and the back office's new-product form.
    /// - Throws: a `CatalogStoreError` of `upsert`'s rules (a SKU another product has, …).
    public func insert(_ draft: ProductDraft, by actor: AuditActor, creationKey: String? = nil) throws -> StoredProduct {
        let base = Self.baseHandle(for: draft.title)
        var draft = draft.datedIfPublished(since: nil, now: now())
        for number in 1... {
            draft.handle = number == 1 ? base : Handle.joining(base, String(number))
            do {
                return try catalog.insertProduct(draft, actor, now(), creationKey)
            } catch CatalogStoreError.handleTaken {
                continue  // another product has it (maybe created this instant): try the next
            }
        }
        fatalError("unreachable")
    }

    private static func baseHandle(for title: String) -> String {
        // Within what an import reads, so the shop's export imports again.
        Handle.make(from: title).isEmpty ? "product" : Handle.shortened(Handle.make(from: title))
    }

    /// Changes a published product's Fake Store fields in one store transaction.
    /// - Parameters:
    ///   - id: the product.
    ///   - fields: the new values.
    ///   - replacing: `true` (PUT): `title` and `price` are required and a field left out is
    ///     emptied (no description, category or main image); `false` (PATCH): only the fields
    ///     given change.
    ///   - account: who asks (an operator).
    /// - Returns: the product after the change.
    /// - Throws: `AccessError`, `CatalogAdminError`, or a store error.
    public func update(_ id: Product.ID, _ fields: ProductFields, replacing: Bool, by account: User) throws -> StoredProduct {
        try account.requireOperator()
        let changed = try catalog.changeProduct(id, by: AuditActor(name: account.email, source: .api), now: now()) { current in
            guard current.isPublished else { throw CatalogAdminError.notFound }
            var fields = fields
            if replacing {
                fields.description = fields.description ?? ""
                fields.category = fields.category ?? ""
                fields.image = fields.image ?? ""
            }
            let checked = try checked(try record(fields, current: replacing ? nil : current), handle: current.handle)
            var next = current
            next.title = checked.title
            if fields.description != nil {
                next.descriptionHTML = checked.descriptionHTML
                next.descriptionText = checked.descriptionText
            }
            if fields.category != nil { next.categoryName = checked.categoryName }
            if let image = fields.image {
                let rest = current.images.dropFirst()
                next.images = image.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
                    ? Array(rest) : checked.images + rest
            }
            if fields.price != nil, !next.variants.isEmpty {
                next.variants[Self.shownVariant(current)].price = checked.variants[0].price
            }
            return next
        }
        guard let changed else { throw CatalogAdminError.notFound }
        return changed
    }

    /// Unpublishes a published product (see the type's documentation for why not a deletion).
    /// - Returns: the product as it was shown.
    /// - Throws: `AccessError`, `CatalogAdminError.notFound`, or a store error.
    public func delete(_ id: Product.ID, by account: User) throws -> StoredProduct {
        try account.requireOperator()
        let changed = try catalog.changeProduct(id, by: AuditActor(name: account.email, source: .api), now: now()) { current in
            guard current.isPublished else { throw CatalogAdminError.notFound }
            var next = current
            next.isPublished = false
            return next
        }
        guard let changed else { throw CatalogAdminError.notFound }
        return changed
    }

    // MARK: Rules

    /// An image address a client can load as given: `http(s)://host…`, or a path on this shop
    /// (`/media/…`). An import also reads local files (it copies them into the media library);
    /// a product written through the API is stored and served as sent, and a fresh tester's
    /// `not a url`, `../../x.png` and `file:///etc/passwd` came back to apps unchanged.
    static func isWebImageAddress(_ url: String) -> Bool {
        let lower = url.lowercased()
        for scheme in ["https://", "http://"] where lower.hasPrefix(scheme) {
            return lower.count > scheme.count && !lower.dropFirst(scheme.count).hasPrefix("/")
        }
        return url.hasPrefix("/") && !url.hasPrefix("//")
    }

    /// The index of the variant Fake Store's `price` shows (`Product.defaultVariant`: the first
    /// not sold out, else the first).
    static func shownVariant(_ draft: ProductDraft) -> Int {
        draft.variants.firstIndex(where: { !$0.inventory.isSoldOut }) ?? 0
    }

    /// The fields as the Fake Store reader takes them, those left out taken from `current`.
    /// - Throws: `CatalogAdminError.invalid` for a missing title or price, or an inexact price.
    private func record(_ fields: ProductFields, current: ProductDraft?) throws -> FakeStoreRecord {
        guard let title = fields.title ?? current?.title else {
            throw CatalogAdminError.invalid(field: "title", message: "The product needs a “title”.")
        }
        if let image = fields.image?.trimmingCharacters(in: .whitespacesAndNewlines), !image.isEmpty,
           !Self.isWebImageAddress(image) {
            throw CatalogAdminError.invalid(
                field: "image", message: "“image” must be an http or https address, or a path on this shop starting with “/”.")
        }
        let price: String
        if let given = fields.price {
            let text = given.description
            let money: Money
            do {
                money = try Money.parse(text, currency: currency)
            } catch {
                throw CatalogAdminError.invalid(field: "price", message: "“\(text)” is not a price \(currency.code) can hold.")
            }
            guard money.majorUnits == given else {
                throw CatalogAdminError.invalid(
                    field: "price", message: "“\(text)” has more decimals than \(currency.code) has (\(currency.minorUnitDigits)).")
            }
            price = text
        } else if let current, !current.variants.isEmpty {
            price = "\(current.variants[Self.shownVariant(current)].price.majorUnits)"
        } else {
            throw CatalogAdminError.invalid(field: "price", message: "The product needs a “price”.")
        }
        return FakeStoreRecord(title: title, price: price, description: fields.description ?? current?.descriptionText ?? "",
                               category: fields.category ?? current?.categoryName,
                               image: fields.image ?? current?.images.first?.url)
    }

    /// The record checked by the Fake Store reader's rules into a one-variant draft.
    private func checked(_ record: FakeStoreRecord, handle: String) throws -> ProductDraft {
        do {
            return try CatalogImporter(currency: currency, now: now()).draft(record, handle: handle, source: Self.source)
        } catch {
            // The importers' problems read after their place ("column “title”: is required"):
            // an API answer names the field in a sentence of its own.
            let field = error.column ?? "product"
            let message = error.problem == .required ? "The product needs a “\(field)”." : "“\(field)”: \(error.message)."
            throw CatalogAdminError.invalid(field: error.column, message: message)
        }
    }
}

extension CatalogAdminService {
    /// A description typed as HTML, through the importers' sanitizer (`HTMLSanitizer`, the one
    /// home of what HTML a product may carry): the safe HTML and its plain text.
    public static func sanitizedDescription(_ html: String) -> (html: String, text: String) { HTMLSanitizer.sanitize(html) }

    /// The importers' limits, in UTF-8 bytes, of what the back office's product form takes.
    public static let limits = (title: TextLimit.title.maximumBytes, name: TextLimit.name.maximumBytes,
                                tag: TextLimit.tag.maximumBytes, sku: TextLimit.sku.maximumBytes,
                                altText: TextLimit.altText.maximumBytes, description: TextLimit.description.maximumBytes)
}

public import ShopCore

/// Fake Store API JSON (fakestoreapi.com `GET /products`): an array of
/// `{id, title, price, description, category, image, rating: {rate, count}}`.
///
/// Meaning: `price` is a JSON number in major units, read from its exact text (never through
/// `Double`); `description` is plain text; `category` is kept as given (e.g. `"men's clothing"`);
/// each product has one variant without options and untracked stock; handles come from titles
/// and get the `id` appended when two titles collide.
enum FakeStoreReader {
    static func read(_ root: JSONNode, context: inout ImportContext) throws(ImportError) -> [ProductDraft] {
        guard let items = root.array else {
            throw context.error(line: root.line, nil, .fakeStoreNotArray)
        }
        var products: [ProductDraft] = []
        for (number, item) in items.enumerated() {
            let object = try JSONObject(item, file: context.file, what: .product)
            try object.checkLengths(["id": .value])
            guard let priceText = try object.numberText("price") else { throw object.error("price", .required) }
            let record = FakeStoreRecord(title: try object.requiredString("title"), price: priceText,
                                         description: try object.string("description") ?? "",
                                         category: try object.string("category"), image: try object.string("image"))
            let id = try object.string("id")
            let handle = context.uniqueHandle(Handle.make(from: record.title), suffix: id, line: object.line)
            var draft = try draft(record, handle: handle, line: { object.fields[$0]?.line ?? object.line }, context: &context)
            draft.rating = try object.rating("rating", context: context)
            draft.sourceLine = object.line
            products.append(draft)
            context.reportProgress(done: number + 1, total: items.count)
        }
        return products
    }

    /// One product's fields checked with a Fake Store file's rules — text limits, a price in the
    /// shop currency, the plain-text description made into safe paragraphs, the category kept
    /// as given — into a draft with one untracked variant.
    /// - Parameter line: where each field was read, for messages.
    static func draft(_ record: FakeStoreRecord, handle: String, line: (String) -> Int,
                      context: inout ImportContext) throws(ImportError) -> ProductDraft {
        let title = record.title.trimmingWhitespace
        guard !title.isEmpty else { throw context.error(line: line("title"), Column(name: "title"), .required) }
        for (field, text, limit) in [("title", title, TextLimit.title), ("price", record.price, .value),
                                     ("description", record.description, .description),
                                     ("category", record.category ?? "", .name), ("image", record.image ?? "", .imageURL)] {
            try context.checkLength(text, limit, line: line(field), Column(name: field))
        }
        let price = try context.price(record.price, line: line("price"), Column(name: "price"))
        let description = HTMLSanitizer.paragraphs(fromPlainText: record.description)
        let category = record.category?.trimmingWhitespace
        var images: [ProductImage] = []
        if let image = record.image?.trimmingWhitespace, !image.isEmpty {
            images.append(try context.image(image, altText: title, line: line("image"), Column(name: "image")))
        }
        return ProductDraft(
            handle: handle, title: title,
            descriptionHTML: description.html, descriptionText: description.text,
            productType: category ?? "",
            categoryName: (category?.isEmpty ?? true) ? nil : category,
            images: images,
            variants: [VariantDraft(sku: nil, price: price)])
    }
}

/// One product's Fake Store fields as text, as a Fake Store file or an API client gives them.
public struct FakeStoreRecord: Hashable, Sendable {
    /// The title (required).
    public var title: String
    /// The price in major units of the shop currency, as decimal text (`"109.95"`).
    public var price: String
    /// Plain text.
    public var description: String
    /// The category's name; a new name creates the category.
    public var category: String?
    /// The main image's URL.
    public var image: String?

    /// Creates the record.
    public init(title: String, price: String, description: String = "", category: String? = nil, image: String? = nil) {
        self.title = title
        self.price = price
        self.description = description
        self.category = category
        self.image = image
    }
}

extension CatalogImporter {
    /// A draft of one Fake Store product, checked with exactly the rules of a Fake Store catalog
    /// file (text limits, price, description made safe, category): the API's product writes
    /// come through here, so an upload and an API call cannot disagree.
    /// - Parameters:
    ///   - record: the fields.
    ///   - handle: the product's handle.
    ///   - source: the name to use in messages (e.g. `"request body"`).
    /// - Throws: `ImportError` whose `column` names the field at fault.
    public func draft(_ record: FakeStoreRecord, handle: String, source: String) throws(ImportError) -> ProductDraft {
        var context = ImportContext(file: source, currency: currency, now: now, progressInterval: progressInterval,
                                    progress: nil)
        return try FakeStoreReader.draft(record, handle: handle, line: { _ in 1 }, context: &context)
    }
}

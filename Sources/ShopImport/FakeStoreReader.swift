import ShopCore

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
            throw context.error(line: root.line, nil, "a Fake Store file is a JSON array of products")
        }
        var products: [ProductDraft] = []
        for (number, item) in items.enumerated() {
            let object = try JSONObject(item, file: context.file, what: "a product")
            try object.checkLengths(["id": .value, "title": .title, "price": .value, "description": .description,
                                     "category": .name, "image": .imageURL])
            let title = try object.requiredString("title")
            guard let priceText = try object.numberText("price") else { throw object.error("price", "is required") }
            let price = try context.price(priceText, line: object.fields["price"]?.line ?? object.line,
                                          Column(name: "price"))
            let id = try object.string("id")
            let description = HTMLSanitizer.paragraphs(fromPlainText: try object.string("description") ?? "")
            let category = try object.string("category")?.trimmingWhitespace
            var images: [ProductImage] = []
            if let image = try object.string("image")?.trimmingWhitespace, !image.isEmpty {
                images.append(try context.image(image, altText: title, line: object.fields["image"]?.line ?? object.line,
                                                Column(name: "image")))
            }
            let handle = context.uniqueHandle(Handle.make(from: title), suffix: id, line: object.line)
            products.append(ProductDraft(
                handle: handle, title: title,
                descriptionHTML: description.html, descriptionText: description.text,
                productType: category ?? "",
                categoryName: (category?.isEmpty ?? true) ? nil : category,
                images: images,
                rating: try object.rating("rating", context: context),
                variants: [VariantDraft(sku: nil, price: price)],
                sourceLine: object.line))
            context.reportProgress(done: number + 1, total: items.count)
        }
        return products
    }
}

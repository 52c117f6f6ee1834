import Foundation
import ShopCore

/// Shoppable's own catalog format, version 1 (`"format": "shoppable-catalog"`, `"version": 1`),
/// used by the demo catalog.
///
/// Meaning: prices (`price`, `compareAtPrice`) are decimal strings in major units (JSON numbers
/// are accepted too and read from their exact text); `stock` an integer means tracked with that
/// quantity, null or absent means not tracked; `allowBackorder` defaults to false; `published`
/// defaults to true; `publishedAt` is ISO 8601; `handle` defaults to `Handle.make(title)` and
/// must be unique in the file; each variant's `options` has one value per product `options`
/// name. Unknown fields are ignored (forward compatible). A `currency` other than the shop's
/// gives a warning: amounts are read as the shop currency without conversion.
enum ShoppableJSONReader {
    static func read(_ root: JSONNode, context: inout ImportContext) throws(ImportError) -> [ProductDraft] {
        let top = try JSONObject(root, file: context.file, what: .shoppableCatalog)
        try top.checkLengths(["format": .value, "currency": .value])
        guard try top.string("format") == "shoppable-catalog" else {
            throw top.error("format", .notShoppableCatalog)
        }
        guard let version = try top.int("version") else { throw top.error("version", .requiredVersion) }
        guard version == 1 else {
            throw top.error("version", .unsupportedVersion(version))
        }
        if let code = try top.string("currency")?.trimmingWhitespace, code.uppercased() != context.currency.code {
            context.warn(line: top.fields["currency"]?.line, .catalogCurrency(code: code, shopCurrency: context.currency.code))
        }
        guard let items = try top.array("products") else { throw top.error("products", .required) }
        var products: [ProductDraft] = []
        for (number, item) in items.enumerated() {
            products.append(try product(item, context: &context))
            context.reportProgress(done: number + 1, total: items.count)
        }
        return products
    }

    private static func product(_ item: JSONNode, context: inout ImportContext) throws(ImportError) -> ProductDraft {
        let object = try JSONObject(item, file: context.file, what: .product)
        try object.checkLengths(["handle": .handle, "title": .title, "description": .description, "vendor": .name,
                                 "productType": .name, "category": .name, "tags": .tag, "options": .name,
                                 "publishedAt": .value])
        let title = try object.requiredString("title")
        let handle: String
        if let given = try object.string("handle")?.trimmingWhitespace, !given.isEmpty {
            handle = Handle.make(from: given)
            if handle != given {
                context.warn(line: object.line, .handleNotURLSafe(given: given, handle: handle))
            }
        } else {
            handle = Handle.make(from: title)
        }
        if let earlier = context.register(handle: handle, line: object.line) {
            throw object.error("handle", .handleTaken(handle: handle, earlierLine: earlier))
        }
        let description = HTMLSanitizer.sanitize(try object.string("description") ?? "")
        var publishedAt: Date?
        if let text = try object.string("publishedAt")?.trimmingWhitespace, !text.isEmpty {
            guard let date = parseISO8601(text) else {
                throw object.error("publishedAt", .notAnISODate(text))
            }
            publishedAt = date
        }
        var images: [ProductImage] = []
        for node in try object.array("images") ?? [] {
            let image = try JSONObject(node, file: context.file, what: .image)
            try image.checkLengths(["url": .imageURL, "alt": .altText])
            images.append(try context.image(image.requiredString("url"), altText: image.string("alt") ?? "",
                                            line: image.fields["url"]?.line ?? image.line, Column(name: "url")))
        }
        let optionNames = (try object.strings("options") ?? []).map(\.trimmingWhitespace)
        if let empty = optionNames.firstIndex(where: \.isEmpty) {
            throw object.error("options", .unnamedOption(empty + 1))
        }
        guard let variantNodes = try object.array("variants"), !variantNodes.isEmpty else {
            throw object.error("variants", .noVariants)
        }
        var variants: [VariantDraft] = []
        var combinations: [[String]: Int] = [:]
        for node in variantNodes {
            let variant = try JSONObject(node, file: context.file, what: .variant)
            try variant.checkLengths(["sku": .sku, "barcode": .sku, "options": .name, "price": .value, "compareAtPrice": .value,
                                      "stock": .value])
            let values = (try variant.strings("options") ?? []).map(\.trimmingWhitespace)
            // An empty value is an open option (WooCommerce "any"): `choices` lists what the
            // shopper may pick, by option name.
            let choiceObject = try variant.object("choices")
            var choices: [[String]] = []
            if let choiceObject {
                for name in choiceObject.fields.keys where !optionNames.contains(name) {
                    throw variant.error("choices", .notAnOption(name))
                }
                choices = try optionNames.map { name throws(ImportError) in
                    (try choiceObject.strings(name) ?? []).map(\.trimmingWhitespace).filter { !$0.isEmpty }
                }
            }
            guard values.count == optionNames.count,
                  values.indices.allSatisfy({ !values[$0].isEmpty || ($0 < choices.count && !choices[$0].isEmpty) }) else {
                throw variant.error("options", .optionValuesNeeded(options: optionNames))
            }
            for index in choices.indices where !values[index].isEmpty && !choices[index].isEmpty {
                throw variant.error("choices", .choicesOfChosenOption(option: optionNames[index], value: values[index]))
            }
            if !choices.contains(where: { !$0.isEmpty }) { choices = [] }
            if let earlier = combinations[OptionValues.key(values)] {
                throw variant.error("options", .variantOptionsRepeated(earlierLine: earlier))
            }
            combinations[OptionValues.key(values)] = variant.line
            guard let priceText = try variant.numberText("price") else { throw variant.error("price", .required) }
            let price = try context.price(priceText, line: variant.fields["price"]?.line ?? variant.line, Column(name: "price"))
            var compareAt: Money?
            if let text = try variant.numberText("compareAtPrice"), !text.trimmingWhitespace.isEmpty {
                compareAt = try context.price(text, line: variant.fields["compareAtPrice"]?.line ?? variant.line,
                                              Column(name: "compareAtPrice"))
            }
            var inventory = Inventory.untracked
            if let stock = try variant.int("stock") {
                let backorder = try variant.bool("allowBackorder") ?? false
                guard stock >= 0 else { throw variant.error("stock", .negativeStock(stock)) }
                inventory = .tracked(quantity: stock, allowsBackorder: backorder)
            }
            let sku = try context.claimSKU(try variant.string("sku") ?? "", line: variant.line, Column(name: "sku"))
            let barcode = try variant.string("barcode")?.trimmingWhitespace ?? ""
            variants.append(VariantDraft(sku: sku, optionValues: values, price: price,
                                         compareAtPrice: ImportContext.compareAt(compareAt, above: price),
                                         inventory: inventory, barcode: barcode.isEmpty ? nil : barcode,
                                         optionChoices: choices))
        }
        let category = try object.string("category")?.trimmingWhitespace
        let tags = try context.uniqueTags(object.strings("tags") ?? [], line: object.fields["tags"]?.line ?? object.line,
                                          Column(name: "tags"))
        return ProductDraft(
            handle: handle, title: title, descriptionHTML: description.html, descriptionText: description.text,
            vendor: try object.string("vendor")?.trimmingWhitespace ?? "",
            productType: try object.string("productType")?.trimmingWhitespace ?? "",
            categoryName: (category?.isEmpty ?? true) ? nil : category,
            tags: tags,
            publishedAt: publishedAt, isPublished: try object.bool("published") ?? true,
            visibility: try visibility(object),
            images: images, rating: try object.rating("rating", context: context),
            optionNames: optionNames, variants: variants, sourceLine: object.line)
    }

    /// `visibility`: `visible` (default), `catalog`, `search` or `hidden` (`CatalogVisibility`).
    private static func visibility(_ object: JSONObject) throws(ImportError) -> CatalogVisibility {
        guard let text = try object.string("visibility")?.trimmingWhitespace, !text.isEmpty else { return .visible }
        guard let value = CatalogVisibility(rawValue: text.lowercased()) else {
            throw object.error("visibility", .notAVisibility(text))
        }
        return value
    }

    /// ISO 8601 with or without fractional seconds (`2026-03-14T09:00:00Z`, `…09:00:00.5+02:00`)
    /// or a plain date (`2026-03-14`, midnight UTC).
    static func parseISO8601(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withFullDate]
        return formatter.date(from: text)
    }
}

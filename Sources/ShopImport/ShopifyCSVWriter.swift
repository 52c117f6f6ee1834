import ShopCore

/// Writes Shopify's product CSV, 2023 template headers (the ones `ShopifyCSVReader` reads first).
///
/// One row per variant or image, whichever a product has more of; the first row carries the
/// product fields, `Option1 Name` = `Title` / `Option1 Value` = `Default Title` for a product
/// without options. `Type` is the product type and `Product Category` the category, of every
/// product: the reader takes the category from it only when `Type` is empty (a product with a type
/// keeps its category, or a new one is filed under its type), so a merchant who clears a `Type`
/// in the file keeps the category rather than losing it (a fresh tester). Untracked stock
/// is an empty `Variant Inventory Tracker`; tracked is `shopify` with the quantity and the
/// policy `continue` (backorders) or `deny`.
enum ShopifyCSVWriter {
    typealias Field = ShopifyCSVReader.Field

    /// The columns written, in Shopify's export order, with their headers as Shopify's 2023
    /// template spells them (each one of the field's `aliases`, which a test checks).
    static let columns: [(field: Field, header: String)] = [
        (.handle, "Handle"), (.title, "Title"), (.body, "Body (HTML)"), (.vendor, "Vendor"),
        (.productCategory, "Product Category"), (.type, "Type"), (.tags, "Tags"), (.published, "Published"),
        (.option1Name, "Option1 Name"), (.option1Value, "Option1 Value"), (.option2Name, "Option2 Name"),
        (.option2Value, "Option2 Value"), (.option3Name, "Option3 Name"), (.option3Value, "Option3 Value"),
        (.sku, "Variant SKU"), (.tracker, "Variant Inventory Tracker"), (.quantity, "Variant Inventory Qty"),
        (.policy, "Variant Inventory Policy"), (.price, "Variant Price"), (.compareAtPrice, "Variant Compare At Price"),
        (.barcode, "Variant Barcode"),
        (.imageSrc, "Image Src"), (.imagePosition, "Image Position"), (.imageAlt, "Image Alt Text"),
        (.giftCard, "Gift Card"), (.status, "Status"),
    ]

    static func write(_ products: [ProductDraft]) throws(CatalogExportError) -> String {
        var text = CSVWriter.record(columns.map(\.header))
        for product in products {
            guard product.optionNames.count <= 3 else {
                throw CatalogExportError(.tooManyOptions(handle: product.handle, count: product.optionNames.count))
            }
            // Shopify has no "any" option value: expanding the variant would split its one SKU and
            // stock pool (docs/IMPORT.md), so such a product is refused rather than changed.
            if let open = product.variants.first(where: { $0.optionChoices.contains { !$0.isEmpty } }),
               let index = open.optionChoices.firstIndex(where: { !$0.isEmpty }) {
                throw CatalogExportError(.openVariant(handle: product.handle, sku: open.sku, option: product.optionNames[index]))
            }
            for index in 0..<max(product.variants.count, product.images.count, 1) {
                var row: [Field: String] = [.handle: product.handle]
                if index == 0 {
                    row[.title] = product.title
                    row[.body] = product.descriptionHTML
                    row[.vendor] = product.vendor
                    row[.type] = product.productType
                    row[.productCategory] = product.categoryName ?? ""
                    row[.tags] = product.tags.joined(separator: ", ")
                    row[.published] = product.isPublished ? "TRUE" : "FALSE"
                    row[.status] = product.isPublished ? "active" : "draft"
                    row[.giftCard] = "FALSE"
                    let names = product.optionNames.isEmpty ? ["Title"] : product.optionNames
                    for (name, field) in zip(names, [Field.option1Name, .option2Name, .option3Name]) { row[field] = name }
                }
                if index < product.variants.count {
                    let variant = product.variants[index]
                    let values = product.optionNames.isEmpty ? ["Default Title"] : variant.optionValues
                    for (value, field) in zip(values, [Field.option1Value, .option2Value, .option3Value]) { row[field] = value }
                    row[.sku] = variant.sku ?? ""
                    row[.price] = variant.price.decimalString
                    row[.compareAtPrice] = variant.compareAtPrice?.decimalString ?? ""
                    row[.barcode] = variant.barcode ?? ""
                    switch variant.inventory {
                    case .untracked:
                        row[.policy] = "deny"
                    case let .tracked(quantity, allowsBackorder):
                        row[.tracker] = "shopify"
                        row[.quantity] = String(quantity)
                        row[.policy] = allowsBackorder ? "continue" : "deny"
                    }
                }
                if index < product.images.count {
                    row[.imageSrc] = product.images[index].url
                    row[.imagePosition] = String(index + 1)
                    row[.imageAlt] = product.images[index].altText
                }
                text += CSVWriter.record(columns.map { row[$0.field] ?? "" })
            }
        }
        return text
    }
}


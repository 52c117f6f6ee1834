import Foundation
import ShopCore

/// Writes WooCommerce's product CSV in the built-in exporter's columns, as
/// `WooCommerceCSVReader` reads them.
///
/// A product without options is one `simple` row; one with options is a `variable` row listing
/// each option's values (`Attribute N name` / `value(s)`) followed by one `variation` row per
/// variant (`Parent` = `id:<ID>`, `Position` 1, 2 …); a variant with an open option (Woo "any",
/// `Variant.optionChoices`) leaves that attribute's value empty, its choices being the parent's. `ID`s number the rows from 1, so the file
/// does not depend on the shop's database ids. A compare-at price is written as the `Regular
/// price` with the price as the `Sale price`. Lists (`Categories`, `Tags`, `Images`, attribute
/// values) escape a comma as `\,`; descriptions write line breaks as `\n` when the reader's
/// paragraph rule leaves them as they are, else as spaces. The format has no handle, vendor,
/// product type, publication date, rating or image alt text: docs/IMPORT.md lists what is lost.
enum WooCommerceCSVWriter {
    static func write(_ products: [ProductDraft]) -> String {
        let attributeCount = max(1, products.map(\.optionNames.count).max() ?? 0)
        var headers = ["ID", "Type", "SKU", "GTIN, UPC, EAN, or ISBN", "Name", "Published", "Visibility in catalog", "Description", "In stock?", "Stock",
                       "Backorders allowed?", "Sale price", "Regular price", "Categories", "Tags", "Images",
                       "Parent", "Position"]
        for number in 1...attributeCount { headers += ["Attribute \(number) name", "Attribute \(number) value(s)"] }
        var text = CSVWriter.record(headers)
        var nextID = 1

        func row(_ fields: [String: String], attributes: [(name: String, value: String)] = []) {
            var values = headers.prefix(18).map { fields[$0] ?? "" }
            for index in 0..<attributeCount {
                values += index < attributes.count ? [attributes[index].name, attributes[index].value] : ["", ""]
            }
            text += CSVWriter.record(values)
        }

        for product in products {
            let id = nextID
            nextID += 1
            var fields = [
                "ID": String(id), "Name": product.title, "Published": product.isPublished ? "1" : "0",
                "Visibility in catalog": product.visibility.rawValue,
                "Description": description(product.descriptionHTML),
                "Categories": product.categoryName.map { list([$0]) } ?? "",
                "Tags": list(product.tags), "Images": list(product.images.map(\.url)),
            ]
            if product.optionNames.isEmpty, let variant = product.variants.first {
                fields["Type"] = "simple"
                fields.merge(variantFields(variant)) { _, new in new }
                row(fields)
                continue
            }
            fields["Type"] = "variable"
            row(fields, attributes: product.optionNames.enumerated().map { index, name in
                var seen: Set<String> = []
                // An open option (Woo "any") lists its choices here; its variation leaves the value empty.
                let values = product.variants.flatMap { variant in
                    let value = variant.optionValues[index]
                    return value.isEmpty && index < variant.optionChoices.count ? variant.optionChoices[index] : [value]
                }.filter { seen.insert($0).inserted }
                return (name, list(values))
            })
            for (position, variant) in product.variants.enumerated() {
                var fields = variantFields(variant)
                fields["ID"] = String(nextID)
                nextID += 1
                fields["Type"] = "variation"
                fields["Name"] = product.title + " - " + variant.optionValues.filter { !$0.isEmpty }.joined(separator: ", ")
                fields["Published"] = "1"
                fields["Parent"] = "id:\(id)"
                fields["Position"] = String(position + 1)
                row(fields, attributes: zip(product.optionNames, variant.optionValues).map { ($0, list([$1])) })
            }
        }
        return text
    }

    /// SKU, barcode, prices and stock columns of one variant.
    private static func variantFields(_ variant: VariantDraft) -> [String: String] {
        var fields = ["SKU": variant.sku ?? "", "GTIN, UPC, EAN, or ISBN": variant.barcode ?? ""]
        if let compareAt = variant.compareAtPrice {
            fields["Regular price"] = compareAt.decimalString
            fields["Sale price"] = variant.price.decimalString
        } else {
            fields["Regular price"] = variant.price.decimalString
        }
        switch variant.inventory {
        case .untracked:
            fields["In stock?"] = "1"
            fields["Backorders allowed?"] = "0"
        case let .tracked(quantity, allowsBackorder):
            fields["Stock"] = String(quantity)
            fields["In stock?"] = quantity > 0 ? "1" : allowsBackorder ? "onbackorder" : "0"
            fields["Backorders allowed?"] = allowsBackorder ? "1" : "0"
        }
        return fields
    }

    /// A WooCommerce list: items joined by `, `, a comma inside an item written `\,`.
    static func list(_ items: [String]) -> String {
        items.map { $0.replacingOccurrences(of: ",", with: "\\,") }.joined(separator: ", ")
    }

    /// The description with line breaks as WooCommerce's `\n` (a literal `\n` as `\\n`) when the
    /// reader's paragraph rule (`HTMLSanitizer.autoParagraphs`) would leave the text as it is,
    /// else with line breaks as spaces (the same HTML, without paragraphs made up on import).
    static func description(_ html: String) -> String {
        let escaped = html.replacingOccurrences(of: "\\n", with: "\\\\n")
        guard HTMLSanitizer.autoParagraphs(html) == html else {
            return escaped.replacingOccurrences(of: "\n", with: " ")
        }
        return escaped.replacingOccurrences(of: "\n", with: "\\n")
    }
}

import Foundation
import ShopCore

/// Writes WooCommerce's product CSV in the built-in exporter's columns, as
/// `WooCommerceCSVReader` reads them.
///
/// A product without options is one `simple` row; one with options is a `variable` row listing
/// each option's values (`Attribute N name` / `value(s)`) followed by one `variation` row per
/// variant (`Parent` = `id:<ID>`, `Position` 1, 2 …); a variant with an open option (Woo "any",
/// `Variant.optionChoices`) leaves that attribute's value empty, its choices being the parent's. `ID`s number the rows from 1, so the file
/// does not depend on the shop's database ids — but for products sharing a name, numbered so
/// the reader gives each its stored handle back (``RowIDs``). A compare-at price is written as the `Regular
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
        var rowIDs = RowIDs(products)

        func row(_ fields: [String: String], attributes: [(name: String, value: String)] = []) {
            var values = headers.prefix(18).map { fields[$0] ?? "" }
            for index in 0..<attributeCount {
                values += index < attributes.count ? [attributes[index].name, attributes[index].value] : ["", ""]
            }
            text += CSVWriter.record(values)
        }

        for (index, product) in products.enumerated() {
            let id = rowIDs.product(index)
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
                fields["ID"] = String(rowIDs.next())
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

    /// The rows' `ID`s. The reader makes handles from names and, of products sharing a name,
    /// gives the bare handle to the smallest `ID` and `-<ID>` to the others
    /// (`WooCommerceCSVReader`): so a product stored as `plain-sofa-20` is written with `ID` 20
    /// and its sibling stored as `plain-sofa` with an `ID` below its siblings', and the file
    /// imports into the shop it came from matching each product to itself (a fresh tester's
    /// shop, loaded from a WooCommerce file, had its first sofa overwritten by the second).
    /// Every other row is numbered from 1 in order, skipping those. A sibling whose number
    /// cannot be kept (the bare one's `ID` would not be below it) is numbered like the others:
    /// it then imports as a new product, overwriting none.
    struct RowIDs {
        private var assigned: [Int: Int] = [:]
        private var used: Set<Int> = []
        private var nextFree = 1

        init(_ products: [ProductDraft]) {
            let bases = products.map { Handle.make(from: $0.title) }
            let groups = Dictionary(grouping: products.indices, by: { bases[$0] }).filter { $0.value.count > 1 }
            var reserved: [Int: Int] = [:]
            var bares: [Int] = []
            // In the products' order, so a number two names could keep goes to the first.
            for (base, members) in groups.sorted(by: { $0.value[0] < $1.value[0] }) {
                for index in members {
                    let handle = products[index].handle
                    if handle == base {
                        bares.append(index)
                    } else if handle.hasPrefix(base + "-"), let number = Int(handle.dropFirst(base.count + 1)),
                              number > 0, String(number) == handle.dropFirst(base.count + 1), !used.contains(number) {
                        reserved[index] = number
                        used.insert(number)
                    }
                }
            }
            // The bare handles first, so they take the smallest numbers.
            for index in bares.sorted() {
                let id = next()
                assigned[index] = id
                // A sibling numbered below its bare one would take the bare handle: it is
                // numbered like any other row instead.
                for member in groups[bases[index]] ?? [] where (reserved[member] ?? .max) < id {
                    reserved[member] = nil
                }
            }
            assigned.merge(reserved) { bare, _ in bare }
        }

        /// The `ID` of product `index`'s row.
        mutating func product(_ index: Int) -> Int {
            if let id = assigned[index] { return id }
            let id = next()
            assigned[index] = id
            return id
        }

        /// The next number no row has.
        mutating func next() -> Int {
            while used.contains(nextFree) { nextFree += 1 }
            used.insert(nextFree)
            return nextFree
        }
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

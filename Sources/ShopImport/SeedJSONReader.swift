import ShopCore

/// The MVC cart app's bundled catalog:
/// `{"products": [{"id": "1", "name": "…", "price": {"value": 49.9, "currency": "kr"},
///   "info": {"material": "Oak", "numberOfSeats": 4, "color": "Red"}, "type": "chair",
///   "imageUrl": "https://…"}]}`.
///
/// Meaning: `type` is the product type and, with its first letter capitalized, the category
/// (`"chair"` → `"Chair"`); `info` becomes the description, one `Label: value` line per entry
/// (an HTML list plus text); one variant without options, untracked stock.
///
/// Currency: `price.currency` may be a symbol (`"kr"`) rather than an ISO 4217 code. Amounts are
/// always read as the shop currency, without conversion; when the file's currency is a symbol
/// of the shop currency (`kr` for SEK/NOK/DKK/ISK) or a different code, one warning per distinct
/// value says so — so a merchant importing a `kr` catalog into a USD shop is told.
enum SeedJSONReader {
    /// Currency symbols and the ISO 4217 codes they may stand for.
    static let symbols: [String: [String]] = [
        "kr": ["SEK", "NOK", "DKK", "ISK"], "kr.": ["SEK", "NOK", "DKK", "ISK"], "$": ["USD", "CAD", "AUD", "NZD"],
        "€": ["EUR"], "£": ["GBP"], "¥": ["JPY", "CNY"], "₺": ["TRY"], "tl": ["TRY"], "fr": ["CHF"],
    ]

    /// Labels for the `info` keys the seed catalog uses; other keys are humanized.
    static let labels: [String: String] = ["material": "Material", "numberOfSeats": "Seats", "color": "Color"]

    static func read(_ root: JSONNode, context: inout ImportContext) throws(ImportError) -> [ProductDraft] {
        let top = try JSONObject(root, file: context.file, what: .seedCatalog)
        guard let items = try top.array("products") else {
            throw top.error("products", .requiredProductArray)
        }
        var currencies: [String: (line: Int, count: Int)] = [:]
        var currencyOrder: [String] = []
        var products: [ProductDraft] = []
        for (number, item) in items.enumerated() {
            let object = try JSONObject(item, file: context.file, what: .product)
            try object.checkLengths(["id": .value, "name": .title, "type": .name, "imageUrl": .imageURL])
            let name = try object.requiredString("name")
            guard let priceObject = try object.object("price") else { throw object.error("price", .required) }
            try priceObject.checkLengths(["value": .value, "currency": .value])
            guard let valueText = try priceObject.numberText("value") else {
                throw priceObject.error("value", .required)
            }
            let price = try context.price(valueText, line: priceObject.fields["value"]?.line ?? priceObject.line,
                                          Column(name: "price.value"))
            if let code = try priceObject.string("currency")?.trimmingWhitespace, !code.isEmpty,
               code.uppercased() != context.currency.code {
                if currencies[code] == nil { currencyOrder.append(code) }
                currencies[code, default: (object.line, 0)].count += 1
            }
            let type = try object.string("type")?.trimmingWhitespace ?? ""
            var lines: [String] = []
            if let info = try object.object("info") {
                for key in info.fields.keys {
                    if let problem = TextLimit.name.violation(by: key) { throw info.error(key, problem) }
                    try info.checkLengths([key: .name])
                }
                for key in info.fields.keys.sorted(by: { infoOrder($0) < infoOrder($1) }) {
                    guard let node = info.node(key) else { continue }
                    let value: String
                    switch node.value {
                    case let .string(text): value = text.trimmingWhitespace
                    case let .number(text): value = text
                    case let .bool(flag): value = flag ? "Yes" : "No"
                    default: throw info.error(key, .expected(.scalar, found: node.kind))
                    }
                    guard !value.isEmpty else { continue }
                    lines.append("\(labels[key] ?? humanize(key)): \(value)")
                }
            }
            let descriptionHTML = lines.isEmpty ? ""
                : "<ul>" + lines.map { "<li>" + HTMLSanitizer.escape($0) + "</li>" }.joined() + "</ul>"
            var images: [ProductImage] = []
            if let url = try object.string("imageUrl")?.trimmingWhitespace, !url.isEmpty {
                images.append(try context.image(url, altText: name, line: object.fields["imageUrl"]?.line ?? object.line,
                                                Column(name: "imageUrl")))
            }
            let handle = context.uniqueHandle(Handle.make(from: name), suffix: try object.string("id"), line: object.line)
            products.append(ProductDraft(
                handle: handle, title: name, descriptionHTML: descriptionHTML,
                descriptionText: lines.joined(separator: "\n"),
                productType: type, categoryName: type.isEmpty ? nil : type.prefix(1).uppercased() + type.dropFirst(),
                images: images, variants: [VariantDraft(sku: nil, price: price)], sourceLine: object.line))
            context.reportProgress(done: number + 1, total: items.count)
        }
        let shop = context.currency.code
        for code in currencyOrder {
            guard let seen = currencies[code] else { continue }
            if let candidates = symbols[code.lowercased()], candidates.contains(shop) {
                context.warn(line: seen.line, .currencySymbol(symbol: code, products: seen.count, shopCurrency: shop))
            } else {
                context.warn(line: seen.line, .foreignCurrency(code: code, products: seen.count, shopCurrency: shop))
            }
        }
        return products
    }

    /// Known keys first, in the seed catalog's order, then the rest alphabetically.
    private static func infoOrder(_ key: String) -> String {
        switch key {
        case "material": "0"
        case "numberOfSeats": "1"
        case "color": "2"
        default: "3" + key
        }
    }

    /// `"legLength"` → `"Leg length"`.
    static func humanize(_ key: String) -> String {
        var words = ""
        for character in key {
            if character.isUppercase, !words.isEmpty { words += " " }
            words += character == "_" ? " " : String(character).lowercased()
        }
        return words.prefix(1).uppercased() + words.dropFirst()
    }
}

import Foundation
import ShopCore

/// WooCommerce's product CSV (the built-in exporter's columns: `ID, Type, SKU, Name,
/// Published, …, Sale price, Regular price, Categories, Tags, Images, Parent, …,
/// Attribute 1 name, Attribute 1 value(s), …`).
///
/// Meaning (WooCommerce "Product CSV Importer & Exporter" column schema):
/// - `Type` is a comma list: `simple`, `variable`, `variation`, `grouped`, `external`, plus the
///   flags `virtual`/`downloadable`. Simple products (virtual/downloadable too) are imported
///   with one variant; variable products get one variant per `variation` row whose `Parent` is
///   `id:<ID>` or the parent's SKU. Grouped and external products are skipped (see `skipped`);
///   so are products, and variations, without a price (WooCommerce cannot sell them) and
///   disabled variations (`Published` 0 or -1).
/// - The parent's `Attribute N name`/`value(s)` list the options; a variation's value for an
///   attribute picks one. A variation that leaves an attribute empty means "any": it is ONE
///   variant with its own SKU and stock, the open option's value `""` and the parent's values
///   as the shopper's choices (`VariantDraft.optionChoices`; with one open option, less the
///   values other variations sell on their own).
///   Attributes no variation uses are not options. Simple products' attributes are ignored.
/// - `Published` 1 → published, 0 (draft) / -1 (private) → imported, not published.
/// - `Sale price` lower than `Regular price` is the price and the regular one the compare-at;
///   a sale scheduled (`Date sale price starts/ends`) outside `now` does not apply.
/// - `Stock` set → tracked with that quantity; empty with `In stock?` 1 → not tracked; empty
///   with `In stock?` 0 → tracked, 0; `Backorders allowed?` 1 or `notify` → backorders.
/// - `Categories` `Clothing > Tshirts, Accessories` → `Tshirts` (first one, last segment).
///   Lists use `\,` for a literal comma. Descriptions use `\n` for line breaks.
/// - Handles come from `Name`; when two collide, the later gets its `ID` appended.
/// - `Visibility in catalog`: `visible` (or empty) listed and searchable, `catalog` listed only,
///   `search` searchable only, `hidden` neither (`CatalogVisibility`); any case.
/// - `GTIN, UPC, EAN, or ISBN` (WooCommerce 9.2+) is the variant's barcode.
/// - Not read: tax,
///   shipping, weight, upsell/cross-sell columns, and variations' own names.
/// - A variation with an empty `Stock` whose parent has one (stock managed on the parent) gets
///   the parent's quantity, with a warning: per-product shared stock has no equivalent here.
enum WooCommerceCSVReader {
    enum Kind { case simple, variable, variation, grouped, external, other(String) }

    struct Columns {
        var id, type, sku, barcode, name, published, visibility, shortDescription, description: Column?
        var saleStarts, saleEnds, inStock, stock, backorders, salePrice, regularPrice: Column?
        var categories, tags, images, parent, position: Column?
        /// Attribute N: (name column, values column), in N order.
        var attributes: [(name: Column, values: Column?)] = []

        /// The fields this file has no column for: an update keeps their stored values (a sheet
        /// of `SKU,Name,Regular price` changes names and prices only). The compare-at price is
        /// not among them: without `Sale price`, `Regular price` is the price itself.
        var absent: ProductDraft.Fields {
            var fields: ProductDraft.Fields = []
            if description == nil && shortDescription == nil { fields.insert(.description) }
            if categories == nil { fields.insert(.category) }
            if tags == nil { fields.insert(.tags) }
            if images == nil { fields.insert(.images) }
            if published == nil { fields.insert(.published) }
            if visibility == nil { fields.insert(.visibility) }
            if stock == nil && inStock == nil && backorders == nil { fields.insert(.inventory) }
            if backorders == nil { fields.insert(.backorders) }
            if barcode == nil { fields.insert(.barcode) }
            return fields
        }

        init(_ table: CSVTable) throws(ImportError) {
            id = try table.onlyColumn(["id"])
            type = try table.onlyColumn(["type"])
            sku = try table.onlyColumn(["sku"])
            barcode = try table.onlyColumn(["gtin, upc, ean, or isbn", "gtin, upc, ean or isbn", "gtin"])
            name = try table.onlyColumn(["name"])
            published = try table.onlyColumn(["published"])
            visibility = try table.onlyColumn(["visibility in catalog"])
            shortDescription = try table.onlyColumn(["short description"])
            description = try table.onlyColumn(["description"])
            saleStarts = try table.onlyColumn(["date sale price starts"])
            saleEnds = try table.onlyColumn(["date sale price ends"])
            inStock = try table.onlyColumn(["in stock?"])
            stock = try table.onlyColumn(["stock"])
            backorders = try table.onlyColumn(["backorders allowed?"])
            salePrice = try table.onlyColumn(["sale price"])
            regularPrice = try table.onlyColumn(["regular price"])
            categories = try table.onlyColumn(["categories"])
            tags = try table.onlyColumn(["tags"])
            images = try table.onlyColumn(["images"])
            parent = try table.onlyColumn(["parent"])
            position = try table.onlyColumn(["position"])
            var numbers: [Int] = []
            for header in table.normalized {
                let words = header.split(separator: " ")
                if words.count == 3, words[0] == "attribute", words[2] == "name", let n = Int(words[1]) {
                    numbers.append(n)
                }
            }
            for n in numbers.sorted() {
                if let nameColumn = try table.onlyColumn(["attribute \(n) name"]) {
                    attributes.append((nameColumn, try table.onlyColumn(["attribute \(n) value(s)", "attribute \(n) values",
                                                                 "attribute \(n) value"])))
                }
            }
        }

        /// Every column read, with the longest text it may hold (`TextLimit`).
        var limits: [(Column, TextLimit)] {
            let single: [(Column?, TextLimit)] = [
                (id, .value), (type, .value), (sku, .sku), (barcode, .sku), (name, .title), (published, .value), (visibility, .value),
                (shortDescription, .description), (description, .description), (saleStarts, .value),
                (saleEnds, .value), (inStock, .value), (stock, .value), (backorders, .value), (salePrice, .value),
                (regularPrice, .value), (categories, .list), (tags, .list), (images, .list), (parent, .value),
                (position, .value),
            ]
            let attributeColumns = attributes.flatMap { pair -> [(Column?, TextLimit)] in
                [(pair.name, .name), (pair.values, .list)]
            }
            return (single + attributeColumns).compactMap { column, limit in column.map { ($0, limit) } }
        }
    }

    /// A variation turned into draft variants, before option names are final.
    private struct Variation {
        var row: CSVReader.Record
        var attributes: [(name: String, value: String, column: Column?)]
        var price: Money
        var compareAt: Money?
        var inventory: Inventory
    }

    static func read(_ table: CSVTable, context: inout ImportContext) throws(ImportError) -> [ProductDraft] {
        let columns = try Columns(table)
        _ = try table.require(["name"], displayName: "“Name”")
        _ = try table.require(["regular price"], displayName: "“Regular price”")
        let rows = table.rows
        var kinds: [Kind] = []
        var byID: [String: Int] = [:]
        var bySKU: [String: Int] = [:]
        let limits = columns.limits
        for (index, row) in rows.enumerated() {
            try table.checkWidth(row)
            for (column, limit) in limits {
                try context.checkLength(row[column], limit, line: row.line, column)
            }
            for pair in columns.attributes {  // each value is an option value
                for value in splitList(row[pair.values]) {
                    try context.checkLength(value, .name, line: row.line, pair.values)
                }
            }
            let kind = kind(of: row.trimmed(columns.type))
            kinds.append(kind)
            let id = row.trimmed(columns.id)
            if !id.isEmpty, byID[id] == nil { byID[id] = index }
            let sku = row.trimmed(columns.sku)
            if !sku.isEmpty, bySKU[sku] == nil { bySKU[sku] = index }
        }
        var variationsOf: [Int: [Int]] = [:]
        for (index, row) in rows.enumerated() {
            guard case .variation = kinds[index] else { continue }
            let reference = row.trimmed(columns.parent)
            guard !reference.isEmpty else {
                throw context.error(line: row.line, columns.parent ?? columns.type, .variationNeedsParent)
            }
            let parent: Int?
            if reference.lowercased().hasPrefix("id:") {
                parent = byID[String(reference.dropFirst(3)).trimmingWhitespace]
            } else {
                parent = bySKU[reference] ?? byID[reference]
            }
            guard let parent else {
                throw context.error(line: row.line, columns.parent, .unknownParent(reference))
            }
            guard case .variable = kinds[parent] else {
                throw context.error(line: row.line, columns.parent, .parentNotVariable(reference: reference, line: rows[parent].line))
            }
            variationsOf[parent, default: []].append(index)
        }

        var products: [ProductDraft] = []
        /// Each product's place in `products`, `ID` and line, for naming the handles once all are read.
        var handleOrder: [(index: Int, id: String, line: Int)] = []
        for (index, row) in rows.enumerated() {
            defer { context.reportProgress(done: index + 1, total: rows.count) }
            let name = row.trimmed(columns.name)
            switch kinds[index] {
            case .variation:
                continue
            case .grouped:
                context.skip(line: row.line, name: name, .grouped)
            case .external:
                context.skip(line: row.line, name: name, .external)
            case let .other(type):
                context.skip(line: row.line, name: name, .unsupportedType(type))
            case .simple:
                guard let prices = try prices(row, columns, context: &context) else {
                    context.skip(line: row.line, name: name, .noPrice)
                    continue
                }
                var draft = try product(row, columns, context: &context)
                handleOrder.append((products.count, row.trimmed(columns.id), row.line))
                draft.variants = [VariantDraft(
                    sku: try context.claimSKU(row[columns.sku], line: row.line, columns.sku), price: prices.price,
                    compareAtPrice: prices.compareAt, inventory: try inventory(row, columns, context: &context),
                    barcode: barcode(row, columns))]
                products.append(draft)
            case .variable:
                var draft = try product(row, columns, context: &context)
                let variations = (variationsOf[index] ?? []).map { rows[$0] }
                try addVariants(to: &draft, parent: row, variations: variations, columns, context: &context)
                if draft.variants.isEmpty {
                    context.skip(line: row.line, name: name, .noPurchasableVariations)
                    continue
                }
                handleOrder.append((products.count, row.trimmed(columns.id), row.line))
                products.append(draft)
            }
        }
        // Handles come from names; of products sharing a name, the one with the smallest `ID`
        // keeps the bare handle and the others get `-<ID>` — decided by ID, not by row, so a
        // file whose rows were sorted (a spreadsheet's sort by name or price) gives every product
        // the handle the unsorted file gave it, and none is matched to another's stored product.
        // Rows without a numeric ID come after, in row order.
        handleOrder.sort { (Int($0.id) ?? .max, $0.line) < (Int($1.id) ?? .max, $1.line) }
        for (index, id, line) in handleOrder {
            products[index].handle = context.uniqueHandle(products[index].handle, suffix: id, line: line)
        }
        return products
    }

    static func kind(of type: String) -> Kind {
        let words = type.lowercased().split(separator: ",").map(\.trimmingWhitespace).filter { !$0.isEmpty }
        for main in ["variation", "variable", "grouped", "external", "simple"] where words.contains(main) {
            switch main {
            case "variation": return .variation
            case "variable": return .variable
            case "grouped": return .grouped
            case "external": return .external
            default: return .simple
            }
        }
        let unknown = words.filter { $0 != "virtual" && $0 != "downloadable" }
        return unknown.isEmpty ? .simple : .other(unknown.joined(separator: ", "))
    }

    /// The product fields of a simple or variable product row (no variants, handle not yet unique).
    private static func product(_ row: CSVReader.Record, _ columns: Columns,
                                context: inout ImportContext) throws(ImportError) -> ProductDraft {
        let name = row.trimmed(columns.name)
        guard !name.isEmpty else { throw context.error(line: row.line, columns.name, .productNeedsName) }
        var descriptionSource = row[columns.description]
        if descriptionSource.trimmingWhitespace.isEmpty { descriptionSource = row[columns.shortDescription] }
        let description = HTMLSanitizer.sanitize(HTMLSanitizer.autoParagraphs(unescapeNewlines(descriptionSource)))
        let category = try context.category(splitList(row[columns.categories]).first.map(ImportContext.lastCategoryLevel),
                                            line: row.line, columns.categories)
        var images: [ProductImage] = []
        for url in splitList(row[columns.images]) {
            images.append(try context.image(url, altText: name, line: row.line, columns.images))
        }
        var draft = ProductDraft(
            handle: Handle.make(from: name), title: name,
            descriptionHTML: description.html, descriptionText: description.text,
            categoryName: category,
            tags: try context.uniqueTags(splitList(row[columns.tags]), line: row.line, columns.tags),
            isPublished: try published(row, columns, context: context),
            visibility: try visibility(row, columns, context: context),
            images: images, variants: [], sourceLine: row.line)
        // Not in the format: an update keeps the stored values (docs/IMPORT.md, "Exporting");
        // nor in this file, when it has no column for them.
        draft.uncarried = ProductDraft.Fields([.vendor, .productType, .publishedAt, .rating, .imageAltText])
            .union(columns.absent)
        return draft
    }

    /// `Visibility in catalog`: `visible`, `catalog`, `search` or `hidden` (any case); empty or
    /// no column → visible.
    private static func visibility(_ row: CSVReader.Record, _ columns: Columns,
                                   context: ImportContext) throws(ImportError) -> CatalogVisibility {
        let text = row.trimmed(columns.visibility)
        guard !text.isEmpty else { return .visible }
        guard let value = CatalogVisibility(rawValue: text.lowercased()) else {
            throw context.error(line: row.line, columns.visibility, .notAVisibility(text))
        }
        return value
    }

    private static func addVariants(to draft: inout ProductDraft, parent: CSVReader.Record, variations rows: [CSVReader.Record],
                                    _ columns: Columns, context: inout ImportContext) throws(ImportError) {
        let parentAttributes = columns.attributes.compactMap { pair -> (name: String, values: [String])? in
            let name = parent.trimmed(pair.name)
            return name.isEmpty ? nil : (name, splitList(parent[pair.values]))
        }
        var variations: [Variation] = []
        let sorted = try rows.map { row throws(ImportError) in (row, try position(row, columns, context: context)) }
            .sorted { ($0.1 ?? .max, $0.0.line) < ($1.1 ?? .max, $1.0.line) }.map(\.0)
        for row in sorted {
            let label = row.trimmed(columns.name).isEmpty ? row.trimmed(columns.sku) : row.trimmed(columns.name)
            guard try published(row, columns, context: context) else {
                context.skip(line: row.line, name: label, .disabledVariation)
                continue
            }
            guard let prices = try prices(row, columns, context: &context) else {
                context.skip(line: row.line, name: label, .variationWithoutPrice)
                continue
            }
            var inventory = try inventory(row, columns, context: &context)
            if row.trimmed(columns.stock).isEmpty, case .untracked = inventory, !parent.trimmed(columns.stock).isEmpty {
                inventory = try self.inventory(parent, columns, context: &context)
                context.warn(line: row.line, .stockOnParent(parentLine: parent.line))
            }
            let attributes = columns.attributes.compactMap { pair -> (name: String, value: String, column: Column?)? in
                let name = row.trimmed(pair.name)
                return name.isEmpty ? nil : (name, splitList(row[pair.values]).first ?? "", pair.values)
            }
            variations.append(Variation(row: row, attributes: attributes, price: prices.price,
                                        compareAt: prices.compareAt, inventory: inventory))
        }
        // Options: the parent's attributes that variations use, then any others variations name.
        let used = Set(variations.flatMap { $0.attributes.map { $0.name.lowercased() } })
        var optionNames = parentAttributes.map(\.name).filter { used.contains($0.lowercased()) }
        for variation in variations {
            for attribute in variation.attributes
            where !optionNames.contains(where: { $0.lowercased() == attribute.name.lowercased() }) {
                optionNames.append(attribute.name)
            }
        }
        draft.optionNames = optionNames

        var taken: [[String]: Int] = [:]
        var imageURLs = Set(draft.images.map(\.url))
        var open: [(variation: Variation, slots: [String?])] = []
        for variation in variations {
            let slots = optionNames.map { name -> String? in
                let value = variation.attributes.first { $0.name.lowercased() == name.lowercased() }?.value ?? ""
                return value.isEmpty ? nil : value
            }
            guard slots.allSatisfy({ $0 != nil }) else {
                open.append((variation, slots))
                continue
            }
            let values = slots.compactMap { $0 }
            if let earlier = taken[OptionValues.key(values)] {
                throw context.error(line: variation.row.line, variation.attributes.first?.column ?? columns.parent,
                                    .variationOptionsTaken(earlierLine: earlier, values: values))
            }
            taken[OptionValues.key(values)] = variation.row.line
            try append(variation, values: values, sku: try context.claimSKU(variation.row[columns.sku], line: variation.row.line, columns.sku),
                       to: &draft, imageURLs: &imageURLs, columns, context: &context)
        }
        // An “any” variation is ONE variant (issue #13, point 2): its SKU and stock as given, its
        // open options' values ("") picked by the shopper from the parent's list. With one open
        // option, values another variation sells on its own are left out of the list.
        for (variation, slots) in open {
            var choices: [[String]] = []
            for (index, slot) in slots.enumerated() {
                guard slot == nil else {
                    choices.append([])
                    continue
                }
                let listed = parentAttributes.first { $0.name.lowercased() == optionNames[index].lowercased() }?.values ?? []
                guard !listed.isEmpty else {
                    throw context.error(line: variation.row.line, columns.parent,
                                        .openOptionWithoutValues(option: optionNames[index], parentLine: parent.line))
                }
                var allowed = listed
                if slots.filter({ $0 == nil }).count == 1 {
                    allowed = listed.filter { value in
                        var values = slots.map { $0 ?? "" }
                        values[index] = value
                        return taken[OptionValues.key(values)] == nil
                    }
                }
                guard !allowed.isEmpty else {
                    context.skip(line: variation.row.line, name: variation.row.trimmed(columns.name),
                                 .anyVariationCovered(option: optionNames[index]))
                    choices = []
                    break
                }
                choices.append(allowed)
            }
            guard choices.count == slots.count else { continue }
            let values = slots.map { $0 ?? "" }
            if let earlier = taken[OptionValues.key(values)] {
                throw context.error(line: variation.row.line, variation.attributes.first?.column ?? columns.parent,
                                    .openOptionsTaken(earlierLine: earlier))
            }
            taken[OptionValues.key(values)] = variation.row.line
            try append(variation, values: values, sku: try context.claimSKU(variation.row[columns.sku], line: variation.row.line,
                                                                            columns.sku),
                       choices: choices, to: &draft, imageURLs: &imageURLs, columns, context: &context)
        }
    }

    /// `GTIN, UPC, EAN, or ISBN` (WooCommerce 9.2+), trimmed; nil when empty or absent.
    private static func barcode(_ row: CSVReader.Record, _ columns: Columns) -> String? {
        let text = row.trimmed(columns.barcode)
        return text.isEmpty ? nil : text
    }

    private static func append(_ variation: Variation, values: [String], sku: String?, choices: [[String]] = [],
                               to draft: inout ProductDraft, imageURLs: inout Set<String>, _ columns: Columns,
                               context: inout ImportContext) throws(ImportError) {
        draft.variants.append(VariantDraft(sku: sku, optionValues: values, price: variation.price,
                                           compareAtPrice: variation.compareAt, inventory: variation.inventory,
                                           barcode: barcode(variation.row, columns), optionChoices: choices))
        if let url = splitList(variation.row[columns.images]).first, imageURLs.insert(url).inserted {
            draft.images.append(try context.image(url, altText: values.filter { !$0.isEmpty }.joined(separator: " / "),
                                                  line: variation.row.line,
                                                  columns.images))
        }
    }

    private static func position(_ row: CSVReader.Record, _ columns: Columns, context: ImportContext) throws(ImportError) -> Int? {
        let text = row.trimmed(columns.position)
        guard !text.isEmpty else { return nil }
        guard let value = Int(text) else {
            throw context.error(line: row.line, columns.position, .notAWholeNumber(text))
        }
        return value
    }

    /// 1 → true; 0 (draft) or -1 (private) → false; empty → true.
    private static func published(_ row: CSVReader.Record, _ columns: Columns, context: ImportContext) throws(ImportError) -> Bool {
        switch row.trimmed(columns.published) {
        case "", "1": return true
        case "0", "-1": return false
        case let other: throw context.error(line: row.line, columns.published, .notAPublishedValue(other))
        }
    }

    /// The price and compare-at of a row, or nil when it has no price at all.
    private static func prices(_ row: CSVReader.Record, _ columns: Columns,
                               context: inout ImportContext) throws(ImportError) -> (price: Money, compareAt: Money?)? {
        let regularText = row.trimmed(columns.regularPrice)
        let saleText = row.trimmed(columns.salePrice)
        let regular = regularText.isEmpty ? nil : try context.price(regularText, line: row.line, columns.regularPrice!)
        var sale = saleText.isEmpty || columns.salePrice == nil
            ? nil : try context.price(saleText, line: row.line, columns.salePrice!)
        if sale != nil {
            let starts = try date(row, columns.saleStarts, endOfDay: false, context: context)
            let ends = try date(row, columns.saleEnds, endOfDay: true, context: context)
            if let starts, context.now < starts {
                context.warn(line: row.line, .saleNotStarted(salePrice: saleText, starts: row.trimmed(columns.saleStarts)))
                sale = nil
            } else if let ends, context.now >= ends {
                context.warn(line: row.line, .saleEnded(salePrice: saleText, ends: row.trimmed(columns.saleEnds)))
                sale = nil
            }
        }
        switch (regular, sale) {
        case let (regular?, sale?):
            if sale.minorUnits < regular.minorUnits { return (sale, regular) }
            context.warn(line: row.line, .saleNotBelowRegular(salePrice: saleText, regularPrice: regularText))
            return (regular, nil)
        case let (regular?, nil): return (regular, nil)
        case let (nil, sale?): return (sale, nil)
        case (nil, nil): return nil
        }
    }

    /// `2026-05-01` or `2026-05-01 13:30:00` (also with `T`), read as UTC. A plain date that
    /// ends a sale means the end of that day.
    private static func date(_ row: CSVReader.Record, _ column: Column?, endOfDay: Bool,
                             context: ImportContext) throws(ImportError) -> Date? {
        let text = row.trimmed(column)
        guard !text.isEmpty else { return nil }
        let numbers = text.split(whereSeparator: { !$0.isASCIIDigit }).compactMap { Int($0) }
        var components = DateComponents()
        guard numbers.count == 3 || numbers.count == 5 || numbers.count == 6, (1...12).contains(numbers[1]),
              (1...31).contains(numbers[2]) else {
            throw context.error(line: row.line, column, .notADate(text))
        }
        components.year = numbers[0]
        components.month = numbers[1]
        components.day = numbers[2]
        if numbers.count >= 5 {
            components.hour = numbers[3]
            components.minute = numbers[4]
            components.second = numbers.count == 6 ? numbers[5] : 0
        } else if endOfDay {
            components.day = numbers[2] + 1
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let date = calendar.date(from: components) else {
            throw context.error(line: row.line, column, .notADate(text))
        }
        return date
    }

    private static func inventory(_ row: CSVReader.Record, _ columns: Columns,
                                  context: inout ImportContext) throws(ImportError) -> Inventory {
        let inStock = row.trimmed(columns.inStock).lowercased()
        guard ["", "1", "0", "backorder", "onbackorder"].contains(inStock) else {
            throw context.error(line: row.line, columns.inStock, .notAStockStatus(row.trimmed(columns.inStock)))
        }
        let backordersText = row.trimmed(columns.backorders).lowercased()
        guard ["", "0", "1", "notify"].contains(backordersText) else {
            throw context.error(line: row.line, columns.backorders, .notABackorderSetting(row.trimmed(columns.backorders)))
        }
        let backorder = backordersText == "1" || backordersText == "notify" || inStock.hasSuffix("backorder")
        let stockText = row.trimmed(columns.stock)
        guard !stockText.isEmpty else {
            if inStock == "0" { return .tracked(quantity: 0, allowsBackorder: backorder) }
            if inStock.hasSuffix("backorder") { return .tracked(quantity: 0, allowsBackorder: true) }
            return .untracked
        }
        guard var quantity = Int(stockText) else {
            throw context.error(line: row.line, columns.stock, .notAQuantity(stockText))
        }
        if quantity < 0 {
            guard backorder else {
                throw context.error(line: row.line, columns.stock, .negativeStockWithoutBackorders(quantity))
            }
            context.warn(line: row.line, .oversold(quantity: quantity))
            quantity = 0
        }
        return .tracked(quantity: quantity, allowsBackorder: backorder)
    }

    /// Splits a WooCommerce list on `,` (but not `\,`), trimming and dropping empty items.
    static func splitList(_ text: String) -> [String] {
        var items: [String] = []
        var current = ""
        var escaped = false
        for character in text {
            if escaped {
                if character != "," { current.append("\\") }
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "," {
                items.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        if escaped { current.append("\\") }
        items.append(current)
        return items.map(\.trimmingWhitespace).filter { !$0.isEmpty }
    }

    /// WooCommerce writes line breaks in descriptions as the two characters `\n` (and a literal
    /// backslash-n as `\\n`).
    static func unescapeNewlines(_ text: String) -> String {
        text.components(separatedBy: "\\\\n").map { $0.replacingOccurrences(of: "\\n", with: "\n") }
            .joined(separator: "\\n")
    }
}

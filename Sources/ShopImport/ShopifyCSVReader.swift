import ShopCore

/// Shopify's product CSV, 2023 template headers (`Handle`, `Variant Price`, …) or the 2024
/// renamed ones (`URL handle`, `Price`, …), matched case-insensitively and trimmed.
///
/// Meaning (help.shopify.com "Using CSV files to import and export products"):
/// - Rows with the same handle form one product; its first row carries the product fields,
///   later rows another variant (option values, price, SKU …) and/or another image.
/// - A single variant `Option1 Name` = `Title`, `Option1 Value` = `Default Title` means "no
///   options".
/// - Empty `Variant Inventory Tracker` → not tracked; any tracker (`shopify`) → tracked with
///   `Variant Inventory Qty`, backorders when `Variant Inventory Policy` = `continue`
///   (2024: `Continue selling when out of stock` = `CONTINUE`; TRUE also accepted).
/// - `Published` = FALSE or `Status` draft/archived/unlisted → imported but not published.
/// - Price below `Variant Compare At Price` is a sale: the compare-at is kept as the "was" price.
/// - Category: `Type` if set, else the last segment of `Product Category` (`A > B > C` → `C`).
/// - Gift cards are skipped (this shop does not issue gift cards). No published date.
enum ShopifyCSVReader {
    enum Field: Int, CaseIterable {
        case handle, title, body, vendor, productCategory, type, tags, published, status, giftCard
        case option1Name, option1Value, option2Name, option2Value, option3Name, option3Value
        case sku, barcode, tracker, quantity, policy, continueSelling, price, compareAtPrice
        case imageSrc, imagePosition, imageAlt, variantImage

        var aliases: [String] {
            switch self {
            case .handle: ["handle", "url handle"]
            case .title: ["title"]
            case .body: ["body (html)", "description", "body html"]
            case .vendor: ["vendor"]
            case .productCategory: ["product category", "standard product type"]
            case .type: ["type", "custom product type"]
            case .tags: ["tags"]
            case .published: ["published", "published on online store"]
            case .status: ["status"]
            case .giftCard: ["gift card"]
            case .option1Name: ["option1 name"]
            case .option1Value: ["option1 value"]
            case .option2Name: ["option2 name"]
            case .option2Value: ["option2 value"]
            case .option3Name: ["option3 name"]
            case .option3Value: ["option3 value"]
            case .sku: ["variant sku", "sku"]
            case .barcode: ["variant barcode", "barcode"]
            case .tracker: ["variant inventory tracker", "inventory tracker"]
            case .quantity: ["variant inventory qty", "inventory quantity", "variant inventory quantity"]
            case .policy: ["variant inventory policy"]
            case .continueSelling: ["continue selling when out of stock"]
            case .price: ["variant price", "price"]
            case .compareAtPrice: ["variant compare at price", "compare-at price", "compare at price"]
            case .imageSrc: ["image src", "product image url"]
            case .imagePosition: ["image position"]
            case .imageAlt: ["image alt text"]
            case .variantImage: ["variant image", "variant image url"]
            }
        }

        /// The longest text the column may hold (`TextLimit`).
        var limit: TextLimit {
            switch self {
            case .handle: .handle
            case .title: .title
            case .body: .description
            case .vendor, .type, .option1Name, .option1Value, .option2Name, .option2Value, .option3Name,
                 .option3Value: .name
            case .productCategory, .tags: .list
            case .sku, .barcode: .sku
            case .imageSrc, .variantImage: .imageURL
            case .imageAlt: .altText
            case .published, .status, .giftCard, .tracker, .quantity, .policy, .continueSelling, .price,
                 .compareAtPrice, .imagePosition: .value
            }
        }
    }

    struct Columns {
        /// By `Field.rawValue`: an array, not a dictionary, as every row looks up about 30 fields
        /// (issue #13, point 6).
        private var byField = [Column?](repeating: nil, count: Field.allCases.count)
        subscript(_ field: Field) -> Column? {
            get { byField[field.rawValue] }
            set { byField[field.rawValue] = newValue }
        }
        let optionNames: [Field] = [.option1Name, .option2Name, .option3Name]
        let optionValues: [Field] = [.option1Value, .option2Value, .option3Value]

        /// The fields this file has no column for: an update keeps their stored values (a sheet
        /// of `Handle,Title,Variant SKU,Variant Price` changes titles, SKUs and prices only).
        var absent: ProductDraft.Fields {
            var fields: ProductDraft.Fields = []
            if self[.body] == nil { fields.insert(.description) }
            if self[.vendor] == nil { fields.insert(.vendor) }
            if self[.type] == nil { fields.insert(.productType) }
            if self[.type] == nil && self[.productCategory] == nil { fields.insert(.category) }
            if self[.tags] == nil { fields.insert(.tags) }
            if self[.imageSrc] == nil && self[.variantImage] == nil { fields.insert(.images) }
            if self[.imageAlt] == nil { fields.insert(.imageAltText) }
            if self[.published] == nil && self[.status] == nil { fields.insert(.published) }
            if self[.compareAtPrice] == nil { fields.insert(.compareAtPrice) }
            if self[.tracker] == nil && self[.quantity] == nil { fields.insert(.inventory) }
            if self[.policy] == nil && self[.continueSelling] == nil { fields.insert(.backorders) }
            if self[.barcode] == nil { fields.insert(.barcode) }
            if (optionNames + optionValues).allSatisfy({ self[$0] == nil }) { fields.insert(.options) }
            return fields
        }
    }

    struct Builder {
        var draft: ProductDraft
        var skipReason: SkipReason?
        /// Option-value combinations seen, with their line.
        var combinations: [[String]: Int] = [:]
        /// Images with their `Image Position` (nil: after positioned ones) in file order.
        var images: [(image: ProductImage, position: Int?)] = []
        var variantImages: [ProductImage] = []
    }

    static func read(_ table: CSVTable, context: inout ImportContext) throws(ImportError) -> [ProductDraft] {
        var reader = try Reader(table)
        for row in table.rows {
            try reader.add(row, total: table.rows.count, context: &context)
        }
        return reader.finish(context: &context)
    }

    /// Reads a file's rows one at a time (`CatalogImporter` streams them from the CSV, so a large
    /// file is never held as records): rows with one handle build one product.
    struct Reader {
        let table: CSVTable
        private var columns = Columns()
        private let limited: [(Column, TextLimit)]
        private var order: [String] = []
        private var builders: [String: Builder] = [:]
        /// Rows added so far.
        private(set) var rowsRead = 0
        /// The last row's `Handle` as written, and `Handle.make` of it.
        private var lastHandle: (given: String, made: String)?

        /// - Throws: `ImportError` when the header has no handle (nor title) or price column.
        init(_ table: CSVTable) throws(ImportError) {
            self.table = table
            for field in Field.allCases { columns[field] = try table.onlyColumn(field.aliases) }
            if columns[.handle] == nil && columns[.title] == nil {
                _ = try table.require(["handle"], displayName: "“Handle” (2024: “URL handle”)")
            }
            _ = try table.require(Field.price.aliases, displayName: "“Variant Price” (2024: “Price”)")
            let columns = columns
            limited = Field.allCases.compactMap { field in columns[field].map { ($0, field.limit) } }
        }

        /// Reads one row (not a blank one) into its product.
        /// - Parameter total: the rows expected, for progress.
        /// - Throws: `ImportError` naming the row's line and column.
        mutating func add(_ row: CSVReader.Record, total: Int, context: inout ImportContext) throws(ImportError) {
            try table.checkWidth(row)
            for (column, limit) in limited {
                try context.checkLength(row[column], limit, line: row.line, column)
            }
            let givenHandle = row.trimmed(columns[.handle])
            let handle: String
            if !givenHandle.isEmpty {
                // A product's rows follow one another: its handle is made once, not once per row.
                if let last = lastHandle, last.given == givenHandle {
                    handle = last.made
                } else {
                    handle = Handle.make(from: givenHandle)
                    lastHandle = (givenHandle, handle)
                }
            } else {
                let title = row.trimmed(columns[.title])
                guard !title.isEmpty else {
                    throw context.error(line: row.line, columns[.handle] ?? columns[.title], .rowNeedsHandle)
                }
                handle = Handle.make(from: title)
            }
            if var builder = builders[handle] {
                builders[handle] = nil
                try addRow(row, to: &builder, columns: columns, context: &context)
                builders[handle] = builder
            } else {
                builders[handle] = try startProduct(row, handle: handle, columns: columns, context: &context)
                order.append(handle)
            }
            rowsRead += 1
            context.reportProgress(done: rowsRead, total: total)
        }

        /// The row's `Handle` as written (trimmed): rows with the same one belong to one product.
        func givenHandle(_ row: CSVReader.Record) -> String {
            row.trimmed(columns[.handle])
        }

        /// Takes over the products of `later`, a reader of the rows after this one's (a large
        /// file read in two parts at once), as if this reader had read its rows too. Returns
        /// false, changing nothing, when a product has rows in both parts: then the file is
        /// read again in one pass.
        mutating func append(_ later: Reader) -> Bool {
            guard !later.order.contains(where: { builders[$0] != nil }) else { return false }
            order += later.order
            builders.merge(later.builders) { mine, _ in mine }
            rowsRead += later.rowsRead
            lastHandle = later.lastHandle
            return true
        }

        /// The products, in the order of their first rows (gift cards skipped, with a note).
        func finish(context: inout ImportContext) -> [ProductDraft] {
            var products: [ProductDraft] = []
            products.reserveCapacity(order.count)
            for handle in order {
                guard let builder = builders[handle] else { continue }
                if let reason = builder.skipReason {
                    context.skip(line: builder.draft.sourceLine, name: handle, reason)
                    continue
                }
                var draft = builder.draft
                let sorted = builder.images.enumerated().sorted { a, b in
                    (a.element.position ?? .max, a.offset) < (b.element.position ?? .max, b.offset)
                }.map(\.element.image)
                var seen: Set<String> = []
                draft.images = (sorted + builder.variantImages).filter { seen.insert($0.url).inserted }
                products.append(draft)
            }
            return products
        }
    }

    private static func startProduct(_ row: CSVReader.Record, handle: String, columns: Columns,
                                      context: inout ImportContext) throws(ImportError) -> Builder {
        let title = row.trimmed(columns[.title])
        guard !title.isEmpty else {
            throw context.error(line: row.line, columns[.title], .newProductNeedsTitle(handle: handle))
        }
        let published = try bool(row, columns[.published], default: true, context: context)
        let status = row.trimmed(columns[.status]).lowercased()
        guard ["", "active", "draft", "archived", "unlisted"].contains(status) else {
            throw context.error(line: row.line, columns[.status], .notAStatus(row.trimmed(columns[.status])))
        }
        let description = HTMLSanitizer.sanitize(row[columns[.body]])
        let type = row.trimmed(columns[.type])
        let category = type.isEmpty
            ? try context.category(ImportContext.lastCategoryLevel(row[columns[.productCategory]]), line: row.line,
                                   columns[.productCategory])
            : type

        var optionNames: [String] = []
        for (index, field) in columns.optionNames.enumerated() {
            let name = row.trimmed(columns[field])
            if name.isEmpty { continue }
            guard optionNames.count == index else {
                throw context.error(line: row.line, columns[field],
                                    .optionNotNamed(named: index + 1, missing: optionNames.count + 1))
            }
            optionNames.append(name)
        }
        if optionNames == ["Title"], row.trimmed(columns[.option1Value]) == "Default Title" {
            optionNames = []
        }
        var builder = Builder(draft: ProductDraft(
            handle: handle, title: title, descriptionHTML: description.html, descriptionText: description.text,
            vendor: row.trimmed(columns[.vendor]), productType: type,
            categoryName: category,
            tags: try context.uniqueTags(row[columns[.tags]].split(separator: ","), line: row.line, columns[.tags]),
            publishedAt: nil, isPublished: published && (status.isEmpty || status == "active"),
            optionNames: optionNames, variants: [], sourceLine: row.line))
        // Not in the format: an update keeps the stored values (docs/IMPORT.md, "Exporting");
        // nor in this file, when it has no column for them.
        let format: ProductDraft.Fields = type.isEmpty ? [.publishedAt, .rating, .visibility]
                                                       : [.publishedAt, .rating, .visibility, .category]
        builder.draft.uncarried = format.union(columns.absent)
        if try bool(row, columns[.giftCard], default: false, context: context) {
            builder.skipReason = .giftCard
            return builder
        }
        try addRow(row, to: &builder, columns: columns, context: &context)
        return builder
    }

    private static func addRow(_ row: CSVReader.Record, to builder: inout Builder, columns: Columns,
                               context: inout ImportContext) throws(ImportError) {
        guard builder.skipReason == nil else { return }
        let image = row.trimmed(columns[.imageSrc])
        if !image.isEmpty {
            let positionText = row.trimmed(columns[.imagePosition])
            var position: Int?
            if !positionText.isEmpty {
                guard let value = Int(positionText), value >= 0 else {
                    throw context.error(line: row.line, columns[.imagePosition], .notAnImagePosition(positionText))
                }
                position = value
            }
            builder.images.append((try context.image(image, altText: row.trimmed(columns[.imageAlt]), line: row.line,
                                                     columns[.imageSrc]), position))
        }
        let isFirstRow = builder.draft.sourceLine == row.line
        let hasVariant = isFirstRow
            || columns.optionValues.contains { !row.trimmed(columns[$0]).isEmpty }
            || !row.trimmed(columns[.price]).isEmpty || !row.trimmed(columns[.sku]).isEmpty
        guard hasVariant else { return }

        let optionNames = builder.draft.optionNames
        var values: [String] = []
        if optionNames.isEmpty {
            let given = row.trimmed(columns[.option1Value])
            if !isFirstRow, !given.isEmpty, given != "Default Title" {
                throw context.error(line: row.line, columns[.option1Value],
                                    .optionValueWithoutOptions(value: given, firstLine: builder.draft.sourceLine))
            }
        } else {
            for (index, name) in optionNames.enumerated() {
                let value = row.trimmed(columns[columns.optionValues[index]])
                guard !value.isEmpty else {
                    throw context.error(line: row.line, columns[columns.optionValues[index]], .missingOptionValue(option: name))
                }
                values.append(value)
            }
        }
        if builder.draft.uncarried.contains(.options) {
            // No option columns: a stored product keeps its options, and each variant is matched
            // by its SKU (`CatalogUpsertRules.keepingUncarried`), so a second variant needs one,
            // and so does the first.
            if let first = builder.draft.variants.first {
                guard !row.trimmed(columns[.sku]).isEmpty else {
                    throw context.error(line: row.line, columns[.sku], .variantNeedsSKUWithoutOptions)
                }
                guard first.sku != nil else {
                    throw context.error(line: builder.draft.sourceLine, columns[.sku], .variantNeedsSKUWithoutOptions)
                }
            }
        } else if let earlier = builder.combinations[OptionValues.key(values)] {
            throw context.error(
                line: row.line, optionNames.isEmpty ? columns[.price] : columns[.option1Value],
                optionNames.isEmpty
                    ? .onlyOneVariant(earlierLine: earlier) : .variantOptionsTaken(earlierLine: earlier, values: values))
        }
        builder.combinations[OptionValues.key(values)] = row.line

        let priceText = row.trimmed(columns[.price])
        guard !priceText.isEmpty else {
            throw context.error(line: row.line, columns[.price], .variantNeedsPrice)
        }
        let price = try context.price(priceText, line: row.line, columns[.price]!)
        var compareAt: Money?
        if let column = columns[.compareAtPrice], !row.trimmed(column).isEmpty {
            compareAt = try context.price(row.trimmed(column), line: row.line, column)
        }
        let inventory = try inventory(row, columns: columns, context: &context)
        let sku = try context.claimSKU(row[columns[.sku]], line: row.line, columns[.sku])
        let barcode = row.trimmed(columns[.barcode])
        builder.draft.variants.append(VariantDraft(
            sku: sku, optionValues: values, price: price,
            compareAtPrice: ImportContext.compareAt(compareAt, above: price), inventory: inventory,
            barcode: barcode.isEmpty ? nil : barcode))
        let variantImage = row.trimmed(columns[.variantImage])
        if !variantImage.isEmpty {
            builder.variantImages.append(try context.image(variantImage, altText: values.joined(separator: " / "),
                                                           line: row.line, columns[.variantImage]))
        }
    }

    private static func inventory(_ row: CSVReader.Record, columns: Columns,
                                  context: inout ImportContext) throws(ImportError) -> Inventory {
        // Tracked when the tracker says so — or, in a file without that column, when the row
        // gives a quantity: a stock sheet (`Handle,Variant SKU,Variant Inventory Qty`) means to
        // count stock, not to make it unlimited.
        let tracked = columns[.tracker] == nil ? !row.trimmed(columns[.quantity]).isEmpty
                                               : !row.trimmed(columns[.tracker]).isEmpty
        guard tracked else { return .untracked }
        // `Variant Inventory Policy` (2023) or `Continue selling when out of stock` (2024): the
        // first that is filled in.
        let policyColumn = [columns[.policy], columns[.continueSelling]].compactMap { $0 }
            .first { !row.trimmed($0).isEmpty }
        let backorder = try continuesSelling(row, policyColumn, context: context)
        let text = row.trimmed(columns[.quantity])
        var quantity = 0
        if !text.isEmpty {
            guard let value = Int(text) else {
                throw context.error(line: row.line, columns[.quantity], .notAQuantity(text))
            }
            quantity = value
        }
        if quantity < 0 {
            if columns[.policy] == nil && columns[.continueSelling] == nil {
                // A stock sheet without a policy column: each variant keeps its stored setting
                // (`Columns.absent` holds `.backorders`), unknown here — so no refusal for a variant the shop lets
                // sell past zero; the stock is 0 either way.
                context.warn(line: row.line, .oversoldPolicyKept(quantity: quantity))
                quantity = 0
            } else {
                guard backorder else {
                    throw context.error(line: row.line, columns[.quantity], .negativeStockWithoutBackorders(quantity))
                }
                context.warn(line: row.line, .oversold(quantity: quantity))
                quantity = 0
            }
        }
        return .tracked(quantity: quantity, allowsBackorder: backorder)
    }

    /// Whether a variant sells on when out of stock, as Shopify writes it in either template's
    /// column (help.shopify.com, "Product CSV file"): the inventory policy `deny` / `continue`
    /// (any case: the 2024 template's sample writes `DENY` / `CONTINUE`), or TRUE/FALSE as older
    /// exports of the 2024 column did; false when empty or without a column.
    private static func continuesSelling(_ row: CSVReader.Record, _ column: Column?,
                                         context: ImportContext) throws(ImportError) -> Bool {
        switch row.trimmed(column).lowercased() {
        case "continue": return true
        case "deny": return false
        case "": return false
        default:
            guard let value = try? bool(row, column, default: false, context: context) else {
                throw context.error(line: row.line, column, .notAnInventoryPolicy(row.trimmed(column)))
            }
            return value
        }
    }

    /// TRUE/FALSE (any case; also yes/no, 1/0); `default` when empty.
    private static func bool(_ row: CSVReader.Record, _ column: Column?, default value: Bool,
                             context: ImportContext) throws(ImportError) -> Bool {
        let text = row.trimmed(column).lowercased()
        switch text {
        case "": return value
        case "true", "yes", "1": return true
        case "false", "no", "0": return false
        default: throw context.error(line: row.line, column, .notTrueOrFalse(row.trimmed(column)))
        }
    }
}

public import ShopCore

/// Why a catalog file is refused: the rule a record broke, with what the file holds (verbatim)
/// and what was expected.
///
/// Each problem has one wording per language in ShopImport's string tables
/// (`Localizable/{en,tr,es}.json`, `ImportMessageKey`): `message(in:)` is what a staff member
/// reads in the back office; `description` is the English the CLI prints, which differs only
/// where the CLI has a flag to offer (`--format`, `--merge-duplicate-skus`). Codable, so an
/// import job keeps the problem, not its words, and shows it in the language of whoever looks.
///
/// ```swift
/// ImportProblem.notAPrice("abc").message(in: .turkish)  // "“abc” geçerli bir fiyat değil (örneğin 12.50)"
/// ```
public enum ImportProblem: Hashable, Sendable, Codable, CustomStringConvertible {
    // The file as a whole
    /// Nothing but white space (or only a byte order mark).
    case fileEmpty
    /// Matches no format; `formats` are the names `--format` accepts.
    case unknownFormat(formats: [String])
    /// Not valid JSON.
    case invalidJSON(JSONSyntaxProblem)
    /// Not valid CSV.
    case invalidCSV(CSVSyntaxProblem)
    /// The header lacks a column, e.g. `“Name”` or `“Variant Price” (2024: “Price”)`.
    case missingColumn(String)
    /// Two columns of the header answer to one field (`Variant Price` twice, or `Variant
    /// Inventory Policy` and its 2024 name): which one counts would be a guess.
    case columnTwice(first: Int, second: Int)
    /// The header is one field holding `;` or tabs: a CSV saved with another separator (a
    /// spreadsheet set to a European locale writes `;`), whose columns cannot be found.
    case separatedBy(CSVSeparator)
    /// A row has more (non-empty) fields than the header has columns.
    case extraFields(fields: Int, columns: Int)

    // JSON structure
    /// A value that must be an object is another kind of value.
    case notAnObject(JSONPart, found: JSONKind)
    /// A Fake Store file whose top level is not an array.
    case fakeStoreNotArray
    /// A field of the wrong kind.
    case expected(JSONExpectation, found: JSONKind)
    /// An array of strings holding something else.
    case stringsHoldOther(found: JSONKind)
    /// A required field is missing or empty.
    case required
    /// A seed file without its `products` array.
    case requiredProductArray
    /// A shoppable-json file without its `version`.
    case requiredVersion
    /// `format` is not `shoppable-catalog`.
    case notShoppableCatalog
    /// A shoppable-json `version` this build does not read.
    case unsupportedVersion(Int)

    // Values
    /// Longer than its `TextLimit` allows, in UTF-8 bytes.
    case textTooLong(bytes: Int, limit: TextLimit)
    /// Holds a NUL character (U+0000), which PostgreSQL's text cannot store.
    case textHoldsNUL(limit: TextLimit)
    case notAWholeNumber(String)
    case notAQuantity(String)
    case notAPrice(String)
    case negativePrice(String)
    case notARating(String)
    case negativeRatingCount
    case notTrueOrFalse(String)
    case notAStatus(String)
    case notAVisibility(String)
    case notAnImagePosition(String)
    /// An image address with a scheme other than `http`, `https`, `file` or `data:image/…`
    /// (`javascript:`, `data:text/html`).
    case notAnImageAddress(String)
    case notAnInventoryPolicy(String)
    /// WooCommerce `Published`.
    case notAPublishedValue(String)
    /// WooCommerce `In stock?`.
    case notAStockStatus(String)
    /// WooCommerce `Backorders allowed?`.
    case notABackorderSetting(String)
    case notADate(String)
    case notAnISODate(String)
    /// A negative stock where backorders are not allowed (CSV).
    case negativeStockWithoutBackorders(Int)
    /// A negative `stock` (shoppable-json).
    case negativeStock(Int)

    // Products and variants
    /// A SKU already used on an earlier line (compared trimmed and case-insensitively).
    case duplicateSKU(sku: String, earlierLine: Int)
    /// A SKU already used earlier on the same line (a JSON file written on one line).
    case duplicateSKUOnTheSameLine(sku: String)
    /// A handle already used in the file (shoppable-json).
    case handleTaken(handle: String, earlierLine: Int)
    /// A product with a new handle whose SKUs are some, not all, of a stored product's: the
    /// store does not take that product over (`CatalogStoreError.skuOfAnotherProduct`).
    case skuOfAnotherProduct(sku: String, owner: String)
    /// A product's SKU that a variant of another stored product has, which the store may not take
    /// over (`CatalogStoreError.skuTaken`): the product's handle is a stored one, or `owner`'s
    /// handle is in the same file, or another product of the file has the SKU too.
    case skuTaken(sku: String, owner: String)
    /// A Shopify row with neither handle nor title.
    case rowNeedsHandle
    /// A Shopify product's first row without a title.
    case newProductNeedsTitle(handle: String)
    case productNeedsName
    case variantNeedsPrice
    case noVariants
    /// Shopify option `named` has a name but option `missing` (before it) has none.
    case optionNotNamed(named: Int, missing: Int)
    /// A shoppable-json option without a name (1-based).
    case unnamedOption(Int)
    /// An option value on a later row of a product whose first row names no options.
    case optionValueWithoutOptions(value: String, firstLine: Int)
    case missingOptionValue(option: String)
    /// A second variant of a product without options.
    case onlyOneVariant(earlierLine: Int)
    /// Two variants with the same option values (Shopify).
    case variantOptionsTaken(earlierLine: Int, values: [String])
    /// A second variant row of a product in a Shopify file without option columns, where it or
    /// the first has no SKU to be matched by (`ProductDraft.Fields.options`).
    case variantNeedsSKUWithoutOptions
    /// A SKU in a file without option columns that is none of the stored product's variants
    /// (`CatalogStoreError.skuNotAVariant`).
    case skuNotAVariant(sku: String, handle: String)
    /// Several variants, in a file without option columns, of a product that has no options or
    /// is new (`CatalogStoreError.variantsNeedOptions`).
    case variantsNeedOptions(handle: String)
    /// Two variants with the same option values (shoppable-json).
    case variantOptionsRepeated(earlierLine: Int)
    /// A shoppable-json variant whose `options` do not match the product's.
    case optionValuesNeeded(options: [String])
    /// A `choices` entry naming no option of the product.
    case notAnOption(String)
    /// `choices` for an option the variant gives a value.
    case choicesOfChosenOption(option: String, value: String)
    /// A WooCommerce variation without `Parent`.
    case variationNeedsParent
    case unknownParent(String)
    case parentNotVariable(reference: String, line: Int)
    /// Two WooCommerce variations with the same attributes.
    case variationOptionsTaken(earlierLine: Int, values: [String])
    /// An “any” variation whose parent lists no values for the open attribute.
    case openOptionWithoutValues(option: String, parentLine: Int)
    case openOptionsTaken(earlierLine: Int)

    // Images and writing
    /// A local image refused (`LocalMedia`).
    case localImage(LocalMediaError)
    /// An image the downloader or the image library refused; `reason` is theirs, verbatim.
    case imageRefused(url: String, reason: String)
    /// Remote images asked for, but the import has no downloader.
    case noImageDownloader
    /// The catalog store refused the drafts; its own words, verbatim.
    case catalogRefused(String)
    /// The shop's stored prices are in `stored`, and this import reads amounts as `importing`
    /// (`--currency`): one catalog holds one currency (a fresh tester's `--currency JPY` on a
    /// USD shop stored ¥65 beside dollars, and a cart holding both answered 500).
    case catalogInOtherCurrency(stored: String, importing: String)

    /// The problem in `language`, for a staff member in the back office (no CLI flags).
    public func message(in language: Language) -> String {
        let t = { (key: ImportMessageKey, arguments: [String: String]) in ImportMessages.text(key, in: language, arguments) }
        switch self {
        case .fileEmpty: return t(.importFileEmpty, [:])
        case .unknownFormat:
            return t(.importUnknownFormat, [:]) + "; " + t(.importUnknownFormatChoose, [:])
        case let .invalidJSON(problem): return t(.importInvalidJSON, ["detail": problem.message(in: language)])
        case let .invalidCSV(problem): return t(.importInvalidCSV, ["detail": problem.message(in: language)])
        case let .missingColumn(name): return t(.importMissingColumn, ["column": name])
        case .separatedBy(.semicolon): return t(.importSemicolonSeparated, [:])
        case .separatedBy(.tab): return t(.importTabSeparated, [:])
        case let .columnTwice(first, second):
            return t(.importColumnTwice, ["first": String(first), "second": String(second)])
        case let .extraFields(fields, columns):
            return t(.importExtraFields, ["fields": String(fields), "columns": String(columns)])
        case let .notAnObject(part, found):
            return t(.importNotAnObject, ["what": part.message(in: language), "found": found.message(in: language)])
        case .fakeStoreNotArray: return t(.importFakeStoreNotArray, [:])
        case let .expected(expectation, found):
            return t(.importExpected, ["expected": expectation.message(in: language), "found": found.message(in: language)])
        case let .stringsHoldOther(found): return t(.importStringsHoldOther, ["found": found.message(in: language)])
        case .required: return t(.importRequired, [:])
        case .requiredProductArray: return t(.importRequiredProductArray, [:])
        case .requiredVersion: return t(.importRequiredVersion, [:])
        case .notShoppableCatalog: return t(.importNotShoppableCatalog, [:])
        case let .unsupportedVersion(version): return t(.importUnsupportedVersion, ["version": String(version)])
        case let .textTooLong(bytes, limit):
            return t(.importTextTooLong, ["bytes": String(bytes), "what": limit.label(in: language),
                                          "maximum": String(limit.maximumBytes)])
        case let .textHoldsNUL(limit): return t(.importTextHoldsNUL, ["what": limit.label(in: language)])
        case let .notAWholeNumber(value): return t(.importNotAWholeNumber, ["value": value])
        case let .notAQuantity(value): return t(.importNotAQuantity, ["value": value])
        case let .notAPrice(value): return t(.importNotAPrice, ["value": value])
        case let .negativePrice(value): return t(.importNegativePrice, ["value": value])
        case let .notARating(value): return t(.importNotARating, ["value": value])
        case .negativeRatingCount: return t(.importNegativeRatingCount, [:])
        case let .notTrueOrFalse(value): return t(.importNotTrueOrFalse, ["value": value])
        case let .notAStatus(value): return t(.importNotAStatus, ["value": value])
        case let .notAVisibility(value): return t(.importNotAVisibility, ["value": value])
        case let .notAnImagePosition(value): return t(.importNotAnImagePosition, ["value": value])
        case let .notAnImageAddress(value): return t(.importNotAnImageAddress, ["value": value])
        case let .notAnInventoryPolicy(value): return t(.importNotAnInventoryPolicy, ["value": value])
        case let .notAPublishedValue(value): return t(.importNotAPublishedValue, ["value": value])
        case let .notAStockStatus(value): return t(.importNotAStockStatus, ["value": value])
        case let .notABackorderSetting(value): return t(.importNotABackorderSetting, ["value": value])
        case let .notADate(value): return t(.importNotADate, ["value": value])
        case let .notAnISODate(value): return t(.importNotAnISODate, ["value": value])
        case let .negativeStockWithoutBackorders(quantity):
            return t(.importNegativeStockWithoutBackorders, ["quantity": String(quantity)])
        case let .negativeStock(quantity): return t(.importNegativeStock, ["quantity": String(quantity)])
        case let .duplicateSKU(sku, earlierLine): return t(.importDuplicateSKU, ["sku": sku, "earlier": String(earlierLine)])
        case let .duplicateSKUOnTheSameLine(sku): return t(.importDuplicateSKUOnTheSameLine, ["sku": sku])
        case let .handleTaken(handle, earlierLine): return t(.importHandleTaken, ["handle": handle, "earlier": String(earlierLine)])
        case let .skuOfAnotherProduct(sku, owner): return t(.importSKUOfAnotherProduct, ["sku": sku, "owner": owner])
        case let .skuTaken(sku, owner): return t(.importSKUTaken, ["sku": sku, "owner": owner])
        case .rowNeedsHandle: return t(.importRowNeedsHandle, [:])
        case let .newProductNeedsTitle(handle): return t(.importNewProductNeedsTitle, ["handle": handle])
        case .productNeedsName: return t(.importProductNeedsName, [:])
        case .variantNeedsPrice: return t(.importVariantNeedsPrice, [:])
        case .noVariants: return t(.importNoVariants, [:])
        case let .optionNotNamed(named, missing):
            return t(.importOptionNotNamed, ["named": String(named), "missing": String(missing)])
        case let .unnamedOption(number): return t(.importUnnamedOption, ["number": String(number)])
        case let .optionValueWithoutOptions(value, firstLine):
            return t(.importOptionValueWithoutOptions, ["value": value, "line": String(firstLine)])
        case let .missingOptionValue(option): return t(.importMissingOptionValue, ["option": option])
        case let .onlyOneVariant(earlierLine): return t(.importOnlyOneVariant, ["earlier": String(earlierLine)])
        case let .variantOptionsTaken(earlierLine, values):
            return t(.importVariantOptionsTaken, ["earlier": String(earlierLine), "values": values.joined(separator: " / ")])
        case .variantNeedsSKUWithoutOptions: return t(.importVariantNeedsSKUWithoutOptions, [:])
        case let .skuNotAVariant(sku, handle): return t(.importSKUNotAVariant, ["sku": sku, "handle": handle])
        case let .variantsNeedOptions(handle): return t(.importVariantsNeedOptions, ["handle": handle])
        case let .variantOptionsRepeated(earlierLine): return t(.importVariantOptionsRepeated, ["earlier": String(earlierLine)])
        case let .optionValuesNeeded(options):
            return t(.importOptionValuesNeeded,
                     ["options": options.isEmpty ? t(.importNoOptions, [:]) : options.joined(separator: ", ")])
        case let .notAnOption(name): return t(.importNotAnOption, ["name": name])
        case let .choicesOfChosenOption(option, value): return t(.importChoicesOfChosenOption, ["option": option, "value": value])
        case .variationNeedsParent: return t(.importVariationNeedsParent, [:])
        case let .unknownParent(reference): return t(.importUnknownParent, ["reference": reference])
        case let .parentNotVariable(reference, line):
            return t(.importParentNotVariable, ["reference": reference, "line": String(line)])
        case let .variationOptionsTaken(earlierLine, values):
            return t(.importVariationOptionsTaken, ["earlier": String(earlierLine), "values": values.joined(separator: " / ")])
        case let .openOptionWithoutValues(option, parentLine):
            return t(.importOpenOptionWithoutValues, ["option": option, "line": String(parentLine)])
        case let .openOptionsTaken(earlierLine): return t(.importOpenOptionsTaken, ["earlier": String(earlierLine)])
        case let .localImage(error): return error.message(in: language)
        case let .imageRefused(url, reason): return t(.importImageRefused, ["image": url, "reason": reason])
        case .noImageDownloader: return t(.importNoImageDownloader, [:])
        case let .catalogRefused(text): return text
        case let .catalogInOtherCurrency(stored, importing):
            return t(.importCatalogInOtherCurrency, ["stored": stored, "importing": importing])
        }
    }

    /// The English the CLI (`shoppable import`) prints: `message(in: .english)`, with the flag
    /// that answers the problem where the CLI has one.
    public var description: String {
        switch self {
        case let .unknownFormat(formats):
            ImportMessages.text(.importUnknownFormat, in: .english)
                + "; pass --format (\(formats.joined(separator: ", "))) to choose one"
        case .duplicateSKU: message(in: .english) + ", or import with --merge-duplicate-skus"
        case let .catalogInOtherCurrency(stored, _): message(in: .english) + "; import with --currency \(stored)"
        default: message(in: .english)
        }
    }
}

/// Something imported with a caveat the merchant should check (`ImportWarning`).
/// A separator other than the comma a catalog CSV is read with (`ImportProblem.separatedBy`).
public enum CSVSeparator: String, Hashable, Sendable, Codable {
    case semicolon, tab

    /// The separator a header of one field shows it was written with, if any: `Handle;Title;…`.
    static func instead(ofCommaIn header: [String]) -> CSVSeparator? {
        guard header.count == 1, let only = header.first else { return nil }
        if only.contains(";") { return .semicolon }
        if only.contains("\t") { return .tab }
        return nil
    }
}

public enum ImportCaveat: Hashable, Sendable, Codable, CustomStringConvertible {
    /// A SKU Excel showed in scientific notation, read as `expanded`.
    case scientificSKU(sku: String, expanded: String)
    /// A repeated SKU merged into the variant of `earlierLine` (`--merge-duplicate-skus`).
    case mergedSKU(sku: String, earlierLine: Int, line: Int)
    /// A handle already used, so the product got `newHandle`.
    case renamedHandle(handle: String, earlierLine: Int, newHandle: String)
    /// A given handle that is not URL-safe, imported as `handle`.
    case handleNotURLSafe(given: String, handle: String)
    /// A negative stock with backorders allowed, imported as 0.
    case oversold(quantity: Int)
    /// A negative stock in a file without an inventory policy column (each variant keeps its
    /// own), imported as 0.
    case oversoldPolicyKept(quantity: Int)
    /// A WooCommerce variation whose stock is its parent's.
    case stockOnParent(parentLine: Int)
    /// A WooCommerce sale price scheduled to start later (as written).
    case saleNotStarted(salePrice: String, starts: String)
    /// A WooCommerce sale price whose schedule ended (as written).
    case saleEnded(salePrice: String, ends: String)
    /// A sale price not below the regular price, ignored.
    case saleNotBelowRegular(salePrice: String, regularPrice: String)
    /// A seed file's currency symbol read as the shop currency.
    case currencySymbol(symbol: String, products: Int, shopCurrency: String)
    /// A seed file's currency other than the shop's; amounts read without conversion.
    case foreignCurrency(code: String, products: Int, shopCurrency: String)
    /// A shoppable-json `currency` other than the shop's; amounts read without conversion.
    case catalogCurrency(code: String, shopCurrency: String)
    /// A CSV price written with a currency sign that is not the shop currency's (`€139.00` in a
    /// USD shop), read as the shop currency without conversion; said once per sign.
    case priceSign(price: String, sign: String, shopCurrency: String)

    /// The caveat in `language`.
    public func message(in language: Language) -> String {
        let t = { (key: ImportMessageKey, arguments: [String: String]) in ImportMessages.text(key, in: language, arguments) }
        switch self {
        case let .scientificSKU(sku, expanded): return t(.importWarningScientificSKU, ["sku": sku, "expanded": expanded])
        case let .mergedSKU(sku, earlierLine, line):
            return t(.importWarningMergedSKU, ["sku": sku, "earlier": String(earlierLine), "line": String(line)])
        case let .renamedHandle(handle, earlierLine, newHandle):
            return t(.importWarningRenamedHandle, ["handle": handle, "earlier": String(earlierLine), "new": newHandle])
        case let .handleNotURLSafe(given, handle): return t(.importWarningHandleNotURLSafe, ["given": given, "handle": handle])
        case let .oversold(quantity): return t(.importWarningOversold, ["quantity": String(quantity)])
        case let .oversoldPolicyKept(quantity): return t(.importWarningOversoldPolicyKept, ["quantity": String(quantity)])
        case let .stockOnParent(parentLine): return t(.importWarningStockOnParent, ["line": String(parentLine)])
        case let .saleNotStarted(price, date): return t(.importWarningSaleNotStarted, ["price": price, "date": date])
        case let .saleEnded(price, date): return t(.importWarningSaleEnded, ["price": price, "date": date])
        case let .saleNotBelowRegular(sale, regular):
            return t(.importWarningSaleNotBelowRegular, ["sale": sale, "regular": regular])
        case let .currencySymbol(symbol, products, shop):
            return t(.importWarningCurrencySymbol,
                     ["symbol": symbol, "products": ImportMessages.count(products, .importProductCount, in: language), "shop": shop])
        case let .foreignCurrency(code, products, shop):
            return t(.importWarningForeignCurrency,
                     ["code": code, "products": ImportMessages.count(products, .importProductCount, in: language), "shop": shop])
        case let .catalogCurrency(code, shop): return t(.importWarningCatalogCurrency, ["code": code, "shop": shop])
        case let .priceSign(price, sign, shop): return t(.importWarningPriceSign, ["price": price, "sign": sign, "shop": shop])
        }
    }

    /// The English the CLI prints.
    public var description: String { message(in: .english) }
}

/// Why a record valid in its format is not imported (`SkippedRow`).
public enum SkipReason: Hashable, Sendable, Codable, CustomStringConvertible {
    /// A Shopify gift card.
    case giftCard
    /// A WooCommerce grouped product (its children are imported on their own).
    case grouped
    /// A WooCommerce external/affiliate product.
    case external
    /// A WooCommerce product type this shop does not know, as written.
    case unsupportedType(String)
    /// A WooCommerce product without a price.
    case noPrice
    /// A WooCommerce variable product none of whose variations can be bought.
    case noPurchasableVariations
    /// A WooCommerce variation not published.
    case disabledVariation
    /// A WooCommerce variation without a price.
    case variationWithoutPrice
    /// An “any” variation every value of whose open `option` has its own variation.
    case anyVariationCovered(option: String)

    /// The reason in `language`.
    public func message(in language: Language) -> String {
        switch self {
        case .giftCard: ImportMessages.text(.importSkipGiftCard, in: language)
        case .grouped: ImportMessages.text(.importSkipGrouped, in: language)
        case .external: ImportMessages.text(.importSkipExternal, in: language)
        case let .unsupportedType(type): ImportMessages.text(.importSkipUnsupportedType, in: language, ["type": type])
        case .noPrice: ImportMessages.text(.importSkipNoPrice, in: language)
        case .noPurchasableVariations: ImportMessages.text(.importSkipNoPurchasableVariations, in: language)
        case .disabledVariation: ImportMessages.text(.importSkipDisabledVariation, in: language)
        case .variationWithoutPrice: ImportMessages.text(.importSkipVariationWithoutPrice, in: language)
        case let .anyVariationCovered(option): ImportMessages.text(.importSkipAnyVariationCovered, in: language, ["option": option])
        }
    }

    /// The English the CLI prints.
    public var description: String { message(in: .english) }
}

/// What a JSON value must be, in `ImportProblem.notAnObject`.
public enum JSONPart: Hashable, Sendable, Codable {
    case product, variant, image, seedCatalog, shoppableCatalog
    /// The object under a field, named as the file writes it.
    case field(String)

    func message(in language: Language) -> String {
        switch self {
        case .product: ImportMessages.text(.importPartProduct, in: language)
        case .variant: ImportMessages.text(.importPartVariant, in: language)
        case .image: ImportMessages.text(.importPartImage, in: language)
        case .seedCatalog: ImportMessages.text(.importPartSeedCatalog, in: language)
        case .shoppableCatalog: ImportMessages.text(.importPartShoppableCatalog, in: language)
        case let .field(name): "“\(name)”"
        }
    }
}

/// The kind of a JSON value, as a message names it.
public enum JSONKind: String, Hashable, Sendable, Codable, CaseIterable {
    case null, bool, number, string, array, object

    func message(in language: Language) -> String {
        switch self {
        case .null: ImportMessages.text(.importKindNull, in: language)
        case .bool: ImportMessages.text(.importKindBool, in: language)
        case .number: ImportMessages.text(.importKindNumber, in: language)
        case .string: ImportMessages.text(.importKindString, in: language)
        case .array: ImportMessages.text(.importKindArray, in: language)
        case .object: ImportMessages.text(.importKindObject, in: language)
        }
    }
}

/// What a JSON field should have held, in `ImportProblem.expected`.
public enum JSONExpectation: String, Hashable, Sendable, Codable, CaseIterable {
    case string, number, bool, object, array, strings
    /// A string, a number or true/false (a seed file's `info` values).
    case scalar

    func message(in language: Language) -> String {
        switch self {
        case .string: JSONKind.string.message(in: language)
        case .number: JSONKind.number.message(in: language)
        case .object: JSONKind.object.message(in: language)
        case .array: JSONKind.array.message(in: language)
        case .bool: ImportMessages.text(.importExpectBool, in: language)
        case .strings: ImportMessages.text(.importExpectStrings, in: language)
        case .scalar: ImportMessages.text(.importExpectScalar, in: language)
        }
    }
}

/// What is wrong with a file that is not valid JSON.
public enum JSONSyntaxProblem: Hashable, Sendable, Codable, CustomStringConvertible {
    case textAfterValue, endsWhereValueExpected, nestedTooDeeply, expectedFieldName
    case expectedColon(field: String)
    /// One object names the field twice.
    case repeatedField(field: String)
    case endsInsideObject, expectedCommaOrBrace, endsInsideArray, expectedCommaOrBracket
    case unexpectedCharacter, unexpectedText
    case numberNeedsDigits, numberNeedsFractionDigits, numberNeedsExponentDigits
    case unclosedString, stringNotUTF8, loneSurrogate, invalidUnicodeEscape, invalidEscape, controlCharacter

    /// Every problem, for tests.
    public static let allCases: [JSONSyntaxProblem] = [
        .textAfterValue, .endsWhereValueExpected, .nestedTooDeeply, .expectedFieldName, .expectedColon(field: "name"),
        .repeatedField(field: "name"),
        .endsInsideObject, .expectedCommaOrBrace, .endsInsideArray, .expectedCommaOrBracket, .unexpectedCharacter,
        .unexpectedText, .numberNeedsDigits, .numberNeedsFractionDigits, .numberNeedsExponentDigits, .unclosedString,
        .stringNotUTF8, .loneSurrogate, .invalidUnicodeEscape, .invalidEscape, .controlCharacter,
    ]

    /// The problem in `language`.
    public func message(in language: Language) -> String {
        let key: ImportMessageKey = switch self {
        case .textAfterValue: .jsonTextAfterValue
        case .endsWhereValueExpected: .jsonEndsWhereValueExpected
        case .nestedTooDeeply: .jsonNestedTooDeeply
        case .expectedFieldName: .jsonExpectedFieldName
        case .expectedColon: .jsonExpectedColon
        case .repeatedField: .jsonRepeatedField
        case .endsInsideObject: .jsonEndsInsideObject
        case .expectedCommaOrBrace: .jsonExpectedCommaOrBrace
        case .endsInsideArray: .jsonEndsInsideArray
        case .expectedCommaOrBracket: .jsonExpectedCommaOrBracket
        case .unexpectedCharacter: .jsonUnexpectedCharacter
        case .unexpectedText: .jsonUnexpectedText
        case .numberNeedsDigits: .jsonNumberNeedsDigits
        case .numberNeedsFractionDigits: .jsonNumberNeedsFractionDigits
        case .numberNeedsExponentDigits: .jsonNumberNeedsExponentDigits
        case .unclosedString: .jsonUnclosedString
        case .stringNotUTF8: .jsonStringNotUTF8
        case .loneSurrogate: .jsonLoneSurrogate
        case .invalidUnicodeEscape: .jsonInvalidUnicodeEscape
        case .invalidEscape: .jsonInvalidEscape
        case .controlCharacter: .jsonControlCharacter
        }
        if case let .expectedColon(field) = self { return ImportMessages.text(key, in: language, ["field": field]) }
        if case let .repeatedField(field) = self { return ImportMessages.text(key, in: language, ["field": field]) }
        return ImportMessages.text(key, in: language)
    }

    /// The English the CLI prints.
    public var description: String { message(in: .english) }
}

/// What is wrong with a file that is not valid CSV.
public enum CSVSyntaxProblem: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    case notUTF8, textAfterClosingQuote, unclosedQuote

    /// The problem in `language`.
    public func message(in language: Language) -> String {
        switch self {
        case .notUTF8: ImportMessages.text(.csvNotUTF8, in: language)
        case .textAfterClosingQuote: ImportMessages.text(.csvTextAfterClosingQuote, in: language)
        case .unclosedQuote: ImportMessages.text(.csvUnclosedQuote, in: language)
        }
    }

    /// The English the CLI prints.
    public var description: String { message(in: .english) }
}

extension TextLimit {
    /// What the field is, in English: `"a title"`.
    var label: String { label(in: .english) }

    /// What the field is, in `language`: `"a title"`.
    func label(in language: Language) -> String {
        let key: ImportMessageKey = switch self {
        case .title: .importLimitTitle
        case .handle: .importLimitHandle
        case .name: .importLimitName
        case .tag: .importLimitTag
        case .sku: .importLimitSKU
        case .imageURL: .importLimitImageURL
        case .altText: .importLimitAltText
        case .value: .importLimitValue
        case .list: .importLimitList
        case .description: .importLimitDescription
        }
        return ImportMessages.text(key, in: language)
    }
}

extension LocalMediaError {
    /// What is wrong, in `language`, e.g. `image “/etc/passwd” is outside the folders images are read from …`.
    public func message(in language: Language) -> String {
        switch self {
        case let .rootNotFound(path): ImportMessages.text(.imageRootNotFound, in: language, ["path": path])
        case let .noLocalFiles(reference): ImportMessages.text(.imageNoLocalFiles, in: language, ["image": reference])
        case let .notFound(reference, roots):
            ImportMessages.text(.imageNotFound, in: language, ["image": reference, "roots": roots.joined(separator: ", ")])
        case let .outsideRoots(reference, resolved, roots):
            ImportMessages.text(.imageOutsideRoots, in: language,
                                ["image": reference, "resolved": resolved, "roots": roots.joined(separator: ", ")])
        case let .fileURLWithHost(reference): ImportMessages.text(.imageFileURLWithHost, in: language, ["image": reference])
        case let .notARegularFile(reference): ImportMessages.text(.imageNotARegularFile, in: language, ["image": reference])
        case let .tooLarge(reference, bytes, maximum):
            ImportMessages.text(.imageTooLarge, in: language,
                                ["image": reference, "bytes": String(bytes), "maximum": String(maximum)])
        case let .notAnImage(reference): ImportMessages.text(.imageNotAnImage, in: language, ["image": reference])
        case let .unreadable(reference, reason):
            ImportMessages.text(.imageUnreadable, in: language, ["image": reference, "reason": reason])
        }
    }
}

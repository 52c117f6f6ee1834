import Foundation
import ShopCore
@testable import ShopImport
import Testing

/// ShopImport's string tables (`Sources/ShopImport/Localizable/*.json`): every problem, caveat
/// and skipped record of an import in each language the back office speaks, and the CLI's
/// English from the same table.
@Suite("Import messages in every language")
struct ImportMessagesTests {
    /// Each key's text (or a counted phrase's forms, joined) as the file holds it.
    private static func raw(_ language: Language) throws -> [String: String] {
        let url = try #require(StringTable.resourceURL(language, in: ImportMessages.bundle))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        return object.mapValues { value in
            (value as? String) ?? ((value as? [String: String]) ?? [:]).sorted { $0.key < $1.key }.map(\.value).joined(separator: "|")
        }
    }

    /// The letters of a text outside its placeholders: a text without any is the same in every
    /// language (`{file}:{line}` is not).
    private static func words(_ text: String) -> String {
        StringTable.parse(text).map { if case let .literal(literal) = $0 { literal } else { "" } }.joined()
            .filter(\.isLetter)
    }

    @Test(arguments: Language.allCases)
    func everyTableHasExactlyTheKeysOfImportMessageKey(language: Language) throws {
        let table = try StringTable.load(language, from: ImportMessages.bundle)
        #expect(Set(table.entries.keys) == Set(ImportMessageKey.allCases.map(\.rawValue)), "\(language.rawValue).json")
    }

    @Test(arguments: [Language.turkish, .spanish])
    func translationsKeepEnglishsPlaceholdersAndAreTranslated(language: Language) throws {
        let english = try Self.raw(.english), translation = try Self.raw(language)
        for (key, source) in english {
            let text = try #require(translation[key], "\(language.rawValue).json lacks \(key)")
            #expect(StringTable.placeholders(text) == StringTable.placeholders(source), "\(language.rawValue).json \(key)")
            if !Self.words(source).isEmpty {
                #expect(text != source, "\(language.rawValue).json \(key) repeats English")
            }
        }
    }

    /// One of each problem, with values a file could hold.
    static let problems: [ImportProblem] = [
        .fileEmpty, .unknownFormat(formats: ["shopify-csv", "woocommerce-csv"]), .missingColumn("“Name”"), .columnTwice(first: 3, second: 7), .separatedBy(.semicolon), .separatedBy(.tab),
        .extraFields(fields: 9, columns: 8), .notAnObject(.product, found: .array), .notAnObject(.field("rating"), found: .null),
        .fakeStoreNotArray, .expected(.string, found: .bool), .expected(.scalar, found: .object),
        .expected(.strings, found: .number), .stringsHoldOther(found: .number), .required, .requiredProductArray,
        .requiredVersion, .notShoppableCatalog, .unsupportedVersion(2), .textTooLong(bytes: 1_001, limit: .title),
        .textHoldsNUL(limit: .title),
        .notAWholeNumber("x1"), .notAQuantity("x2"), .notAPrice("x3"), .negativePrice("-x4"), .notARating("x5"),
        .negativeRatingCount, .notTrueOrFalse("x6"), .notAStatus("x7"), .notAVisibility("x8"), .notAnImagePosition("x9"),
        .notAnImageAddress("x9b"),
        .notAnInventoryPolicy("x10"), .notAPublishedValue("x11"), .notAStockStatus("x12"), .notABackorderSetting("x13"),
        .notADate("x14"), .notAnISODate("x15"), .negativeStockWithoutBackorders(-3), .negativeStock(-4),
        .duplicateSKU(sku: "TEE-1", earlierLine: 2), .duplicateSKUOnTheSameLine(sku: "TEE-2"), .handleTaken(handle: "tee", earlierLine: 3), .rowNeedsHandle,
        .newProductNeedsTitle(handle: "tee"), .productNeedsName, .variantNeedsPrice, .noVariants,
        .optionNotNamed(named: 2, missing: 1), .unnamedOption(2), .optionValueWithoutOptions(value: "Red", firstLine: 2),
        .missingOptionValue(option: "Size"), .onlyOneVariant(earlierLine: 4), .variantOptionsTaken(earlierLine: 5, values: ["Red", "S"]),
        .variantOptionsRepeated(earlierLine: 6), .optionValuesNeeded(options: ["Size", "Color"]), .optionValuesNeeded(options: []),
        .notAnOption("Fit"), .choicesOfChosenOption(option: "Size", value: "S"), .variationNeedsParent, .unknownParent("id:9"),
        .parentNotVariable(reference: "id:7", line: 8), .variationOptionsTaken(earlierLine: 9, values: ["Blue"]),
        .openOptionWithoutValues(option: "Size", parentLine: 10), .openOptionsTaken(earlierLine: 11),
        .imageRefused(url: "https://cdn.test/a.png", reason: "HTTP 404"), .noImageDownloader,
    ] + JSONSyntaxProblem.allCases.map(ImportProblem.invalidJSON) + CSVSyntaxProblem.allCases.map(ImportProblem.invalidCSV)
        + [LocalMediaError.rootNotFound("/x"), .noLocalFiles("a.png"), .notFound(reference: "b.png", roots: ["/r"]),
           .outsideRoots(reference: "../c.png", resolved: "/c.png", roots: ["/r"]), .fileURLWithHost("file://h/d.png"),
           .notARegularFile("e"), .tooLarge("f.png", bytes: 9, maximum: 8), .notAnImage("g.txt"),
           .unreadable("h.png", reason: "EACCES")].map(ImportProblem.localImage)

    static let caveats: [ImportCaveat] = [
        .scientificSKU(sku: "3.65275E+11", expanded: "365275000000"), .mergedSKU(sku: "TEE-1", earlierLine: 2, line: 5),
        .renamedHandle(handle: "tee", earlierLine: 2, newHandle: "tee-2"), .handleNotURLSafe(given: "T ee", handle: "t-ee"),
        .oversold(quantity: -2), .stockOnParent(parentLine: 3), .saleNotStarted(salePrice: "5.00", starts: "2099-01-01"),
        .saleEnded(salePrice: "5.00", ends: "2020-01-01"), .saleNotBelowRegular(salePrice: "9.00", regularPrice: "8.00"),
        .currencySymbol(symbol: "€", products: 1, shopCurrency: "EUR"), .foreignCurrency(code: "GBP", products: 3, shopCurrency: "USD"),
        .catalogCurrency(code: "TRY", shopCurrency: "USD"), .priceSign(price: "€139.00", sign: "€", shopCurrency: "USD"),
    ]

    static let skipReasons: [SkipReason] = [
        .giftCard, .grouped, .external, .unsupportedType("bundle"), .noPrice, .noPurchasableVariations, .disabledVariation,
        .variationWithoutPrice, .anyVariationCovered(option: "Size"),
    ]

    /// Each message in English and in `language`.
    static func messages(_ language: Language) -> [String] {
        problems.map { $0.message(in: language) } + caveats.map { $0.message(in: language) }
            + skipReasons.map { $0.message(in: language) }
    }

    @Test(arguments: Language.allCases)
    func everyMessageIsFilledAndItsOwn(language: Language) {
        let messages = Self.messages(language)
        #expect(Set(messages).count == messages.count, "two messages share a text")
        for message in messages {
            #expect(!message.contains("{") || message.contains("“}”"), "\(message)")
            #expect(!ImportMessageKey.allCases.contains { message.contains($0.rawValue) }, "a key left: \(message)")
        }
    }

    /// Every message of `tr` and `es` differs from its English, and no message is English's
    /// but for its values (its words are the language's own).
    @Test(arguments: [Language.turkish, .spanish])
    func noEnglishIsLeftInATranslation(language: Language) {
        for (english, translated) in zip(Self.messages(.english), Self.messages(language)) {
            #expect(english != translated, "\(language.rawValue): \(translated)")
        }
    }

    /// The file's values appear as written, in every language.
    @Test(arguments: Language.allCases)
    func valuesFromTheFileAppearVerbatim(language: Language) {
        #expect(ImportProblem.notAPrice("12,50 €").message(in: language).contains("“12,50 €”"))
        #expect(ImportProblem.duplicateSKU(sku: "Tee-Blk-S", earlierLine: 14).message(in: language).contains("“Tee-Blk-S”"))
        #expect(ImportProblem.duplicateSKU(sku: "Tee-Blk-S", earlierLine: 14).message(in: language).contains("14"))
        #expect(ImportProblem.missingOptionValue(option: "Größe").message(in: language).contains("“Größe”"))
    }

    @Test(arguments: [
        (ImportError(file: "catalog.csv", line: 14, column: "Variant Price", columnIndex: 21, problem: .notAPrice("abc")),
         Language.turkish, "catalog.csv, satır 14, “Variant Price” sütunu: “abc” geçerli bir fiyat değil (örneğin 12.50)"),
        (ImportError(file: "catalog.csv", line: 14, column: "Variant Price", columnIndex: 21, problem: .notAPrice("abc")),
         .spanish, "catalog.csv, línea 14, columna “Variant Price”: “abc” no es un precio como 12.50"),
        (ImportError(file: "p.json", line: 3, column: "title", problem: .required), .turkish, "p.json, satır 3, “title” alanı: zorunludur"),
        (ImportError(file: "p.json", line: 3, column: "title", problem: .required), .spanish, "p.json, línea 3, campo “title”: es obligatorio"),
        (ImportError(file: "x.csv", line: 5, columnIndex: 9, problem: .extraFields(fields: 9, columns: 8)), .turkish,
         "x.csv, satır 5, 9. sütun: satırda 9 alan var, ancak başlıkta 8 sütun var (bir tırnak işareti mi eksik?)"),
        (ImportError(file: "x", line: nil, problem: .fileEmpty), .spanish, "x: el archivo está vacío"),
    ] as [(ImportError, Language, String)])
    func anErrorNamesItsPlaceInTheLanguage(error: ImportError, language: Language, expected: String) {
        #expect(error.message(in: language) == expected)
    }

    /// The CLI's English is the table's, plus the flag where the CLI has one; the back office's
    /// English says what the browser can do instead.
    @Test func theCLIAloneIsOfferedItsFlags() {
        let duplicate = ImportProblem.duplicateSKU(sku: "TEE-1", earlierLine: 2)
        #expect(duplicate.description == "SKU “TEE-1” is already used on line 2 (SKUs are compared ignoring case and spaces); "
            + "give each variant its own SKU, or import with --merge-duplicate-skus")
        #expect(duplicate.message(in: .english) == "SKU “TEE-1” is already used on line 2 (SKUs are compared ignoring case "
            + "and spaces); give each variant its own SKU")
        let format = ImportProblem.unknownFormat(formats: ["fakestore", "shopify-csv"])
        #expect(format.description.hasSuffix("CSV export; pass --format (fakestore, shopify-csv) to choose one"))
        #expect(format.message(in: .english).hasSuffix("CSV export; choose the file’s format in the Format list"))
        for language in Language.allCases {
            #expect(!duplicate.message(in: language).contains("--"), "\(language)")
            #expect(!format.message(in: language).contains("--"), "\(language)")
        }
    }

    /// Warnings and skipped records keep the CLI's shape in English and name their line in the others.
    @Test func warningsAndSkippedRowsNameTheirLine() {
        let warning = ImportWarning(line: 7, caveat: .oversold(quantity: -2))
        #expect(warning.description == "line 7: stock -2 (oversold, backorders allowed) imported as 0")
        #expect(warning.message(in: .spanish) == "línea 7: el stock -2 (vendido de más, se admiten reservas sin stock) se ha importado como 0")
        let skipped = SkippedRow(line: 9, name: "Logo Collection", reason: .grouped)
        #expect(skipped.description == "line 9 (“Logo Collection”): grouped product: its children are imported on their own")
        #expect(skipped.message(in: .turkish) == "satır 9 (“Logo Collection”): gruplanmış ürün: alt ürünleri ayrı ayrı içe aktarılır")
        #expect(ImportCaveat.foreignCurrency(code: "GBP", products: 1, shopCurrency: "USD").description.contains("(1 product)"))
        #expect(ImportCaveat.foreignCurrency(code: "GBP", products: 3, shopCurrency: "USD").description.contains("(3 products)"))
    }

    /// An error survives the trip through JSON (an import job keeps it) unchanged.
    @Test func errorsWarningsAndSkippedRowsRoundTripThroughJSON() throws {
        for problem in Self.problems {
            let error = ImportError(file: "f.csv", line: 3, column: "Price", columnIndex: 2, problem: problem)
            #expect(try JSONDecoder().decode(ImportError.self, from: JSONEncoder().encode(error)) == error)
        }
        for caveat in Self.caveats {
            let warning = ImportWarning(line: 4, caveat: caveat)
            #expect(try JSONDecoder().decode(ImportWarning.self, from: JSONEncoder().encode(warning)) == warning)
        }
        for reason in Self.skipReasons {
            let row = SkippedRow(line: 5, name: "n", reason: reason)
            #expect(try JSONDecoder().decode(SkippedRow.self, from: JSONEncoder().encode(row)) == row)
        }
    }
}

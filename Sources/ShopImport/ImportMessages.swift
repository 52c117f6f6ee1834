public import Foundation
public import ShopCore

/// The keys of ShopImport's string tables, `Sources/ShopImport/Localizable/{en,tr,es}.json`:
/// every word of an import's problems, caveats and skipped records (`ImportProblem`,
/// `ImportCaveat`, `SkipReason`) and of the places they name, in each language the back office
/// speaks. English is the CLI's text too (`ImportProblem.description`), so it has one home.
///
/// A test keeps the tables complete: exactly these keys in every language, each translation
/// with English's placeholders.
public enum ImportMessageKey: String, CaseIterable, Sendable {
    // Places
    case importAtLine, importInColumn, importInField, importInColumnNumber, importLine, importLineNamed
    // ImportProblem
    case importFileEmpty, importUnknownFormat, importUnknownFormatChoose, importInvalidJSON, importInvalidCSV
    case importMissingColumn, importColumnTwice, importSemicolonSeparated, importTabSeparated, importExtraFields
    case importNotAnObject, importFakeStoreNotArray, importExpected
    case importStringsHoldOther, importRequired, importRequiredProductArray, importRequiredVersion
    case importNotShoppableCatalog, importUnsupportedVersion, importTextTooLong, importTextHoldsNUL
    case importNotAWholeNumber, importNotAQuantity, importNotAPrice, importNegativePrice, importNotARating
    case importNegativeRatingCount, importNotTrueOrFalse, importNotAStatus, importNotAVisibility
    case importNotAnImagePosition, importNotAnImageAddress, importNotAnInventoryPolicy, importNotAPublishedValue, importNotAStockStatus
    case importNotABackorderSetting, importNotADate, importNotAnISODate, importNegativeStockWithoutBackorders
    case importNegativeStock, importDuplicateSKU, importDuplicateSKUOnTheSameLine, importHandleTaken, importSKUOfAnotherProduct, importSKUTaken, importRowNeedsHandle, importNewProductNeedsTitle
    case importProductNeedsName, importVariantNeedsPrice, importNoVariants, importOptionNotNamed, importUnnamedOption
    case importOptionValueWithoutOptions, importMissingOptionValue, importOnlyOneVariant, importVariantOptionsTaken
    case importVariantNeedsSKUWithoutOptions, importSKUNotAVariant, importVariantsNeedOptions
    case importVariantOptionsRepeated, importOptionValuesNeeded, importNoOptions, importNotAnOption
    case importChoicesOfChosenOption, importVariationNeedsParent, importUnknownParent, importParentNotVariable
    case importVariationOptionsTaken, importOpenOptionWithoutValues, importOpenOptionsTaken
    case importImageRefused, importNoImageDownloader, importCatalogInOtherCurrency
    // JSON parts, kinds and expectations; text limits
    case importPartProduct, importPartVariant, importPartImage, importPartSeedCatalog, importPartShoppableCatalog
    case importKindNull, importKindBool, importKindNumber, importKindString, importKindArray, importKindObject
    case importExpectBool, importExpectStrings, importExpectScalar
    case importLimitTitle, importLimitHandle, importLimitName, importLimitTag, importLimitSKU, importLimitImageURL
    case importLimitAltText, importLimitValue, importLimitList, importLimitDescription
    // ImportCaveat
    case importWarningScientificSKU, importWarningMergedSKU, importWarningRenamedHandle, importWarningHandleNotURLSafe
    case importWarningOversold, importWarningOversoldPolicyKept, importWarningStockOnParent, importWarningSaleNotStarted, importWarningSaleEnded
    case importWarningSaleNotBelowRegular, importWarningCurrencySymbol, importWarningForeignCurrency
    case importWarningCatalogCurrency, importWarningPriceSign, importProductCount
    // SkipReason
    case importSkipGiftCard, importSkipGrouped, importSkipExternal, importSkipUnsupportedType, importSkipNoPrice
    case importSkipNoPurchasableVariations, importSkipDisabledVariation, importSkipVariationWithoutPrice
    case importSkipAnyVariationCovered
    // JSONSyntaxProblem, CSVSyntaxProblem
    case jsonTextAfterValue, jsonEndsWhereValueExpected, jsonNestedTooDeeply, jsonExpectedFieldName, jsonExpectedColon, jsonRepeatedField
    case jsonEndsInsideObject, jsonExpectedCommaOrBrace, jsonEndsInsideArray, jsonExpectedCommaOrBracket
    case jsonUnexpectedCharacter, jsonUnexpectedText, jsonNumberNeedsDigits, jsonNumberNeedsFractionDigits
    case jsonNumberNeedsExponentDigits, jsonUnclosedString, jsonStringNotUTF8, jsonLoneSurrogate
    case jsonInvalidUnicodeEscape, jsonInvalidEscape, jsonControlCharacter
    case csvNotUTF8, csvTextAfterClosingQuote, csvUnclosedQuote
    // LocalMediaError
    case imageRootNotFound, imageNoLocalFiles, imageNotFound, imageOutsideRoots, imageFileURLWithHost
    case imageNotARegularFile, imageTooLarge, imageNotAnImage, imageUnreadable
}

/// ShopImport's string tables, read from its resource bundle at first use.
public enum ImportMessages {
    /// The bundle holding `Localizable/<code>.json`.
    public static var bundle: Bundle { Bundle.module }

    private static let tables = StringTable.loadAll(from: .module)

    /// The text of `key` in `language`, `{name}` placeholders filled from `arguments`.
    public static func text(_ key: ImportMessageKey, in language: Language, _ arguments: [String: String] = [:]) -> String {
        table(language).text(key.rawValue, arguments)
    }

    /// The counted phrase `key` (`{count}`) in the plural form `language` uses for `count`.
    static func count(_ count: Int, _ key: ImportMessageKey, in language: Language) -> String {
        StringTable.fill(table(language).template(key.rawValue, language.pluralCategory(count)), ["count": String(count)])
    }

    private static func table(_ language: Language) -> StringTable { tables[language] ?? tables[.english]! }
}

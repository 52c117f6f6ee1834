import Foundation
import HTTPServer
import ShopCore
import ShopStore
import ShopTestSupport
@testable import ShopWeb
import Testing

/// The string tables (`Sources/ShopWeb/Localizable/*.json`), their plural forms, and the
/// storefront's language: how it is decided, shown, remembered and cached (issue #11).
@Suite("Localization: string tables")
struct StringTableTests {
    /// Each key's forms as the file holds them: `[nil: text]` or `[category: text]`.
    private static func rawTable(_ language: Language) throws -> [String: [String?: String]] {
        let url = try #require(StringTable.resourceURL(language))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        return object.mapValues { value in
            if let text = value as? String { return [nil: text] }
            return ((value as? [String: String]) ?? [:]).reduce(into: [:]) { $0[$1.key] = $1.value }
        }
    }

    /// Placeholders a translation may leave out, with the reason: English fills `{what}` with
    /// the API's wire word ("product"), which the reviewed translations say in their own words.
    private static let mayOmit: [L10nKey: Set<String>] = [.apiMalformedID: ["what"]]

    @Test(arguments: Language.allCases)
    func everyTableParsesAndHasExactlyTheKeysOfL10nKey(language: Language) throws {
        let table = try StringTable.load(language)
        #expect(table.unknownKeys.sorted() == [], "\(language.rawValue).json has keys no L10nKey case names")
        let missing = L10nKey.allCases.filter { table.entries[$0.rawValue] == nil }.map(\.rawValue)
        #expect(missing == [], "\(language.rawValue).json lacks keys")
    }

    @Test(arguments: [Language.turkish, .spanish])
    func translationsKeepEnglishsPlaceholdersAndPluralForms(language: Language) throws {
        let english = try Self.rawTable(.english), translation = try Self.rawTable(language)
        for (name, source) in english {
            guard let forms = translation[name] else { continue }  // the key test reports it
            let omissible = L10nKey(rawValue: name).flatMap { Self.mayOmit[$0] } ?? []
            let expected = StringTable.placeholders(source[nil] ?? source["other"] ?? "")
            #expect((forms[nil] == nil) == (source[nil] == nil), "\(name): plural in one table, plain in the other")
            let main = StringTable.placeholders(forms[nil] ?? forms["other"] ?? "")
            #expect(main.subtracting(expected).isEmpty && expected.subtracting(main).isSubset(of: omissible),
                    "\(language.rawValue).json \(name) has \(main.sorted()), English \(expected.sorted())")
            for (category, text) in forms where category != nil {
                #expect(PluralCategory(rawValue: category!) != nil, "\(name): “\(category!)” is no CLDR category")
                // The `one` form may write the number out ("1 ürün") instead of `{count}`.
                let allowed = category == "one" ? expected.subtracting(["count"]) : expected
                #expect(StringTable.placeholders(text).isSuperset(of: allowed) && StringTable.placeholders(text).isSubset(of: expected),
                        "\(language.rawValue).json \(name).\(category!)")
            }
        }
    }

    @Test(arguments: [Language.turkish, .spanish])
    func translationsAreNotEnglishLeftovers(language: Language) throws {
        let english = try Self.rawTable(.english), translation = try Self.rawTable(language)
        // Texts that are the same in every language: the brand, a number, a date range.
        let universal: Set<String> = ["shopName", "ratingCount", "campaignDates", "cartTotal", "cartSubtotal",
                                       "filterOptionCount", "filterPriceBetween", "adminSignedInAs", "adminColumnTotal",
                                       "adminSourceApi", "adminNo", "adminImportRead"]
        let same = english.keys.filter { !universal.contains($0) && translation[$0] == english[$0] }.sorted()
        #expect(same == [], "\(language.rawValue).json repeats English")
    }

    /// The shop and its back office speak Spanish with "tú"; a fresh tester found the back
    /// office's forms and two-step pages in the formal "usted" beside informal pages.
    @Test func spanishSpeaksInformallyEverywhere() throws {
        let formal: Set<String> = ["usted", "ustedes", "escriba", "elija", "indique", "déjelo", "déjela", "abra", "ábrala",
                                   "espere", "escanee", "marque", "vuelva", "compruebe", "introduzca", "pulse", "revise",
                                   "inténtelo", "añada", "suba", "seleccione", "abriera", "corrija", "use"]
        // "su"/"le" also speak of a third person; these phrases speak to the reader.
        let formalPhrases = ["su cuenta", "su contraseña", "sus otras", "le hemos", "le llegará"]
        let table = try Self.rawTable(.spanish)
        let found = table.flatMap { key, forms in
            forms.values.flatMap { text in
                text.lowercased().split(whereSeparator: { !$0.isLetter }).filter { formal.contains(String($0)) }
                    .map { "\(key): \($0)" }
                    + formalPhrases.filter { text.lowercased().contains($0) }.map { "\(key): \($0)" }
            }
        }.sorted()
        #expect(found == [])
    }

    /// A key nothing asks for is dead text that translators would keep paying for.
    @Test func everyKeyIsUsedBySomeCode() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/ShopWeb")
        var code = ""
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        for case let file as URL in files where file.pathExtension == "swift" && file.lastPathComponent != "Localization.swift" {
            code += try String(contentsOf: file, encoding: .utf8)
        }
        // `message(for:)` in Localization.swift maps errors to keys: count those uses too.
        let localization = try String(contentsOf: sources.appendingPathComponent("App/Localization.swift"), encoding: .utf8)
        code += String(localization[localization.range(of: "public func message(for error: AccountFieldError)")!.lowerBound...])
        let unused = L10nKey.allCases.filter { key in
            code.range(of: "\\.\(key.rawValue)\\b", options: .regularExpression) == nil
        }.map(\.rawValue)
        #expect(unused == [])
    }
}

@Suite("Localization: plural rules")
struct PluralRuleTests {
    @Test(arguments: [
        (Language.english, 0, PluralCategory.other), (.english, 1, .one), (.english, 2, .other), (.english, 21, .other),
        (.english, 1_000_000, .other),
        (.turkish, 0, .other), (.turkish, 1, .one), (.turkish, 2, .other), (.turkish, 101, .other),
        (.spanish, 0, .other), (.spanish, 1, .one), (.spanish, 2, .other), (.spanish, 11, .other),
        (.spanish, 1_000_000, .many), (.spanish, 3_000_000, .many), (.spanish, 1_000_001, .other), (.spanish, -1, .one),
    ] as [(Language, Int, PluralCategory)])
    func cldrCardinalCategory(language: Language, count: Int, expected: PluralCategory) {
        #expect(language.pluralCategory(count) == expected)
    }

    @Test(arguments: [
        (Language.english, 1, "1 product"), (.english, 0, "0 products"), (.english, 2, "2 products"),
        (.english, 1_000_000, "1,000,000 products"),
        (.turkish, 1, "1 ürün"), (.turkish, 0, "0 ürün"), (.turkish, 5, "5 ürün"),
        (.spanish, 1, "1 producto"), (.spanish, 0, "0 productos"), (.spanish, 7, "7 productos"),
        (.spanish, 2_000_000, "2.000.000 de productos"),
    ] as [(Language, Int, String)])
    func countedPhrasesTakeTheLanguagesForm(language: Language, count: Int, expected: String) {
        #expect(Localizer(language: language).count(count, .categoryProductCount) == expected)
    }

    @Test func countedPhrasesKeepTheirOtherPlaceholders() {
        #expect(Localizer(language: .spanish).count(1, .searchResults, ["query": "taza"]) == "1 resultado para «taza»")
        #expect(Localizer(language: .turkish).count(3, .searchResults, ["query": "kupa"]) == "“kupa” için 3 sonuç")
        #expect(Localizer(language: .english).count(1, .throttled) == "Too many attempts. Please try again in a minute.")
        #expect(Localizer(language: .turkish).count(5, .throttled).contains("5 dakika"))
    }
}

import Foundation
import ShopCore
import Testing

/// A merchant's text with translations (issue #11): shipping names, payment instructions,
/// campaign titles.
@Suite("Localized merchant text")
struct LocalizedTextTests {
    static let standard = LocalizedText("Standard delivery", translations: [.turkish: "Standart teslimat"])

    @Test(arguments: [
        (Language.english, "Standard delivery"), (.turkish, "Standart teslimat"), (.spanish, "Standard delivery"),
    ])
    func aLanguageWithoutItsOwnTextGetsTheDefault(language: Language, expected: String) {
        #expect(Self.standard.text(in: language) == expected)
    }

    @Test func emptyTranslationsAreLeftOut() {
        let text = LocalizedText("Standard", translations: [.spanish: ""])
        #expect(text.translations.isEmpty)
        #expect(text.text(in: .spanish) == "Standard")
    }

    struct Decoding: Sendable, CustomTestStringConvertible {
        var json: String
        var expected: LocalizedText
        var testDescription: String { json }
    }

    @Test(arguments: [
        Decoding(json: #"{"name": "Standard"}"#, expected: "Standard"),
        Decoding(json: #"{"name": {"en": "Standard", "tr": "Standart", "es": "Estándar"}}"#,
                 expected: LocalizedText("Standard", translations: [.turkish: "Standart", .spanish: "Estándar"])),
        Decoding(json: #"{"name": {"es": "Estándar", "en": "Standard"}}"#,
                 expected: LocalizedText("Standard", translations: [.spanish: "Estándar"])),
    ])
    func decodesAPlainStringOrAnObjectByLanguage(_ example: Decoding) throws {
        let decoded = try JSONDecoder().decode([String: LocalizedText].self, from: Data(example.json.utf8))
        #expect(decoded["name"] == example.expected)
    }

    @Test(arguments: [
        (#"{"name": {"en": "Standard", "de": "Standard"}}"#, "field “name”: “de” is not a language the shop speaks"),
        (#"{"name": {"tr": "Standart"}}"#, "field “name”: needs an “en” text"),
        (#"{"name": {"en": "Standard", "es": ""}}"#, "field “name”: the “es” text is empty"),
        (#"{"name": 5}"#, "field “name”: expected a text"),
    ])
    func refusedObjectsNameTheField(json: String, says: String) {
        do {
            let decoded = try JSONDecoder().decode([String: LocalizedText].self, from: Data(json.utf8))
            Issue.record("expected a refusal, got \(decoded)")
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.debugDescription.contains(says), "\(context.debugDescription)")
        } catch {
            Issue.record("expected DecodingError.dataCorrupted, got \(error)")
        }
    }

    @Test(arguments: [
        ([("en", "A"), ("xx", "B")], LocalizedTextError.unknownLanguage(field: "shipping[1].name", key: "xx")),
        ([("en", "A"), ("en", "B")], .repeatedLanguage(field: "shipping[1].name", key: "en")),
        ([("tr", "A")], .missingDefault(field: "shipping[1].name")),
        ([("en", "A"), ("tr", "")], .emptyText(field: "shipping[1].name", key: "tr")),
    ] as [([(String, String)], LocalizedTextError)])
    func entriesAreCheckedAndTheErrorNamesTheField(entries: [(String, String)], expected: LocalizedTextError) {
        #expect(throws: expected) {
            try LocalizedText(entries: entries.map { (key: $0.0, text: $0.1) }, field: "shipping[1].name")
        }
        #expect(expected.description.hasPrefix("field “shipping[1].name”: "))
    }

    @Test func aGlossaryEntryTranslatesADefaultWrittenElsewhere() throws {
        let color = try LocalizedText(entries: [(key: "tr", text: "Renk")], field: "optionNames.Color", defaultText: "Color")
        let glossary = OptionNameGlossary(["Color": color])
        #expect(glossary.names(["Color", "color", "Size"], in: .turkish) == ["Renk", "Renk", "Size"])
        #expect(glossary.name("Color", in: .spanish) == "Color")
        #expect(glossary.name("Color", in: .english) == "Color")
    }

    @Test(arguments: [LocalizedText("Plain"), standard])
    func encodingRoundTrips(_ text: LocalizedText) throws {
        let data = try JSONEncoder().encode(["name": text])
        #expect(try JSONDecoder().decode([String: LocalizedText].self, from: data)["name"] == text)
    }
}

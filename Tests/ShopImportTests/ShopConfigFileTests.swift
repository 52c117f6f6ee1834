import Foundation
import ShopCore
import ShopImport
import Testing

/// The shop configuration file (`docs/ORDERS.md`): what a valid file becomes, and how each kind
/// of mistake rejects the file with a message naming the field.
@Suite("Shop configuration file")
struct ShopConfigFileTests {
    // MARK: helpers

    static let standard = #"{"id": "standard", "name": "Standard delivery (3–5 days)", "price": "4.90", "freeAbove": "50.00"}"#
    static let pickup = #"{"id": "pickup", "name": "Free pickup", "price": "0.00", "countries": ["us"]}"#
    static let payment = #"{"bankTransfer": "Account holder: Demo Ltd\nIBAN: DE00 0000\nReference: your order number"}"#

    /// A file with these shipping method objects (JSON texts, one per line) and optional extra top-level text.
    static func file(_ methods: [String], payment: String? = ShopConfigFileTests.payment, extra: String = "") -> String {
        var parts = ["\"shipping\": [\n" + methods.joined(separator: ",\n") + "\n]"]
        if let payment { parts.append("\"payment\": \(payment)") }
        if !extra.isEmpty { parts.append(extra) }
        return "{\n" + parts.joined(separator: ",\n") + "\n}"
    }

    static func read(_ text: String, currency: Currency = .usd) throws(ShopConfigError) -> ShopConfig {
        try ShopConfigFile.read(Data(text.utf8), fileName: "shop.json", currency: currency)
    }

    /// The error reading `text` throws; records an issue when it reads fine.
    static func error(_ text: String) -> ShopConfigError? {
        do {
            let config = try read(text)
            Issue.record("expected a ShopConfigError, got \(config.shippingMethods.count) methods")
            return nil
        } catch {
            return error
        }
    }

    // MARK: valid files

    @Test func validFileBecomesMethodsInstructionsAndDefaultReservation() throws {
        let config = try Self.read(Self.file([Self.standard, Self.pickup]))
        #expect(config.shippingMethods.map(\.id.rawValue) == ["standard", "pickup"])
        let standard = try #require(config.shippingMethod(id: "standard"))
        #expect(standard.name == "Standard delivery (3–5 days)")
        #expect(standard.price == usd(490))
        #expect(standard.freeAbove == usd(5000))
        #expect(standard.countries == nil)
        let pickup = try #require(config.shippingMethod(id: "pickup"))
        #expect(pickup.price == usd(0))
        #expect(pickup.countries == ["US"])  // upper-cased
        #expect(config.paymentInstructions == "Account holder: Demo Ltd\nIBAN: DE00 0000\nReference: your order number")
        #expect(config.reservationMinutes == 15)
        #expect(config.reservationDuration == 900)
    }

    @Test func methodsAreFilteredByDestinationCountry() throws {
        let config = try Self.read(Self.file([Self.standard, Self.pickup]))
        #expect(config.shippingMethods(to: "US").map(\.id.rawValue) == ["standard", "pickup"])
        #expect(config.shippingMethods(to: "DE").map(\.id.rawValue) == ["standard"])
    }

    @Test func reservationMinutesIsRead() throws {
        let config = try Self.read(Self.file([Self.standard], extra: #""reservationMinutes": 30"#))
        #expect(config.reservationMinutes == 30)
        #expect(config.unpaidOrderDays == 7, "the default")
        let days = try Self.read(Self.file([Self.standard], extra: #""unpaidOrderDays": 14"#))
        #expect(days.unpaidOrderDays == 14 && days.unpaidOrderLifetime == 14 * 86_400)
    }

    @Test func pricesAreReadInTheShopCurrencyWithoutFloatingPoint() throws {
        let yen = try Self.read(Self.file([#"{"id": "std", "name": "Std", "price": 500, "freeAbove": "10000"}"#]),
                                currency: .jpy)
        #expect(yen.shippingMethods[0].price == Money(minorUnits: 500, currency: .jpy))
        #expect(yen.shippingMethods[0].freeAbove == Money(minorUnits: 10000, currency: .jpy))
        let cents = try Self.read(Self.file([#"{"id": "std", "name": "Std", "price": 0.1}"#]))
        #expect(cents.shippingMethods[0].price == usd(10))
    }

    @Test func demoShopFileIsValid() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/shoppable/DemoCatalog/shop.json")
        let config = try ShopConfigFile.read(Data(contentsOf: url), fileName: "shop.json", currency: .usd)
        #expect(config.shippingMethods.count == 3)
        #expect(config.shippingMethods.contains { $0.price.isZero && $0.countries?.count == 1 })
        #expect(config.paymentInstructions.defaultText.contains("IBAN"))
        #expect(config.paymentInstructions.defaultText.localizedCaseInsensitiveContains("order number"))
        // Issue #11: the demo speaks to Turkish and Spanish shoppers in their words.
        for language in [Language.turkish, .spanish] {
            for method in config.shippingMethods {
                let text = try #require(method.name.translations[language], "\(method.id) in \(language)")
                #expect(text != method.name.defaultText)
            }
            let instructions = try #require(config.paymentInstructions.translations[language])
            #expect(instructions.contains("IBAN"))
            for name in ["Color", "Size", "Height", "Fabric", "Shade", "Finish"] {
                #expect(config.optionNames.entries[name.lowercased()]?.translations[language] != nil, "\(name) in \(language)")
            }
        }
        #expect(config.optionNames.name("Color", in: .turkish) == "Renk")
    }

    @Test(.bug(id: "11", "merchant texts stay English on Turkish/Spanish pages"))
    func translatedNamesInstructionsAndOptionNamesLoad() throws {
        let text = Self.file(
            [#"{"id": "standard", "name": {"en": " Standard ", "tr": "Standart teslimat", "es": "Envío estándar"}, "price": "4.90"}"#,
             #"{"id": "pickup", "name": "Pickup", "price": "0"}"#],
            payment: #"{"bankTransfer": {"en": "Pay by bank transfer", "tr": "Havale ile ödeyin"}}"#,
            extra: #""optionNames": {"Color": {"tr": "Renk", "es": "Color"}, "Size": {"es": "Tamaño"}}"#)
        let config = try Self.read(text)
        let standard = try #require(config.shippingMethod(id: "standard"))
        #expect(standard.name == LocalizedText("Standard", translations: [.turkish: "Standart teslimat", .spanish: "Envío estándar"]))
        #expect(standard.name.text(in: .turkish) == "Standart teslimat")
        #expect(config.shippingMethod(id: "pickup")?.name == "Pickup")  // a plain string, as before
        #expect(config.paymentInstructions.text(in: .turkish) == "Havale ile ödeyin")
        #expect(config.paymentInstructions.text(in: .spanish) == "Pay by bank transfer")
        #expect(config.optionNames.name("Color", in: .turkish) == "Renk")
        #expect(config.optionNames.name("size", in: .spanish) == "Tamaño")
        #expect(config.optionNames.name("Size", in: .turkish) == "Size")
        #expect(config.optionNames.name("Material", in: .spanish) == "Material")
    }

    @Test func aTranslationInAnUnknownLanguageNamesTheFieldAndItsLine() throws {
        let text = Self.file([#"{"id": "s", "price": "1", "name": {"en": "Standard","# + "\n"
                              + #" "de": "Standardversand"}}"#])
        let error = try #require(Self.error(text))
        #expect(error.field == "shipping[1].name")
        #expect(error.line == 4)  // the "de" entry's line, not the method's
        #expect(error.message.contains("“de” is not a language the shop speaks"), "\(error)")
        #expect(error.description.hasPrefix("shop.json:4: field “shipping[1].name”:"), "\(error)")
    }

    // MARK: rejected files

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var text: String
        var field: String?
        var messagePart: String
        var testDescription: String { name }
    }

    static let rejected: [Case] = [
        Case(name: "syntax error", text: "{\"shipping\": [", field: nil, messagePart: "not valid JSON"),
        Case(name: "no shipping", text: #"{"payment": {"bankTransfer": "x"}}"#, field: "shipping", messagePart: "is required"),
        Case(name: "empty shipping", text: file([]), field: "shipping", messagePart: "at least one"),
        Case(name: "shipping not a list", text: #"{"shipping": {}, "payment": {"bankTransfer": "x"}}"#,
             field: "shipping", messagePart: "expected an array"),
        Case(name: "method not an object", text: file(["\"standard\""]), field: "shipping[1]", messagePart: "JSON object"),
        Case(name: "repeated id", text: file([standard, #"{"id": "standard", "name": "Again", "price": "1.00"}"#]),
             field: "shipping[2].id", messagePart: "must be unique"),
        Case(name: "bad id", text: file([#"{"id": "Standard Post", "name": "S", "price": "1.00"}"#]),
             field: "shipping[1].id", messagePart: "not a usable id"),
        Case(name: "missing id", text: file([#"{"name": "S", "price": "1.00"}"#]),
             field: "shipping[1].id", messagePart: "is required"),
        Case(name: "missing name", text: file([#"{"id": "s", "name": " ", "price": "1.00"}"#]),
             field: "shipping[1].name", messagePart: "is required"),
        Case(name: "missing price", text: file([#"{"id": "s", "name": "S"}"#]),
             field: "shipping[1].price", messagePart: "is required"),
        Case(name: "negative price", text: file([#"{"id": "s", "name": "S", "price": "-1.00"}"#]),
             field: "shipping[1].price", messagePart: "negative"),
        Case(name: "unparsable price", text: file([#"{"id": "s", "name": "S", "price": "four"}"#]),
             field: "shipping[1].price", messagePart: "not an amount"),
        Case(name: "negative freeAbove", text: file([#"{"id": "s", "name": "S", "price": "1.00", "freeAbove": "-5"}"#]),
             field: "shipping[1].freeAbove", messagePart: "negative"),
        Case(name: "unknown country", text: file([#"{"id": "s", "name": "S", "price": "1", "countries": ["US", "XX"]}"#]),
             field: "shipping[1].countries", messagePart: "“XX” is not an ISO 3166-1"),
        Case(name: "repeated country", text: file([#"{"id": "s", "name": "S", "price": "1", "countries": ["US", "us"]}"#]),
             field: "shipping[1].countries", messagePart: "twice"),
        Case(name: "empty countries", text: file([#"{"id": "s", "name": "S", "price": "1", "countries": []}"#]),
             field: "shipping[1].countries", messagePart: "is empty"),
        Case(name: "typo in a method", text: file([#"{"id": "s", "name": "S", "price": "1", "freeAbov": "9"}"#]),
             field: "shipping[1].freeAbov", messagePart: "did you mean “freeAbove”"),
        Case(name: "unknown top-level field", text: file([standard], extra: #""currency": "USD""#),
             field: "currency", messagePart: "unknown field"),
        Case(name: "no payment", text: file([standard], payment: nil), field: "payment", messagePart: "is required"),
        Case(name: "empty bank transfer", text: file([standard], payment: #"{"bankTransfer": ""}"#),
             field: "payment.bankTransfer", messagePart: "is required"),
        Case(name: "name in an unknown language", text: file([#"{"id": "s", "name": {"en": "S", "fr": "S"}, "price": "1"}"#]),
             field: "shipping[1].name", messagePart: "“fr” is not a language the shop speaks"),
        Case(name: "translated name without en", text: file([#"{"id": "s", "name": {"tr": "Standart"}, "price": "1"}"#]),
             field: "shipping[1].name", messagePart: "needs an “en” text"),
        Case(name: "translation not a string", text: file([#"{"id": "s", "name": {"en": "S", "tr": 5}, "price": "1"}"#]),
             field: "shipping[1].name", messagePart: "“tr” text must be a string"),
        Case(name: "empty translation", text: file([#"{"id": "s", "name": {"en": "S", "es": " "}, "price": "1"}"#]),
             field: "shipping[1].name", messagePart: "“es” text is empty"),
        Case(name: "name is a number", text: file([#"{"id": "s", "name": 5, "price": "1"}"#]),
             field: "shipping[1].name", messagePart: "an object of texts by language"),
        Case(name: "payment in an unknown language", text: file([standard], payment: #"{"bankTransfer": {"en": "x", "de": "y"}}"#),
             field: "payment.bankTransfer", messagePart: "“de” is not a language"),
        Case(name: "option name glossary in an unknown language", text: file([standard], extra: #""optionNames": {"Color": {"de": "Farbe"}}"#),
             field: "optionNames.Color", messagePart: "“de” is not a language"),
        Case(name: "option name given as a plain string", text: file([standard], extra: #""optionNames": {"Color": "Renk"}"#),
             field: "optionNames.Color", messagePart: "an object of texts by language"),
        Case(name: "zero reservation", text: file([standard], extra: #""reservationMinutes": 0"#),
             field: "reservationMinutes", messagePart: "outside 1…1440"),
        Case(name: "fractional reservation", text: file([standard], extra: #""reservationMinutes": 2.5"#),
             field: "reservationMinutes", messagePart: "not a whole number"),
        Case(name: "no wait for payment", text: file([standard], extra: #""unpaidOrderDays": 0"#),
             field: "unpaidOrderDays", messagePart: "outside 1…365"),
        Case(name: "over a year for payment", text: file([standard], extra: #""unpaidOrderDays": 366"#),
             field: "unpaidOrderDays", messagePart: "outside 1…365"),
    ]

    @Test(arguments: rejected)
    func mistakeRejectsTheFileNamingTheField(_ example: Case) throws {
        let error = try #require(Self.error(example.text))
        #expect(error.field == example.field, "\(error)")
        #expect(error.message.contains(example.messagePart), "\(error)")
        #expect(error.description.hasPrefix("shop.json:"))
    }

    @Test func errorNamesTheLineOfTheOffendingValue() throws {
        let text = Self.file([Self.standard, #"{"id": "s", "name": "S", "price": "-1.00"}"#])
        let error = try #require(Self.error(text))
        // Line 1 "{", line 2 "shipping": [, line 3 standard, line 4 the bad method.
        #expect(error.line == 4)
        #expect(error.description == "shop.json:4: field “shipping[2].price”: “-1.00” is negative")
    }
}

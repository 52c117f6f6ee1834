import Foundation
import ShopCore
import ShopImport
import Testing

@Suite("Seed JSON")
struct SeedJSONImportTests {
    @Test func readsProductsWithTypeAsCategoryAndInfoAsDescription() throws {
        let result = try Fixture.read("seed.json", currency: .sek)
        #expect(result.format == .seedJSON)
        #expect(result.products.map(\.handle) == ["oak-chair", "pine-dining-table", "oak-chair-3"])
        #expect(result.products.map(\.categoryName) == ["Chair", "Table", "Chair"])
        #expect(result.products.map(\.productType) == ["chair", "table", "chair"])
        #expect(result.variantCount == 3)
        #expect(result.imageCount == 1)
        let chair = try result.product("oak-chair")
        #expect(chair.descriptionHTML == "<ul><li>Material: Oak</li><li>Seats: 1</li><li>Color: Natural</li></ul>")
        #expect(chair.descriptionText == "Material: Oak\nSeats: 1\nColor: Natural")
        #expect(chair.images == [ProductImage(url: "https://img.example.com/seed/oak-chair.png", altText: "Oak Chair")])
        #expect(try result.product("oak-chair-3").descriptionText == "Color: Black\nLeg height: 45 cm")
    }

    @Test func pricesAreExactInTheShopCurrency() throws {
        let result = try Fixture.read("seed.json", currency: .sek)
        #expect(result.products.map(\.variants[0].price.minorUnits) == [4990, 129_900, 5950])
        #expect(result.products.allSatisfy { $0.variants[0].price.currency == .sek })
        #expect(result.products.allSatisfy { $0.variants[0].inventory == .untracked && $0.variants[0].sku == nil })
    }

    @Test func krSymbolIsMappedToAMatchingShopCurrencyWithAWarning() throws {
        let result = try Fixture.read("seed.json", currency: .sek)
        let messages = result.warnings.map(\.message)
        #expect(messages.contains { $0.contains("“kr”") && $0.contains("read as SEK") && $0.contains("3 products") })
    }

    @Test func foreignCurrencyIsReadAsShopCurrencyWithAWarning() throws {
        let result = try Fixture.read("seed.json", currency: .usd)
        #expect(result.products[0].variants[0].price == usd(4990))
        #expect(result.warnings.contains { $0.message.contains("not the shop currency USD") && $0.line == 3 })
    }

    @Test func matchingISOCodeGivesNoCurrencyWarning() throws {
        let json = #"{"products": [{"id": "1", "name": "Stool", "price": {"value": 10, "currency": "eur"}, "type": "stool"}]}"#
        let result = try Fixture.read(text: json, fileName: "s.json", currency: .eur)
        #expect(result.warnings.isEmpty)
        #expect(result.products[0].variants[0].price == Money(minorUnits: 1000, currency: .eur))
    }
}

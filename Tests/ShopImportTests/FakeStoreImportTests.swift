import Foundation
import ShopCore
import ShopImport
import Testing

@Suite("Fake Store API JSON")
struct FakeStoreImportTests {
    @Test func readsEveryProductWithOneUntrackedVariantAndItsImage() throws {
        let result = try Fixture.read("fakestore.json")
        #expect(result.format == .fakeStore)
        #expect(result.products.count == 5)
        #expect(result.variantCount == 5)
        #expect(result.imageCount == 5)
        #expect(result.skipped.isEmpty)
        for product in result.products {
            #expect(product.optionNames.isEmpty)
            #expect(product.variants.map(\.optionValues) == [[]])
            #expect(product.variants.map(\.inventory) == [.untracked])
            #expect(product.isPublished)
        }
    }

    @Test func pricesAreExactMinorUnitsNotDoubles() throws {
        let result = try Fixture.read("fakestore.json")
        #expect(result.products.map(\.variants[0].price) == [usd(10995), usd(2230), usd(10), usd(795), usd(10000)])
    }

    @Test(arguments: [
        ("109.95", Int64(10995)), ("22.3", 2230), ("0.1", 10), ("7.95", 795), ("0.29", 29),
        ("1.005", 101), ("8.675", 868), ("1e2", 10000), ("2.5E-1", 25), ("123456789.99", 12_345_678_999),
    ])
    func jsonNumberTextBecomesExactMinorUnits(number: String, minorUnits: Int64) throws {
        let json = #"[{"id": 1, "title": "Thing", "price": \#(number), "description": "", "category": "x"}]"#
        let result = try Fixture.read(text: json, fileName: "p.json")
        #expect(result.products[0].variants[0].price == usd(minorUnits))
    }

    @Test func keepsCategoryAsGivenAndRatingInHundredths() throws {
        let result = try Fixture.read("fakestore.json")
        let tee = try result.product("cotton-crew-tee")
        #expect(tee.categoryName == "men's clothing")
        #expect(tee.rating == Rating(rateHundredths: 410, count: 259))
        #expect(try result.product("canvas-cap").rating == Rating(rateHundredths: 205, count: 0))
        #expect(try result.product("trail-backpack-20l").rating == Rating(rateHundredths: 390, count: 120))
        #expect(try result.product("trail-backpack-20l-5").rating == nil)
    }

    @Test func collidingTitlesGetTheIDAppendedWithAWarning() throws {
        let result = try Fixture.read("fakestore.json")
        #expect(result.products.map(\.handle)
            == ["trail-backpack-20l", "cotton-crew-tee", "vinyl-sticker", "canvas-cap", "trail-backpack-20l-5"])
        #expect(result.warnings.count == 1)
        #expect(result.warnings.first?.message.contains("trail-backpack-20l-5") == true)
    }

    @Test func plainTextDescriptionIsEscapedNotInterpreted() throws {
        let result = try Fixture.read("fakestore.json")
        let tee = try result.product("cotton-crew-tee")
        #expect(tee.descriptionHTML == "<p>Slim-fit, soft cotton &lt;b&gt;tee&lt;/b&gt;.</p>")
        #expect(tee.descriptionText == "Slim-fit, soft cotton <b>tee</b>.")
        let backpack = try result.product("trail-backpack-20l")
        #expect(backpack.descriptionHTML == "<p>Water-resistant daypack with a padded laptop sleeve.<br>Fits 15&quot; laptops.</p>")
        #expect(backpack.images == [ProductImage(url: "https://img.example.com/fake/backpack.jpg", altText: "Trail Backpack 20L")])
    }

    @Test func pricesFollowTheShopCurrencysMinorUnit() throws {
        let result = try Fixture.read("fakestore.json", currency: .jpy)
        #expect(result.products[0].variants[0].price == Money(minorUnits: 110, currency: .jpy))
    }

    @Test func aBadPriceNamesFileLineAndField() throws {
        let data = try Fixture.data("fakestore-bad-price.json")
        let error = Fixture.importError { () throws(ImportError) in
            try CatalogImporter(currency: .usd).read(data, fileName: "fakestore-bad-price.json")
        }
        #expect(error?.line == 4)
        #expect(error?.column == "price")
        #expect(error?.description == "fakestore-bad-price.json:4: field “price”: “abc” is not a price such as 12.50")
    }

    @Test func negativePriceIsAnError() throws {
        let error = Fixture.importError { () throws(ImportError) in
            try Fixture.read(text: #"[{"id": 1, "title": "T", "price": -1}]"#, fileName: "n.json")
        }
        #expect(error?.column == "price")
    }

    @Test func missingTitleIsAnError() throws {
        let error = Fixture.importError { () throws(ImportError) in
            try Fixture.read(text: "[\n{\"id\": 1, \"price\": 3}]", fileName: "t.json", format: .fakeStore)
        }
        #expect(error?.line == 2)
        #expect(error?.column == "title")
    }
}

/// An image's address (every format reads it through `ImportContext.image`): a web URL, a path
/// on this site or a local file — never a scheme a page would run or inline.
@Suite("Image addresses")
struct ImageAddressTests {
    private static func read(image: String) throws(ImportError) -> ImportResult {
        let json = #"[{"id": 1, "title": "Thing", "price": 1, "description": "", "category": "x", "image": \#(image)}]"#
        return try Fixture.read(text: json, fileName: "p.json")
    }

    @Test(arguments: [
        #""https://cdn.example.com/a.jpg""#, #""HTTP://example.com/a.png""#, #""/static/chair.svg""#,
        #""images/chair.jpg""#, #""file:///srv/media/chair.jpg""#, #""chair.jpg?v=2:3""#, #""./a:b.jpg""#,
        #""data:image/png;base64,iVBORw0KGgo=""#,
    ])
    func webURLsPathsAndFilesAreImages(image: String) throws {
        #expect(try Self.read(image: image).imageCount == 1)
    }

    @Test(arguments: [
        #""javascript:alert(1)""#, #""JavaScript:alert(1)""#, #"" javascript:alert(1)""#, #""java\tscript:alert(1)""#,
        #""java\nscript:alert(1)""#, #""\u0001javascript:alert(1)""#, #""data:text/html,<script>x</script>""#,
        #""vbscript:msgbox""#, #""ftp://example.com/a.jpg""#,
    ])
    func otherSchemesAreRefusedNamingTheField(image: String) {
        let error = Fixture.importError { () throws(ImportError) in try Self.read(image: image) }
        guard case .notAnImageAddress = error?.problem else {
            Issue.record("\(image): \(String(describing: error))")
            return
        }
        #expect(error?.line == 1 && error?.column == "image")
    }
}

/// A NUL character (U+0000) in any field is refused naming it: PostgreSQL cannot store it, and
/// a title with one got a 500 there through the operator's API.
@Suite("NUL characters")
struct NULCharacterTests {
    @Test(arguments: [
        (#"{"id": 1, "title": "x\u0000y", "price": 1, "description": "", "category": "x"}"#, "title"),
        (#"{"id": 1, "title": "Thing", "price": 1, "description": "a\u0000b", "category": "x"}"#, "description"),
        (#"{"id": 1, "title": "Thing", "price": 1, "description": "", "category": "c\u0000"}"#, "category"),
    ])
    func aNULIsRefusedNamingTheField(object: String, field: String) {
        let error = Fixture.importError { () throws(ImportError) in try Fixture.read(text: "[\(object)]", fileName: "p.json") }
        guard case .textHoldsNUL = error?.problem else {
            Issue.record("\(field): \(String(describing: error))")
            return
        }
        #expect(error?.column == field)
    }

    @Test func otherControlCharactersStay() throws {
        let json = #"[{"id": 1, "title": "Thing\u0001", "price": 1, "description": "tab\there", "category": "x"}]"#
        #expect(try Fixture.read(text: json, fileName: "p.json").products.count == 1)
    }
}

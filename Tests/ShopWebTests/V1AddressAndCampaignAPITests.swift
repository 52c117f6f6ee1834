import Foundation
import HTTPServer
import ShopAPI
import ShopCore
import ShopStore
import ShopTestSupport
import Testing

private let now = Date(timeIntervalSince1970: 1_780_000_000)  // TestShop's clock

private let address = #"{"firstName": "Ana", "lastName": "Lima", "phone": "+1 555 0100", "line1": "1 Main St", "city": "Springfield", "postalCode": "12345", "country": "US"}"#

@Suite("API v1: campaigns and address book")
struct V1AddressAndCampaignAPITests {
    @Test func runningCampaignsAreListedAsTheCampaignsPageShowsThem() throws {
        let shop = try TestShop(v1Catalog())
        _ = try shop.campaigns.replaceAll([
            Campaign(id: Campaign.ID(rawValue: "lamp-week"), title: "Lamp week", description: "Bright ideas", imageURL: "/media/lamps.jpg",
                     startsAt: now - 86_400, endsAt: now + 86_400, discount: .percentage(20), target: .category(handle: "lamps"),
                     minimumSubtotal: .usd(50_00), voucherCode: VoucherCode("LAMPS20")),
            Campaign(id: Campaign.ID(rawValue: "five-off"), title: "5 off", description: "", imageURL: nil,
                     startsAt: now - 86_400, endsAt: now + 86_400, discount: .fixedAmount(.usd(5_00)), target: .wholeCart,
                     minimumSubtotal: nil, voucherCode: nil),
            Campaign(id: Campaign.ID(rawValue: "later"), title: "Later", description: "", imageURL: nil,
                     startsAt: now + 86_400, endsAt: now + 2 * 86_400, discount: .percentage(10), target: .wholeCart,
                     minimumSubtotal: nil, voucherCode: nil),
        ])
        let list = try shop.api(.get, "/api/v1/campaigns")
        #expect(list.status == 200 && list.header("Cache-Control") == "public, no-cache")
        let campaigns = try decoded(V1Campaigns.self, list).campaigns
        #expect(Set(campaigns.map(\.handle)) == ["lamp-week", "five-off"], "only running ones")
        let lamps = try #require(campaigns.first { $0.handle == "lamp-week" })
        #expect(lamps.voucherCode == "LAMPS20" && lamps.discount.percent == 20 && lamps.appliesTo == "category")
        #expect(lamps.category == "lamps" && lamps.minimumSubtotal?.minorUnits == 50_00 && lamps.products == nil)
        #expect(lamps.image == "https://shop.test/media/lamps.jpg")
        #expect(campaigns.first { $0.handle == "five-off" }?.discount == V1CampaignDiscount(
            kind: "fixed_amount", amount: V1Money(minorUnits: 5_00, currency: "USD", formatted: "$5.00")))

        let detail = try decoded(V1Campaign.self, try shop.api(.get, "/api/v1/campaigns/lamp-week"))
        #expect(detail.products?.isEmpty == false && detail.products?.allSatisfy { $0.handle != "shirt" } == true)
        #expect(try shop.api(.get, "/api/v1/campaigns/later").status == 404, "not running yet")
        #expect(try shop.api(.get, "/api/v1/campaigns/nope").status == 404)

        // A campaign starting changes the cached list.
        shop.clock.advance(by: 86_400)
        #expect(try decoded(V1Campaigns.self, try shop.api(.get, "/api/v1/campaigns")).campaigns.contains { $0.handle == "later" })
    }

    @Test func theAddressBookIsWrittenWithTheFormsRules() throws {
        let shop = try TestShop()
        let ana = try shop.apiAccount("ana@example.com")
        #expect(try decoded(V1AddressBook.self, try shop.api(.get, "/api/v1/addresses", token: ana.token)).addresses.isEmpty)

        let created = try shop.api(.post, "/api/v1/addresses", token: ana.token, json: #"{"address": \#(address)}"#)
        #expect(created.status == 201)
        let saved = try decoded(V1SavedAddress.self, created)
        #expect(created.header("Location") == "https://shop.test/api/v1/addresses/\(saved.id)")
        #expect(saved.address.city == "Springfield" && !saved.isDefault)

        let changed = try shop.api(.put, "/api/v1/addresses/\(saved.id)", token: ana.token,
                                   json: #"{"address": \#(address.replacingOccurrences(of: "Springfield", with: "Shelbyville")), "isDefault": true}"#)
        #expect(changed.status == 200)
        #expect(try decoded(V1SavedAddress.self, changed).address.city == "Shelbyville")
        let book = try decoded(V1AddressBook.self, try shop.api(.get, "/api/v1/addresses", token: ana.token)).addresses
        #expect(book.map(\.id) == [saved.id] && book[0].isDefault)

        let refused = try shop.api(.post, "/api/v1/addresses", token: ana.token,
                                   json: #"{"address": {"firstName": "Ana", "country": "XX", "phone": "12"}}"#)
        #expect(refused.status == 400)
        let detail = try decoded(V1CheckoutError.self, refused)
        #expect(detail.error.code == "invalid_address")
        #expect(detail.problems?.first { $0.field == "address.postalCode" }?.code == "missing")
        #expect(detail.problems?.first { $0.field == "address.country" }?.code == "unknown_country")
        #expect(try shop.api(.post, "/api/v1/addresses", token: ana.token, json: #"{"isDefault": true}"#).status == 400)

        #expect(try shop.api(.delete, "/api/v1/addresses/\(saved.id)", token: ana.token).status == 204)
        #expect(try shop.api(.delete, "/api/v1/addresses/\(saved.id)", token: ana.token).status == 404)
        #expect(try shop.api(.delete, "/api/v1/addresses/abc", token: ana.token).status == 400)
        #expect(try shop.api(.get, "/api/v1/addresses", token: nil).status == 401)
    }

    @Test func aShoppersTokenNeverReachesAnotherShoppersAddress() throws {
        let shop = try TestShop()
        let ana = try shop.apiAccount("ana@example.com")
        let bea = try shop.apiAccount("bea@example.com", name: "Bea Ruiz")
        let id = try decoded(V1SavedAddress.self, try shop.api(.post, "/api/v1/addresses", token: bea.token,
                                                                json: #"{"address": \#(address)}"#)).id

        let replaced = try shop.api(.put, "/api/v1/addresses/\(id)", token: ana.token, json: #"{"address": \#(address)}"#)
        #expect(replaced.status == 404)
        #expect(try decoded(APIErrorEnvelope.self, replaced).error.code == "address_not_found")
        // An invalid body does not tell the id exists: still 404, not the body's 400.
        for body in [#"{"address": {"country": "XX"}}"#, "{"] {
            let probed = try shop.api(.put, "/api/v1/addresses/\(id)", token: ana.token, json: body)
            #expect(try probed.status == 404 && decoded(APIErrorEnvelope.self, probed).error.code == "address_not_found")
        }
        #expect(try shop.api(.delete, "/api/v1/addresses/\(id)", token: ana.token).status == 404)
        #expect(try decoded(V1AddressBook.self, try shop.api(.get, "/api/v1/addresses", token: ana.token)).addresses.isEmpty)
        #expect(try decoded(V1AddressBook.self, try shop.api(.get, "/api/v1/addresses", token: bea.token)).addresses.map(\.id) == [id])
    }
}
